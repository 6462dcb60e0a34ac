// The charts of one lab, together: one shared time window (drag to zoom on any chart zooms them
// all; a double-click resets them all), one cursor (uPlot's cursor sync by `syncKey`), and one
// requestAnimationFrame loop that gives every chart its frame; and the pinned run they draw behind
// the live one. View state only: neither the zoom nor the pin is part of the scenario.

import type { PinnedRun } from './pinned';

export interface FrameClient {
  /** Brings the chart up to date with the store; cheap when nothing changed. */
  frame(): void;
}

let groups = 0;

export class ChartGroup {
  /** Charts with this key share their cursor. */
  readonly syncKey = `abr-lab-charts-${++groups}`;
  private zoom: [number, number] | null = null;
  private pinnedRun: PinnedRun | null = null;
  private generation: number | null = null;
  private clients = new Set<FrameClient>();
  private listeners = new Set<() => void>();
  private raf = 0;
  private marked: { ms: number; n: number; atMs: number } | null = null;
  private marks = 0;

  constructor(
    private readonly requestFrame: (cb: () => void) => number = (cb) => requestAnimationFrame(cb),
    private readonly cancelFrame: (id: number) => void = (id) => cancelAnimationFrame(id),
    /** The wall clock (ms) a mark is stamped with: the lab's (Lab.runMovedAtMs) in the page. */
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * The time window (ms) to draw: the zoom, or the whole run [0, endMs]. A new run (the store's
   * generation changed) drops the zoom.
   */
  window(endMs: number, generation: number): [number, number] {
    if (this.generation !== generation) {
      if (this.generation !== null && this.zoom) this.setZoom(null);
      this.generation = generation;
    }
    if (!this.zoom) return [0, endMs];
    return [Math.max(0, this.zoom[0]), Math.min(endMs, this.zoom[1])];
  }

  get zoomed(): boolean {
    return this.zoom !== null;
  }

  /** The zoom (ms), or null when the charts show the whole run; a new array on every change. */
  get zoomWindow(): readonly [number, number] | null {
    return this.zoom;
  }

  /** Calls `listener` whenever the zoom or the pinned run changes; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Zooms every chart to [a, b] (either order), within [0, endMs]; a window too narrow to show
   *  anything (under a millionth of the run) is refused. Returns whether it zoomed. */
  zoomTo(a: number, b: number, endMs: number): boolean {
    const lo = Math.max(0, Math.min(a, b));
    const hi = Math.min(endMs, Math.max(a, b));
    if (!(hi - lo > endMs * 1e-6)) return false;
    this.setZoom([lo, hi]);
    return true;
  }

  /** The pinned run (null: none), kept across runs and loads until unpinned. */
  get pinned(): PinnedRun | null {
    return this.pinnedRun;
  }

  /** Pins a run (replacing any pinned before), or unpins (null). */
  pin(run: PinnedRun | null) {
    this.pinnedRun = run;
    for (const l of this.listeners) l();
  }

  /**
   * Moves every chart's cursor to `ms` and marks that time (an event picked in the event log),
   * showing the whole run again if the zoom does not hold it; null takes the mark away.
   */
  cursorTo(ms: number | null) {
    this.marked = ms === null ? null : { ms, n: ++this.marks, atMs: this.now() };
    if (ms !== null && this.zoom && (ms < this.zoom[0] || ms > this.zoom[1])) this.setZoom(null);
    else for (const l of this.listeners) l();
  }

  /** The marked time (ms), a counter that tells two requests apart, and when it was marked
   *  (wall ms, the `now` clock) (null: none). */
  get cursorMark(): { ms: number; n: number; atMs: number } | null {
    return this.marked;
  }

  /** Back to the whole run. */
  reset() {
    if (this.zoom) this.setZoom(null);
  }

  private setZoom(z: [number, number] | null) {
    this.zoom = z;
    for (const l of this.listeners) l();
  }

  /** Adds a chart to the frame loop (which runs while the group has charts). */
  add(client: FrameClient) {
    this.clients.add(client);
    if (this.clients.size === 1) this.raf = this.requestFrame(this.tick);
  }

  remove(client: FrameClient) {
    this.clients.delete(client);
    if (this.clients.size === 0) this.cancelFrame(this.raf);
  }

  private tick = () => {
    this.raf = this.requestFrame(this.tick);
    for (const c of this.clients) c.frame();
  };
}
