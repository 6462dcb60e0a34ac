// What a port's sampled queue tells the Network view of a cell in it (ui/network/painter.ts:
// the wait drawn before a hop, and when the cell has left at the latest), and which row of the
// samples the view's cards read at a time, whether every sample is kept or, on a long run, the
// store keeps buckets of them (engine/sampleStore.ts, after engine/sim/src/history.rs): two
// rows a bucket, the minimum of every series at the bucket's first sample time and the maximum
// at its last.
//
// Every sample kept, a row is the queue at its time. In buckets, a row is not a sample: a min
// row holds values of samples after its time (read as the queue then, it was too short, and
// from samples after the cell's record: a cell drawn out of its queue before it was sent); a
// max row is an upper bound of the queue at its time (the bucket's last sample). So in buckets
// only max rows are read, of buckets settled and wholly at or before the time they stand for:
// the queue the cell joined is at most that bucket's largest (an estimate from up to a
// bucket's samples before the record, the more approximate the longer the run: the Network
// view says so, `approximateNote`), and it is sent by that bucket's last sample time plus its
// largest queue's transmission at the latest, which holds.

import type { SampleStore } from '../engine/sampleStore';

export type SampleRows = Pick<SampleStore, 'length' | 'times' | 'series' | 'atOrBefore' | 'nearest' | 'samplesPerBucket' | 'settledRows'>;

/** A port's queue as its samples tell it for a cell at a node since `recordUs`. */
export interface SampledQueue {
  /** The queue it joined (the port's latest sample at or before the record; in buckets, at
   *  most the latest settled bucket's largest), in cells (frames). */
  queued: number;
  /** When that was sampled (µs; undefined: no sample before the record, the queue taken as 0). */
  sampledUs?: number;
  /** When the samples after it and at or before `drawnUs` say it has left the queue at the
   *  latest (µs: a sample at s holding q is sent by s + q × cellUs); undefined: none says. */
  leftByUs?: number;
}

/**
 * The queue of column `col` for a cell recorded at `recordUs` (µs; shift it a hair back where
 * a sample at the record's very time may come after it), drawn at `drawnUs`, `cellUs` a cell's
 * transmission, reading at most `maxRows` rows after the record's (the first ones: as the time
 * drawn goes on, what they tell only grows).
 */
export function sampledQueue(rows: SampleRows, col: number, recordUs: number, drawnUs: number, cellUs: number, maxRows: number, sameUs = 0): SampledQueue {
  const bucketed = rows.samplesPerBucket > 1;
  const settled = rows.settledRows;
  const times = rows.times();
  const queue = rows.series(col);
  let row = rows.atOrBefore(recordUs / 1000);
  if (bucketed) {
    // The max row of the latest settled bucket wholly at or before the record.
    row = Math.min(row, settled - 1);
    if (row % 2 === 0) row -= 1;
  }
  const out: SampledQueue = row < 0 ? { queued: 0 } : { queued: Number.isFinite(queue[row]) ? queue[row] : 0, sampledUs: times[row] * 1000 };
  const step = bucketed ? 2 : 1;
  const end = Math.min(bucketed ? settled : times.length, row + 1 + maxRows * step);
  for (let i = row + step; i < end && times[i] * 1000 <= drawnUs + sameUs; i += step) {
    const by = times[i] * 1000 + queue[i] * cellUs;
    if (Number.isFinite(by) && (out.leftByUs === undefined || by < out.leftByUs)) out.leftByUs = by;
  }
  return out;
}

/**
 * The row the Network view reads its cards, lanes and rates from at `ms`: the nearest sample
 * while every sample is kept; in buckets, the max row of the bucket nearest `ms` (each value
 * the largest of its samples: a min row and a max row in turn made the cards flicker between
 * the two as the time went on). -1: no rows.
 */
export function shownRow(rows: SampleRows, ms: number): number {
  if (rows.samplesPerBucket <= 1) return rows.nearest(ms);
  const n = rows.length - (rows.length % 2);
  if (n === 0) return rows.nearest(ms);
  const near = rows.nearest(ms);
  return Math.min(n - 1, near | 1);
}

/** What the Network view says of a long run's samples kept in buckets (null: every sample kept). */
export function approximateNote(rows: Pick<SampleRows, 'samplesPerBucket'>): string | null {
  const n = rows.samplesPerBucket;
  return n > 1 ? `a long run: the values shown are the largest of every ${n} samples, and the cells' waits in queues are estimates` : null;
}
