// Undo and redo over immutable documents: every edit pushes the new document; undo and redo
// move through them. A run of small edits of one kind (arrow-key moves of one selection) may
// be one step, as a drag is: each push names its run, and a push of the same run soon after the
// last replaces that step instead of adding one. Framework-free; the editor keeps one per
// editing session.

/** A push that may join the step before: `run` names what it continues (e.g. "move:SW1"),
 *  `atMs` when it was made. */
export type Coalesce = { run: string; atMs: number };

/** A pause longer than this (ms) between two pushes of one run starts a new step. */
export const COALESCE_PAUSE_MS = 1000;

export class EditHistory<T> {
  private past: T[] = [];
  private future: T[] = [];
  /** The run the present step belongs to, while another push may still join it. */
  private open: Coalesce | null = null;

  constructor(
    private current: T,
    private readonly limit = 200,
  ) {}

  get present(): T {
    return this.current;
  }
  get canUndo() {
    return this.past.length > 0;
  }
  get canRedo() {
    return this.future.length > 0;
  }

  /**
   * A new document; clears the redo branch. The same object again is not an edit. With
   * `coalesce`, it replaces the present step when that step is of the same run and no more
   * than COALESCE_PAUSE_MS old (any other push, an undo, a redo or a reset ends a run).
   */
  push(next: T, coalesce?: Coalesce): T {
    if (next === this.current) return next;
    const joins =
      coalesce !== undefined &&
      this.open?.run === coalesce.run &&
      coalesce.atMs - this.open.atMs >= 0 &&
      coalesce.atMs - this.open.atMs <= COALESCE_PAUSE_MS;
    if (!joins) {
      this.past.push(this.current);
      if (this.past.length > this.limit) this.past.shift();
    }
    this.current = next;
    this.future = [];
    this.open = coalesce ?? null;
    return next;
  }

  undo(): T {
    this.open = null;
    const prev = this.past.pop();
    if (prev === undefined) return this.current;
    this.future.push(this.current);
    this.current = prev;
    return prev;
  }

  redo(): T {
    this.open = null;
    const next = this.future.pop();
    if (next === undefined) return this.current;
    this.past.push(this.current);
    this.current = next;
    return next;
  }

  /** Starts over from a document (e.g. another scenario was loaded). */
  reset(doc: T) {
    this.current = doc;
    this.past = [];
    this.future = [];
    this.open = null;
  }
}
