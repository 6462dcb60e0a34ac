import { afterEach, describe, expect, it } from 'vitest';
import type { Scenario } from '../contract/scenario';
import type { RunStatus } from '../engine/protocol';
import { ENGINE_CATALOGUE } from '../test/engineCatalogue';
import { labOnFakeEngine as setup } from '../test/fakeLab';
import { runStatus, twoSources } from '../test/fakes';
import type { LabContext } from './context';
import type { Lab } from './lab';
import type { Load } from './loadQueue';
import { INITIAL_STATE, type LabState } from './state';
import { forgetTravelled, liveChangeRefused, liveChangeTravelled, paramEditMode, SwitchCommands, switchEditLoaded, switchEditRefused } from './switchCommands';

let lab: Lab | null = null;
afterEach(() => lab?.dispose());

describe('switch commands through the lab', () => {
  it('at t = 0 a parameter edit sets the starting value (reload, nothing recorded)', () => {
    const t = setup();
    lab = t.lab;
    expect(t.lab.switches.editMode()).toBe('start');
    t.lab.switches.setParam('SW1', 'target_utilization', 0.6);
    t.pump();
    const s = t.lab.getState().current!.scenario;
    expect(s.nodes.find((n) => n.id === 'SW1')!.params).toEqual({ target_utilization: 0.6 });
    expect(s.changes).toBeUndefined();
    expect(t.loads()).toBe(2);
  });

  it('while a run is under way a parameter edit applies live and is recorded, without a reset', () => {
    const t = setup();
    lab = t.lab;
    t.lab.runUntil(40);
    t.pump();
    expect(t.lab.switches.editMode()).toBe('live');
    t.lab.switches.setParam('SW1', 'target_utilization', 0.6);
    t.pump();
    const st = t.lab.getState();
    expect(st.current!.scenario.changes).toEqual([{ at_ms: 40, node: 'SW1', param: 'target_utilization', value: 0.6 }]);
    expect(JSON.parse(st.current!.json).changes).toHaveLength(1);
    expect(st.current!.scenario.nodes.find((n) => n.id === 'SW1')!.params).toBeUndefined();
    expect(t.loads()).toBe(1);
    // Clearing the field goes back to the catalogue default, also live.
    t.lab.switches.setParam('SW1', 'target_utilization', null);
    t.pump();
    expect(t.lab.getState().current!.scenario.changes!.at(-1)).toMatchObject({ value: 0.9 });
  });

  it('a live change replaces the changes of its parameter recorded for later, and says which (a run gone back keeps its recording)', () => {
    const t = setup();
    lab = t.lab;
    const recorded = (s: Scenario) => ({
      ...s,
      changes: [
        { at_ms: 50, node: 'SW1', param: 'target_utilization', value: 0.95 },
        { at_ms: 60, node: 'SW1', param: 'delta', value: 0.2 },
      ],
    });
    t.lab.load(JSON.stringify(recorded(JSON.parse(twoSources()) as Scenario)), 'two-sources');
    t.pump();
    t.lab.runUntil(20);
    t.pump();
    t.lab.switches.setParam('SW1', 'target_utilization', 0.6);
    t.pump();
    const st = t.lab.getState();
    expect(st.current!.scenario.changes).toEqual([
      { at_ms: 60, node: 'SW1', param: 'delta', value: 0.2 },
      { at_ms: 20, node: 'SW1', param: 'target_utilization', value: 0.6 },
    ]);
    expect(st.switchFeedback).toMatchObject({
      node: 'SW1',
      undoable: true, // with Undo and Redo buttons
      note:
        'target_utilization = 0.6 from 20.00 ms on: it replaces the change of target_utilization recorded for later (at 50.00 ms → 0.95). ' +
        'Undo (Ctrl+Z) brings it back.',
    });
    // A change that replaces nothing says nothing more.
    t.lab.switches.setParam('SW1', 'target_utilization', 0.7);
    t.pump();
    expect(t.lab.getState().switchFeedback).toBeNull();
  });

  it('a starting value set at t = 0 keeps the changes recorded for later, and names them', () => {
    const t = setup();
    lab = t.lab;
    const s = JSON.parse(twoSources()) as Scenario;
    t.lab.load(JSON.stringify({ ...s, changes: [{ at_ms: 50, node: 'SW1', param: 'target_utilization', value: 0.95 }] }), 'two-sources');
    t.pump();
    t.lab.switches.setParam('SW1', 'target_utilization', 0.6);
    t.pump();
    const st = t.lab.getState();
    expect(st.current!.scenario.changes).toHaveLength(1);
    expect(st.switchFeedback!.note).toBe('target_utilization set from t = 0. The recorded change at 50.00 ms → 0.95 still applies.');
  });

  it('a change the engine refuses is shown at its field and changes nothing', () => {
    const t = setup();
    lab = t.lab;
    t.lab.runUntil(10);
    t.pump();
    const before = t.lab.getState().current;
    t.lab.switches.setParam('SW1', 'interval_cells', 2.5);
    t.pump();
    const st = t.lab.getState();
    expect(st.current).toBe(before);
    expect(st.switchFeedback).toMatchObject({
      node: 'SW1',
      fields: { 'params.interval_cells': 'interval_cells = 2.5 must be a whole number' },
    });
  });

  it('a new algorithm reloads at t = 0 and says so; an invalid edit keeps the run', () => {
    const t = setup();
    lab = t.lab;
    t.lab.runUntil(30);
    t.pump();
    t.lab.switches.setParam('SW1', 'target_utilization', 0.5);
    t.pump();
    t.lab.switches.setAlgorithm('SW1', 'none');
    t.pump();
    let st = t.lab.getState();
    expect(st.status).toMatchObject({ nowMs: 0 });
    expect(st.current!.scenario.nodes.find((n) => n.id === 'SW1')!.algorithm).toBe('none');
    expect(st.current!.scenario.changes).toBeUndefined();
    expect(st.switchFeedback!.note).toMatch(/restarted at t = 0.*1 recorded change of SW1 dropped/);

    t.lab.runUntil(20);
    t.pump();
    t.lab.switches.setBuffer('SW2', 1.5);
    t.pump();
    st = t.lab.getState();
    expect(st.status).toMatchObject({ nowMs: 20 });
    expect(st.current!.scenario.nodes.find((n) => n.id === 'SW2')!.buffer_cells).toBeUndefined();
    expect(st.switchFeedback).toMatchObject({ node: 'SW2', fields: { buffer_cells: expect.stringMatching(/whole number/) } });
    expect(st.problems).toBeNull();
  });
});


/** A lab context holding the two-sources scenario (status as given), whose loads are kept. */
function context(status: RunStatus | null = null) {
  const scenario = JSON.parse(twoSources()) as Scenario;
  let state: LabState = {
    ...INITIAL_STATE,
    catalogue: ENGINE_CATALOGUE,
    status,
    current: { id: scenario.id, scenario, json: twoSources(), origin: 'two-sources', place: { kind: 'library', id: 'two-sources' } },
  };
  const loads: (Load | null)[] = [];
  const live: [string, string, number][] = [];
  const ctx: LabContext = {
    state: () => state,
    set: (patch) => (state = { ...state, ...patch }),
    dispatch: (_origin, make) => loads.push(make(state.current!.scenario)),
  };
  const commands = new SwitchCommands(ctx, (...args) => live.push(args));
  const loaded = () => JSON.parse(loads.at(-1)!.json) as Scenario;
  return { commands, loads, live, loaded, state: () => state };
}

const status = (mode: RunStatus['mode'], nowMs: number) => runStatus(mode, nowMs);

describe('switch commands', () => {
  it('a parameter edit applies live while the run is under way, else as its starting value', () => {
    expect(paramEditMode(null)).toBe('start');
    expect(paramEditMode(status('paused', 0))).toBe('start');
    expect(paramEditMode(status('paused', 5))).toBe('live');
    expect(paramEditMode(status('playing', 0))).toBe('live');
    expect(paramEditMode(status('seeking', 0))).toBe('live');
    expect(paramEditMode(status('done', 100))).toBe('restart');
  });

  it('each setting is an edit of the switch, with a note to show once it is loaded', () => {
    const t = context();
    t.commands.setScheduler('SW1', 'per_vc');
    expect(t.loaded().nodes.find((n) => n.id === 'SW1')!.scheduler).toBe('per_vc');
    t.commands.setVsvd('SW1', true);
    expect(t.loaded().nodes.find((n) => n.id === 'SW1')!.vsvd).toBe(true);
    expect(t.loads.at(-1)!.edit).toEqual({ node: 'SW1', note: 'SW1 is now a virtual source / virtual destination; the run restarted at t = 0.' });
    t.commands.setDiscard('SW2', 'epd');
    t.commands.setEpdThreshold('SW2', 700);
    expect(t.loaded().nodes.find((n) => n.id === 'SW2')!.epd_threshold_cells).toBe(700);
    // Each edit carries its document for the undo history.
    expect(t.loads.every((l) => l!.carried !== null && l!.carried !== 'travel')).toBe(true);
  });

  it('a live parameter goes to the engine; cleared, it goes back to the catalogue default', () => {
    const t = context(status('paused', 30));
    t.commands.setParam('SW1', 'target_utilization', 0.7);
    t.commands.setParam('SW1', 'target_utilization', null);
    expect(t.live).toEqual([
      ['SW1', 'target_utilization', 0.7],
      ['SW1', 'target_utilization', 0.9],
    ]);
    expect(t.loads).toEqual([]);
  });

  it('forgetting the recorded changes is an undo step, recorded as a forgetting: the note goes under them', () => {
    const t = context();
    const changes = [
      { at_ms: 5, node: 'SW1', param: 'target_utilization', value: 0.5 },
      { at_ms: 9, node: 'SW2', param: 'target_utilization', value: 0.7 },
    ];
    t.state().current!.scenario.changes = changes;
    t.commands.clearChanges('SW2');
    expect(t.loaded().changes).toBeUndefined();
    const load = t.loads.at(-1)!;
    expect(load.carried).toEqual({ before: t.state().current!.scenario, next: t.loaded(), kind: 'forget' });
    expect(load.edit).toEqual({ node: 'SW2', note: 'Forgot the 2 recorded changes; the run restarted at t = 0. Undo (Ctrl+Z) brings them back.', at: 'changes', undoable: true });
    // Said under the changes, with Undo and Redo buttons.
    expect(switchEditLoaded(load.edit!)).toMatchObject({ node: 'SW2', at: 'changes', undoable: true });
  });

  it('says what an undo or redo of forgetting the recorded changes did, and tells it from a live change', () => {
    const s = JSON.parse(twoSources()) as Scenario;
    const one = [{ at_ms: 30, node: 'SW1', param: 'target_utilization', value: 0.6 }];
    const two = [...one, { at_ms: 60, node: 'SW2', param: 'delta', value: 0.2 }];
    expect(forgetTravelled('undo', s, { ...s, changes: two }, 42.5)).toEqual({
      node: 'SW1',
      at: 'changes',
      undoable: true,
      note:
        'Undone: forgetting the recorded changes. The 2 recorded changes are back (at 30.00 ms: SW1 target_utilization → 0.6; ' +
        'at 60.00 ms: SW2 delta → 0.2). The run was replayed with them to t = 42.50 ms.',
    });
    expect(forgetTravelled('redo', { ...s, changes: one }, s, 0)!.note).toBe(
      'Redone: the recorded change forgotten again (at 30.00 ms: SW1 target_utilization → 0.6). The run restarted at t = 0 without it.',
    );
    // Undoing or redoing a live change is not forgetting (the lab asks liveChangeTravelled first).
    expect(forgetTravelled('redo', s, { ...s, changes: one }, 10)).toBeNull();
    expect(forgetTravelled('undo', { ...s, changes: one }, s, 10)).toBeNull();
    expect(forgetTravelled('undo', { ...s, changes: one }, { ...s, changes: two }, 10)).toBeNull();
  });

  it("says what an edit did, or the engine's rules at the fields it refused", () => {
    expect(switchEditLoaded({ node: 'SW1', note: 'done' })).toEqual({ node: 'SW1', fields: {}, other: [], note: 'done' });
    const s = JSON.parse(twoSources()) as Scenario;
    const i = s.nodes.findIndex((n) => n.id === 'SW2');
    const fb = switchEditRefused(s, { node: 'SW2', note: 'done' }, [
      { path: `nodes[${i}].buffer_cells`, rule: 'too small' },
      { path: 'run.duration_ms', rule: 'must be > 0' },
    ]);
    expect(fb).toEqual({ node: 'SW2', fields: { buffer_cells: 'too small' }, other: [{ path: 'run.duration_ms', rule: 'must be > 0' }], note: null });
    expect(liveChangeRefused({ node: 'SW1', param: 'x' }, { path: 'value', rule: 'x = 3 is out of range' }).fields).toEqual({
      'params.x': 'x = 3 is out of range',
    });
    expect(liveChangeRefused({ node: 'SW9', param: 'x' }, { path: 'node', rule: "no node has id 'SW9'" }).fields).toEqual({
      node: "no node has id 'SW9'",
    });
  });

  it('says what an undo or redo of a live change did: the change, the recorded ones it replaced, where the run is', () => {
    const s = JSON.parse(twoSources()) as Scenario;
    const replaced = [
      { at_ms: 50, node: 'SW1', param: 'target_utilization', value: 0.95 },
      { at_ms: 70, node: 'SW1', param: 'target_utilization', value: 0.8 },
    ];
    const other = { at_ms: 60, node: 'SW1', param: 'delta', value: 0.2 };
    const before = { ...s, changes: [...replaced, other] };
    const after = { ...s, changes: [other, { at_ms: 30, node: 'SW1', param: 'target_utilization', value: 0.6 }] };
    expect(liveChangeTravelled('undo', after, before, 42.5)).toEqual({
      node: 'SW1',
      undoable: true,
      note:
        "Undone: SW1's target_utilization = 0.6 from 30.00 ms on. The changes of target_utilization it replaced are back " +
        '(at 50.00 ms → 0.95, at 70.00 ms → 0.8). The run was replayed without it to t = 42.50 ms.',
    });
    expect(liveChangeTravelled('redo', before, after, 0)).toEqual({
      node: 'SW1',
      undoable: true,
      note:
        "Redone: SW1's target_utilization = 0.6 from 30.00 ms on. It replaces again the changes of target_utilization recorded " +
        'for later (at 50.00 ms → 0.95, at 70.00 ms → 0.8). The run restarted at t = 0 with it.',
    });
    // A change that replaced nothing; a step that makes none is no live change's.
    const alone = { ...s, changes: [other] };
    expect(liveChangeTravelled('undo', alone, s, 10)!.note).toBe(
      "Undone: SW1's delta = 0.2 from 60.00 ms on. The run was replayed without it to t = 10.00 ms.",
    );
    expect(liveChangeTravelled('redo', alone, s, 10)).toBeNull();
  });
});
