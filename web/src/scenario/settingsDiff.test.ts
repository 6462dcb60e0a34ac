import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../contract/scenario';
import { describePinned, settingsDiff } from './settingsDiff';

const lib = (id: string) => JSON.parse(readFileSync(resolve(__dirname, `../../../scenarios/${id}.json`), 'utf8')) as Scenario;

describe('settingsDiff', () => {
  it('names a changed parameter, algorithm and seed by their --set paths', () => {
    const a = lib('two-sources');
    const b = structuredClone(a);
    const sw = b.nodes.find((n) => n.kind === 'switch')!;
    sw.algorithm = 'erica_plus';
    sw.params = { ...(sw.params ?? {}), target_delay_us: 300 };
    b.run.seed = 7;
    const paths = settingsDiff(a, b).map((d) => d.path);
    expect(describePinned(a, b, 1)).toBe(`seed 1 (now 7); 2 more`);
    expect(describePinned(a, b)).toContain(`${sw.id} target_delay_us default (now 300)`);
    expect(paths).toContain(`nodes.${sw.id}.algorithm`);
    expect(paths).toContain(`nodes.${sw.id}.params.target_delay_us`);
    expect(paths).toContain('run.seed');
    expect(settingsDiff(a, b).find((d) => d.path === 'run.seed')).toEqual({ path: 'run.seed', a: a.run.seed, b: 7 });
  });

  it('ignores the prose and where nodes are drawn', () => {
    const a = lib('two-sources');
    const b = structuredClone(a);
    b.name = 'renamed';
    b.lesson = 'another lesson';
    b.nodes[0].x = (b.nodes[0].x ?? 0) + 50;
    expect(settingsDiff(a, b)).toEqual([]);
    expect(describePinned(a, b)).toBe('same settings');
  });

  it('says the pinned values first, the current ones in brackets, and counts the rest', () => {
    const a = lib('fecn-n0-10');
    const b = structuredClone(a);
    const sw = b.nodes.find((n) => n.kind === 'switch')!;
    b.run.seed = 3;
    sw.params = { ...sw.params, n0: 200, a: 1.2, b: 1.01, c: 0.2 };
    const text = describePinned(a, b, 2);
    expect(text).toMatch(/^seed 1 \(now 3\); SW1 \w+ [\d.]+ \(now [\d.]+\); 3 more$/);
    const added = structuredClone(a);
    added.changes = [{ at_ms: 5, node: 'SW1', param: 'n0', value: 20 }];
    expect(describePinned(a, added)).toBe('changes 0 (now 1)');
  });
});
