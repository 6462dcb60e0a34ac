// Properties of where the Network view draws RM cells (rmCells.cellAt), over random traces: what
// is drawn at a time depends only on the records at or before it (the same while a run plays,
// later records not come yet, as after a scrub back, when they have), and a cell's progress
// along its route never falls as the time goes on.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RmRecord } from '../contract/engine';
import { rmRecord } from '../test/rmRecord';
import { cellAt, cellsUnderWay, GUESS_REACH, neighboursOf, recordPhase, RmCellIndex, SAME_TIME_US, type CellAt, type HopGuess, type RmCell } from './rmCells';

const LINKS = [
  { from: 'S1', to: 'SW1' },
  { from: 'S2', to: 'SW1' },
  { from: 'SW1', to: 'SW2' },
  { from: 'SW2', to: 'D1' },
  { from: 'SW2', to: 'D2' },
];
const ROUTES: Record<string, string[]> = { C1: ['S1', 'SW1', 'SW2', 'D1'], C2: ['S2', 'SW1', 'SW2', 'D2'] };

/** The loops of the traces: each connection's RM cells, and SW2's notifications to C1's source
 *  (QCN's: numbered apart from C1's RM cells, back through SW1, BN = 1 on every record). */
const LOOPS = ['C1', 'C2', 'N1'] as const;
type Loop = (typeof LOOPS)[number];

/** A loop's stops: its route out and back (a notification's: from SW2 back), with each record's
 *  direction. */
function loopOf(loop: Loop): { node: string; direction: RmRecord['direction'] }[] {
  if (loop === 'N1') {
    const r = ROUTES.C1;
    return [
      { node: r[2], direction: 'notification' },
      { node: r[1], direction: 'backward' },
      { node: r[0], direction: 'received' },
    ];
  }
  const r = ROUTES[loop];
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

/** A trace of the loops, in time order, as the engine writes it. */
const traceArb = fc.record({ C1: fc.array(cellArb, { maxLength: 7 }), C2: fc.array(cellArb, { maxLength: 7 }), N1: fc.array(cellArb, { maxLength: 5 }) }).map((by) => {
  const records: RmRecord[] = [];
  for (const loop of LOOPS) {
    const stops = loopOf(loop);
    const connection = loop === 'N1' ? 'C1' : loop;
    const bn = loop === 'N1';
    let sent = 0;
    let ahead: number[] | null = null;
    by[loop].forEach((c, seq) => {
      sent += c.gap;
      const at = [sent];
      for (let j = 1; j < stops.length; j++) at.push(Math.max(at[j - 1] + c.hopsUs[j - 1], ahead ? ahead[j] + 1 : -Infinity));
      ahead = at;
      const n = c.end === 'round' ? stops.length : Math.min(stops.length - 1, 'lost' in c.end ? c.end.lost : c.end.cut);
      for (let j = 0; j < n; j++) records.push(rmRecord({ time_us: at[j], connection, rm_seq: seq, node: stops[j].node, direction: stops[j].direction, bn }));
      if (c.end !== 'round' && 'lost' in c.end) records.push(rmRecord({ time_us: at[n - 1], connection, rm_seq: seq, node: stops[n - 1].node, direction: 'lost', bn }));
    });
  }
  // (A stable sort: a cell's records at one time keep their order.)
  return records.sort((a, b) => a.time_us - b.time_us);
});

/** The network's hops, as the painter's guess tells them (NetworkPainter.guess): each link's
 *  time (its delay and one cell's transmission), after the queue its port's latest sample
 *  before the record held (`queues`, a sample every `periodUs`, `cellUs` a cell each); and the
 *  samples after the record, by the time drawn, telling when it has left that queue at the
 *  latest (`leftByUs`). Or none (a network that tells no hop). (Its samples are drawn apart from
 *  the trace: the properties hold whatever the network says.) */
const guessArb = fc.option(
  fc
    .record({
      linkUs: fc.array(fc.integer({ min: 1, max: 30 }), { minLength: LINKS.length, maxLength: LINKS.length }),
      periodUs: fc.integer({ min: 3, max: 40 }),
      queues: fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 16, maxLength: 16 }),
      cellUs: fc.integer({ min: 0, max: 8 }),
    })
    .map(({ linkUs, periodUs, queues, cellUs }): HopGuess => {
      const ports = LINKS.flatMap((l, i) => [[`${l.from}->${l.to}`, i] as const, [`${l.to}->${l.from}`, i + LINKS.length] as const]);
      const portOf = new Map(ports);
      const queueAt = (port: number, k: number) => queues[(k * 5 + port * 3) % queues.length];
      return (cell, r, phase, us) => {
        const route = ROUTES[cell.connection];
        const i = route.indexOf(r.node);
        const next = phase === 'forward' ? route[i + 1] : route[i - 1];
        const port = next === undefined ? undefined : portOf.get(`${r.node}->${next}`);
        if (next === undefined || port === undefined) return undefined;
        const link = linkUs[port % LINKS.length];
        // The latest sample before the record (at k × periodUs), and those after it by `us`.
        const k0 = Math.floor((r.time_us - SAME_TIME_US) / periodUs);
        const queued = k0 < 0 ? 0 : queueAt(port, k0);
        let leftByUs: number | undefined;
        for (let k = k0 + 1; k * periodUs <= us + SAME_TIME_US && k <= k0 + 64; k++) leftByUs = Math.min(leftByUs ?? Infinity, k * periodUs + queueAt(port, k) * cellUs);
        return { next, us: link + queued * cellUs, travelUs: link, leftByUs, sampledUs: k0 < 0 ? undefined : k0 * periodUs };
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

  // QA: qcn-hotspot's first notifications (none of their loop had made the hop) waited at SW1
  // and vanished when their record at the host came.
  it("a cell none of its loop had made its hop before goes at the network's pace, every kind (RM cells either way, notifications)", () => {
    fc.assert(
      fc.property(traceArb, guessArb.filter((g): g is HopGuess => g !== null), fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 5, maxLength: 30 }), (records, guess, picks) => {
        const index = indexOf(records);
        const end = lastTime(records) + 100;
        // Whether a cell of `cell`'s loop set out before it had made the hop from `r` by r's time.
        const learnt = (cell: RmCell, r: RmRecord) =>
          index.cells.some(
            (o) =>
              o !== cell &&
              o.connection === cell.connection &&
              o.origin === cell.origin &&
              o.records.some((a, i) => a.node === r.node && recordPhase(a) === recordPhase(r) && i + 1 < o.records.length && o.records[i + 1].node !== a.node && o.records[i + 1].time_us <= r.time_us + SAME_TIME_US),
          );
        for (const t of [...picks.map((p) => p * end), ...records.map((r) => r.time_us + 0.5)]) {
          for (const cell of index.cells) {
            const a = cellAt(cell, t, index.hops, guess);
            if (!a || learnt(cell, a.record)) continue;
            const g = guess(cell, a.record, a.phase, t)!;
            const travel = g.travelUs ?? g.us;
            const gone = t - a.record.time_us - (g.us - travel);
            const fraction = Math.min(GUESS_REACH, gone / travel);
            if (gone < 0) continue;
            // On its way to the next node of its route, at least as far as the network's pace puts it.
            if (a.to !== g.next || a.fraction < fraction - 1e-9)
              expect.fail(`${cell.id} at ${t} µs: ${a.from}>${a.to} ${a.fraction}, the network's ${a.record.node}>${g.next} ${fraction}`);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  // A hop learnt from a more congested moment (or a queue sampled before the cell came) can
  // overestimate: the records that come after it set out, by the time drawn, are followed.
  describe('newer records than the guess are followed, never a record still to come', () => {
    /** The cells of `cell`'s loop and kind (RM cells or notifications), but itself. */
    const loopMates = (index: RmCellIndex, cell: RmCell) =>
      index.cells.filter((o) => o !== cell && o.connection === cell.connection && o.vp === cell.vp && o.origin === cell.origin && o.records[0].bn === cell.records[0].bn);

    /** Each cell drawn at each time (random ones, and just after each record), with the trace
     *  up to that time only: a run playing, the records after it not come. */
    function eachDrawn(records: readonly RmRecord[], guess: HopGuess | null, picks: readonly number[], check: (index: RmCellIndex, a: CellAt, t: number) => void) {
      const end = lastTime(records) + 100;
      const times = [...picks.map((p) => p * end), ...records.flatMap((r) => [r.time_us + 0.01, r.time_us + 3.3])].sort((x, y) => x - y);
      const index = new RmCellIndex(neighboursOf(LINKS));
      let come = 0;
      for (const t of times) {
        while (come < records.length && records[come].time_us <= t + SAME_TIME_US) index.add([records[come++]]);
        for (const cell of index.cells) {
          const a = cellAt(cell, t, index.hops, guess);
          if (a) check(index, a, t);
        }
      }
    }
    const picksArb = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 5, maxLength: 30 });
    const where = (a: CellAt) => `${a.cell.id} ${a.from}>${a.to} ${a.fraction.toFixed(3)}`;

    it('a cell is never drawn behind a cell of its loop that set out after it from the same node (a port keeps their order)', () => {
      fc.assert(
        fc.property(traceArb, guessArb, picksArb, (records, guess, picks) => {
          eachDrawn(records, guess, picks, (index, a, t) => {
            const along = (x: CellAt) => (x.from === x.to ? 0 : x.fraction);
            for (const o of loopMates(index, a.cell)) {
              const b = cellAt(o, t, index.hops, guess);
              if (!b || b.record.node !== a.record.node || b.phase !== a.phase || !(b.record.time_us > a.record.time_us + SAME_TIME_US)) continue;
              if (along(b) > along(a) + 1e-9) expect.fail(`at ${t} µs ${where(a)} (there at ${a.record.time_us} µs) behind ${where(b)} (there at ${b.record.time_us} µs)`);
            }
          });
        }),
        { numRuns: 300 },
      );
    });

    it("once a cell of its loop ahead of it has made the hop in less time than has passed since it set out, it is drawn at its way's end (not in its queue), unless a newer sample says the queue was longer", () => {
      fc.assert(
        fc.property(traceArb, guessArb, picksArb, (records, guess, picks) => {
          eachDrawn(records, guess, picks, (index, a, t) => {
            const r = a.record;
            const g = guess?.(a.cell, r, a.phase, t);
            // The hops from r's node in its phase that ended after r and by t; one that set out
            // before the sample the network read is as long as that sample says, at least.
            let quickest = Infinity;
            for (const o of loopMates(index, a.cell))
              o.records.forEach((x, i) => {
                const y = o.records[i + 1];
                if (!y || x.node !== r.node || y.node === x.node || recordPhase(x) !== a.phase || !(y.time_us > r.time_us + SAME_TIME_US) || y.time_us > t + SAME_TIME_US) return;
                const took = y.time_us - x.time_us;
                quickest = Math.min(quickest, g?.sampledUs !== undefined && x.time_us <= g.sampledUs ? Math.max(took, g.us) : took);
              });
            if (r.time_us + quickest <= t - 1e-6 && (a.from === a.to || a.fraction < GUESS_REACH))
              expect.fail(`at ${t} µs ${where(a)} (there at ${r.time_us} µs), though a cell ahead made the hop in ${quickest} µs`);
          });
        }),
        { numRuns: 300 },
      );
    });

    // QA: forward cells waited about one cell time at every switch: the port's sample, up to a
    // sample interval (500 µs) before the record, said "1 cell", and the longer of it and the
    // hop the cell ahead had just made (no queue) was taken.
    it('a hop its loop made since the sample the network read is followed over that older sample (the newer of the two)', () => {
      fc.assert(
        fc.property(traceArb, guessArb.filter((g): g is HopGuess => g !== null), picksArb, (records, guess, picks) => {
          eachDrawn(records, guess, picks, (index, a, t) => {
            const r = a.record;
            const g = guess(a.cell, r, a.phase, t);
            if (!g) return;
            // The hop its loop last made from r's node in its phase by r's time (LearntHops.before):
            // the latest to end (one of two ending at once, unless they tell the same).
            let learnt: { us: number; fromUs: number; toUs: number; next: string } | null = null;
            let tied = false;
            for (const o of loopMates(index, a.cell))
              o.records.forEach((x, i) => {
                const y = o.records[i + 1];
                if (!y || x.node !== r.node || y.node === x.node || recordPhase(x) !== a.phase || y.time_us > r.time_us + SAME_TIME_US) return;
                const hop = { us: y.time_us - x.time_us, fromUs: x.time_us, toUs: y.time_us, next: y.node };
                if (learnt && hop.toUs === learnt.toUs) tied ||= hop.us !== learnt.us || hop.fromUs !== learnt.fromUs;
                else if (!learnt || hop.toUs > learnt.toUs) [learnt, tied] = [hop, false];
              });
            const l = learnt as { us: number; fromUs: number; next: string } | null;
            if (!l || tied || l.next !== g.next || (g.sampledUs !== undefined && !(l.fromUs > g.sampledUs + SAME_TIME_US))) return;
            const travel = Math.min(l.us, g.travelUs ?? g.us);
            const gone = t - r.time_us - (l.us - travel);
            if (gone <= 1e-6) return;
            const along = a.from === a.to ? 0 : a.fraction;
            if (along < Math.min(GUESS_REACH, gone / travel) - 1e-9)
              expect.fail(`at ${t} µs ${where(a)} (there at ${r.time_us} µs): its loop made the hop in ${l.us} µs from ${l.fromUs} µs, after the sample at ${g.sampledUs} µs (${g.us} µs)`);
          });
        }),
        { numRuns: 300 },
      );
    });

    it('once a sample of its port since its record says the queue it joined is sent, it is not drawn in that queue', () => {
      fc.assert(
        fc.property(traceArb, guessArb.filter((g): g is HopGuess => g !== null), picksArb, (records, guess, picks) => {
          eachDrawn(records, guess, picks, (_index, a, t) => {
            const g = guess(a.cell, a.record, a.phase, t);
            if (g?.leftByUs !== undefined && g.leftByUs < t - 1e-6 && a.from === a.to) expect.fail(`at ${t} µs ${where(a)} (there at ${a.record.time_us} µs), its queue sent by ${g.leftByUs} µs`);
          });
        }),
        { numRuns: 300 },
      );
    });
  });
});
