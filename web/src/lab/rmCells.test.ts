import { describe, expect, it } from 'vitest';
import type { RmRecord } from '../contract/engine';
import type { Scenario } from '../contract/scenario';
import { LIBRARY } from '../scenario/library';
import { WASM_INTERACTIVE } from '../test/wasmEngine';
import { acrReason, cellAt, cellFields, cellsAt, fieldsAt, GUESS_REACH, journeyOf, lastLoop, lastLoopText, neighboursOf, RmCellIndex, SAME_TIME_US, type HopGuess } from './rmCells';
import { rmRecord } from '../test/rmRecord';
import { ETHERNET_WORDS } from './rmLog';

const scenarioOf = (id: string): Scenario => structuredClone(LIBRARY.entries.find((e) => e.id === id)!.scenario);

/** The real engine's trace of the first `ms` of a library scenario. */
function traceOf(s: Scenario, ms: number): RmRecord[] {
  const sim = WASM_INTERACTIVE.createSimulation(JSON.stringify(s));
  try {
    sim.setRmTrace(1_000_000);
    sim.advance(ms, 1e9);
    return JSON.parse(sim.takeRmTrace()) as RmRecord[];
  } finally {
    sim.free();
  }
}

function indexOf(s: Scenario, records: readonly RmRecord[]): RmCellIndex {
  const index = new RmCellIndex(neighboursOf(s.links));
  index.add(records);
  return index;
}

const rec = (time_us: number, node: string, direction: RmRecord['direction'], er_in: number | null = 100, er_out: number | null = er_in, by = ''): RmRecord =>
  rmRecord({ time_us, node, direction, er_in_mbps: er_in, er_out_mbps: er_out, ccr_mbps: 10, by });

describe('RmCellIndex: the trace grouped into RM cells', () => {
  it('two-sources: every cell that went round visits source, SW1, SW2, its destination and back, in that order', () => {
    const s = scenarioOf('two-sources');
    const index = indexOf(s, traceOf(s, 3));
    const closed = index.cells.filter((c) => c.closed);
    expect(closed.length).toBeGreaterThan(10);
    for (const c of closed) {
      const [src, dst] = c.connection === 'C1' ? ['S1', 'D1'] : ['S2', 'D2'];
      expect(c.records.map((r) => `${r.node}:${r.direction}`)).toEqual([
        `${src}:sent`,
        'SW1:forward',
        'SW2:forward',
        `${dst}:turnaround`,
        'SW2:backward',
        'SW1:backward',
        `${src}:received`,
      ]);
      expect(new Set(c.records.map((r) => r.rm_seq)).size).toBe(1);
      expect(c.origin).toBe(src);
    }
  });

  it('vsvd-1: the loops of one connection (source → SW1, SW1 → SW2, SW2 → SW3, SW3 → D1) are told apart', () => {
    const s = scenarioOf('vsvd-1');
    const index = indexOf(s, traceOf(s, 600));
    const c1 = index.cells.filter((c) => c.connection === 'C1' && c.closed);
    const origins = new Set(c1.map((c) => c.origin));
    expect(origins).toEqual(new Set(['S1', 'SW1', 'SW2', 'SW3']));
    const turn: Record<string, string> = { S1: 'SW1', SW1: 'SW2', SW2: 'SW3', SW3: 'D1' };
    for (const c of c1) {
      // Each loop is received where it started and turns around once, at its loop's end.
      expect(c.records[0].direction).toBe('sent');
      expect(c.records[c.records.length - 1]).toMatchObject({ direction: 'received', node: c.origin });
      expect(c.records.filter((r) => r.direction === 'turnaround').map((r) => r.node)).toEqual([turn[c.origin]]);
    }
  });

  it('vpc-abr: a virtual path\'s RM cells are its own loop, from its first edge switch to its last and back', () => {
    const s = scenarioOf('vpc-abr');
    const index = indexOf(s, traceOf(s, 80));
    const paths = new Map((s.virtual_paths ?? []).map((p) => [p.id, p]));
    const closed = index.cells.filter((c) => c.closed);
    expect(closed.length).toBeGreaterThan(paths.size);
    for (const c of closed) {
      // The members are UBR: every RM cell is a path's, carried under its first member.
      const p = paths.get(c.vp)!;
      expect(p).toBeDefined();
      expect(c.connection).toBe(p.connections[0]);
      expect(c.records.every((r) => r.vp === c.vp)).toBe(true);
      expect(c.records.map((r) => `${r.direction}@${r.node}`).filter((d) => /sent|turnaround|received/.test(d))).toEqual([`sent@${p.from}`, `turnaround@${p.to}`, `received@${p.from}`]);
    }
    expect(new Set(closed.map((c) => c.vp))).toEqual(new Set(paths.keys()));
  });

  it('a virtual path\'s cell and its carrier connection\'s own cell of the same number are two cells', () => {
    // two-sources' C1 runs S1 → SW1 → SW2 → D1; say a path VP1 ran SW1 → SW2 carried under C1.
    const s = scenarioOf('two-sources');
    const own = (t: number, node: string, direction: RmRecord['direction']) => rec(t, node, direction);
    const vp = (t: number, node: string, direction: RmRecord['direction']) => ({ ...rec(t, node, direction), vp: 'VP1' });
    const records = [
      own(0, 'S1', 'sent'),
      vp(1, 'SW1', 'sent'),
      vp(2, 'SW1', 'forward'),
      own(3, 'SW1', 'forward'),
      vp(4, 'SW2', 'turnaround'),
      own(5, 'SW2', 'forward'),
      vp(6, 'SW1', 'backward'),
      vp(7, 'SW1', 'received'),
      own(8, 'D1', 'turnaround'),
    ];
    const index = indexOf(s, records);
    expect(index.cells.map((c) => [c.vp, c.records.map((r) => r.time_us)])).toEqual([
      ['', [0, 3, 5, 8]],
      ['VP1', [1, 2, 4, 6, 7]],
    ]);
    expect(index.cells[1].closed).toBe(true);
    expect(index.cells[1].id).not.toBe(index.cells[0].id);
  });

  it('qcn-hotspot: a congestion notification is a cell of its own, from the switch to the source', () => {
    const s = scenarioOf('qcn-hotspot');
    const index = indexOf(s, traceOf(s, 60));
    const notes = index.cells.filter((c) => c.records[0].direction === 'notification');
    expect(notes.length).toBeGreaterThan(0);
    // BN = 1 on a switch's notification.
    expect(fieldsAt(notes[0], notes[0].records[0].time_us)!.bn).toBe(true);
    for (const c of notes.filter((n) => n.closed)) {
      expect(c.records.map((r) => r.direction)).toEqual(['notification', 'received']);
      expect(s.connections.find((k) => k.id === c.connection)!.from).toBe(c.records[1].node);
    }
    // No FECN switch, no rate-discovery frames: every cell is a notification.
    expect(index.cells.length).toBe(notes.length);
  });

  // QCN on a network of two switches (the hot spot at SW1, its hosts behind SW0): a notification
  // passes SW0 on its way back, where the engine records it `backward` (with BN = 1). It opened a
  // cell of its own there, and the notification's cell stayed open at SW1, drawn there for good.
  it('qcn on two switches: a notification passing a switch on its way back stays one cell, a notification to the end', () => {
    const s = scenarioOf('qcn-hotspot');
    s.nodes.push({ ...s.nodes.find((n) => n.id === 'SW1')!, id: 'SW0', x: 250 });
    for (const l of s.links) if (l.to === 'SW1') l.to = 'SW0';
    s.links.push({ id: 'L5', from: 'SW0', to: 'SW1', rate_mbps: 40_000, delay_us: 4 });
    s.run = { ...s.run, duration_ms: 30, steady_from_ms: 20 };
    const records = traceOf(s, 30);
    expect(records.some((r) => r.direction === 'backward' && r.bn && r.node === 'SW0')).toBe(true);
    const index = indexOf(s, records);
    expect(index.cells.length).toBeGreaterThan(5);
    for (const c of index.cells) {
      expect(c.records[0]).toMatchObject({ direction: 'notification', node: 'SW1' });
      expect(c.closed, c.id).toBe(true);
      expect(c.records.map((r) => `${r.node}:${r.direction}`)).toEqual(['SW1:notification', 'SW0:backward', `${s.connections.find((k) => k.id === c.connection)!.from}:received`]);
      // Drawn as a notification all the way (a square, labelled CN), and its fields say so.
      const past = c.records[1].time_us + 0.1;
      expect(cellAt(c, past, index.hops)?.phase).toBe('notification');
      expect(fieldsAt(c, past)!.dir).toBe('notification');
    }
  });

  it('fecn-hotspot: the rate-discovery frames go round as ATM RM cells do, with BN = 0', () => {
    const s = scenarioOf('fecn-hotspot');
    const index = indexOf(s, traceOf(s, 20));
    const tags = index.cells.filter((c) => c.records[0].direction === 'sent' && c.closed);
    expect(tags.length).toBeGreaterThan(0);
    for (const c of tags) expect(c.records.some((r) => r.direction === 'turnaround')).toBe(true);
    expect(tags.every((c) => c.records.every((r) => !r.bn))).toBe(true);
  });
});

/** Everything an index tells (its cells and their records, the hops, the ACR readings, the
 *  cells under way at a few times), as text to compare. */
function told(index: RmCellIndex, connections: readonly string[], times: readonly number[]): unknown {
  const key = (r: RmRecord) => `${r.time_us}/${r.node}/${r.direction}`;
  return JSON.parse(JSON.stringify({
    cells: index.cells.map((c) => ({ id: c.id, origin: c.origin, closed: c.closed, records: c.records.map(key) })),
    hops: [...index.hops].sort(([a], [b]) => (a < b ? -1 : 1)),
    acrs: connections.map((c) => times.map((t) => index.acrAt(c, t))),
    under: times.map((t) => cellsAt(index, t, 5_000, 200).map((c) => `${c.cell.id}@${c.from}>${c.to}:${c.fraction.toFixed(6)}:${c.guessed}`)),
  })) as unknown;
}

// A run going back cuts the Network view's index instead of building it again from the ~20,000
// records the log keeps (at every step of a drag of the time slider): the cut must tell exactly
// what an index of the records kept tells.
describe('RmCellIndex.cut: the index of the first n records, as if the others had never come', () => {
  const s = scenarioOf('gfc1');
  const records = traceOf(s, 30);
  const connections = s.connections.map((c) => c.id);
  it('tells what an index built from those records tells, and takes the rest again as the full index had them', () => {
    expect(records.length).toBeGreaterThan(3_000);
    const full = indexOf(s, records);
    const whole = told(full, connections, [10_000, 29_000]);
    for (const n of [records.length - 1, Math.floor(records.length * 0.7), 1234, 0]) {
      const cut = indexOf(s, records);
      expect(cut.cut(n)).toBe(true);
      expect(cut.size).toBe(n);
      const t = records[Math.max(0, n - 1)].time_us;
      const times = [t - 2_000, t - 100, t];
      expect(told(cut, connections, times)).toEqual(told(indexOf(s, records.slice(0, n)), connections, times));
      // Fresh copies of the records taken back, as the replay sends them.
      cut.add(structuredClone(records.slice(n)));
      expect(told(cut, connections, [10_000, 29_000])).toEqual(whole);
    }
    // Cut again and again, as a drag does, back and forth.
    const dragged = indexOf(s, records);
    for (const n of [3000, 2500, 2800, 1000, 1500]) {
      // Back: cut to n; forwards: the records from where it stands.
      const at = Math.min(n, dragged.size);
      expect(dragged.cut(at)).toBe(true);
      dragged.add(structuredClone(records.slice(at, n + 200)));
    }
    const n = 1700;
    dragged.cut(n);
    const times = [records[n - 1].time_us - 500, records[n - 1].time_us];
    expect(told(dragged, connections, times)).toEqual(told(indexOf(s, records.slice(0, n)), connections, times));
  });

  // Regression: a cell's id held a counter of the cells the index had opened, which differs
  // between an index cut back (it counted from the run's start) and one built afresh from the
  // records the log keeps: a cell picked (followed) was lost after a scrub rebuilt the index.
  it('a cell has one id in an index cut back and in one built afresh from the records kept', () => {
    const from = Math.floor(records.length * 0.3);
    const n = Math.floor(records.length * 0.8);
    const cut = indexOf(s, records);
    // As the view does: the cells before the oldest record the log keeps forgotten, then the run
    // goes back.
    cut.forgetBefore(records[from].time_us);
    expect(cut.cut(n)).toBe(true);
    const fresh = indexOf(s, records.slice(from, n));
    // The cells whose whole loop both hold (a cell the log kept only the end of starts elsewhere).
    const whole = fresh.cells.filter((c) => c.records[0].direction === 'sent' || c.records[0].direction === 'notification');
    expect(whole.length).toBeGreaterThan(100);
    const ids = whole.map((c) => cut.cellOf(c.records[0])?.id);
    expect(ids).toEqual(whole.map((c) => c.id));
    // Still one cell per id.
    expect(new Set(cut.cells.map((c) => c.id)).size).toBe(cut.cells.length);
    expect(new Set(fresh.cells.map((c) => c.id)).size).toBe(fresh.cells.length);
  });

  it('cannot take back more records than its journal holds: the caller builds it again', () => {
    const index = new RmCellIndex(neighboursOf(s.links), 1000);
    index.add(records.slice(0, 3000));
    const before = told(index, connections, [5_000]);
    expect(index.cut(500)).toBe(false);
    expect(told(index, connections, [5_000])).toEqual(before);
    expect(index.cut(2500)).toBe(true);
    expect(index.size).toBe(2500);
  });
});

describe('cellAt: where an RM cell is between its records', () => {
  const hand = () => {
    const index = new RmCellIndex(neighboursOf([
      { from: 'S1', to: 'SW1' },
      { from: 'SW1', to: 'D1' },
    ]));
    index.add([rec(0, 'S1', 'sent'), rec(10, 'SW1', 'forward'), rec(30, 'D1', 'turnaround'), rec(40, 'SW1', 'backward', 100, 60, 'erica')]);
    return index;
  };

  // The network's hops in `hand`'s records' own times: S1 → SW1 10 µs, SW1 → D1 20, back 10 each.
  const route = new Map([
    ['S1>forward', 'SW1'],
    ['SW1>forward', 'D1'],
    ['D1>backward', 'SW1'],
    ['SW1>backward', 'S1'],
  ]);
  const links: HopGuess = (_cell, r, phase) => {
    const next = route.get(`${r.node}>${phase}`);
    return next === undefined ? undefined : { next, us: next === 'D1' ? 20 : 10 };
  };

  // Its records up to the time only: it once moved linearly toward the node of its next record,
  // which comes after the time drawn (a run playing had not received it yet; a scrub back had).
  it('goes over each hop at the pace the network tells, from its records up to the time only; nothing before it was sent', () => {
    const index = hand();
    const [c] = index.cells;
    expect(cellAt(c, -1, index.hops, links)).toBeNull();
    expect(cellAt(c, 5, index.hops, links)).toMatchObject({ from: 'S1', to: 'SW1', fraction: 0.5, phase: 'forward', guessed: true });
    expect(cellAt(c, 10, index.hops, links)).toMatchObject({ from: 'SW1', to: 'D1', fraction: 0, phase: 'forward' });
    expect(cellAt(c, 25, index.hops, links)).toMatchObject({ from: 'SW1', to: 'D1', fraction: 0.75 });
    expect(cellAt(c, 35, index.hops, links)).toMatchObject({ from: 'D1', to: 'SW1', fraction: 0.5, phase: 'backward' });
    // Nothing telling the way (no hop made, no network's), it waits at its node until its next
    // record: the record at SW1 (10 µs) is not known at 5 µs.
    expect(cellAt(c, 5)).toMatchObject({ from: 'S1', to: 'S1', fraction: 0, guessed: false });
    expect(cellAt(c, 10)).toMatchObject({ from: 'SW1', to: 'SW1', fraction: 0 });
  });

  it('past its last record, follows the hop an earlier cell made from there (short of the node), else waits at the node', () => {
    const index = hand();
    const [c] = index.cells;
    // No earlier cell went SW1 → S1 backward: nothing says where it goes; it waits at SW1.
    for (const t of [45, 46, 440]) expect(cellAt(c, t, index.hops)).toMatchObject({ from: 'SW1', to: 'SW1', fraction: 0, phase: 'backward', guessed: false });
    index.add([rec(50, 'S1', 'received', 60, 60)]);
    expect(cellAt(c, 60, index.hops)).toBeNull(); // received: gone
    // The next cell (seq 1) learns from it: SW1 → S1 backward took 10 µs.
    const next = (t: number, node: string, d: RmRecord['direction']) => ({ ...rec(t, node, d), rm_seq: 1 });
    index.add([next(100, 'S1', 'sent'), next(110, 'SW1', 'forward'), next(130, 'D1', 'turnaround'), next(140, 'SW1', 'backward')]);
    const c1 = index.cells[1];
    expect(cellAt(c1, 145, index.hops)).toMatchObject({ from: 'SW1', to: 'S1', fraction: 0.5, guessed: true });
    // Short of the node at the end of the hop guessed (it is there when its record is).
    expect(cellAt(c1, 149.9, index.hops)!.fraction).toBe(0.95);
    // However late (waiting in a queue), it is drawn, where it got to: a dropped cell has a
    // record of its own (lost).
    expect(cellAt(c1, 140 + 100 * 10, index.hops)).toMatchObject({ from: 'SW1', to: 'S1', fraction: GUESS_REACH });
    // Once a later cell of its loop has made that hop (by the time drawn), it never will: the
    // trace missed its end.
    index.add([next(300, 'S1', 'sent'), next(310, 'SW1', 'forward'), next(330, 'D1', 'turnaround'), next(340, 'SW1', 'backward')].map((r) => ({ ...r, rm_seq: 2 })));
    index.add([{ ...next(350, 'S1', 'received'), rm_seq: 2 }]);
    expect(cellAt(c1, 345, index.hops)).toMatchObject({ from: 'SW1', to: 'S1', fraction: GUESS_REACH });
    expect(cellAt(c1, 350, index.hops)).toBeNull();
    // Cell 2 learns from cell 0 (10 µs), the last hop ended when it set out at 340 µs.
    expect(cellAt(index.cells[2], 345, index.hops)).toMatchObject({ from: 'SW1', to: 'S1', fraction: 0.5 });
  });

  // Regression: a cell on a learnt hop (an earlier cell of its loop made it in 10 µs) that had
  // not reached the next node by then was drawn 95 % of the way there, then back at its node.
  it('a late cell on a learnt hop (its next record not come) stays where it got to, never going back', () => {
    const index = hand();
    index.add([rec(50, 'S1', 'received', 60, 60)]);
    // Cell 1 learns from cell 0: SW1 → S1 backward took 10 µs.
    const next = (t: number, node: string, d: RmRecord['direction']) => ({ ...rec(t, node, d), rm_seq: 1 });
    index.add([next(100, 'S1', 'sent'), next(110, 'SW1', 'forward'), next(130, 'D1', 'turnaround'), next(140, 'SW1', 'backward')]);
    const c1 = index.cells[1];
    // On time: on its way at the pace of the hop learnt.
    expect(cellAt(c1, 147, index.hops)).toMatchObject({ from: 'SW1', to: 'S1', fraction: 0.7, guessed: true });
    const along = (t: number) => {
      const at = cellAt(c1, t, index.hops)!;
      return at.to === 'S1' ? at.fraction : 0;
    };
    const times = [140, 145, 149, 149.9, 150, 151, 175, 1140];
    const fractions = times.map(along);
    fractions.forEach((f, i) => i > 0 && expect(f, `${times[i]} µs`).toBeGreaterThanOrEqual(fractions[i - 1]));
    // 10 µs and more after its record at SW1 it has not reached S1 (its record would be there):
    // short of S1, however late.
    for (const t of [151, 175, 1140]) expect(cellAt(c1, t, index.hops), `${t} µs`).toMatchObject({ from: 'SW1', to: 'S1', fraction: GUESS_REACH, phase: 'backward' });
    // Its record at S1 comes (180 µs): what is drawn before it is unchanged; from then on it is home.
    index.add([next(180, 'S1', 'received')]);
    expect(cellAt(c1, 170, index.hops)).toMatchObject({ from: 'SW1', to: 'S1', fraction: GUESS_REACH, guessed: true });
    expect(cellAt(c1, 180, index.hops)).toBeNull();
  });

  // QA: qcn-hotspot's first notification to each host (none of its loop had made the hop) waited
  // at SW1 for the whole hop and vanished when its record at the host came.
  it("a switch's first notification goes toward the source at the network's pace from when it is sent, as an RM cell does", () => {
    const index = new RmCellIndex(neighboursOf([{ from: 'S1', to: 'SW1' }]));
    const note = rmRecord({ time_us: 100, node: 'SW1', direction: 'notification', bn: true, er_in_mbps: null, er_out_mbps: null, feedback: 63 });
    index.add([note]);
    const [n] = index.cells;
    // The link back to S1: 4 µs of propagation and 1.2 µs of one frame; 2 frames queued ahead.
    const network: HopGuess = (_cell, r, phase) => (r.node === 'SW1' && phase === 'notification' ? { next: 'S1', us: 5.2 + 2 * 1.2, travelUs: 5.2 } : undefined);
    expect(cellAt(n, 101, index.hops, network)).toMatchObject({ from: 'SW1', to: 'SW1', phase: 'notification' });
    const along = [102.4, 103.7, 105, 107].map((t) => cellAt(n, t, index.hops, network));
    for (const a of along) expect(a).toMatchObject({ from: 'SW1', to: 'S1', phase: 'notification', guessed: true });
    expect(along.map((a) => Number(a!.fraction.toFixed(3)))).toEqual([0, 0.25, 0.5, 0.885]);
  });

  // Regression: cell 2 at SW1 at 102 µs, the hop learnt 10 µs (cell 0's), was drawn 70 % of the
  // way to S1 at 109 µs; cell 1, ahead of it, then reached S1 50 µs after SW1 (a queue had
  // built), and cell 2 was drawn back to 14 % at that same time once that record had come.
  it("a cell learns only from hops that ended before it set out: the cell ahead's slower hop, ending later, never draws it back", () => {
    const index = hand();
    index.add([rec(50, 'S1', 'received', 60, 60)]);
    const seq = (n: number) => (t: number, node: string, d: RmRecord['direction']) => ({ ...rec(t, node, d), rm_seq: n });
    index.add([seq(1)(60, 'S1', 'sent'), seq(1)(70, 'SW1', 'forward'), seq(1)(90, 'D1', 'turnaround'), seq(1)(100, 'SW1', 'backward')]);
    index.add([seq(2)(62, 'S1', 'sent'), seq(2)(72, 'SW1', 'forward'), seq(2)(92, 'D1', 'turnaround'), seq(2)(102, 'SW1', 'backward')]);
    const c2 = index.cells[2];
    const before = [104, 109, 120, 149].map((t) => cellAt(c2, t, index.hops));
    expect(before[1]).toMatchObject({ from: 'SW1', to: 'S1', fraction: 0.7 });
    // Cell 1 reaches S1 at 150 µs: 50 µs for the hop cell 2 set out on at 102 µs.
    index.add([seq(1)(150, 'S1', 'received')]);
    expect([104, 109, 120, 149].map((t) => cellAt(c2, t, index.hops))).toEqual(before);
  });

  // QA: a hop learnt from a more congested moment (cell 1 waited 90 µs at SW1) kept cell 3 in
  // SW1's queue for 90 µs, though cell 2, ahead of it, made the hop in 10 µs meanwhile, and cells
  // after it went by it.
  it('a cell on a hop learnt from a more congested moment follows the quicker hop a cell ahead of it has made since, from when that is recorded', () => {
    const index = hand();
    const seq = (n: number) => (t: number, node: string, d: RmRecord['direction']) => ({ ...rec(t, node, d), rm_seq: n });
    // Cell 1: SW1 → S1 backward in 100 µs (a queue), ending at 140 µs.
    index.add([rec(50, 'S1', 'received', 60, 60), seq(1)(0, 'S1', 'sent'), seq(1)(10, 'SW1', 'forward'), seq(1)(30, 'D1', 'turnaround'), seq(1)(40, 'SW1', 'backward'), seq(1)(140, 'S1', 'received')]);
    // Cell 2 at SW1 at 138 µs, cell 3 at 145 µs, which learns cell 1's 100 µs.
    index.add([seq(2)(98, 'S1', 'sent'), seq(2)(108, 'SW1', 'forward'), seq(2)(128, 'D1', 'turnaround'), seq(2)(138, 'SW1', 'backward')]);
    index.add([seq(3)(105, 'S1', 'sent'), seq(3)(115, 'SW1', 'forward'), seq(3)(135, 'D1', 'turnaround'), seq(3)(145, 'SW1', 'backward')]);
    const c3 = index.cells[3];
    const link: HopGuess = (_cell, r, phase) => (r.node === 'SW1' && phase === 'backward' ? { next: 'S1', us: 10, travelUs: 10 } : undefined);
    // Up to cell 2's arrival (148 µs: its hop took 10), cell 3 waits in SW1's queue.
    index.add([seq(2)(148, 'S1', 'received')]);
    expect(cellAt(c3, 147, index.hops, link)).toMatchObject({ from: 'SW1', to: 'SW1', fraction: 0 });
    // From then on it goes at that pace (set out at 145 µs: 30 % along at 148), not 90 µs later.
    expect(cellAt(c3, 148, index.hops, link)).toMatchObject({ from: 'SW1', to: 'S1', guessed: true });
    expect(cellAt(c3, 148, index.hops, link)!.fraction).toBeCloseTo(0.3, 9);
    expect(cellAt(c3, 150, index.hops, link)!.fraction).toBeCloseTo(0.5, 9);
    expect(cellAt(c3, 200, index.hops, link)).toMatchObject({ from: 'SW1', to: 'S1', fraction: GUESS_REACH });
    // Without the network's hop, the quicker hop alone tells the way.
    expect(cellAt(c3, 150, index.hops)!.fraction).toBeCloseTo(0.5, 9);
  });

  // QA (gfc1 at 12 ms, on the fix above): the first cells of a queue that grew to 971 cells
  // went through quickly; their hops, ending after the cells behind them came, let those out of
  // the long queue the port's sample had told, and the queue drawn at SW1 emptied onto the link.
  it("a quicker hop by a cell ahead that set out before the port's sample the network read does not let a cell out of the longer queue that sample tells", () => {
    const index = hand();
    const seq = (n: number) => (t: number, node: string, d: RmRecord['direction']) => ({ ...rec(t, node, d), rm_seq: n });
    index.add([rec(50, 'S1', 'received', 60, 60)]);
    index.add([seq(1)(100, 'S1', 'sent'), seq(1)(110, 'SW1', 'forward'), seq(1)(130, 'D1', 'turnaround'), seq(1)(140, 'SW1', 'backward')]);
    index.add([seq(2)(105, 'S1', 'sent'), seq(2)(115, 'SW1', 'forward'), seq(2)(135, 'D1', 'turnaround'), seq(2)(145, 'SW1', 'backward')]);
    // Cell 1 reaches S1 10 µs after it left SW1, after cell 2 came there.
    index.add([seq(1)(150, 'S1', 'received')]);
    const c2 = index.cells[2];
    // The sample before cell 2 came, at 142 µs (after cell 1 set out), tells a 40 µs queue.
    const later: HopGuess = (_cell, r, phase) => (r.node === 'SW1' && phase === 'backward' ? { next: 'S1', us: 50, travelUs: 10, sampledUs: 142 } : undefined);
    for (const t of [150, 160, 184]) expect(cellAt(c2, t, index.hops, later), `${t} µs`).toMatchObject({ from: 'SW1', to: 'SW1', fraction: 0 });
    expect(cellAt(c2, 190, index.hops, later)).toMatchObject({ from: 'SW1', to: 'S1', fraction: 0.5 });
    // A sample from before cell 1 set out (138 µs): cell 1's hop is the newer, and is followed.
    const earlier: HopGuess = (_cell, r, phase) => (r.node === 'SW1' && phase === 'backward' ? { next: 'S1', us: 50, travelUs: 10, sampledUs: 138 } : undefined);
    expect(cellAt(c2, 149, index.hops, earlier)).toMatchObject({ from: 'SW1', to: 'SW1', fraction: 0 });
    expect(cellAt(c2, 150, index.hops, earlier)).toMatchObject({ from: 'SW1', to: 'S1', fraction: 0.5 });
  });

  it("a sample of the port's queue since the cell came says when it has left that queue: it goes on along the link from then", () => {
    const index = hand();
    index.add([rec(50, 'S1', 'received', 60, 60)]);
    const next = (t: number, node: string, d: RmRecord['direction']) => ({ ...rec(t, node, d), rm_seq: 1 });
    index.add([next(100, 'S1', 'sent'), next(110, 'SW1', 'forward'), next(130, 'D1', 'turnaround'), next(140, 'SW1', 'backward')]);
    const c1 = index.cells[1];
    // The queue then (sampled at 139 µs, after the hop learnt set out): 40 µs of cells ahead of
    // it; at 150 µs a sample finds 2 cells (1 µs each) left in it: it is sent by 152 µs.
    const sampled: HopGuess = (_cell, r, phase, us) =>
      r.node === 'SW1' && phase === 'backward' ? { next: 'S1', us: 50, travelUs: 10, leftByUs: us >= 150 ? 152 : undefined, sampledUs: 139 } : undefined;
    expect(cellAt(c1, 149, index.hops, sampled)).toMatchObject({ from: 'SW1', to: 'SW1' });
    expect(cellAt(c1, 151, index.hops, sampled)).toMatchObject({ from: 'SW1', to: 'SW1' });
    expect(cellAt(c1, 157, index.hops, sampled)).toMatchObject({ from: 'SW1', to: 'S1', fraction: 0.5 });
  });

  // QA: a forward cell 50 µs in SW1's queue (two-sources with EFCI), the hop learnt 10 µs, was
  // drawn 95 % of the way to the next node for 40 µs, though it was still queued at SW1.
  it("a cell behind a longer queue than the learnt hop's goes at the pace of the network's hop then (its queue)", () => {
    const index = hand();
    index.add([rec(50, 'S1', 'received', 60, 60)]);
    const next = (t: number, node: string, d: RmRecord['direction']) => ({ ...rec(t, node, d), rm_seq: 1 });
    index.add([next(100, 'S1', 'sent'), next(110, 'SW1', 'forward'), next(130, 'D1', 'turnaround'), next(140, 'SW1', 'backward')]);
    const c1 = index.cells[1];
    // The network says 50 µs from SW1 toward S1 then (the link and 40 µs of queue), from a
    // sample at 139 µs, after the hop learnt set out.
    const queued: HopGuess = (_cell, r, phase) => (r.node === 'SW1' && phase === 'backward' ? { next: 'S1', us: 50, sampledUs: 139 } : undefined);
    expect(cellAt(c1, 150, index.hops, queued)).toMatchObject({ from: 'SW1', to: 'S1', fraction: 0.2, guessed: true });
    expect(cellAt(c1, 165, index.hops, queued)).toMatchObject({ from: 'SW1', to: 'S1', fraction: 0.5 });
    // A shorter queue than the cell that made the hop had: the hop learnt (it is what was seen).
    const short: HopGuess = (_cell, r, phase) => (r.node === 'SW1' && phase === 'backward' ? { next: 'S1', us: 2, sampledUs: 139 } : undefined);
    expect(cellAt(c1, 145, index.hops, short)).toMatchObject({ from: 'SW1', to: 'S1', fraction: 0.5 });
    // A longer queue sampled before the hop learnt set out: the hop (the newer) tells.
    const older: HopGuess = (_cell, r, phase) => (r.node === 'SW1' && phase === 'backward' ? { next: 'S1', us: 50, sampledUs: 20 } : undefined);
    expect(cellAt(c1, 145, index.hops, older)).toMatchObject({ from: 'SW1', to: 'S1', fraction: 0.5 });
  });

  // QA (on the fix above): moving over the whole hop, a cell 40 µs in SW1's queue was drawn
  // creeping along the link, not in the queue the view draws at SW1.
  it("a cell waits at its node for the hop's queue (the network's hop less the link's), then goes over the link's time", () => {
    const index = hand();
    const [c] = index.cells;
    // 50 µs from SW1 toward S1: 40 µs of queue, then 10 µs of link.
    const guess: HopGuess = (_cell, r, phase) => (r.node === 'SW1' && phase === 'backward' ? { next: 'S1', us: 50, travelUs: 10 } : undefined);
    for (const t of [40, 60, 79.9]) expect(cellAt(c, t, index.hops, guess), `${t} µs`).toMatchObject({ from: 'SW1', to: 'SW1', fraction: 0, phase: 'backward' });
    expect(cellAt(c, 85, index.hops, guess)).toMatchObject({ from: 'SW1', to: 'S1', fraction: 0.5, guessed: true });
    expect(cellAt(c, 400, index.hops, guess)).toMatchObject({ from: 'SW1', to: 'S1', fraction: GUESS_REACH, guessed: true });
    // A learnt hop (the next cell's) waits out the queue's part the same way, the link's time
    // told by the network.
    index.add([rec(50, 'S1', 'received', 60, 60)]);
    const next = (t: number, node: string, d: RmRecord['direction']) => ({ ...rec(t, node, d), rm_seq: 1 });
    index.add([next(100, 'S1', 'sent'), next(110, 'SW1', 'forward'), next(130, 'D1', 'turnaround'), next(140, 'SW1', 'backward')]);
    const linkOnly: HopGuess = (_cell, r, phase) => (r.node === 'SW1' && phase === 'backward' ? { next: 'S1', us: 4, travelUs: 4 } : undefined);
    // Learnt 10 µs, 4 of them the link's: 6 µs at SW1, then along.
    const c1 = index.cells[1];
    expect(cellAt(c1, 145, index.hops, linkOnly)).toMatchObject({ from: 'SW1', to: 'SW1', fraction: 0 });
    expect(cellAt(c1, 148, index.hops, linkOnly)).toMatchObject({ from: 'SW1', to: 'S1', fraction: 0.5 });
    expect(cellAt(c1, 900, index.hops, linkOnly)).toMatchObject({ from: 'SW1', to: 'S1', fraction: GUESS_REACH });
  });

  // QA: gfc1's first cells, their hop guessed from a 1000 km link and the queue then, went 95 %
  // of the way and jumped back to their switch's edge when the guess ran out.
  it('a late cell on a hop guessed from the network (none of its loop made it yet) stays where it got to, never going back', () => {
    const index = hand();
    const [c] = index.cells;
    // No cell went SW1 → S1 backward: the network says 10 µs (the link and the queue then).
    const guess: HopGuess = (_cell, r, phase) => (r.node === 'SW1' && phase === 'backward' ? { next: 'S1', us: 10 } : undefined);
    const along = (t: number) => {
      const at = cellAt(c, t, index.hops, guess)!;
      // Where along SW1 → S1 (0 at SW1, however it is drawn there).
      return at.to === 'S1' ? at.fraction : 0;
    };
    expect(cellAt(c, 45, index.hops, guess)).toMatchObject({ from: 'SW1', to: 'S1', fraction: 0.5, guessed: true });
    const times = [40, 44, 48, 49.5, 50, 51, 60, 200, 1040];
    const fractions = times.map(along);
    fractions.forEach((f, i) => i > 0 && expect(f, `${times[i]} µs`).toBeGreaterThanOrEqual(fractions[i - 1]));
    // However late, short of S1, where it got to.
    expect(cellAt(c, 1040, index.hops, guess)).toMatchObject({ from: 'SW1', to: 'S1', fraction: GUESS_REACH, guessed: true });
    // Its record at S1 comes (it took 100 µs): drawn as before up to then, home from then on.
    index.add([rec(140, 'S1', 'received', 60, 60)]);
    expect(cellAt(c, 130, index.hops, guess)).toMatchObject({ from: 'SW1', to: 'S1', fraction: GUESS_REACH, guessed: true });
    expect(cellAt(c, 140, index.hops, guess)).toBeNull();
  });

  it('a notification nothing tells the way of waits at its switch until it is received, or a later one goes the way it went', () => {
    const index = new RmCellIndex(neighboursOf([{ from: 'S1', to: 'SW1' }]));
    // (BN = 1 on each of its records, as the engine writes them.)
    index.add([{ ...rec(100, 'SW1', 'notification', 0.5, 0.5, 'qcn'), bn: true }]);
    const [n] = index.cells;
    for (const t of [103, 106, 500]) expect(cellAt(n, t, index.hops)).toMatchObject({ from: 'SW1', to: 'SW1', phase: 'notification' });
    // The next notification from SW1 (number 1) reaches S1 at 520 µs: the first, notified
    // before it, has left SW1, and its record at S1 is not in the trace.
    const note = (t: number, node: string, d: RmRecord['direction']) => ({ ...rec(t, node, d, 0.5, 0.5, 'qcn'), rm_seq: 1, bn: true });
    index.add([note(510, 'SW1', 'notification'), note(520, 'S1', 'received')]);
    // (Not before the later one is known to have arrived.)
    expect(cellAt(n, 515, index.hops)).toMatchObject({ from: 'SW1', to: 'SW1', phase: 'notification' });
    expect(cellAt(n, 520, index.hops)).toBeNull();
  });

  // QA: parking-lot-3 run to 20 ms with the trace off, then Next RM event at SW1 (backward): the
  // first two events picked drew no cell. Their cells' loops began before the recording: first
  // seen at SW1, going back, with no record after it yet and no hop from SW1 learnt for a loop
  // seen from SW1 on.
  it('a cell first seen mid-way (recording began after it set out) is drawn at its node at the time of the event picked', () => {
    const index = hand();
    const back = (t: number) => ({ ...rec(t, 'SW1', 'backward', 100, 60, 'erica'), rm_seq: 7 });
    // (2037.431875 / 1000 * 1000 is 2037.4318749999998.)
    const picked = back(2037.431875);
    index.add([picked]);
    const c = index.cellOf(picked)!;
    expect(c.origin).toBe('SW1');
    // The time the view shows is the event's in ms: back in µs, it may round to just before it.
    const us = (picked.time_us / 1000) * 1000;
    expect(us).toBeLessThan(picked.time_us);
    for (const t of [us, picked.time_us]) {
      expect(cellAt(c, t, index.hops)).toMatchObject({ from: 'SW1', to: 'SW1', phase: 'backward', record: picked });
      expect(cellsAt(index, t, 10_000, 300).map((a) => a.cell.id)).toContain(c.id);
    }
    // Before the event (by more than a rounding), it is not drawn yet.
    expect(cellAt(c, picked.time_us - 2 * SAME_TIME_US, index.hops)).toBeNull();
  });

  it("acrAt: a source's ACR as its latest received cell at or before a time left it; the last one before what is forgotten is kept", () => {
    const index = hand();
    const received = (t: number, acr: number, seq = 0) => ({ ...rec(t, 'S1', 'received', 60, 60), rm_seq: seq, acr_before_mbps: 25, acr_after_mbps: acr });
    index.add([received(50, 60)]);
    index.add([{ ...rec(100, 'S1', 'sent'), rm_seq: 1 }, { ...rec(110, 'SW1', 'forward'), rm_seq: 1 }, { ...rec(130, 'D1', 'turnaround'), rm_seq: 1 }, { ...rec(140, 'SW1', 'backward'), rm_seq: 1 }, received(150, 80, 1)]);
    expect(index.acrAt('C1', 49)).toBeNull();
    expect(index.acrAt('C1', 50)).toEqual({ us: 50, mbps: 60 });
    expect(index.acrAt('C1', 149)).toEqual({ us: 50, mbps: 60 });
    expect(index.acrAt('C1', 1000)).toEqual({ us: 150, mbps: 80 });
    expect(index.acrAt('C2', 1000)).toBeNull();
    index.forgetBefore(120);
    expect(index.acrAt('C1', 130)).toEqual({ us: 50, mbps: 60 });
    index.forgetBefore(160);
    expect(index.acrAt('C1', 130)).toBeNull();
    expect(index.acrAt('C1', 160)).toEqual({ us: 150, mbps: 80 });
  });

  it('forgets the cells no longer kept, a dropped one (never closed) too, so that the index stays bounded', () => {
    const index = new RmCellIndex(neighboursOf([
      { from: 'S1', to: 'SW1' },
      { from: 'SW1', to: 'D1' },
    ]));
    const cell = (seq: number, t: number, lost: boolean) => {
      const at = (dt: number, node: string, d: RmRecord['direction']) => ({ ...rec(t + dt, node, d), rm_seq: seq });
      return lost ? [at(0, 'S1', 'sent'), at(10, 'SW1', 'forward')] : [at(0, 'S1', 'sent'), at(10, 'SW1', 'forward'), at(30, 'D1', 'turnaround'), at(40, 'SW1', 'backward'), at(50, 'S1', 'received')];
    };
    index.add([...cell(0, 0, true), ...cell(1, 100, false), ...cell(2, 200, false)]);
    expect(index.cells).toHaveLength(3);
    index.forgetBefore(160);
    expect(index.cells.map((c) => c.seq)).toEqual([2]);
    // The dropped cell no longer catches a later record of its (connection, rm_seq).
    index.add([{ ...rec(300, 'D1', 'turnaround'), rm_seq: 0 }]);
    expect(index.cells.at(-1)!.records).toHaveLength(1);
  });

  it('cellsAt lists the cells under way, newest first, within the look-back and the limit', () => {
    const s = scenarioOf('two-sources');
    const index = indexOf(s, traceOf(s, 3));
    // Half way between SW1 and SW2 for the tenth cell.
    const tenth = index.cells[10].records;
    const t = (tenth[1].time_us + tenth[2].time_us) / 2;
    const all = cellsAt(index, t, 1e9, 1000);
    expect(all.length).toBeGreaterThan(0);
    for (const a of all) {
      expect(a.record.time_us).toBeLessThanOrEqual(t);
      expect(a.fraction).toBeGreaterThanOrEqual(0);
      expect(a.fraction).toBeLessThanOrEqual(1);
    }
    // Brute force agrees: every cell placed at t, and no other.
    const brute = index.cells.flatMap((c) => (cellAt(c, t, index.hops) ? [c.id] : []));
    expect(all.map((a) => a.cell.id).sort()).toEqual(brute.sort());
    expect(cellsAt(index, t, 1e9, 1)).toHaveLength(1);
    expect(cellsAt(index, t, 0, 1000).length).toBeLessThanOrEqual(all.length);
  });

  it('cellsAt over the limit keeps an even share of the whole look-back, the same cells from frame to frame', () => {
    // seriesd-wan's loops are long: some 60 cells under way at 60 ms.
    const s = scenarioOf('seriesd-wan');
    const index = indexOf(s, traceOf(s, 60));
    const t = 59_990;
    const all = cellsAt(index, t, 1e9, 1000);
    const max = Math.floor(all.length / 3);
    expect(max).toBeGreaterThan(1);
    const opened = (a: { cell: { records: { time_us: number }[] } }) => a.cell.records[0].time_us;
    const shown = cellsAt(index, t, 1e9, max);
    expect(shown.length).toBeLessThanOrEqual(max);
    expect(shown.length).toBeGreaterThan(max / 4);
    const ids = all.map((a) => a.cell.id);
    expect(shown.every((a) => ids.includes(a.cell.id))).toBe(true);
    // Not the newest `max`: some shown cell is older than every one of those.
    const newest = all.slice(0, max);
    expect(Math.min(...shown.map(opened))).toBeLessThan(Math.min(...newest.map(opened)));
    // Newest first still.
    expect(shown.map(opened)).toEqual([...shown.map(opened)].sort((a, b) => b - a));
    // A moment later, every shown cell still under way is still shown.
    const later = cellsAt(index, t + 5, 1e9, max).map((a) => a.cell.id);
    const stillUnderWay = new Set(cellsAt(index, t + 5, 1e9, 1000).map((a) => a.cell.id));
    for (const a of shown) if (stillUnderWay.has(a.cell.id)) expect(later).toContain(a.cell.id);
    // The picked cell is kept whatever its share.
    const left = all.find((a) => !shown.some((b) => b.cell.id === a.cell.id))!;
    expect(cellsAt(index, t, 1e9, max, [left.cell.id]).map((a) => a.cell.id)).toContain(left.cell.id);
  });

  it('cellsAt over the limit shows the same share from an index that counted its cells from another start', () => {
    // The Network view opened again builds its index from the event log's records, where the
    // one cut back as the run went back counted cells from earlier: the ids' counters differ,
    // and the share drawn by their hash differed (scrub-drag.spec saw ~90 of ~190 cells differ).
    const s = scenarioOf('seriesd-wan');
    const trace = traceOf(s, 60);
    const t = 59_990;
    const whole = indexOf(s, trace);
    // From 30 ms on: no cell under way at t set out that long before (the look-back below).
    const later = indexOf(s, trace.filter((r) => r.time_us >= 30_000));
    const lookbackUs = 25_000;
    const all = cellsAt(whole, t, lookbackUs, 1000);
    const max = Math.floor(all.length / 3);
    const shown = (index: RmCellIndex) => cellsAt(index, t, lookbackUs, max).map((a) => `${a.cell.connection}/${a.cell.seq}`).sort();
    expect(cellsAt(later, t, lookbackUs, 1000).map((a) => `${a.cell.connection}/${a.cell.seq}`).sort()).toEqual(all.map((a) => `${a.cell.connection}/${a.cell.seq}`).sort());
    // Their ids (no counter in them now) and the share alike.
    expect(cellsAt(later, t, lookbackUs, 1000).map((a) => a.cell.id)).toEqual(all.map((a) => a.cell.id));
    expect(shown(whole).length).toBeGreaterThan(max / 4);
    expect(shown(later)).toEqual(shown(whole));
  });
});

describe('lastLoop: the cell that set out last, where none is under way', () => {
  it('qcn-hotspot paused at 20 ms: no notification is under way; the latest is drawn at the time it offers', () => {
    const s = scenarioOf('qcn-hotspot');
    const index = indexOf(s, traceOf(s, 20));
    const us = 20_000;
    expect(cellsAt(index, us, 10_000, 300)).toEqual([]);
    const last = lastLoop(index, us)!;
    expect(last).not.toBeNull();
    // The newest cell that set out by then, whole: from its first record to its last.
    const opened = index.cells.filter((c) => c.records[0].time_us <= us);
    expect(last.cell).toBe(opened[opened.length - 1]);
    expect([last.fromUs, last.toUs]).toEqual([last.cell.records[0].time_us, last.cell.records[last.cell.records.length - 1].time_us]);
    expect(last.toUs).toBeGreaterThan(last.fromUs);
    expect(last.toUs).toBeLessThanOrEqual(us);
    // At the time offered, it is drawn on its way.
    expect(cellsAt(index, last.showUs, 10_000, 300).map((a) => a.cell.id)).toContain(last.cell.id);
  });

  it('says that nothing is under way and names the latest in the network\'s words, with how long it took', () => {
    const index = new RmCellIndex(neighboursOf([{ from: 'S1', to: 'SW1' }, { from: 'SW1', to: 'D1' }]));
    index.add([rec(19_950, 'S1', 'sent'), rec(19_955, 'SW1', 'forward'), rec(19_960, 'D1', 'turnaround'), rec(19_965, 'SW1', 'backward'), rec(19_971, 'S1', 'received')]);
    expect(lastLoopText(lastLoop(index, 20_000)!)).toBe('Nothing under way now. The latest, RM cell #0 of C1, took 21.0 µs (19.950 → 19.971 ms).');
    const qcn = new RmCellIndex(neighboursOf([{ from: 'EP3', to: 'SW1' }]));
    qcn.add([rmRecord({ time_us: 5000, connection: 'F3', rm_seq: 5, node: 'SW1', direction: 'notification', bn: true }), rmRecord({ time_us: 6500, connection: 'F3', rm_seq: 5, node: 'EP3', direction: 'received', bn: true })]);
    expect(lastLoopText(lastLoop(qcn, 7000)!, ETHERNET_WORDS)).toBe('Nothing under way now. The latest, QCN congestion notification #5 for F3, took 1.500 ms (5.000 → 6.500 ms).');
  });

  it('a cell still under way counts up to the time asked; none before the first', () => {
    const index = new RmCellIndex(neighboursOf([{ from: 'S1', to: 'SW1' }]));
    index.add([rec(10, 'S1', 'sent'), rec(20, 'SW1', 'forward'), rec(40, 'D1', 'turnaround')]);
    expect(lastLoop(index, 5)).toBeNull();
    expect(lastLoop(index, 25)).toMatchObject({ fromUs: 10, toUs: 20, showUs: 15 });
  });
});

describe('journeyOf: where a cell turned around and who lowered its ER', () => {
  it('two-sources, the first cell of C1: turned around at D1, lowered by ERICA at SW2 then SW1, as the engine wrote', () => {
    const s = scenarioOf('two-sources');
    const records = traceOf(s, 0.1);
    const index = indexOf(s, records);
    const cell = index.cells.find((c) => c.connection === 'C1' && c.seq === 0)!;
    const j = journeyOf(cell);
    expect(j.complete).toBe(true);
    expect(j.turnedAt).toBe('D1');
    expect(j.lowered.map((l) => [l.node, l.by])).toEqual([
      ['SW2', 'erica'],
      ['SW1', 'erica'],
    ]);
    // The amounts are the trace's own differences, and ER ends where the source got it.
    const raw = records.filter((r) => r.connection === 'C1' && r.rm_seq === 0 && r.direction === 'backward');
    expect(j.lowered.map((l) => l.loweredMbps)).toEqual(raw.map((r) => r.er_in_mbps! - r.er_out_mbps!));
    expect(j.erNowMbps).toBe(records.find((r) => r.connection === 'C1' && r.rm_seq === 0 && r.direction === 'received')!.er_out_mbps);
    expect(j.erSentMbps).toBe(155.52);
  });

  it('a cell still on its way: incomplete, not turned around; an unknown ER lowers nothing', () => {
    const index = new RmCellIndex(neighboursOf([{ from: 'S1', to: 'SW1' }]));
    index.add([rec(0, 'S1', 'sent', null, null), rec(10, 'SW1', 'forward', null, 50, 'fecn')]);
    const j = journeyOf(index.cells[0]);
    expect(j).toMatchObject({ complete: false, turnedAt: null, lowered: [], erSentMbps: null, erNowMbps: 50 });
  });
});

describe("acrReason: why a source's ACR moved when a backward RM cell came home (TM 4.0 rules 8 and 9)", () => {
  const stop = (before: number, after: number, er: number, ci = false, ni = false) => ({ acr_before_mbps: before, acr_after_mbps: after, er_out_mbps: er, ci, ni });
  it('names the rule that set the new ACR, from the numbers and bits of the cell', () => {
    expect(acrReason(stop(77.51, 69.98, 69.98))).toBe('CI = 0, NI = 0: down to ER');
    expect(acrReason(stop(25, 69.98, 69.98))).toBe('CI = 0, NI = 0: up to ER (at most RIF × PCR more)');
    expect(acrReason(stop(25, 34.72, 155.52))).toBe('CI = 0, NI = 0: up by RIF × PCR (at most PCR, below ER)');
    expect(acrReason(stop(155.52, 155.52, 155.52))).toBe('CI = 0, NI = 0: at ER');
    expect(acrReason(stop(23.93, 22.43, 155.52, true))).toBe('CI = 1: cut by RDF');
    expect(acrReason(stop(100, 40, 40, true))).toBe('CI = 1: cut by RDF, then down to ER');
    expect(acrReason(stop(50, 50, 100, false, true))).toBe('NI = 1: no increase');
    expect(acrReason(stop(50, 40, 40, false, true))).toBe('NI = 1: no increase; down to ER');
    expect(acrReason(stop(12, 10, 5, true))).toBe('CI = 1: cut by RDF; held at MCR, above ER');
    expect(acrReason({ acr_before_mbps: null, acr_after_mbps: null, er_out_mbps: 10, ci: false, ni: false })).toBe('');
  });

  it('two-sources with EFCI on both switches: every ACR the engine set follows the rule the reason names', () => {
    const s = scenarioOf('two-sources');
    for (const n of s.nodes) if (n.kind === 'switch') n.algorithm = 'efci';
    const received = traceOf(s, 30).filter((r) => r.direction === 'received');
    // two-sources: RIF = 1 (its defaults), RDF = 1/16 and MCR = 0 (TM 4.0's), PCR = the link's.
    const [rif, rdf, pcr] = [1, 1 / 16, 155.52];
    const seen = new Set<string>();
    for (const r of received) {
      const before = r.acr_before_mbps!;
      const er = r.er_out_mbps!;
      const want = r.ci ? Math.min(before - before * rdf, er) : r.ni ? Math.min(before, er) : Math.min(before + rif * pcr, pcr, er);
      expect(r.acr_after_mbps).toBeCloseTo(want, 6);
      const why = acrReason(r);
      expect(why.startsWith(r.ci ? 'CI = 1: cut by RDF' : r.ni ? 'NI = 1' : 'CI = 0, NI = 0')).toBe(true);
      seen.add(why);
    }
    // Both ways: cut by CI, back up when a cell comes home unmarked, and held at PCR (= ER).
    expect([...seen].sort()).toEqual(['CI = 0, NI = 0: at ER', 'CI = 0, NI = 0: up to ER (at most RIF × PCR more)', 'CI = 1: cut by RDF']);
  });
});

describe('a lost RM cell (a full buffer dropped it)', () => {
  const links = [
    { from: 'S1', to: 'SW1' },
    { from: 'SW1', to: 'SW2' },
    { from: 'SW2', to: 'D1' },
  ];

  it('closes its cell where it was dropped: drawn up to then, not after; its journey says where; DIR kept', () => {
    const index = new RmCellIndex(neighboursOf(links));
    index.add([rec(0, 'S1', 'sent'), rec(10, 'SW1', 'forward'), rec(10, 'SW1', 'lost'), { ...rec(20, 'S1', 'sent'), rm_seq: 1 }]);
    const [lost, next] = index.cells;
    expect(lost.records.map((r) => r.direction)).toEqual(['sent', 'forward', 'lost']);
    expect(lost.closed).toBe(true);
    expect(next.records).toHaveLength(1);
    expect(cellAt(lost, 5)).toMatchObject({ from: 'S1', to: 'S1', fraction: 0 });
    expect(cellAt(lost, 11, index.hops)).toBeNull();
    expect(journeyOf(lost)).toMatchObject({ complete: false, lostAt: 'SW1', turnedAt: null });
    expect(fieldsAt(lost, 11)).toMatchObject({ dir: 'forward' });
  });

  it('the real engine: a 3-cell buffer at SW1 in front of an overloaded link loses RM cells, each closed there', () => {
    const s = scenarioOf('two-sources');
    s.nodes.find((n) => n.id === 'SW1')!.buffer_cells = 3;
    s.links.find((l) => l.id === 'L1')!.rate_mbps = 622.08;
    s.connections[0].behavior = { kind: 'fixed_rate', from_ms: 0, rate_mbps: 150 };
    const records = traceOf(s, 20);
    const lost = records.filter((r) => r.direction === 'lost');
    expect(lost.length).toBeGreaterThan(0);
    const index = indexOf(s, records);
    for (const r of lost) {
      const cell = index.cellOf(r)!;
      expect(cell.records.at(-1)).toBe(r);
      expect(cell.records.at(-2)!.node).toBe('SW1');
      expect(journeyOf(cell).lostAt).toBe('SW1');
    }
  });
});

describe('fieldsAt: an RM cell\'s fields at a time', () => {
  it('as it left its latest node: forward with the ER it was sent with, backward with the ER a switch wrote', () => {
    const index = new RmCellIndex(neighboursOf([
      { from: 'S1', to: 'SW1' },
      { from: 'SW1', to: 'D1' },
    ]));
    index.add([rec(0, 'S1', 'sent'), rec(10, 'SW1', 'forward'), rec(30, 'D1', 'turnaround'), { ...rec(40, 'SW1', 'backward', 100, 60, 'erica'), ci: true }]);
    const [c] = index.cells;
    expect(fieldsAt(c, -1)).toBeNull();
    expect(fieldsAt(c, 5)).toMatchObject({ dir: 'forward', erMbps: 100, ccrMbps: 10, ci: false, ni: false });
    expect(fieldsAt(c, 45)).toMatchObject({ dir: 'backward', erMbps: 60, ci: true });
    expect(fieldsAt(c, 45)!.at.node).toBe('SW1');
  });
});

// QA: qcn-hotspot's notification listed ER —, CCR —, CI 0, NI 0, BN 1 (ATM's fields).
describe("a cell's fields in its network's words", () => {
  const GBPS = { unit: 'Gbps', scale: 0.001 };
  const fields = (r: Partial<RmRecord>, dir: 'forward' | 'backward' | 'notification') => {
    const at = rmRecord({ er_in_mbps: 5000, er_out_mbps: 4210, ccr_mbps: 9000, ...r });
    return { dir, erMbps: at.er_out_mbps, ccrMbps: at.ccr_mbps, ci: at.ci, ni: at.ni, bn: at.bn, at };
  };
  const shown = (rows: { label: string; value: string }[]) => rows.map((r) => `${r.label}: ${r.value}`);

  it('an RM cell: DIR, ER, CCR in Mbps and the CI, NI and BN bits', () => {
    expect(shown(cellFields(fields({ er_out_mbps: 69.98, ccr_mbps: 25 }, 'backward')))).toEqual(['DIR: backward (DIR = 1)', 'ER: 69.98 Mbps', 'CCR: 25.00 Mbps', 'CI: 0', 'NI: 0', 'BN: 0']);
  });

  it('a rate-discovery frame: its tag rate and the rate it was sent at, in Gbps, no CI/NI/BN', () => {
    expect(shown(cellFields(fields({}, 'backward'), true, GBPS))).toEqual(['direction: reflected', 'tag rate: 4.21 Gbps', 'sent at: 9.00 Gbps']);
  });

  it('a QCN notification: its feedback |Fb| only', () => {
    expect(shown(cellFields(fields({ er_in_mbps: null, er_out_mbps: null, ccr_mbps: null, feedback: 63, bn: true }, 'notification'), true, GBPS))).toEqual(['direction: congestion notification', 'feedback: |Fb| 63']);
  });
});
