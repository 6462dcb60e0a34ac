import { describe, expect, it } from 'vitest';
import type { Scenario } from '../contract/scenario';
import { twoSources } from '../test/fakes';
import { addVirtualPath, deleteVirtualPath, nextVirtualPathId, problemsOfVirtualPath } from './virtualPathEdits';

const base = () => JSON.parse(twoSources()) as Scenario;

describe('virtual path edits', () => {
  it('adds a path with the next free id, leaving the input untouched', () => {
    const s = base();
    const r = addVirtualPath(s, { connections: ['C1', 'C2'], from: 'SW1', to: 'SW2', service: 'ubr' });
    expect(r.id).toBe('VP1');
    expect(r.index).toBe(0);
    expect(r.scenario.virtual_paths).toEqual([{ id: 'VP1', connections: ['C1', 'C2'], from: 'SW1', to: 'SW2', service: 'ubr' }]);
    expect('virtual_paths' in s).toBe(false);
    const again = addVirtualPath(r.scenario, { connections: ['C3'], from: 'SW1', to: 'SW2', service: 'abr' });
    expect(again.id).toBe('VP2');
    expect(again.index).toBe(1);
  });

  it('takes the first free id after a deletion', () => {
    const s = { ...base(), virtual_paths: [{ id: 'VP2', connections: ['C1'], from: 'SW1', to: 'SW2' }] };
    expect(nextVirtualPathId(s)).toBe('VP1');
  });

  it('deletes a path, and the list with its last path', () => {
    const one = addVirtualPath(base(), { connections: ['C1'], from: 'SW1', to: 'SW2', service: 'abr' }).scenario;
    const two = addVirtualPath(one, { connections: ['C2'], from: 'SW1', to: 'SW2', service: 'abr' }).scenario;
    expect(deleteVirtualPath(two, 'VP1').virtual_paths!.map((vp) => vp.id)).toEqual(['VP2']);
    expect('virtual_paths' in deleteVirtualPath(one, 'VP1')).toBe(false);
    expect(() => deleteVirtualPath(one, 'VP9')).toThrow(/no virtual path/);
  });

  it("sorts the engine's problems by field of the path being added", () => {
    const { fields, other } = problemsOfVirtualPath(1, [
      { path: 'virtual_paths[1].connections[0]', rule: "the path of 'C1' must cross switch 'SW2' and then switch 'SW1'" },
      { path: 'virtual_paths[1].to', rule: "no switch has id 'X'" },
      { path: 'virtual_paths[0].from', rule: 'elsewhere' },
    ]);
    expect(fields).toEqual({
      connections: "the path of 'C1' must cross switch 'SW2' and then switch 'SW1'",
      to: "no switch has id 'X'",
    });
    expect(other.map((p) => p.path)).toEqual(['virtual_paths[0].from']);
  });
});
