// The message protocol between a worker pool (pool.ts) and its batch workers (batchWorker.ts):
// whole runs at full speed, for sweeps and comparisons. A run answers with its summary row and
// digest, never with samples (a sweep of 10,000 runs must not ship 10,000 runs of series).

export type BatchJob =
  /** The sweep plan of a scenario with a `sweep` block: PlanInfo, or the problems. */
  | { type: 'plan'; scenario: string }
  /** Run i's scenario of a sweep (JSON), e.g. to open it in the lab. */
  | { type: 'scenario'; sweep: string; index: number }
  /** A compare variant's scenario: `scenario` with the `--set` overrides `sets` applied. */
  | { type: 'variant'; scenario: string; sets: string[] }
  /**
   * One run to its end: a scenario, or run `index` of a sweep. `samples`: also send its sample
   * rows (a compare variant's charts; a sweep never asks), as one transferred Float64Array.
   */
  | { type: 'run'; scenario: string; index?: number; samples?: boolean };

export type ToBatch = { type: 'init' } | { type: 'job'; id: number; job: BatchJob };

/** What a finished run gives. */
export interface RunResult {
  /** The summary as a sweep row: `[name, value]` pairs as JSON text, numbers as the engine wrote them. */
  row: string;
  digest: string;
  events: number;
  /** Wall-clock time of the run in the worker (ms). */
  wallMs: number;
  /** When asked for: the series (SeriesMeta[] as JSON) and the sample rows [time, v…],
   *  row-major: every one, or past MAX_SAMPLE_VALUES min/max buckets (see SampleStore). */
  samples?: RunSamples;
}

export interface RunSamples {
  meta: string;
  rows: Float64Array;
  /** Samples behind each pair of rows (1: every row as sampled; see MAX_SAMPLE_VALUES). */
  perBucket: number;
}

/** The most sample values (rows × columns) a run sends back, 4 M values or 32 MB: a longer run
 *  sends buckets of 4, 8, 16… samples, each as its minimum and maximum row, so no peak is lost. */
export const MAX_SAMPLE_VALUES = 4_000_000;

export type JobAnswer =
  | { type: 'plan'; json: string }
  | { type: 'scenario'; json: string }
  /** The variant's scenario (JSON) and what its overrides took away beyond what they name. */
  | { type: 'variant'; json: string; notes: string[] }
  | ({ type: 'run' } & RunResult);

export type FromBatch =
  | { type: 'ready' }
  /** The engine could not be loaded: nothing will run. */
  | { type: 'unavailable'; message: string }
  | { type: 'done'; id: number; answer: JobAnswer }
  /** The job could not be done; `crashed`: the engine panicked and this worker is unusable. */
  | { type: 'failed'; id: number; message: string; crashed: boolean };
