// Properties of where the Network view draws RM cells (rmCells.cellAt), over random traces: what
// is drawn at a time depends only on the records at or before it (the same while a run plays,
// later records not come yet, as after a scrub back, when they have), and a cell's progress
// along its route never falls as the time goes on.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RmRecord } from '../contract/engine';
import { rmRecord } from '../test/rmRecord';
import { cellAt, cellsUnderWay, neighboursOf, RmCellIndex, SAME_TIME_US, type CellAt, type HopGuess, type RmCell } from './rmCells';

const LINKS = [
  { from: 'S1', to: 'SW1' },
  { from: 'S2', to: 'SW1' },
  { from: 'SW1', to: 'SW2' },
  { from: 'SW2', to: 'D1' },
  { from: 'SW2', to: 'D2' },
];
const ROUTES: Record<string, string[]> = { C1: ['S1', 'SW1', 'SW2', 'D1'], C2: ['S2', 'SW1', 'SW2', 'D2'] };

/** A loop's stops: its route out and back, with each record's direction. */
function loopOf(connection: string): { node: string; direction: RmRecord['direction'] }[] {
  const r = ROUTES[connection];
  return [
    { node: r[0], direction: 'sent' },
    { node: r[1], direction: 'forward' },
    { node: r[2], direction: 'forward' },
    { node: r[3], direction: 'turnaround' },
    { node: r[2], direction: 'backward' },
    { node: r[1], direction: 'backward' },
    { node: r[0], direction: 'received' },
  ];
}

/** One cell as drawn: `gap` µs after the cell before it, each hop taking its `hopsUs` (or as
 *  long as the cell ahead, which it never passes: a port is a FIFO); `end`: it goes round, a
 *  full buffer drops it after that many stops, or the trace misses the rest of it. */
const cellArb = fc.record({
  gap: fc.integer({ min: 1, max: 40 }),
  hopsUs: fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 6, maxLength: 6 }),
  end: fc.oneof(fc.constant<'round'>('round'), fc.record({ lost: fc.integer({ min: 1, max: 6 }) }), fc.record({ cut: fc.integer({ min: 1, max: 6 }) })),
});

/** A trace of both connections' loops, in time order, as the engine writes it. */
const traceArb = fc.record({ C1: fc.array(cellArb, { maxLength: 7 }), C2: fc.array(cellArb, { maxLength: 7 }) }).map((by) => {
  const records: RmRecord[] = [];
  for (const connection of ['C1', 'C2'] as const) {
    const stops = loopOf(connection);
    let sent = 0;
    let ahead: number[] | null = null;
    by[connection].forEach((c, seq) => {
      sent += c.gap;
      const at = [sent];
      for (let j = 1; j < stops.length; j++) at.push(Math.max(at[j - 1] + c.hopsUs[j - 1], ahead ? ahead[j] + 1 : -Infinity));
      ahead = at;
      const n = c.end === 'round' ? stops.length : 'lost' in c.end ? c.end.lost : c.end.cut;
      for (let j = 0; j < n; j++) records.push(rmRecord({ time_us: at[j], connection, rm_seq: seq, node: stops[j].node, direction: stops[j].direction }));
      if (c.end !== 'round' && 'lost' in c.end) records.push(rmRecord({ time_us: at[n - 1], connection, rm_seq: seq, node: stops[n - 1].node, direction: 'lost' }));
    });
  }
  // (A stable sort: a cell's records at one time keep their order.)
  return records.sort((a, b) => a.time_us - b.time_us);
});

/** The network's hops, as the painter's guess tells them from the record alone (its link's time,
 *  and a queue read before the record): each link's time, and a queue part drawn from the
 *  record's time. Or none (a network that tells no hop). */
const guessArb = fc.option(
  fc.record({ linkUs: fc.array(fc.integer({ min: 1, max: 30 }), { minLength: LINKS.length, maxLength: LINKS.length }), queueScale: fc.integer({ min: 0, max: 40 }) }).map(({ linkUs, queueScale }): HopGuess => {
    const us = new Map(LINKS.flatMap((l, i) => [[`${l.from}->${l.to}`, linkUs[i]] as const, [`${l.to}->${l.from}`, linkUs[i]] as const]));
    return (cell, r, phase) => {
      const route = ROUTES[cell.connection];
      const i = route.indexOf(r.node);
      const next = phase === 'forward' ? route[i + 1] : phase === 'backward' ? route[i - 1] : undefined;
      const link = next === undefined ? undefined : us.get(`${r.node}->${next}`);
      if (next === undefined || link === undefined) return undefined;
      return { next, us: link + ((r.time_us * 7919) % 23) * (queueScale / 23), travelUs: link };
    };
  }),
  { nil: null },
);

function indexOf(records: readonly RmRecord[]): RmCellIndex {
  const index = new RmCellIndex(neighboursOf(LINKS));
  index.add(records);
  return index;
}

/** What is drawn of a cell, to compare. */
const view = (a: CellAt | null) => (a === null ? null : { id: a.cell.id, from: a.from, to: a.to, fraction: a.fraction, phase: a.phase, at: a.record.time_us, guessed: a.guessed });

/** How far along its route a cell is drawn: its stops passed and the fraction of the hop under way. */
const progress = (cell: RmCell, a: CellAt) => cell.records.indexOf(a.record) + (a.from === a.to ? 0 : a.fraction);

const lastTime = (records: readonly RmRecord[]) => records.at(-1)?.time_us ?? 0;

describe('cellAt over random traces: causal and monotone', () => {
  it('a cell is drawn at a time the same whether or not the records after it have come (or some of them)', () => {
    fc.assert(
      fc.property(traceArb, guessArb, fc.nat(), fc.integer({ min: -999, max: 999 }), fc.nat({ max: 100 }), (records, guess, pick, offset, b) => {
        // A time near a record's (a few µs before or after it), and a later one.
        const t = Math.max(0, (records.length ? records[pick % records.length].time_us : 0) + offset / 100);
        const later = t + b;
        const upTo = (u: number) => records.filter((r) => r.time_us <= u + SAME_TIME_US);
        const full = indexOf(records);
        const some = indexOf(upTo(later));
        const known = indexOf(upTo(t));
        // And an index cut back to those records, as a scrub back does.
        const cut = indexOf(records);
        expect(cut.cut(upTo(t).length)).toBe(true);
        const drawn = (index: RmCellIndex) => Object.fromEntries(index.cells.map((c) => [c.id, view(cellAt(c, t, index.hops, guess))]));
        const told = drawn(known);
        const fullDrawn = drawn(full);
        // The cells not set out by `t` are not drawn.
        for (const [id, v] of Object.entries(fullDrawn)) if (!(id in told)) expect(v, id).toBeNull();
        for (const [id, v] of Object.entries(told)) {
          expect(fullDrawn[id], `${id} at ${t} µs, every record come`).toEqual(v);
          expect(drawn(some)[id], `${id} at ${t} µs, those to ${later} µs come`).toEqual(v);
          expect(drawn(cut)[id], `${id} at ${t} µs, cut back`).toEqual(v);
        }
        const ids = (index: RmCellIndex) => cellsUnderWay(index, t, 1e9, guess).map((c) => c.cell.id);
        expect(ids(full)).toEqual(ids(known));
      }),
      { numRuns: 300 },
    );
  });

  // As a run plays: the shown time goes on, and the trace is ahead of it by a flush or more.
  it("a cell's progress along its route never falls as the time goes on and records come", () => {
    fc.assert(
      fc.property(
        traceArb,
        guessArb,
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 80, noNaN: true })), { minLength: 5, maxLength: 40 }),
        (records, guess, picks) => {
          const end = lastTime(records) + 100;
          // Random times, and each record's, just before and just after it; each with how far
          // ahead of it the trace has come.
          const times = [...picks.map(([p, ahead]) => [p * end, ahead]), ...records.flatMap((r, i) => [-0.01, 0, 0.01].map((d) => [r.time_us + d, (i * 13) % 50]))].sort(
            ([x], [y]) => x - y,
          );
          const index = new RmCellIndex(neighboursOf(LINKS));
          let come = 0;
          const seen = new Map<string, { p: number; us: number; horizon: number }>();
          for (const [t, ahead] of times) {
            while (come < records.length && records[come].time_us <= t + ahead) index.add([records[come++]]);
            for (const cell of index.cells) {
              const a = cellAt(cell, t, index.hops, guess);
              if (!a) continue;
              const p = progress(cell, a);
              const before = seen.get(cell.id);
              // (The message is written only for a failure: written at every step it took most of the test's time.)
              if (before && p < before.p) expect.fail(`${cell.id}: ${p} at ${t} µs (trace to ${t + ahead}) after ${before.p} at ${before.us} µs (to ${before.horizon})`);
              seen.set(cell.id, { p, us: t, horizon: t + ahead });
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
