// Undo and redo over immutable documents: every edit pushes the new document; undo and redo
// move through them. A run of small edits of one kind (arrow-key moves of one selection) may
// be one step, as a drag is: each push names its run, and a push of the same run soon after the
// last replaces that step instead of adding one; a run that comes back to where it started
// (Right, then Left) leaves no step at all. Framework-free; the lab keeps one (lab/editHistory.ts).

/** A push that may join the step before: `run` names what it continues (e.g. "move:SW1"),
 *  `atMs` when it was made. */
export type Coalesce = { run: string; atMs: number };

/** A pause longer than this (ms) between two pushes of one run starts a new step. */
export const COALESCE_PAUSE_MS = 1000;

export class EditHistory<T> {
  private past: T[] = [];
  private future: T[] = [];
  /** The run the present step belongs to, while another push may still join it; `stepped`:
   *  whether the run has a step of its own (not when it came back to where it started). */
  private open: (Coalesce & { stepped: boolean }) | null = null;

  /** `same`: whether two documents are one (a run back to its start is no step); by default
   *  the same object. */
  constructor(
    private current: T,
    private readonly limit = 200,
    private readonly same: (a: T, b: T) => boolean = Object.is,
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
   * than COALESCE_PAUSE_MS old (any other push, an undo, a redo or a reset ends a run). A run
   * that ends where it started takes its step away (undo would do nothing); pressing on makes
   * one again.
   */
  push(next: T, coalesce?: Coalesce): T {
    if (next === this.current) return next;
    const joins =
      coalesce !== undefined &&
      this.open?.run === coalesce.run &&
      coalesce.atMs - this.open.atMs >= 0 &&
      coalesce.atMs - this.open.atMs <= COALESCE_PAUSE_MS;
    this.future = [];
    if (joins && this.open!.stepped && this.past.length > 0 && this.same(next, this.past[this.past.length - 1])) {
      // Back where the run started: no step (the document before the run is the present again).
      this.current = this.past.pop()!;
      this.open = { ...coalesce, stepped: false };
      return this.current;
    }
    if (!joins || !this.open!.stepped) {
      this.past.push(this.current);
      if (this.past.length > this.limit) this.past.shift();
    }
    this.current = next;
    this.open = coalesce ? { ...coalesce, stepped: true } : null;
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

  /** The documents before the present (oldest first) and after it (the next redo last). */
  get steps(): { past: readonly T[]; future: readonly T[] } {
    return { past: this.past, future: this.future };
  }

  /** A history that goes on from documents kept elsewhere (a reload): `past` oldest first,
   *  `future` with the next redo last, as `steps` gives them. */
  static restored<T>(past: readonly T[], present: T, future: readonly T[], limit = 200, same?: (a: T, b: T) => boolean): EditHistory<T> {
    const h = new EditHistory(present, limit, same);
    h.past = past.slice(-limit);
    h.future = future.slice(-limit);
    return h;
  }

  /** Starts over from a document (e.g. another scenario was loaded). */
  reset(doc: T) {
    this.current = doc;
    this.past = [];
    this.future = [];
    this.open = null;
  }
}
