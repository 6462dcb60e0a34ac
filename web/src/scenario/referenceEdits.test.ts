import { describe, expect, it } from 'vitest';
import type { Scenario } from '../contract/scenario';
import { keepResolvableReferences } from './referenceEdits';
import { deleteConnection, deleteLink, deleteNode, emptyNetwork } from './topologyEdits';

const base: Scenario = {
  version: 1,
  id: 't',
  run: { duration_ms: 10 },
  nodes: [
    { id: 'S1', kind: 'source' },
    { id: 'S2', kind: 'source' },
    { id: 'SW1', kind: 'switch' },
    { id: 'SW2', kind: 'switch' },
    { id: 'D1', kind: 'destination' },
    { id: 'D2', kind: 'destination' },
  ],
  links: [
    { id: 'L1', from: 'S1', to: 'SW1', rate_mbps: 100, distance_km: 1 },
    { id: 'L2', from: 'S2', to: 'SW1', rate_mbps: 100, distance_km: 1 },
    { id: 'L3', from: 'SW1', to: 'SW2', rate_mbps: 100, distance_km: 1 },
    { id: 'L4', from: 'SW2', to: 'D1', rate_mbps: 100, distance_km: 1 },
    { id: 'L5', from: 'SW2', to: 'D2', rate_mbps: 100, distance_km: 1 },
  ],
  connections: [
    { id: 'C1', from: 'S1', to: 'D1', group: 'G' },
    { id: 'C2', from: 'S2', to: 'D2' },
  ],
  reference: [
    { about: { connection: 'C2' }, quantity: 'mean_rate_mbps', published: 50, source: 'Fig. 1' },
    { about: { group: 'G' }, quantity: 'mean_rate_mbps', published: 50, source: 'Fig. 1' },
    { about: { port: 'SW1->SW2' }, quantity: 'max_queue_cells', published: 10, source: 'Table 1' },
    { about: { link: 'L3' }, quantity: 'utilization', published: 1, source: 'Table 1' },
    { about: 'network', quantity: 'jain_index', published: 1, source: 'Table 2' },
  ],
};
const abouts = (s: Scenario) => (s.reference ?? []).map((r) => r.about);

describe('published figures follow the network', () => {
  it('keeps every figure whose element exists (the same object)', () => {
    expect(keepResolvableReferences(base)).toBe(base);
  });

  it('drops the figures about a deleted connection, group, link or port', () => {
    expect(abouts(deleteConnection(base, 'C2'))).toEqual([{ group: 'G' }, { port: 'SW1->SW2' }, { link: 'L3' }, 'network']);
    expect(abouts(deleteConnection(base, 'C1'))).toEqual([{ connection: 'C2' }, { port: 'SW1->SW2' }, { link: 'L3' }, 'network']);
    // Without L3 both connections lose their route, and the port and link are gone.
    expect(abouts(deleteLink(base, 'L3'))).toEqual(['network']);
    expect(abouts(deleteNode(base, 'SW2'))).toEqual(['network']);
  });

  it('a new network drawn from this one carries none', () => {
    expect(emptyNetwork(base, { ethernet: [] }).reference).toBeUndefined();
  });
});
