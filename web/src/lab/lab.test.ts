import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Lab } from './lab';
import type { Scenario } from '../contract/scenario';
import { deleteNode, moveNode } from '../scenario/topologyEdits';
import { labOnFakeEngine as setup } from '../test/fakeLab';
import type { EngineModule } from '../contract/engine';
import type { ToWorker } from '../engine/protocol';
import { createFakeEngine } from '../test/fakeEngine';
import { readFileSync } from 'node:fs';
import { costly, InProcessWorker, repoFile, twoSources } from '../test/fakes';
import { Lab as LabClass, type LabOptions, type SampleSink } from './lab';

let lab: Lab | null = null;
afterEach(() => lab?.dispose());

describe('Lab: undo history', () => {
  const withDuration = (s: Scenario, ms: number): Scenario => ({ ...s, run: { ...s.run, duration_ms: ms } });

  it('records an edit once the engine accepts it, and a refused edit not at all', () => {
    const t = setup();
    lab = t.lab;
    const loaded = t.lab.getState().current!.scenario;
    t.lab.switches.setBuffer('SW2', 1.5); // refused: a buffer is a whole number of cells
    t.pump();
    expect(t.lab.getState().switchFeedback!.fields.buffer_cells).toMatch(/whole number/);
    expect(t.lab.edits.history?.canUndo ?? false).toBe(false);

    t.lab.commitEdit(loaded, withDuration(loaded, -1), 'two-sources (edited)'); // refused
    t.pump();
    expect(t.lab.getState().problems).not.toBeNull();
    expect(t.lab.edits.history?.canUndo ?? false).toBe(false);

    t.lab.switches.setBuffer('SW2', 500);
    t.pump();
    const h = t.lab.edits.history!;
    expect(h.canUndo).toBe(true);
    expect(h.present.nodes.find((n) => n.id === 'SW2')!.buffer_cells).toBe(500);
    expect(h.undo()).toEqual(loaded);
    expect(h.canUndo).toBe(false);
  });

  it('edits made while another is on its way are recorded in order', () => {
    const t = setup();
    lab = t.lab;
    const loaded = t.lab.getState().current!.scenario;
    const first = withDuration(loaded, 300);
    const second = withDuration(first, 400);
    t.lab.commitEdit(loaded, first, 'two-sources (edited)');
    t.lab.commitEdit(first, second, 'two-sources (edited)'); // queued behind the first
    t.pump();
    expect(t.lab.getState().current!.scenario.run.duration_ms).toBe(400);
    const h = t.lab.edits.history!;
    expect(h.present).toEqual(second);
    expect(h.undo()).toEqual(first);
    expect(h.undo()).toEqual(loaded);
    expect(h.canUndo).toBe(false);
  });

  it('a move only redraws: the run goes on, undo moves it back, a live change keeps it', () => {
    const t = setup();
    lab = t.lab;
    t.lab.runUntil(30);
    t.pump();
    expect(t.loads()).toBe(1); // the scenario's own load (the count is cumulative)
    const loaded = t.lab.getState().current!.scenario;
    const moved = moveNode(loaded, 'S1', 12, 34);
    expect(t.lab.commitEdit(loaded, moved, 'two-sources (edited)')).toBe('redrawn');
    t.pump();
    expect(t.loads()).toBe(1);
    expect(t.lab.getState().status).toMatchObject({ nowMs: 30 });
    expect(t.lab.getState().current!.scenario.nodes[0]).toMatchObject({ id: 'S1', x: 12, y: 34 });
    expect(JSON.parse(t.lab.getState().current!.json).nodes[0]).toMatchObject({ x: 12, y: 34 });

    t.lab.switches.setParam('SW1', 'target_utilization', 0.6); // live: recorded, nothing reloaded
    t.pump();
    const doc = t.lab.getState().current!.scenario;
    expect(doc.changes).toHaveLength(1);
    expect(doc.nodes[0]).toMatchObject({ x: 12, y: 34 });

    // Undo, once the live change is in: the history restarts from the document with it.
    expect(t.lab.commitEdit(doc, moveNode(doc, 'S1', 50, 60), 'two-sources (edited)')).toBe('redrawn');
    const back = t.lab.travel('undo', 'two-sources (edited)');
    expect(back!.applied).toBe('redrawn');
    t.pump();
    expect(t.loads()).toBe(1);
    expect(t.lab.getState().current!.scenario.nodes[0]).toMatchObject({ x: 12, y: 34 });
    expect(t.lab.getState().status).toMatchObject({ nowMs: 30 });

    // Anything more than the drawing reloads.
    expect(t.lab.commitEdit(doc, withDuration(doc, 500), 'two-sources (edited)')).toBe('restarted');
    t.pump();
    expect(t.loads()).toBe(2);
  });

  /** A lab on a clock the test moves, and arrow-key moves of S1 150 ms apart (`nudge`). */
  function arrowRun() {
    const clock = { ms: 1_000_000 };
    const t = setup({ now: () => clock.ms });
    lab = t.lab;
    const loaded = t.lab.getState().current!.scenario;
    const run = { doc: loaded };
    const nudge = (dx: number) => {
      const s1 = run.doc.nodes.find((n) => n.id === 'S1')!;
      const next = moveNode(run.doc, 'S1', s1.x! + dx, s1.y!);
      const applied = t.lab.commitEdit(run.doc, next, 'two-sources (edited)', 'move:S1');
      run.doc = next;
      clock.ms += 150;
      return applied;
    };
    return { t, clock, loaded, run, nudge };
  }

  it('arrow-key moves of one node made without a pause are one undo step, on the lab clock', () => {
    const { t, clock, loaded, run, nudge } = arrowRun();
    for (let i = 0; i < 3; i++) expect(nudge(10)).toBe('redrawn');
    const afterThree = run.doc;
    clock.ms += 2000; // a pause: the next press is a step of its own
    expect(nudge(10)).toBe('redrawn');
    t.pump();
    const h = t.lab.edits.history!;
    expect(h.undo()).toEqual(afterThree);
    expect(h.undo()).toEqual(loaded);
    expect(h.canUndo).toBe(false);
  });

  it('an arrow run that comes back to where it started (Right, then Left) adds no undo step', () => {
    const { t, loaded, nudge } = arrowRun();
    nudge(10);
    nudge(-10);
    t.pump();
    expect(t.lab.edits.history!.canUndo).toBe(false);
    expect(t.lab.edits.history!.present).toEqual(loaded);
  });

  it('a side-panel edit made while an editor edit is on its way applies on top of it', () => {
    const t = setup();
    lab = t.lab;
    const loaded = t.lab.getState().current!.scenario;
    const first = withDuration(loaded, 300);
    t.lab.commitEdit(loaded, first, 'two-sources (edited)');
    t.lab.switches.setBuffer('SW2', 500); // queued behind the editor's edit
    expect(t.lab.travel('undo', 'two-sources (edited)')).toBeNull(); // no undo while loading
    t.pump();
    const now = t.lab.getState().current!.scenario;
    expect(now.run.duration_ms).toBe(300);
    expect(now.nodes.find((n) => n.id === 'SW2')!.buffer_cells).toBe(500);
    const h = t.lab.edits.history!;
    expect(h.undo()).toEqual(first);
    expect(h.undo()).toEqual(loaded);
  });

  it('an edit queued behind one the engine refuses is recorded against what is loaded', () => {
    const t = setup();
    lab = t.lab;
    const loaded = t.lab.getState().current!.scenario;
    const bad = withDuration(loaded, -1);
    const good = withDuration(bad, 400);
    t.lab.commitEdit(loaded, bad, 'two-sources (edited)');
    t.lab.commitEdit(bad, good, 'two-sources (edited)');
    t.pump();
    expect(t.lab.getState().current!.scenario.run.duration_ms).toBe(400);
    const h = t.lab.edits.history!;
    expect(h.undo()).toEqual(loaded);
    expect(h.canUndo).toBe(false);
  });

  /** The rows the lab gives the charts, as a chart store keeps them: C1's value at a time (the
   *  fake engine's follows the switches' target_utilization). */
  function chartRows() {
    let rows: number[][] = [];
    const sink: SampleSink = {
      reset: () => (rows = []),
      append(data, width) {
        for (let i = 0; i + width <= data.length; i += width) rows.push([...data.subarray(i, i + width)]);
      },
      truncateFrom: (ms) => (rows = rows.filter((r) => r[0] < ms)),
    };
    return { sink, c1At: (ms: number) => rows.find((r) => r[0] === ms)?.[1] };
  }

  it('a live change is an undo step: undo brings back the recorded change it replaced and rebuilds the run to its time, redo the live change', () => {
    const charts = chartRows();
    const t = setup({ samples: charts.sink });
    lab = t.lab;
    const origin = 'two-sources (edited)';
    const loaded = t.lab.getState().current!.scenario;
    const recorded = [
      { at_ms: 50, node: 'SW1', param: 'target_utilization', value: 0.95 },
      { at_ms: 60, node: 'SW1', param: 'delta', value: 0.2 },
    ];
    const before = { ...withDuration(loaded, 200), changes: recorded };
    t.lab.commitEdit(loaded, before, origin); // a network edit, in the same history
    t.pump();
    t.lab.runUntil(70);
    t.pump();
    t.lab.scrub(30); // back in time, the recording kept: the live change replaces the one at 50 ms
    t.pump();
    t.lab.switches.setParam('SW1', 'target_utilization', 0.6);
    t.pump();
    const liveChanges = [recorded[1], { at_ms: 30, node: 'SW1', param: 'target_utilization', value: 0.6 }];
    expect(t.lab.getState().current!.scenario.changes).toEqual(liveChanges);
    expect(t.lab.getState().switchFeedback!.note).toMatch(/replaces the change of target_utilization recorded for later \(at 50\.00 ms → 0\.95\)\. Undo/);
    // A move after it is a step of its own: the note's Undo would undo that, so the note goes.
    const moved = moveNode(t.lab.getState().current!.scenario, 'S1', 5, 5);
    expect(t.lab.commitEdit(t.lab.getState().current!.scenario, moved, origin)).toBe('redrawn');
    expect(t.lab.getState().switchFeedback).toBeNull();
    t.lab.travel('undo', origin);
    t.lab.runUntil(80);
    t.pump();
    const loads = t.loads();
    const c1 = charts.c1At(20)!; // both switches at 0.9 until the first change
    expect(charts.c1At(55)).toBeCloseTo((c1 * 0.6) / 0.9, 9);

    expect(t.lab.travel('undo', origin)).toMatchObject({ applied: 'restarted' });
    t.pump();
    let st = t.lab.getState();
    expect(st.current!.scenario.changes).toEqual(recorded);
    expect(st.current!.scenario).toEqual(before);
    // The run is rebuilt for the scenario it now holds, paused at the time it was at.
    expect(t.loads()).toBe(loads + 1);
    expect(st.status).toMatchObject({ mode: 'paused', nowMs: 80 });
    expect(charts.c1At(40)).toBeCloseTo(c1, 9);
    expect(charts.c1At(55)).toBeCloseTo((c1 * 0.95) / 0.9, 9);
    expect(st.switchFeedback).toMatchObject({
      node: 'SW1',
      note:
        "Undone: SW1's target_utilization = 0.6 from 30.00 ms on. The change of target_utilization it replaced is back " +
        '(at 50.00 ms → 0.95). The run was replayed without it to t = 80.00 ms.',
    });
    expect(st.travelled!.text).toBe(st.switchFeedback!.note);

    expect(t.lab.travel('redo', origin)).toMatchObject({ applied: 'restarted' });
    t.pump();
    st = t.lab.getState();
    expect(st.current!.scenario.changes).toEqual(liveChanges);
    expect(st.status).toMatchObject({ mode: 'paused', nowMs: 80 });
    expect(charts.c1At(55)).toBeCloseTo((c1 * 0.6) / 0.9, 9);
    expect(st.switchFeedback!.note).toMatch(/^Redone: SW1's target_utilization = 0\.6 from 30\.00 ms on\. It replaces again/);

    // Two undos back, the network edit's undo restarts the run at t = 0, as it always did.
    t.lab.travel('undo', origin);
    t.pump();
    t.lab.travel('undo', origin);
    t.pump();
    st = t.lab.getState();
    expect(st.current!.scenario).toEqual(loaded);
    expect(st.status).toMatchObject({ nowMs: 0 });
    expect(st.travelled!.text).toBe('Undone: the run restarted at t = 0.');
    expect(t.lab.edits.history!.canUndo).toBe(false);
  });

  it("an editor edit that touches only the recorded changes is undone as an edit (the run restarts), not taken for a live change", () => {
    const t = setup();
    lab = t.lab;
    const origin = 'two-sources (edited)';
    const loaded = t.lab.getState().current!.scenario;
    const changed = { ...loaded, changes: [{ at_ms: 50, node: 'SW1', param: 'target_utilization', value: 0.95 }] };
    expect(t.lab.commitEdit(loaded, changed, origin)).toBe('restarted');
    t.pump();
    t.lab.runUntil(40);
    t.pump();
    expect(t.lab.travel('undo', origin)).toMatchObject({ applied: 'restarted' });
    t.pump();
    const st = t.lab.getState();
    expect(st.current!.scenario).toEqual(loaded);
    expect(st.travelled!.text).toBe('Undone: the run restarted at t = 0.');
    expect(st.status?.nowMs ?? 0).toBe(0);
    t.lab.travel('redo', origin);
    t.pump();
    expect(t.lab.getState().travelled!.text).toBe('Redone: the run restarted at t = 0.');
  });

  it('forgetting the recorded changes is an undo step: undo brings them back into the run at its time, redo forgets them again, the history stays', () => {
    const charts = chartRows();
    const t = setup({ samples: charts.sink });
    lab = t.lab;
    const origin = 'two-sources (edited)';
    const loaded = t.lab.getState().current!.scenario;
    const recorded = [
      { at_ms: 20, node: 'SW1', param: 'target_utilization', value: 0.6 },
      { at_ms: 60, node: 'SW1', param: 'delta', value: 0.2 },
    ];
    const withChanges = { ...withDuration(loaded, 200), changes: recorded };
    t.lab.commitEdit(loaded, withChanges, origin); // an earlier step, which stays
    t.pump();
    t.lab.runUntil(70);
    t.pump();
    const c1 = charts.c1At(10)!;
    t.lab.switches.clearChanges('SW1');
    t.pump();
    let st = t.lab.getState();
    expect(st.current!.scenario.changes).toBeUndefined();
    expect(st.status).toMatchObject({ nowMs: 0 }); // the button says it restarts the run
    expect(st.switchFeedback).toMatchObject({ at: 'changes', note: 'Forgot the 2 recorded changes; the run restarted at t = 0. Undo (Ctrl+Z) brings them back.' });
    expect(t.lab.edits.history!.canUndo).toBe(true);
    t.lab.runUntil(40);
    t.pump();
    expect(charts.c1At(30)).toBeCloseTo(c1, 9);

    expect(t.lab.travel('undo', origin)).toMatchObject({ applied: 'restarted' });
    t.pump();
    st = t.lab.getState();
    expect(st.current!.scenario).toEqual(withChanges);
    // Rebuilt with them, paused where the run was.
    expect(st.status).toMatchObject({ mode: 'paused', nowMs: 40 });
    expect(charts.c1At(30)).toBeCloseTo((c1 * 0.6) / 0.9, 9);
    expect(st.switchFeedback).toMatchObject({
      at: 'changes',
      note:
        'Undone: forgetting the recorded changes. The 2 recorded changes are back (at 20.00 ms: SW1 target_utilization → 0.6; ' +
        'at 60.00 ms: SW1 delta → 0.2). The run was replayed with them to t = 40.00 ms.',
    });
    expect(st.travelled!.text).toBe(st.switchFeedback!.note);

    expect(t.lab.travel('redo', origin)).toMatchObject({ applied: 'restarted' });
    t.pump();
    st = t.lab.getState();
    expect(st.current!.scenario.changes).toBeUndefined();
    expect(st.status).toMatchObject({ mode: 'paused', nowMs: 40 });
    expect(charts.c1At(30)).toBeCloseTo(c1, 9);
    expect(st.switchFeedback!.note).toMatch(/^Redone: the 2 recorded changes forgotten again \(.*\)\. The run was replayed without them to t = 40\.00 ms\.$/);

    // Back past it, the network edit before it is still there to undo.
    t.lab.travel('undo', origin);
    t.pump();
    t.lab.travel('undo', origin);
    t.pump();
    expect(t.lab.getState().current!.scenario).toEqual(loaded);
    expect(t.lab.edits.history!.canUndo).toBe(false);
  });

  it('an undo made while the run is still replaying to the time of the last one keeps that time', () => {
    // A worker that holds the lab's "run until" (the replay) until told to let it go.
    let worker!: InProcessWorker;
    let holding = false;
    const held: ToWorker[] = [];
    class HoldingWorker extends InProcessWorker {
      postMessage(msg: ToWorker) {
        if (holding && msg.type === 'runUntil') held.push(msg);
        else super.postMessage(msg);
      }
    }
    lab = new LabClass(() => (worker = new HoldingWorker((host) => costly(createFakeEngine({ eventsPerSample: 100 }), host))));
    const pump = () => {
      for (let i = 0; i < 10; i++) worker.pump();
    };
    const origin = 'two-sources (edited)';
    lab.load(twoSources(), 'two-sources');
    pump();
    lab.runUntil(20);
    pump();
    lab.switches.setParam('SW1', 'target_utilization', 0.6);
    pump();
    lab.runUntil(30);
    pump();
    lab.switches.setParam('SW1', 'target_utilization', 0.7);
    pump();
    lab.runUntil(45);
    pump();
    holding = true;
    lab.travel('undo', origin);
    pump();
    expect(held).toEqual([{ type: 'runUntil', ms: 45 }]);
    expect(lab.getState().status).toMatchObject({ nowMs: 0 }); // the replay has not gone on yet
    lab.travel('undo', origin);
    pump();
    expect(lab.getState().travelled!.text).toMatch(/The run was replayed without it to t = 45\.00 ms\.$/);
    expect(held.at(-1)).toEqual({ type: 'runUntil', ms: 45 });
    holding = false;
    for (const msg of held.splice(0)) worker.postMessage(msg);
    pump();
    expect(lab.getState().current!.scenario.changes ?? []).toEqual([]);
    expect(lab.getState().status).toMatchObject({ mode: 'paused', nowMs: 45 });
    // Once the user moves the run, its time is where it is.
    lab.scrub(10);
    pump();
    lab.travel('redo', origin);
    pump();
    expect(lab.getState().travelled!.text).toMatch(/to t = 10\.00 ms\.$/);
    expect(lab.getState().status).toMatchObject({ mode: 'paused', nowMs: 10 });
  });

  it('an editor edit made before the engine confirms a live change goes on top of it: the change is kept, run and undo', () => {
    const charts = chartRows();
    const t = setup({ samples: charts.sink });
    lab = t.lab;
    const origin = 'two-sources (edited)';
    t.lab.runUntil(30);
    t.pump();
    const loaded = t.lab.getState().current!.scenario;
    const live = { at_ms: 30, node: 'SW1', param: 'target_utilization', value: 0.6 };
    // Sent to the engine, not confirmed yet: the editor's document does not have it.
    t.lab.switches.setParam('SW1', 'target_utilization', 0.6);
    expect(t.lab.travel('undo', origin)).toBeNull(); // nothing to undo yet, and no undo past it
    t.lab.commitEdit(loaded, withDuration(loaded, 300), origin);
    t.pump();
    const st = t.lab.getState();
    expect(st.current!.scenario.run.duration_ms).toBe(300);
    expect(st.current!.scenario.changes).toEqual([live]);
    expect(JSON.parse(st.current!.json).changes).toEqual([live]);
    // The engine runs it too: the edit restarted the run, and the change replays at its time.
    t.lab.runUntil(40);
    t.pump();
    const c1 = charts.c1At(20)!;
    expect(charts.c1At(35)).toBeCloseTo((c1 * 0.6) / 0.9, 9);
    // Two steps: the edit, then the live change before it.
    const h = t.lab.edits.history!;
    expect(h.undo()).toEqual({ ...loaded, changes: [live] });
    expect(h.undo()).toEqual(loaded);
  });

  it('a switch setting changed before the engine confirms a live change goes on top of it', () => {
    const t = setup();
    lab = t.lab;
    t.lab.runUntil(30);
    t.pump();
    t.lab.switches.setParam('SW1', 'target_utilization', 0.6);
    t.lab.switches.setBuffer('SW2', 500);
    t.pump();
    const s = t.lab.getState().current!.scenario;
    expect(s.nodes.find((n) => n.id === 'SW2')!.buffer_cells).toBe(500);
    expect(s.changes).toEqual([{ at_ms: 30, node: 'SW1', param: 'target_utilization', value: 0.6 }]);
  });

  it('a switch deleted before the engine confirms a live change of it takes the change with it, as it does its recorded ones', () => {
    const t = setup();
    lab = t.lab;
    t.lab.runUntil(30);
    t.pump();
    const loaded = t.lab.getState().current!.scenario;
    t.lab.switches.setParam('SW1', 'target_utilization', 0.6);
    t.lab.switches.setParam('SW2', 'target_utilization', 0.7);
    t.lab.commitEdit(loaded, deleteNode(loaded, 'SW2'), 'two-sources (edited)');
    t.pump();
    const s = t.lab.getState().current!.scenario;
    expect(s.nodes.some((n) => n.id === 'SW2')).toBe(false);
    expect(s.changes).toEqual([{ at_ms: 30, node: 'SW1', param: 'target_utilization', value: 0.6 }]);
    expect(t.lab.edits.history!.undo().changes).toHaveLength(2); // undo brings it back
  });

  it("a reset's restart is not taken for the answer to an edit sent just after it", () => {
    const t = setup();
    lab = t.lab;
    const loaded = t.lab.getState().current!.scenario;
    t.lab.reset(); // its "loaded" comes back after the edit below has gone out
    t.lab.commitEdit(loaded, withDuration(loaded, -1), 'two-sources (edited)'); // refused
    t.pump();
    expect(t.lab.getState().current!.scenario).toEqual(loaded);
    expect(t.lab.getState().problems).not.toBeNull();
    expect(t.lab.edits.history?.canUndo ?? false).toBe(false);
  });
});

describe('Lab: nothing crashes (issue 14)', () => {
  class HangingWorker extends InProcessWorker {
    postMessage(msg: ToWorker) {
      if (msg.type === 'load' && JSON.parse(msg.scenario).id === 'hang') return;
      super.postMessage(msg);
    }
  }

  function on(makeEngine: (n: number) => EngineModule, opts: LabOptions = {}) {
    const workers: InProcessWorker[] = [];
    const l = new LabClass(() => {
      const n = workers.length;
      const w = new HangingWorker((host) => costly(makeEngine(n), host));
      workers.push(w);
      return w;
    }, opts);
    lab = l;
    const pump = () => {
      for (let i = 0; i < 10; i++) workers.at(-1)!.pump();
    };
    l.load(twoSources(), 'two-sources');
    pump();
    return { lab: l, pump, workers };
  }

  // Issue 14: importing a file that holds only `null` threw an uncaught TypeError.
  it('issue 14: a file holding only null, or no JSON, is refused with a message; the scenario open stays', () => {
    const t = on(() => createFakeEngine({}));
    for (const [text, rule] of [
      ['null', /holds only null, not a scenario object/],
      ['[]', /holds an array/],
      ['{"version": 1', /not valid JSON/],
    ] as const) {
      expect(() => t.lab.open(text, 'bad.json')).not.toThrow();
      t.pump();
      expect(t.lab.getState().problems).toMatchObject({ origin: 'bad.json', problems: [{ path: '', rule: expect.stringMatching(rule) }] });
      expect(t.lab.getState().current?.id).toBe('two-sources');
    }
  });

  // The engine read `"run": [10]` by position as `{ "duration_ms": 10 }`, and named only the
  // first problem of a recorded change: the import shows what the engine says, field by field.
  it('a file the engine refuses shows each of its problems at its field; the scenario open stays', async () => {
    const { WASM_INTERACTIVE } = await import('../test/wasmEngine');
    const t = on(() => WASM_INTERACTIVE);
    const listed = { ...JSON.parse(twoSources()), run: [10] };
    const changes = {
      ...JSON.parse(twoSources()),
      changes: [{ at_ms: -5, node: 'SW9', param: 'target_utilization', value: 0.9 }],
    };
    const mixed = JSON.parse(twoSources());
    mixed.links[0].rate_mbps = 'fast';
    mixed.colour = 'red';
    mixed.changes = [{ at_ms: 5, node: 'SW9', param: 'target_utilization', value: 0.9 }];
    for (const [doc, problems] of [
      [
        listed,
        [
          { path: 'run', rule: expect.stringMatching(/^must be an object \{ "duration_ms": … \}, not a list/) },
          { path: '', rule: 'ranges and references are checked once the problems above are mended' },
        ],
      ],
      // A problem of shape hides none of the others; all come in the file's order (colour
      // and changes were added after links).
      [
        mixed,
        [
          { path: 'links[0].rate_mbps', rule: 'must be a number, not the text "fast"' },
          { path: 'colour', rule: expect.stringMatching(/^unknown field "colour" \(the fields here: version, id, /) },
          { path: 'changes[0].node', rule: "no node has id 'SW9'" },
        ],
      ],
      [
        changes,
        [
          { path: 'changes[0].at_ms', rule: expect.stringContaining('must be within the run') },
          { path: 'changes[0].node', rule: "no node has id 'SW9'" },
        ],
      ],
    ] as const) {
      t.lab.open(JSON.stringify(doc), 'bad.json');
      t.pump();
      expect(t.lab.getState().problems).toMatchObject({ origin: 'bad.json', problems });
      expect(t.lab.getState().current?.id).toBe('two-sources');
    }
  });

  // One rule with abrsim: a sweep block's problems never stop the scenario; they are said.
  it('a scenario whose sweep block has problems runs, and the notice names each problem once', async () => {
    const { WASM_INTERACTIVE } = await import('../test/wasmEngine');
    const t = on(() => WASM_INTERACTIVE);
    const base = JSON.parse(twoSources()) as Scenario;
    const swept = { ...base, id: 'swept', sweep: { vary: [{ paths: ['run.duration_ms'], values: [20, -1] }] } };
    t.lab.open(JSON.stringify(swept), 'swept.json');
    t.pump();
    expect(t.lab.getState().current?.id).toBe('swept');
    expect(t.lab.getState().problems).toBeNull();
    const notice = t.lab.getState().notice!;
    expect(notice.text).toMatch(/runs, but its sweep block has a problem: the Sweep tab refuses it/);
    expect(notice.problems).toEqual([expect.objectContaining({ path: 'sweep.vary[0].values[1]', rule: expect.stringMatching(/-1 makes the scenario invalid/) })]);
    // An edit that leaves the block as broken as it was says nothing more.
    t.lab.dismissNotice();
    const loaded = t.lab.getState().current!.scenario;
    expect(t.lab.commitEdit(loaded, { ...loaded, run: { ...loaded.run, duration_ms: 300 } }, 'swept (edited)')).toBe('restarted');
    t.pump();
    expect(t.lab.getState().current!.scenario.run.duration_ms).toBe(300);
    expect(t.lab.getState().notice).toBeNull();
    // Mended, then broken again by an edit: said again.
    const edited = t.lab.getState().current!.scenario;
    const mended = { ...edited, sweep: { vary: [{ paths: ['run.duration_ms'], values: [20, 40] }] } };
    t.lab.commitEdit(edited, mended, 'swept (edited)');
    t.pump();
    expect(t.lab.getState().notice).toBeNull();
    t.lab.commitEdit(mended, { ...mended, sweep: { vary: [{ paths: ['run.duration_ms'], values: [0] }] } }, 'swept (edited)');
    t.pump();
    expect(t.lab.getState().notice?.problems?.[0]).toMatchObject({ path: 'sweep.vary[0].values[0]' });
    // A scenario without a sweep block: nothing to say.
    t.lab.dismissNotice();
    t.lab.open(twoSources(), 'plain.json');
    t.pump();
    expect(t.lab.getState().notice).toBeNull();
  });

  it('issue 14: a load that takes long is shown with what it is, and can be cancelled', async () => {
    const t = on(() => createFakeEngine({}), { loadingAfterMs: 0 });
    const slow = { ...JSON.parse(twoSources()), id: 'hang', name: 'Huge network' };
    t.lab.open(JSON.stringify(slow), 'huge.json');
    t.pump();
    await new Promise((r) => setTimeout(r, 5));
    expect(t.lab.getState().loading).toEqual({ name: 'Huge network', connections: 2, queued: 0 });
    t.lab.cancelLoad();
    t.pump();
    expect(t.workers).toHaveLength(2);
    expect(t.lab.getState().loading).toBeNull();
    expect(t.lab.getState().notice?.text).toMatch(/Stopped loading “Huge network”\. “.+” is still open\./);
    expect(t.lab.getState().current?.id).toBe('two-sources');
    // The engine is usable: another pick goes through.
    t.lab.openLibrary({ id: 'other', json: JSON.stringify({ ...JSON.parse(twoSources()), id: 'other' }) });
    t.pump();
    expect(t.lab.getState().current?.id).toBe('other');
  });

  it('issue 14: picking another scenario while one takes long replaces it', async () => {
    const t = on(() => createFakeEngine({}), { loadingAfterMs: 0 });
    t.lab.open(JSON.stringify({ ...JSON.parse(twoSources()), id: 'hang' }), 'huge.json');
    t.pump();
    await new Promise((r) => setTimeout(r, 5));
    expect(t.lab.getState().loading).not.toBeNull();
    t.lab.openLibrary({ id: 'other', json: JSON.stringify({ ...JSON.parse(twoSources()), id: 'other' }) });
    t.pump();
    expect(t.lab.getState().current?.id).toBe('other');
    expect(t.lab.getState().loading).toBeNull();
  });

  // Issue 14: after a wasm panic the user saw the raw panic text.
  it('issue 14: a panic is told in words (what happened, what was kept); the raw text is only in the details', () => {
    const t = on((n) => createFakeEngine({ eventsPerSample: 100, panicAtMs: n === 0 ? 20 : undefined }));
    t.lab.runUntil(10);
    t.pump();
    t.lab.switches.setParam('SW1', 'target_utilization', 0.7);
    t.pump();
    t.lab.setSpeed('max');
    t.lab.play();
    t.pump();
    const notice = t.lab.getState().notice!;
    expect(notice.text).toMatch(/^The simulation engine stopped on an internal error/);
    expect(notice.text).toMatch(/reloaded at t = 0 with its 1 recorded change\. Your scenarios and your changes are kept\./);
    expect(notice.text).not.toMatch(/unreachable|RuntimeError/);
    expect(notice.details).toMatch(/RuntimeError: unreachable/);
    expect(t.lab.getState().current?.scenario.changes).toHaveLength(1);
  });

  it('a live change the engine had not applied when it failed is named in the notice, not said to be kept', () => {
    const t = on(() => createFakeEngine({ eventsPerSample: 100 }));
    t.lab.runUntil(10);
    t.pump();
    t.lab.switches.setParam('SW1', 'target_utilization', 0.7);
    // The worker fails before it reads the change.
    t.workers[0].onerror!({ message: 'out of memory', preventDefault: () => {} } as ErrorEvent);
    t.pump();
    const notice = t.lab.getState().notice!;
    expect(notice.text).toMatch(/The change you had just made \(target_utilization = 0\.7 at SW1\) had not reached the run and was not applied: make it again/);
    expect(notice.text).not.toMatch(/your changes are kept/);
    expect(t.lab.getState().current?.scenario.changes ?? []).toHaveLength(0);
    // Nothing waits for it: an edit goes through.
    expect(t.lab.rename('Renamed')).toMatchObject({ ok: true });
    t.pump();
    expect(t.lab.getState().current?.scenario.name).toBe('Renamed');
  });
});

describe('Lab: playback speed (issue 12)', () => {
  const withDuration = (json: string, ms: number) => {
    const s = JSON.parse(json) as Scenario;
    return JSON.stringify({ ...s, run: { ...s.run, duration_ms: ms } });
  };

  it("a scenario opens at the speed that plays it in about 20 s, a link's speed wins, and an edit keeps the user's choice", () => {
    const t = setup();
    lab = t.lab;
    // two-sources lasts 100 ms: 0.005× plays it in 20 s.
    expect(t.lab.getState().current!.scenario.run.duration_ms).toBe(100);
    expect(t.lab.getState().speed).toBe(0.005);
    t.lab.open(withDuration(twoSources(), 15_000), 'long.json');
    t.pump();
    expect(t.lab.getState().speed).toBe(1);
    t.lab.open(twoSources(), 'shared link', undefined, 'replace', 0.1);
    t.pump();
    expect(t.lab.getState().speed).toBe(0.1);
    // The user picks a speed; an edit (a new duration) and its undo keep it.
    t.lab.setSpeed('max');
    const loaded = t.lab.getState().current!.scenario;
    t.lab.commitEdit(loaded, { ...loaded, run: { ...loaded.run, duration_ms: 15_000 } }, 'two-sources (edited)');
    t.pump();
    expect(t.lab.getState().current!.scenario.run.duration_ms).toBe(15_000);
    expect(t.lab.getState().speed).toBe('max');
    // The worker plays at what the lab shows.
    t.lab.togglePlay();
    t.pump();
    expect(t.lab.getState().status?.speed).toBe('max');
  });

  it('a refused scenario leaves the speed as it was', () => {
    const t = setup();
    lab = t.lab;
    t.lab.setSpeed(2);
    t.lab.open(withDuration(twoSources(), -1), 'bad.json');
    t.pump();
    expect(t.lab.getState().problems).not.toBeNull();
    expect(t.lab.getState().speed).toBe(2);
  });
});

describe('Lab: going back in time', () => {
  it('drops the rows and the summary from the time it goes back to, and gets them again playing on', async () => {
    const { SampleStore } = await import('../charts/sampleStore');
    const store = new SampleStore();
    let worker!: InProcessWorker;
    lab = new LabClass(
      () => (worker = new InProcessWorker((host) => costly(createFakeEngine({ eventsPerSample: 100 }), host))),
      { samples: store },
    );
    const pump = () => {
      for (let i = 0; i < 10; i++) worker.pump();
    };
    lab.load(twoSources(), 'two-sources');
    pump();
    lab.runUntil(100);
    pump();
    const digest = lab.getState().digest;
    expect(digest).not.toBeNull();
    const before = [...store.series(0)];
    expect(store.length).toBe(201);

    lab.scrub(30);
    pump();
    expect(lab.getState().status).toMatchObject({ mode: 'paused', nowMs: 30 });
    expect(lab.getState().summary).toBeNull();
    expect(lab.getState().digest).toBeNull();
    expect(store.length).toBe(61); // 0, 0.5, … 30 ms
    expect(store.times()[60]).toBe(30);

    lab.runUntil(100);
    pump();
    expect(lab.getState().digest).toBe(digest);
    expect([...store.series(0)]).toEqual(before);
  });
});

describe('Lab: a lesson with steps (issue 12)', () => {
  const withSteps = (json: string, times: number[]) =>
    JSON.stringify({ ...JSON.parse(json), lesson: { text: 'Watch.', steps: times.map((at_ms) => ({ at_ms, prompt: `at ${at_ms}` })) } });

  it('playing pauses at each step ahead of the run, unless the stops are turned off or the speed is max', () => {
    const t = setup();
    lab = t.lab;
    t.lab.open(withSteps(twoSources(), [0, 30, 60]), 'steps.json');
    t.pump();
    t.lab.setSpeed(1);
    t.lab.play();
    t.pump();
    expect(t.lab.getState().status).toMatchObject({ mode: 'paused', nowMs: 30 });
    t.lab.togglePlay();
    t.pump();
    expect(t.lab.getState().status).toMatchObject({ mode: 'paused', nowMs: 60 });
    t.lab.play();
    t.pump();
    expect(t.lab.getState().status).toMatchObject({ mode: 'done', nowMs: 100 });
    // From the end, Space starts over and stops at the first step again.
    t.lab.togglePlay();
    t.pump();
    expect(t.lab.getState().status).toMatchObject({ mode: 'paused', nowMs: 30 });
    t.lab.setLessonStops(false);
    t.lab.play();
    t.pump();
    expect(t.lab.getState().status).toMatchObject({ mode: 'done', nowMs: 100 });
    t.lab.setLessonStops(true);
    t.lab.setSpeed('max');
    t.lab.togglePlay();
    t.pump();
    expect(t.lab.getState().status).toMatchObject({ mode: 'done', nowMs: 100 });
  });
});

// The engine's notes on a valid scenario (validate::notes) are the lab's as soon as it loads,
// not only in the summary at the run's end; an edit that ends one ends it, one that makes one
// makes it. The real engine: the fake has no model to note anything of.
describe("Lab: the scenario's notes before a run", () => {
  async function onWasm() {
    const { WASM_INTERACTIVE } = await import('../test/wasmEngine');
    let worker!: InProcessWorker;
    const l = new LabClass(() => (worker = new InProcessWorker((host) => costly(WASM_INTERACTIVE, host))));
    lab = l;
    const pump = () => {
      for (let i = 0; i < 10; i++) worker.pump();
    };
    return { lab: l, pump };
  }
  const qcnHotspot = () => JSON.parse(readFileSync(repoFile('scenarios/qcn-hotspot.json'), 'utf8')) as Scenario;
  const deadTag = /^defaults\.source\.tag_interval_us: changes nothing, as no flow sends tags/;

  it('a tag_interval_us that changes nothing is noted at load, paused at t = 0, and goes when the field goes', async () => {
    const t = await onWasm();
    const base = qcnHotspot();
    expect(base.defaults?.source?.tag_interval_us).toBeUndefined();
    t.lab.open(JSON.stringify({ ...base, defaults: { ...base.defaults, source: { ...base.defaults?.source, tag_interval_us: 500 } } }), 'dead-tag.json');
    t.pump();
    const s = t.lab.getState();
    expect(s.current?.id).toBe('qcn-hotspot');
    expect(s.scenarioNotes).toEqual([expect.stringMatching(deadTag)]);
    // Said, not refused: nothing else stops the run.
    expect(s.problems).toBeNull();
    expect(s.notice).toBeNull();
    expect(s.status).toMatchObject({ mode: 'paused', nowMs: 0 });
    // A reset says the same (the very list: nothing to render again).
    const notes = s.scenarioNotes;
    t.lab.reset();
    t.pump();
    expect(t.lab.getState().scenarioNotes).toBe(notes);
    // The editor takes the field away: the note goes with the reload.
    const loaded = t.lab.getState().current!.scenario;
    const { tag_interval_us: _, ...source } = loaded.defaults!.source!;
    expect(t.lab.commitEdit(loaded, { ...loaded, defaults: { ...loaded.defaults, source } }, 'qcn-hotspot (edited)')).toBe('restarted');
    t.pump();
    expect(t.lab.getState().current!.scenario.defaults?.source?.tag_interval_us).toBeUndefined();
    expect(t.lab.getState().scenarioNotes).toEqual([]);
  });

  it("a switch given binary feedback over RIF = 1 sources is noted in the engine's words, and not once it runs ERICA again", async () => {
    const t = await onWasm();
    t.lab.load(twoSources(), 'two-sources');
    t.pump();
    expect(t.lab.getState().scenarioNotes).toEqual([]);
    t.lab.switches.setAlgorithm('SW1', 'efci');
    t.pump();
    expect(t.lab.getState().scenarioNotes).toEqual([expect.stringMatching(/^binary feedback at SW1 with RIF = 1: .*defaults\.source\.rif = 0\.0625/)]);
    t.lab.switches.setAlgorithm('SW1', 'erica');
    t.pump();
    expect(t.lab.getState().scenarioNotes).toEqual([]);
  });
});

// QA: an edit the engine did not answer within the watchdog's time (a large network) was
// dropped with the engine, and the message said "Nothing of yours was lost".
describe('Lab: a change lost with the engine is said to be lost', () => {
  const withDuration = (s: Scenario, ms: number): Scenario => ({ ...s, run: { ...s.run, duration_ms: ms } });

  it('an edit the engine did not answer in time: the message says it was not made', async () => {
    let worker!: InProcessWorker;
    const l = new LabClass(() => (worker = new InProcessWorker((host) => costly(createFakeEngine({}), host))), { answerTimeoutMs: 100 });
    lab = l;
    l.load(twoSources(), 'two-sources');
    worker.pump();
    const loaded = l.getState().current!.scenario;
    l.commitEdit(loaded, withDuration(loaded, 300), 'two-sources (edited)'); // never answered
    await new Promise((r) => setTimeout(r, 250));
    worker.pump();
    const text = l.getState().notice!.text;
    expect(text).toMatch(/Your change to “Two sources” was not made: the engine had not taken it after 0\.1 s, so it was stopped and restarted\./);
    expect(text).not.toMatch(/Nothing of yours was lost/);
    expect(l.getState().current!.scenario.run.duration_ms).toBe(loaded.run.duration_ms);
  });

  it('a library scenario that did not load in time: nothing of the user was lost', async () => {
    let worker!: InProcessWorker;
    const l = new LabClass(() => (worker = new InProcessWorker((host) => costly(createFakeEngine({}), host))), { answerTimeoutMs: 100 });
    lab = l;
    l.load(twoSources(), 'two-sources');
    worker.pump();
    l.load(twoSources(), 'again', 'push'); // never answered
    await new Promise((r) => setTimeout(r, 250));
    worker.pump();
    expect(l.getState().notice!.text).toMatch(/was still loading after 0\.1 s, so the engine was stopped and restarted\..*Nothing of yours was lost/);
  });
});

describe('Lab: settled (what Share and Export wait for)', () => {
  const withDuration = (s: Scenario, ms: number): Scenario => ({ ...s, run: { ...s.run, duration_ms: ms } });

  // QA: a capacity typed and Share clicked at once gave a link of the network before it.
  it('resolves once the changes on their way are in, with what is still being typed given first', async () => {
    const t = setup();
    lab = t.lab;
    const loaded = t.lab.getState().current!.scenario;
    t.lab.commitEdit(loaded, withDuration(loaded, 300), 'two-sources (edited)');
    let typed: number | null = 400;
    t.lab.holdTyping(() => {
      if (typed === null) return;
      const on = t.lab.getState().current!.scenario;
      t.lab.commitEdit(on, withDuration(on, typed), 'two-sources (edited)');
      typed = null;
    });
    let done = false;
    const settled = t.lab.settled().then(() => (done = true));
    expect(typed).toBeNull(); // given at once
    await Promise.resolve();
    expect(done).toBe(false); // the engine has answered nothing yet
    t.pump();
    await settled;
    expect(t.lab.getState().current!.scenario.run.duration_ms).toBe(400);
  });

  it('waits for the answer without polling: a live change answered resolves it', async () => {
    const t = setup();
    lab = t.lab;
    t.lab.runUntil(30);
    t.pump();
    const interval = vi.spyOn(globalThis, 'setInterval');
    try {
      t.lab.switches.setParam('SW1', 'target_utilization', 0.6);
      let done = false;
      const settled = t.lab.settled().then(() => (done = true));
      await Promise.resolve();
      expect(done).toBe(false);
      t.pump();
      await settled;
      expect(interval).not.toHaveBeenCalled();
    } finally {
      interval.mockRestore();
    }
  });

  it('resolves at once when nothing is on its way', async () => {
    const t = setup();
    lab = t.lab;
    t.pump();
    let done = false;
    await t.lab.settled().then(() => (done = true));
    expect(done).toBe(true);
  });
});

describe('Lab: a refused shared link', () => {
  // QA: the fragment is cleared once read, so a link the engine refuses left nothing to mend.
  it("keeps the link's text for Save its file; a refused file or library load does not", () => {
    const t = setup();
    lab = t.lab;
    t.pump();
    const loaded = t.lab.getState().current!.scenario;
    const bad = JSON.stringify({ ...loaded, run: { ...loaded.run, duration_ms: -5 } }, null, 2);
    t.lab.open(bad, 'shared link', { kind: 'none' }, 'replace');
    t.pump();
    expect(t.lab.getState().problems?.kept).toBe(bad);
    expect(t.lab.getState().current!.scenario).toEqual(loaded);
    t.lab.open(bad, 'broken.json', { kind: 'none' }, 'replace');
    t.pump();
    expect(t.lab.getState().problems?.origin).toBe('broken.json');
    expect(t.lab.getState().problems?.kept).toBeUndefined();
  });
});
