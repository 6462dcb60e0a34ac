import { describe, expect, it } from 'vitest';
import { LIBRARY } from '../../scenario/library';
import { editedOrigin, inspectedConnection, linkLabel, linksOnRoute, nodeSize, panned, pickable, positions, zoomAbout, zoomCentre } from './canvas';

const lib = (id: string) => LIBRARY.entries.find((e) => e.id === id)!.scenario;

describe('network editor view helpers', () => {
  it('zooms about a point that stays where it is on screen', () => {
    const b = { x: 0, y: 0, w: 900, h: 460 };
    const z = zoomAbout(b, 300, 100, 0.5);
    expect(z).toEqual({ x: 150, y: 50, w: 450, h: 230 });
    // The point keeps its relative place in the view.
    expect((300 - z.x) / z.w).toBeCloseTo((300 - b.x) / b.w);
    expect(zoomAbout(b, 0, 0, 1e-6).w).toBe(60);
  });

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

  it('pans against the pointer and zooms the buttons about the centre', () => {
    const b = { x: 0, y: 0, w: 900, h: 460 };
    expect(panned(b, 10, -20, 2)).toEqual({ x: -20, y: 40, w: 900, h: 460 });
    const z = zoomCentre(b, 0.5);
    expect(z.x + z.w / 2).toBeCloseTo(450);
    expect(z.y + z.h / 2).toBeCloseTo(230);
  });

  it('draws a dragged node at the pointer once it has moved, the others where they are', () => {
    const s = lib('two-sources');
    const s1 = s.nodes.find((n) => n.id === 'S1')!;
    expect(positions(s, { id: 'S1', x: 5, y: 6, moved: false }).get('S1')).toEqual({ x: s1.x, y: s1.y });
    expect(positions(s, { id: 'S1', x: 5, y: 6, moved: true }).get('S1')).toEqual({ x: 5, y: 6 });
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
