import { afterEach, describe, expect, it } from 'vitest';
import type { Lab } from './lab';
import type { Scenario } from '../contract/scenario';
import { moveNode } from '../scenario/topologyEdits';
import { labOnFakeEngine as setup } from '../test/fakeLab';

let lab: Lab | null = null;
afterEach(() => lab?.dispose());

describe('Lab: undo history', () => {
  const withDuration = (s: Scenario, ms: number): Scenario => ({ ...s, run: { ...s.run, duration_ms: ms } });

  it('records an edit once the engine accepts it, and a refused edit not at all', () => {
    const t = setup();
    lab = t.lab;
    const loaded = t.lab.getState().current!.scenario;
    t.lab.switches.setBuffer('SW2', 1.5); // refused: a buffer is a whole number of cells
    t.pump();
    expect(t.lab.getState().switchFeedback!.fields.buffer_cells).toMatch(/whole number/);
    expect(t.lab.edits.history?.canUndo ?? false).toBe(false);

    t.lab.commitEdit(loaded, withDuration(loaded, -1), 'two-sources (edited)'); // refused
    t.pump();
    expect(t.lab.getState().problems).not.toBeNull();
    expect(t.lab.edits.history?.canUndo ?? false).toBe(false);

    t.lab.switches.setBuffer('SW2', 500);
    t.pump();
    const h = t.lab.edits.history!;
    expect(h.canUndo).toBe(true);
    expect(h.present.nodes.find((n) => n.id === 'SW2')!.buffer_cells).toBe(500);
    expect(h.undo()).toEqual(loaded);
    expect(h.canUndo).toBe(false);
  });

  it('edits made while another is on its way are recorded in order', () => {
    const t = setup();
    lab = t.lab;
    const loaded = t.lab.getState().current!.scenario;
    const first = withDuration(loaded, 300);
    const second = withDuration(first, 400);
    t.lab.commitEdit(loaded, first, 'two-sources (edited)');
    t.lab.commitEdit(first, second, 'two-sources (edited)'); // queued behind the first
    t.pump();
    expect(t.lab.getState().current!.scenario.run.duration_ms).toBe(400);
    const h = t.lab.edits.history!;
    expect(h.present).toEqual(second);
    expect(h.undo()).toEqual(first);
    expect(h.undo()).toEqual(loaded);
    expect(h.canUndo).toBe(false);
  });

  it('a move only redraws: the run goes on, undo moves it back, a live change keeps it', () => {
    const t = setup();
    lab = t.lab;
    t.lab.runUntil(30);
    t.pump();
    expect(t.loads()).toBe(1); // the scenario's own load (the count is cumulative)
    const loaded = t.lab.getState().current!.scenario;
    const moved = moveNode(loaded, 'S1', 12, 34);
    expect(t.lab.commitEdit(loaded, moved, 'two-sources (edited)')).toBe('redrawn');
    t.pump();
    expect(t.loads()).toBe(1);
    expect(t.lab.getState().status).toMatchObject({ nowMs: 30 });
    expect(t.lab.getState().current!.scenario.nodes[0]).toMatchObject({ id: 'S1', x: 12, y: 34 });
    expect(JSON.parse(t.lab.getState().current!.json).nodes[0]).toMatchObject({ x: 12, y: 34 });

    t.lab.switches.setParam('SW1', 'target_utilization', 0.6); // live: recorded, nothing reloaded
    t.pump();
    const doc = t.lab.getState().current!.scenario;
    expect(doc.changes).toHaveLength(1);
    expect(doc.nodes[0]).toMatchObject({ x: 12, y: 34 });

    // Undo, once the live change is in: the history restarts from the document with it.
    expect(t.lab.commitEdit(doc, moveNode(doc, 'S1', 50, 60), 'two-sources (edited)')).toBe('redrawn');
    const back = t.lab.travel('undo', 'two-sources (edited)');
    expect(back!.applied).toBe('redrawn');
    t.pump();
    expect(t.loads()).toBe(1);
    expect(t.lab.getState().current!.scenario.nodes[0]).toMatchObject({ x: 12, y: 34 });
    expect(t.lab.getState().status).toMatchObject({ nowMs: 30 });

    // Anything more than the drawing reloads.
    expect(t.lab.commitEdit(doc, withDuration(doc, 500), 'two-sources (edited)')).toBe('restarted');
    t.pump();
    expect(t.loads()).toBe(2);
  });

  it('a side-panel edit made while an editor edit is on its way applies on top of it', () => {
    const t = setup();
    lab = t.lab;
    const loaded = t.lab.getState().current!.scenario;
    const first = withDuration(loaded, 300);
    t.lab.commitEdit(loaded, first, 'two-sources (edited)');
    t.lab.switches.setBuffer('SW2', 500); // queued behind the editor's edit
    expect(t.lab.travel('undo', 'two-sources (edited)')).toBeNull(); // no undo while loading
    t.pump();
    const now = t.lab.getState().current!.scenario;
    expect(now.run.duration_ms).toBe(300);
    expect(now.nodes.find((n) => n.id === 'SW2')!.buffer_cells).toBe(500);
    const h = t.lab.edits.history!;
    expect(h.undo()).toEqual(first);
    expect(h.undo()).toEqual(loaded);
  });

  it('an edit queued behind one the engine refuses is recorded against what is loaded', () => {
    const t = setup();
    lab = t.lab;
    const loaded = t.lab.getState().current!.scenario;
    const bad = withDuration(loaded, -1);
    const good = withDuration(bad, 400);
    t.lab.commitEdit(loaded, bad, 'two-sources (edited)');
    t.lab.commitEdit(bad, good, 'two-sources (edited)');
    t.pump();
    expect(t.lab.getState().current!.scenario.run.duration_ms).toBe(400);
    const h = t.lab.edits.history!;
    expect(h.undo()).toEqual(loaded);
    expect(h.canUndo).toBe(false);
  });

  it('a live parameter change starts the history again (an undo cannot drop it)', () => {
    const t = setup();
    lab = t.lab;
    const loaded = t.lab.getState().current!.scenario;
    t.lab.commitEdit(loaded, withDuration(loaded, 300), 'two-sources (edited)');
    t.pump();
    expect(t.lab.edits.history!.canUndo).toBe(true);
    t.lab.runUntil(20);
    t.pump();
    t.lab.switches.setParam('SW1', 'target_utilization', 0.6);
    t.pump();
    expect(t.lab.getState().current!.scenario.changes).toHaveLength(1);
    expect(t.lab.edits.history?.canUndo ?? false).toBe(false);
  });

  it("a reset's restart is not taken for the answer to an edit sent just after it", () => {
    const t = setup();
    lab = t.lab;
    const loaded = t.lab.getState().current!.scenario;
    t.lab.reset(); // its "loaded" comes back after the edit below has gone out
    t.lab.commitEdit(loaded, withDuration(loaded, -1), 'two-sources (edited)'); // refused
    t.pump();
    expect(t.lab.getState().current!.scenario).toEqual(loaded);
    expect(t.lab.getState().problems).not.toBeNull();
    expect(t.lab.edits.history?.canUndo ?? false).toBe(false);
  });
});
