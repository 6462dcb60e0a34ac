// Undo and redo over immutable documents: every edit pushes the new document; undo and redo
// move through them. Framework-free; the editor keeps one per editing session.

export class EditHistory<T> {
  private past: T[] = [];
  private future: T[] = [];

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

  /** A new document; clears the redo branch. The same object again is not an edit. */
  push(next: T): T {
    if (next === this.current) return next;
    this.past.push(this.current);
    if (this.past.length > this.limit) this.past.shift();
    this.current = next;
    this.future = [];
    return next;
  }

  undo(): T {
    const prev = this.past.pop();
    if (prev === undefined) return this.current;
    this.future.push(this.current);
    this.current = prev;
    return prev;
  }

  redo(): T {
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
  }
}
