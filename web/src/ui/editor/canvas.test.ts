import { describe, expect, it } from 'vitest';
import { LIBRARY } from '../../scenario/library';
import { editedOrigin, inspectedConnection, linkLabel, linksOnRoute, nodeSize, nudged, NUDGE, pickable, positions } from './canvas';

const lib = (id: string) => LIBRARY.entries.find((e) => e.id === id)!.scenario;

describe('network editor view helpers', () => {
  it('shrinks crowded end systems and drops labels that would not fit', () => {
    expect(nodeSize(lib('two-sources'))).toEqual({ r: 17, nodeLabels: true, linkLabels: true });
    const many = nodeSize(lib('one-at-a-time'));
    expect(many.r).toBeLessThan(12);
    expect(many.r).toBeGreaterThanOrEqual(4);
    expect(many.nodeLabels).toBe(false);
    expect(many.linkLabels).toBe(false);
  });

  it('labels links with capacity and length, and marks edited origins once', () => {
    expect(linkLabel({ id: 'L3', from: 'a', to: 'b', rate_mbps: 155.52, distance_km: 1000 })).toBe('L3 · 155.52 Mbps · 1000 km');
    expect(linkLabel({ id: 'L1', from: 'a', to: 'b', rate_mbps: 10_000, delay_us: 2 })).toBe('L1 · 10 Gbps · 2 µs');
    expect(editedOrigin('gfc1')).toBe('gfc1 (edited)');
    expect(editedOrigin('gfc1 (edited)')).toBe('gfc1 (edited)');
  });

  it('moves a node by a step per arrow key, five steps with Shift, and ignores other keys', () => {
    const at = { x: 100, y: 200 };
    expect(nudged(at, 'ArrowLeft', false)).toEqual({ x: 100 - NUDGE.step, y: 200 });
    expect(nudged(at, 'ArrowDown', false)).toEqual({ x: 100, y: 200 + NUDGE.step });
    expect(nudged(at, 'ArrowUp', true)).toEqual({ x: 100, y: 200 - NUDGE.shiftStep });
    expect(nudged(at, 'ArrowRight', true)).toEqual({ x: 100 + NUDGE.shiftStep, y: 200 });
    expect(NUDGE.shiftStep).toBeGreaterThan(NUDGE.step);
    expect(nudged(at, 'a', false)).toBeNull();
  });

  it('draws dragged nodes where the drag has them, the others where they are', () => {
    const s = lib('two-sources');
    const s1 = s.nodes.find((n) => n.id === 'S1')!;
    const s2 = s.nodes.find((n) => n.id === 'S2')!;
    expect(positions(s, new Map()).get('S1')).toEqual({ x: s1.x, y: s1.y });
    const at = positions(s, new Map([['S1', { x: 5, y: 6 }]]));
    expect(at.get('S1')).toEqual({ x: 5, y: 6 });
    expect(at.get('S2')).toEqual({ x: s2.x, y: s2.y });
  });

  it('lets a connection start at a source and end at a destination only', () => {
    expect(pickable('flow', null, 'source', 'S1')).toBe(true);
    expect(pickable('flow', null, 'switch', 'SW1')).toBe(false);
    expect(pickable('flow', 'S1', 'destination', 'D1')).toBe(true);
    expect(pickable('link', 'SW1', 'switch', 'SW1')).toBe(false);
    expect(pickable('select', 'SW1', 'switch', 'SW1')).toBe(true);
  });

  it("inspects a selected source's first connection and highlights its route both ways", () => {
    const s = lib('two-sources');
    const c = inspectedConnection(s, { kind: 'node', id: 'S1' })!;
    expect(c.from).toBe('S1');
    expect(inspectedConnection(s, { kind: 'node', id: 'SW1' })).toBeUndefined();
    const on = linksOnRoute(s, c);
    expect(on.has('S1>SW1') && on.has('SW1>S1')).toBe(true);
  });
});
