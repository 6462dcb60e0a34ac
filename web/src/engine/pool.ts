// A pool of batch workers (design.md, "Browser data flow": one per core but one) that runs
// independent jobs — sweep runs, compare variants — each to its end in a worker of its own.
// Jobs start in the order submitted; a worker whose engine crashed is replaced and the job says
// why; cancel() stops everything at once (the workers are terminated, and spawned again for the
// next job). Clients that share the pool (the Sweep and Compare views) each take a lane(): its
// cancel stops only that lane's jobs, so the lab never runs more workers than cores but one.

import type { BatchJob, FromBatch, JobAnswer, ToBatch } from './batchProtocol';

/** The part of a Worker the pool uses (a real Worker, or an in-process fake in tests). */
export interface BatchWorkerLike {
  postMessage(msg: ToBatch): void;
  terminate(): void;
  onmessage: ((ev: MessageEvent<FromBatch>) => void) | null;
  onerror: ((ev: ErrorEvent) => void) | null;
}

/** A job that did not finish: why, and whether the pool cancelled it. */
export class JobFailed extends Error {
  constructor(
    message: string,
    readonly cancelled = false,
  ) {
    super(message);
  }
}

/** Workers for this many cores: one per core but one, at least one. */
export function poolSize(cores: number | undefined = globalThis.navigator?.hardwareConcurrency): number {
  return Math.max(1, Math.floor(cores || 2) - 1);
}

interface Pending {
  id: number;
  /** The lane that submitted it (0: the pool itself). */
  lane: number;
  job: BatchJob;
  resolve(a: JobAnswer): void;
  reject(e: JobFailed): void;
}

interface Slot {
  worker: BatchWorkerLike;
  job: Pending | null;
}

export class WorkerPool {
  private slots: Slot[] = [];
  private queue: Pending[] = [];
  private nextId = 1;
  private nextLane = 1;
  /** Workers replaced after a crash (for tests and the status line). */
  restarts = 0;

  constructor(
    private readonly make: () => BatchWorkerLike,
    readonly size: number = poolSize(),
  ) {}

  /** Runs a job in the next free worker; an `urgent` one (the user waits for it) before those waiting. */
  submit(job: BatchJob, opts: { urgent?: boolean; lane?: number } = {}): Promise<JobAnswer> {
    return new Promise((resolve, reject) => {
      const p = { id: this.nextId++, lane: opts.lane ?? 0, job, resolve, reject };
      if (opts.urgent) this.queue.unshift(p);
      else this.queue.push(p);
      this.dispatch();
    });
  }

  /** Jobs waiting or running. */
  get pending(): number {
    return this.queue.length + this.slots.filter((s) => s.job).length;
  }

  /**
   * Stops jobs now: running ones (their workers are terminated) and waiting ones — every job,
   * or only those of one lane (the other lanes' jobs go on).
   */
  cancel(message = 'cancelled', lane?: number) {
    const mine = (p: Pending | null) => p !== null && (lane === undefined || p.lane === lane);
    const stopped = this.slots.filter((s) => mine(s.job) || (lane === undefined && !s.job));
    const dropped = this.queue.filter(mine);
    this.slots = this.slots.filter((s) => !stopped.includes(s));
    this.queue = this.queue.filter((p) => !mine(p));
    for (const s of stopped) {
      s.worker.terminate();
      s.job?.reject(new JobFailed(message, true));
    }
    for (const p of dropped) p.reject(new JobFailed(message, true));
    this.dispatch();
  }

  /** A share of this pool for one client: its jobs, and a cancel that stops only them. */
  lane(): JobLane {
    const lane = this.nextLane++;
    return {
      size: this.size,
      submit: (job, opts = {}) => this.submit(job, { ...opts, lane }),
      cancel: (message) => this.cancel(message, lane),
    };
  }

  dispose() {
    this.cancel('the pool was closed');
  }

  private dispatch() {
    while (this.queue.length) {
      let slot = this.slots.find((s) => !s.job);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const p = this.queue.shift()!;
      slot.job = p;
      slot.worker.postMessage({ type: 'job', id: p.id, job: p.job });
    }
  }

  private spawn(): Slot {
    const worker = this.make();
    const slot: Slot = { worker, job: null };
    worker.onmessage = (ev) => this.receive(slot, ev.data);
    worker.onerror = (ev) => {
      ev.preventDefault?.();
      this.replace(slot, `the worker failed: ${ev.message || 'unknown error'}`);
    };
    worker.postMessage({ type: 'init' });
    this.slots.push(slot);
    return slot;
  }

  private receive(slot: Slot, msg: FromBatch) {
    if (!this.slots.includes(slot)) return; // a terminated worker's last words
    switch (msg.type) {
      case 'ready':
        return;
      case 'unavailable': {
        // No engine: nothing queued can run either.
        const why = `the simulation engine could not be loaded: ${msg.message}`;
        this.cancel(why);
        return;
      }
      case 'done':
      case 'failed': {
        const p = slot.job;
        if (!p || p.id !== msg.id) return;
        slot.job = null;
        if (msg.type === 'done') p.resolve(msg.answer);
        else {
          p.reject(new JobFailed(msg.message));
          if (msg.crashed) this.replace(slot, null);
        }
        this.dispatch();
      }
    }
  }

  /** Drops a worker (its job, if any, fails with `why`) and lets a fresh one take the queue. */
  private replace(slot: Slot, why: string | null) {
    slot.worker.terminate();
    this.slots = this.slots.filter((s) => s !== slot);
    this.restarts += 1;
    if (slot.job && why) slot.job.reject(new JobFailed(why));
    slot.job = null;
    this.dispatch();
  }
}

/** What a client of the pool uses: its own lane (see WorkerPool.lane). */
export interface JobLane {
  submit(job: BatchJob, opts?: { urgent?: boolean }): Promise<JobAnswer>;
  cancel(message?: string): void;
  readonly size: number;
}

/** The real thing: a module worker running batchWorker.ts. */
export function makeBatchWorker(): BatchWorkerLike {
  return new Worker(new URL('./batchWorker.ts', import.meta.url), { type: 'module', name: 'abr-batch' }) as BatchWorkerLike;
}
