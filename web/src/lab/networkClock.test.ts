import { describe, expect, it } from 'vitest';
import type { Scenario } from '../contract/scenario';
import { LIBRARY } from '../scenario/library';
import { SPEEDS } from '../scenario/speed';
import { ENGINE_CATALOGUE } from '../test/engineCatalogue';
import type { RunStatus } from '../engine/protocol';
import { hopStepUs, loopLookbackUs, MAX_LAG_WALL_MS, MIN_HOP_WALL_MS, nextShown, rmCellsMove, rmSpeedLimit, runMoved, slowEnough, stepText, typicalHopUs, type ClockInput } from './networkClock';

const playing = (nowMs: number, speed: ClockInput['speed'] = 0.001, run = 1): ClockInput => ({ run, mode: 'playing', nowMs, speed, markMs: null, markedAtMs: 0, movedAtMs: 0 });
const status = (s: Partial<RunStatus>): RunStatus => ({ run: 1, mode: 'paused', nowMs: 1, endMs: 10, done: false, events: 0, speed: 1, achievedSpeed: null, eventsPerSec: null, engineMs: 0, ...s });
const scenarioOf = (id: string): Scenario => LIBRARY.entries.find((e) => e.id === id)!.scenario;

describe('nextShown: the time a frame shows', () => {
  it('paused: the engine time, or the time marked on the charts since the run last moved', () => {
    expect(nextShown(null, { ...playing(5), mode: 'paused' }, 0).ms).toBe(5);
    expect(nextShown(null, { ...playing(5), mode: 'paused', markMs: 2.5, markedAtMs: 100, movedAtMs: 40 }, 0).ms).toBe(2.5);
    // Marked at the instant the run moved (an event found and the run's pause at it): the mark.
    expect(nextShown(null, { ...playing(5), mode: 'paused', markMs: 2.5, markedAtMs: 100, movedAtMs: 100 }, 0).ms).toBe(2.5);
  });

  // QA: Next RM event marked 0.008 ms; three steps of 0.05 ms later the view still showed 0.008 ms
  // (and the ACRs of then) while the toolbar said 0.16 ms. A step is a seek too short to be shown
  // as one (statusThrottle), so "the mark counts until the run plays" never saw it move.
  it('paused after a Step, Run to or Next RM event: the run time, not a mark made before it moved; a mark made after, that one', () => {
    const picked = { ...playing(0.158), mode: 'paused' as const, markMs: 0.008, markedAtMs: 100 };
    expect(nextShown(null, { ...picked, movedAtMs: 250 }, 300).ms).toBe(0.158);
    expect(nextShown(null, { ...picked, markMs: 0.05, markedAtMs: 400, movedAtMs: 250 }, 450).ms).toBe(0.05);
    // Seeking (a long Run to): the run's time as it goes.
    expect(nextShown(null, { ...picked, mode: 'seeking', nowMs: 3, movedAtMs: 250 }, 300).ms).toBe(3);
  });

  it('playing: advances at the speed between engine reports, never past the engine', () => {
    let s = nextShown(null, playing(1), 0);
    expect(s.ms).toBe(1);
    // The engine reports 1.02 ms; 10 wall ms at 0.001× is 0.01 ms of simulated time.
    s = nextShown(s, playing(1.02), 10);
    expect(s.ms).toBeCloseTo(1.01, 12);
    s = nextShown(s, playing(1.02), 20);
    expect(s.ms).toBeCloseTo(1.02, 12);
    s = nextShown(s, playing(1.02), 40); // the engine has not moved: the view waits for it
    expect(s.ms).toBeCloseTo(1.02, 12);
  });

  it('catches up when more than MAX_LAG_WALL_MS behind; a new run, max speed or a rewind jump to the engine', () => {
    const s = nextShown(null, playing(1), 0);
    const far = 1 + 2 * MAX_LAG_WALL_MS * 0.001;
    expect(nextShown(s, playing(far), 1).ms).toBe(far);
    expect(nextShown(s, playing(3, 0.001, 2), 1).ms).toBe(3);
    expect(nextShown(s, playing(3, 'max'), 1).ms).toBe(3);
    expect(nextShown({ ...s, ms: 9 }, playing(3), 1).ms).toBe(3);
  });
});

describe('runMoved: whether the run left the time it stood at', () => {
  it('a step (seeking, then paused further on), playing, another run: moved; a status at the same time paused: not', () => {
    const at1 = status({});
    expect(runMoved(null, at1)).toBe(true);
    expect(runMoved(at1, status({}))).toBe(false);
    // A step starts at the time it leaves: the seek already moves it.
    expect(runMoved(at1, status({ mode: 'seeking' }))).toBe(true);
    expect(runMoved(status({ mode: 'seeking' }), status({ nowMs: 1.05 }))).toBe(true);
    expect(runMoved(at1, status({ mode: 'playing' }))).toBe(true);
    expect(runMoved(at1, status({ run: 2, nowMs: 1 }))).toBe(true);
    // A step at the end of the run does nothing: the run stands where it was.
    expect(runMoved(status({ mode: 'done', nowMs: 10 }), status({ mode: 'done', nowMs: 10 }))).toBe(false);
  });
});

describe('how far back the drawn cells may have started', () => {
  it('at least 10 ms on a LAN; a few round trips over every link, the long one included, on long-rtt', () => {
    const km = ENGINE_CATALOGUE.delay_us_per_km;
    expect(loopLookbackUs(scenarioOf('two-sources'), km, 1500)).toBe(10_000);
    // long-rtt: S1's 25,000 km access link (125 ms one way) beside 1 km links. The typical hop
    // is a LAN's; a loop over the long link takes 250 ms and more.
    const long = scenarioOf('long-rtt');
    expect(typicalHopUs(long, km, 1500)).toBeLessThan(10);
    expect(loopLookbackUs(long, km, 1500)).toBeGreaterThan(2 * 25_000 * km);
  });
});

describe('when RM cells move on screen', () => {
  it("two-sources' typical hop is one km (5 µs) plus one cell at 155.52 Mbps; at the limit it lasts MIN_HOP_WALL_MS", () => {
    const hop = typicalHopUs(scenarioOf('two-sources'), ENGINE_CATALOGUE.delay_us_per_km, 1500);
    expect(hop).toBeCloseTo(5 + 424 / 155.52, 9);
    const limit = rmSpeedLimit(hop);
    expect(hop / 1000 / limit).toBeCloseTo(MIN_HOP_WALL_MS, 9);
    expect(rmCellsMove(limit, limit)).toBe(true);
    expect(rmCellsMove(limit * 1.01, limit)).toBe(false);
    expect(rmCellsMove('max', limit)).toBe(false);
  });

  it('the slow-down button picks the fastest offered speed under the limit (slow motion for a LAN)', () => {
    const limit = rmSpeedLimit(typicalHopUs(scenarioOf('two-sources'), ENGINE_CATALOGUE.delay_us_per_km, 1500));
    const s = slowEnough(SPEEDS, limit)!;
    expect(s).toBeLessThanOrEqual(limit);
    expect(SPEEDS.filter((x) => x !== 'max' && x > s && x <= limit)).toEqual([]);
    expect(slowEnough(SPEEDS, 1e-9)).toBeNull();
  });

  it('an Ethernet hop counts a whole frame', () => {
    const s = { links: [{ id: 'L', from: 'a', to: 'b', rate_mbps: 10_000, delay_us: 1 }], ethernet: { frame_bytes: 1500 } };
    expect(typicalHopUs(s, 5, 1500)).toBeCloseTo(1 + 12_000 / 10_000, 12);
    expect(typicalHopUs({ links: [] }, 5, 1500)).toBe(0);
  });
});

describe("the Network view's step: about half a typical hop, a round number", () => {
  it('1, 2 or 5 times a power of ten, at most half the hop', () => {
    expect(hopStepUs(7.73)).toBe(2); // two-sources: 1 km and a cell at 155.52 Mbps
    expect(hopStepUs(2.2)).toBe(1);
    expect(hopStepUs(1)).toBe(0.5);
    expect(hopStepUs(10)).toBe(5);
    expect(hopStepUs(125_000)).toBe(50_000);
    expect(hopStepUs(0)).toBe(1);
    expect(stepText(2)).toBe('2 µs');
    expect(stepText(0.5)).toBe('0.5 µs');
    expect(stepText(50_000)).toBe('50 ms');
  });

  it('each library scenario gets a step within half its typical hop, above a fifth of it', () => {
    for (const e of LIBRARY.entries) {
      const hop = typicalHopUs(e.scenario, ENGINE_CATALOGUE.delay_us_per_km, e.scenario.ethernet?.frame_bytes ?? 1500);
      const step = hopStepUs(hop);
      expect(step, e.id).toBeLessThanOrEqual(hop / 2 + 1e-9);
      expect(step, e.id).toBeGreaterThan(hop / 5);
    }
  });
});
