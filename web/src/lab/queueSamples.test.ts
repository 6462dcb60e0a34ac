// A port's sampled queue as the Network view reads it, every sample kept and, on a long run,
// in min/max buckets (engine/sampleStore.ts): what it tells of a cell in the queue holds of the
// samples themselves, and reads none after the cell's record.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SeriesMeta } from '../contract/engine';
import { SampleStore } from '../engine/sampleStore';
import { approximateNote, sampledQueue, shownRow } from './queueSamples';

const META: SeriesMeta[] = [{ id: 'queue:SW1->SW2', kind: 'queue', label: 'q', unit: 'cells', owner: 'SW1->SW2', held: false }];
const PERIOD_MS = 0.5;
/** A cell's transmission (µs). */
const CELL_US = 2.83;

/** A store of `queues` sampled every PERIOD_MS from 0, within the fewest rows a store keeps
 *  (256: past them, buckets). */
function storeOf(queues: readonly number[]): SampleStore {
  const store = new SampleStore(16, 0);
  store.reset(META);
  store.append(new Float64Array(queues.flatMap((q, i) => [i * PERIOD_MS, q])), 2);
  return store;
}

const queuesArb = fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 300, maxLength: 2200 });

describe('sampledQueue: a cell in a port’s queue, from its samples', () => {
  it('every sample kept: the latest sample at or before the record, and each sample after it by the time drawn', () => {
    const store = storeOf([5, 9, 0, 3, 1]);
    expect(store.samplesPerBucket).toBe(1);
    // Recorded at 0.6 ms (the sample at 0.5 ms: 9 cells), drawn at 1.6 ms (samples at 1 and 1.5 ms).
    expect(sampledQueue(store, 0, 600, 1600, CELL_US, 64)).toEqual({ queued: 9, sampledUs: 500, leftByUs: 1000 });
    expect(sampledQueue(store, 0, 600, 700, CELL_US, 64)).toEqual({ queued: 9, sampledUs: 500 });
  });

  // A long run's store keeps min and max buckets: read as samples, a min row (the bucket's least,
  // at its first time) said the queue had gone before any sample said so, from samples after
  // the cell's record, and a min row as the queue joined made the wait too short.
  it('in buckets, what it tells holds of the samples: the queue joined at most, its time at or before the record, and never gone earlier than a sample says', () => {
    fc.assert(
      fc.property(queuesArb, fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 50, noNaN: true }), (queues, at, laterMs) => {
        const store = storeOf(queues);
        const endMs = (queues.length - 1) * PERIOD_MS;
        const recordUs = at * endMs * 1000;
        const drawnUs = recordUs + laterMs * 1000;
        const told = sampledQueue(store, 0, recordUs, drawnUs, CELL_US, 64);
        // The latest sample at or before the record (as the store compares times, in ms).
        let latest = Math.floor(recordUs / 1000 / PERIOD_MS);
        while ((latest + 1) * PERIOD_MS <= recordUs / 1000) latest++;
        while (latest >= 0 && latest * PERIOD_MS > recordUs / 1000) latest--;
        if (told.sampledUs === undefined) expect(told.queued).toBe(0);
        else {
          // Read from samples at or before the record, each at most the bucket's largest.
          expect(told.sampledUs).toBeLessThanOrEqual(recordUs);
          const k = Math.round(told.sampledUs / 1000 / PERIOD_MS);
          expect(told.queued).toBeGreaterThanOrEqual(queues[k]);
          expect(k).toBeLessThanOrEqual(latest);
        }
        if (told.leftByUs !== undefined) {
          // No earlier than the earliest any sample after the record and by the time drawn tells.
          let earliest = Infinity;
          for (let k = latest + 1; k < queues.length && k * PERIOD_MS * 1000 <= drawnUs; k++) earliest = Math.min(earliest, k * PERIOD_MS * 1000 + queues[k] * CELL_US);
          expect(told.leftByUs).toBeGreaterThanOrEqual(earliest - 1e-6);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('in buckets, a bucket still filling is not read (its next sample may come after the record)', () => {
    // 301 samples: buckets of 4, the last one holding one sample.
    const store = storeOf(Array.from({ length: 301 }, (_, i) => (i === 300 ? 1 : 50)));
    expect(store.samplesPerBucket).toBe(4);
    expect(store.settledRows).toBe(store.length - 2);
    const told = sampledQueue(store, 0, 300 * PERIOD_MS * 1000, 400 * PERIOD_MS * 1000, CELL_US, 64);
    expect(told.sampledUs).toBe(299 * PERIOD_MS * 1000);
    expect(told.queued).toBe(50);
  });
});

describe('shownRow: the row the cards read', () => {
  it("every sample kept: the nearest; in buckets: the bucket's max row, the same all over the bucket", () => {
    const few = storeOf([1, 2, 3]);
    expect(shownRow(few, 0.6)).toBe(1);
    expect(approximateNote(few)).toBeNull();
    const long = storeOf(Array.from({ length: 400 }, (_, i) => i % 7));
    expect(long.samplesPerBucket).toBe(4);
    // Bucket 10: samples 40 to 43 (20 to 21.5 ms).
    for (const ms of [20, 20.4, 21, 21.5]) expect(shownRow(long, ms), `${ms} ms`).toBe(21);
    expect(long.series(0)[21]).toBe(6);
    expect(approximateNote(long)).toBe("a long run: the values shown are the largest of every 4 samples, and the cells' waits in queues are estimates");
  });
});
