import { describe, expect, it, vi } from 'vitest';
import { SimClient, type ClientHandlers } from './client';
import { createFakeEngine } from '../test/fakeEngine';
import { costly, InProcessWorker, twoSources } from '../test/fakes';
import type { ToWorker } from './protocol';

/** A worker whose engine never answers the load of a scenario with id "hang" (busy for ever). */
class HangingWorker extends InProcessWorker {
  postMessage(msg: ToWorker) {
    if (msg.type === 'load' && JSON.parse(msg.scenario).id === 'hang') return;
    super.postMessage(msg);
  }
}

/** Timers fired by hand. */
function manualTimers() {
  const timers = new Map<number, () => void>();
  let n = 0;
  return {
    setTimer: (fn: () => void) => (timers.set(++n, fn), n),
    clearTimer: (id: unknown) => void timers.delete(id as number),
    fireAll: () => {
      const due = [...timers.values()];
      timers.clear();
      for (const fn of due) fn();
    },
    get pending() {
      return timers.size;
    },
  };
}

function setup(panicAtMs?: number) {
  const workers: InProcessWorker[] = [];
  const make = () => {
    // Only the first worker panics: the restarted one is healthy.
    const w = new InProcessWorker((host) =>
      costly(createFakeEngine({ eventsPerSample: 100, panicAtMs: workers.length === 1 ? panicAtMs : undefined }), host),
    );
    workers.push(w);
    return w;
  };
  const on = {
    ready: vi.fn(),
    loaded: vi.fn(),
    invalid: vi.fn(),
    samples: vi.fn(),
    status: vi.fn(),
    crashed: vi.fn(),
    error: vi.fn(),
    paramSet: vi.fn(),
  };
  const client = new SimClient(make, on);
  const pump = () => {
    for (let i = 0; i < 10; i++) workers[workers.length - 1].pump();
  };
  return { client, on, workers, pump };
}

const rows = (calls: unknown[][]) => calls.reduce((n, [data, width]) => n + (data as Float64Array).length / (width as number), 0);

describe('SimClient', () => {
  it('initialises the worker and forwards load and playback', () => {
    const { client, on, pump } = setup();
    client.load(twoSources());
    client.setSpeed('max');
    client.play();
    pump();
    expect(on.ready).toHaveBeenCalledWith('wasm', expect.any(String));
    expect(on.loaded).toHaveBeenCalledTimes(1);
    expect(rows(on.samples.mock.calls)).toBe(201);
    expect(on.status.mock.calls.at(-1)![0]).toMatchObject({ mode: 'done' });
  });

  it('drops samples and statuses of a superseded run', () => {
    const { client, on, workers, pump } = setup();
    client.load(twoSources());
    pump();
    client.runUntil(10);
    pump();
    client.reset();
    pump();
    expect(on.loaded).toHaveBeenCalledTimes(2);
    const w = workers[0];
    // Replay a stale message of run 1 after run 2 is current: it must be ignored.
    const stale = w.host.take('samples').find((m) => m.run === 1)!;
    const before = on.samples.mock.calls.length;
    w.onmessage!({ data: stale } as MessageEvent);
    expect(on.samples.mock.calls.length).toBe(before);
  });

  it('reports invalid scenarios without dropping the loaded one', () => {
    const { client, on, pump } = setup();
    client.load(twoSources());
    pump();
    client.load('{"version": 2}');
    pump();
    expect(on.invalid).toHaveBeenCalledTimes(1);
    expect(on.invalid.mock.calls[0][0][0].path).toBe('version');
    client.runUntil(5);
    pump();
    expect(on.status.mock.calls.at(-1)![0]).toMatchObject({ nowMs: 5 });
  });

  it('replaces a crashed worker, reloads the last good scenario and reports the crash', () => {
    const { client, on, workers, pump } = setup(20);
    client.load(twoSources());
    client.setSpeed('max');
    client.play();
    pump();
    expect(on.crashed).toHaveBeenCalledTimes(1);
    expect(on.crashed.mock.calls[0][0]).toMatch(/unreachable/);
    expect(workers).toHaveLength(2);
    expect(workers[0].terminated).toBe(true);
    expect(client.restarts).toBe(1);
    pump();
    expect(on.loaded).toHaveBeenCalledTimes(2); // the reload in the new worker
    client.play();
    pump();
    expect(on.status.mock.calls.at(-1)![0]).toMatchObject({ mode: 'done', nowMs: 100 });
  });

  it('forwards a live parameter change and its answer; a crash reload replays it', () => {
    const { client, on, workers, pump } = setup(60);
    client.load(twoSources());
    client.runUntil(20);
    pump();
    client.setParam('SW1', 'target_utilization', 0.5);
    pump();
    expect(on.paramSet).toHaveBeenCalledTimes(1);
    const answer = on.paramSet.mock.calls[0][0];
    expect(answer.change).toEqual({ at_ms: 20, node: 'SW1', param: 'target_utilization', value: 0.5 });
    expect(answer.problem).toBeNull();
    // The engine panics at 60 ms: the new worker must get the scenario with the change.
    client.setSpeed('max');
    client.play();
    pump();
    expect(on.crashed).toHaveBeenCalledTimes(1);
    pump();
    const reloaded = workers[1].host.take('loaded');
    expect(reloaded).toHaveLength(1);
    client.runUntil(100);
    pump();
    // The reloaded scenario holds the first change: the next one is recorded after it.
    client.setParam('SW1', 'target_utilization', 0.7);
    pump();
    const again = on.paramSet.mock.calls.at(-1)![0];
    expect(JSON.parse(again.scenario).changes).toEqual([
      { at_ms: 20, node: 'SW1', param: 'target_utilization', value: 0.5 },
      { at_ms: 100, node: 'SW1', param: 'target_utilization', value: 0.7 },
    ]);
  });

  it('knows whether a live change awaits its answer, and says when none does any more (a lost worker loses them)', () => {
    const { client, on, pump } = setup();
    const settled = vi.fn();
    Object.assign(on, { liveSettled: settled });
    client.setParam('SW1', 'target_utilization', 0.5); // nothing loaded yet: answered by an error
    expect(client.liveAwaited).toBe(true);
    pump();
    expect(on.error).toHaveBeenCalledWith('cannot setParam: no scenario loaded');
    expect(client.liveAwaited).toBe(false);
    expect(settled).toHaveBeenCalledTimes(1);
    client.load(twoSources());
    client.runUntil(20);
    pump();
    client.setParam('SW1', 'target_utilization', 0.6);
    client.setParam('SW1', 'target_utilization', 1.5); // refused: answered all the same
    expect(client.liveAwaited).toBe(true);
    pump();
    expect(on.paramSet).toHaveBeenCalledTimes(2);
    expect(client.liveAwaited).toBe(false);
    expect(settled).toHaveBeenCalledTimes(2); // once both are in
    // One sent to a worker that is then replaced is lost with it: none is awaited.
    client.setParam('SW1', 'target_utilization', 0.7);
    expect(client.liveAwaited).toBe(true);
    client.cancel();
    expect(client.liveAwaited).toBe(false);
    expect(settled).toHaveBeenCalledTimes(3);
  });

  it('says which live changes a crash lost (sent, not yet applied by the worker that went down)', () => {
    const { client, on, workers, pump } = setup();
    client.load(twoSources());
    client.runUntil(20);
    pump();
    client.setParam('SW1', 'target_utilization', 0.5);
    client.setParam('SW2', 'target_utilization', 0.6);
    // The worker fails before it reads them.
    workers[0].onerror!({ message: 'out of memory', preventDefault: () => {} } as ErrorEvent);
    pump();
    expect(on.crashed).toHaveBeenCalledTimes(1);
    expect(on.crashed.mock.calls[0][1]).toEqual([
      { node: 'SW1', param: 'target_utilization', value: 0.5 },
      { node: 'SW2', param: 'target_utilization', value: 0.6 },
    ]);
    expect(client.liveAwaited).toBe(false);
    expect(on.paramSet).not.toHaveBeenCalled();
  });

  /** A client over hanging workers (costly fake engines), watched with a 3 s answer timeout on manual timers. */
  function watchedClient<E extends Partial<ClientHandlers>>(on: E) {
    const workers: InProcessWorker[] = [];
    const timers = manualTimers();
    const client = new SimClient(
      () => {
        const w = new HangingWorker((host) => costly(createFakeEngine({ eventsPerSample: 100 }), host));
        workers.push(w);
        return w;
      },
      on,
      { answerTimeoutMs: 3000, setTimer: timers.setTimer, clearTimer: timers.clearTimer },
    );
    return { workers, timers, on, client };
  }

  // Issue 14: a 10,000-source scenario left the worker validating with no message; a worker
  // that does not answer within a few seconds must be restarted.
  it('issue 14: restarts a worker that does not answer a load in time, with the last good scenario', () => {
    const { workers, timers, on, client } = watchedClient({ loaded: vi.fn(), timedOut: vi.fn(), crashed: vi.fn() });
    const pump = () => {
      for (let i = 0; i < 10; i++) workers.at(-1)!.pump();
    };
    client.load(twoSources());
    pump();
    expect(on.loaded).toHaveBeenCalledTimes(1);
    expect(timers.pending).toBe(0); // answered: no watchdog left
    client.load(JSON.stringify({ ...JSON.parse(twoSources()), id: 'hang' }));
    pump();
    expect(on.loaded).toHaveBeenCalledTimes(1);
    timers.fireAll();
    expect(on.timedOut).toHaveBeenCalledWith(3000, []);
    expect(on.crashed).not.toHaveBeenCalled();
    expect(workers).toHaveLength(2);
    expect(workers[0].terminated).toBe(true);
    pump();
    expect(on.loaded).toHaveBeenCalledTimes(2); // the last good scenario, in the new worker
    expect(on.loaded.mock.calls[1][0].scenarioId).toBe('two-sources');
    expect(timers.pending).toBe(0);
  });

  it('the answer to an earlier load does not call off the watch of a later one', () => {
    const { workers, timers, on, client } = watchedClient({ loaded: vi.fn(), timedOut: vi.fn() });
    client.load(twoSources());
    client.load(JSON.stringify({ ...JSON.parse(twoSources()), id: 'hang' }));
    // The worker's start-up (fetching and compiling the wasm) does not count against the watch.
    expect(timers.pending).toBe(0);
    for (let i = 0; i < 10; i++) workers[0].pump();
    expect(on.loaded).toHaveBeenCalledTimes(1);
    expect(timers.pending).toBe(1); // still watching the second
    timers.fireAll();
    expect(on.timedOut).toHaveBeenCalledTimes(1);
    expect(workers).toHaveLength(2);
  });

  it('cancel stops the load on its way and reloads the last good scenario', () => {
    const workers: InProcessWorker[] = [];
    const on = { loaded: vi.fn() };
    const client = new SimClient(() => {
      const w = new HangingWorker((host) => costly(createFakeEngine({ eventsPerSample: 100 }), host));
      workers.push(w);
      return w;
    }, on);
    const pump = () => {
      for (let i = 0; i < 10; i++) workers.at(-1)!.pump();
    };
    client.load(twoSources());
    pump();
    client.load(JSON.stringify({ ...JSON.parse(twoSources()), id: 'hang' }));
    client.cancel();
    pump();
    expect(workers).toHaveLength(2);
    expect(on.loaded).toHaveBeenCalledTimes(2);
    expect(on.loaded.mock.calls[1][0].scenarioId).toBe('two-sources');
    client.dispose();
  });
});
