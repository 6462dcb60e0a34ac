import { describe, expect, it } from 'vitest';
import { LIBRARY } from '../../scenario/library';
import { editedOrigin, linkLabel, nodeSize, zoomAbout } from './NetworkEditor';

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
});
