import { afterEach, describe, expect, it } from 'vitest';
import { labOnFakeEngine as setup } from '../test/fakeLab';
import type { Lab } from './lab';
import { pathEditLoaded, pathEditRefused } from './virtualPathCommands';

let lab: Lab | null = null;
afterEach(() => lab?.dispose());

describe('virtual path commands through the lab', () => {
  it('adding a path reloads at t = 0 with it, says so, and can be undone', () => {
    const t = setup();
    lab = t.lab;
    const loaded = t.lab.getState().current!.scenario;
    t.lab.virtualPaths.add({ connections: ['C1', 'C2'], from: 'SW1', to: 'SW2', service: 'abr' });
    t.pump();
    const st = t.lab.getState();
    expect(st.current!.scenario.virtual_paths).toEqual([{ id: 'VP1', connections: ['C1', 'C2'], from: 'SW1', to: 'SW2', service: 'abr' }]);
    expect(st.virtualPathFeedback).toEqual({ fields: {}, other: [], note: 'VP1 added (C1, C2, SW1 → SW2); the run restarted at t = 0.' });
    expect(t.loads()).toBe(2);
    expect(t.lab.edits.history!.undo()).toEqual(loaded);
  });

  it('a path the engine refuses shows its rules at the form and changes nothing', () => {
    const t = setup();
    lab = t.lab;
    t.lab.runUntil(20);
    t.pump();
    const before = t.lab.getState().current;
    t.lab.virtualPaths.add({ connections: ['C1', 'C9'], from: 'SW1', to: 'SW2', service: 'ubr' });
    t.pump();
    const st = t.lab.getState();
    expect(st.current).toBe(before);
    expect(st.status).toMatchObject({ nowMs: 20 });
    expect(st.virtualPathFeedback).toEqual({ fields: { connections: "no connection has id 'C9'" }, other: [], note: null });
    expect(st.problems).toBeNull();
    expect(t.lab.edits.history?.canUndo ?? false).toBe(false);
  });

  it('deleting a path reloads without it, and the list goes with its last path', () => {
    const t = setup();
    lab = t.lab;
    t.lab.virtualPaths.add({ connections: ['C1'], from: 'SW1', to: 'SW2', service: 'abr' });
    t.pump();
    t.lab.virtualPaths.delete('VP1');
    t.pump();
    const st = t.lab.getState();
    expect('virtual_paths' in st.current!.scenario).toBe(false);
    expect(st.virtualPathFeedback!.note).toBe('VP1 deleted; the run restarted at t = 0.');
  });
});

describe('virtual path feedback', () => {
  it("a refused addition puts the rules at the new path's fields; a refused deletion lists them", () => {
    const problems = [
      { path: 'virtual_paths[1].to', rule: "no switch has id 'X'" },
      { path: 'virtual_paths[0].from', rule: 'elsewhere' },
    ];
    expect(pathEditRefused({ index: 1, note: 'n' }, problems)).toEqual({
      fields: { to: "no switch has id 'X'" },
      other: [problems[1]],
      note: null,
    });
    expect(pathEditRefused({ index: null, note: 'n' }, problems)).toEqual({ fields: {}, other: problems, note: null });
    expect(pathEditLoaded({ index: 0, note: 'n' })).toEqual({ fields: {}, other: [], note: 'n' });
  });
});
