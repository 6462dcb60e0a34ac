// Checkpoints of a run, for going back in time: copies of the simulation (the engine's
// `snapshot`) taken as the run passes evenly spaced times. Going back to t restarts from a copy
// of the latest checkpoint before t and replays the rest at full speed; the engine is
// deterministic, so the replay is the very run that was played.
//
// Memory is bounded twice: the run's span is cut into MAX_CHECKPOINTS slots, each keeping at
// most one checkpoint (the first taken in it), plus the run's start: at most
// MAX_CHECKPOINTS + 1 copies whatever the run's length; and the copies after the start take
// at most CHECKPOINT_BUDGET_BYTES by the engine's estimate (`stateBytes`, which counts about
// half of what the allocator then holds): past it, the slots double in width and every other
// checkpoint goes. A copy is the state of the network (cells on their way, per-connection and
// per-port state), not the samples: ~50 KB for two-sources, ~1 MB for gfc1 in the middle of
// its run (measured in wasm memory).

/** The most checkpoints after the start; a replay covers at most 1/MAX_CHECKPOINTS of the run. */
export const MAX_CHECKPOINTS = 32;
/** Bytes the checkpoints after the start may take (by the engine's estimate). */
export const CHECKPOINT_BUDGET_BYTES = 32 * 1024 * 1024;

export interface Checkpointable<S> {
  nowMs(): number;
  eventsProcessed(): number;
  /** Roughly the bytes a snapshot takes now. */
  stateBytes(): number;
  /** A copy of the run as it is now. */
  snapshot(): S;
  free(): void;
}

interface Checkpoint<S> {
  ms: number;
  /** What the caller noted with the copy (the worker: RM-cell events it had sent by then). */
  note: number;
  /** Events run when taken: 0 for the start, before the first event at time 0. */
  events: number;
  bytes: number;
  sim: S;
}

export class Checkpoints<S extends Checkpointable<S>> {
  private list: Checkpoint<S>[] = [];
  private slotMs: number;

  constructor(
    endMs: number,
    private readonly max = MAX_CHECKPOINTS,
    private readonly budgetBytes = CHECKPOINT_BUDGET_BYTES,
  ) {
    this.slotMs = Math.max(endMs, 1e-9) / max;
  }

  /** Bytes the checkpoints after the start take (the engine's estimate). */
  get bytes(): number {
    return this.list.reduce((n, c) => n + (c.events === 0 ? 0 : c.bytes), 0);
  }

  get size(): number {
    return this.list.length;
  }

  /** The times of the checkpoints kept, in order (for tests and the README's bound). */
  times(): number[] {
    return this.list.map((c) => c.ms);
  }

  private slot(ms: number, events: number): number {
    return events === 0 ? -1 : Math.min(this.max - 1, Math.floor(ms / this.slotMs));
  }

  /** Keeps a copy of `sim` if its time's slot has none yet (the start is a slot of its own),
   *  with `note`, which `restore` gives back with it. */
  offer(sim: S, note = 0) {
    const ms = sim.nowMs();
    const events = sim.eventsProcessed();
    if (this.has(ms, events)) return;
    const bytes = events === 0 ? 0 : sim.stateBytes();
    if (bytes > this.budgetBytes / 2) return; // too big to keep two: replays run from the start
    while (this.bytes + bytes > this.budgetBytes) this.thin();
    if (this.has(ms, events)) return;
    const slot = this.slot(ms, events);
    const i = this.list.findIndex((c) => this.slot(c.ms, c.events) >= slot);
    const taken = { ms, note, events, bytes, sim: sim.snapshot() };
    if (i < 0) this.list.push(taken);
    else this.list.splice(i, 0, taken);
  }

  private has(ms: number, events: number): boolean {
    const slot = this.slot(ms, events);
    return this.list.some((c) => this.slot(c.ms, c.events) === slot);
  }

  /** Slots twice as wide: the first checkpoint of each new slot stays, the others go. */
  private thin() {
    this.slotMs *= 2;
    const kept: Checkpoint<S>[] = [];
    for (const c of this.list) {
      if (kept.length && this.slot(kept[kept.length - 1].ms, kept[kept.length - 1].events) === this.slot(c.ms, c.events)) c.sim.free();
      else kept.push(c);
    }
    this.list = kept;
  }

  /**
   * A fresh copy of the latest checkpoint from which time `ms` is still ahead: taken before
   * `ms`, or the start (nothing run yet). Replaying it to `ms` produces every sample at `ms`
   * and after, none of those before it being new; with the note it was offered with. Null
   * when there is none (no start kept).
   */
  restore(ms: number): { sim: S; note: number } | null {
    let best: Checkpoint<S> | null = null;
    for (const c of this.list) if (c.ms < ms || c.events === 0) best = c;
    return best ? { sim: best.sim.snapshot(), note: best.note } : null;
  }

  /**
   * Going back to `ms`: a fresh copy of the checkpoint `restore(ms)` gives, and the later
   * checkpoints go. Their notes belong to the history the run leaves (the worker's: the RM-cell
   * events sent by then, which depend on when the trace was on in that pass); kept, a later
   * return to one of them told the page to keep events the replay then sent again. The
   * replay takes them anew, with its own notes, as it passes their times.
   */
  rewind(ms: number): { sim: S; note: number } | null {
    const back = this.restore(ms);
    if (!back) return null;
    let last = -1;
    for (let i = 0; i < this.list.length; i++) if (this.list[i].ms < ms || this.list[i].events === 0) last = i;
    for (const c of this.list.splice(last + 1)) c.sim.free();
    return back;
  }

  /** Frees every checkpoint (a new run, or a change that the copies do not have). */
  clear() {
    for (const c of this.list) c.sim.free();
    this.list = [];
  }
}
