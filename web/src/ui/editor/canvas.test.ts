import { describe, expect, it } from 'vitest';
import { LIBRARY } from '../../scenario/library';
import {
  crosses,
  editedOrigin,
  inspectedConnection,
  labelBox,
  labelScale,
  linkLabel,
  linksOnRoute,
  nodeBox,
  nodeSize,
  NEW_NODE_CLEARANCE,
  nudged,
  NUDGE,
  pickable,
  placeForNew,
  placeLinkLabels,
  positions,
  selectionIn,
  tabOrder,
} from './canvas';

const lib = (id: string) => LIBRARY.entries.find((e) => e.id === id)!.scenario;

describe('labelScale: presenting, a label reads at the least size on screen at any zoom', () => {
  it('grows a label as the view zooms out below its own size, never shrinks it', () => {
    expect(labelScale(12, 0.5, 16) * 12 * 0.5).toBeCloseTo(16, 9);
    expect(labelScale(12, 1, 16)).toBeCloseTo(16 / 12, 9);
    expect(labelScale(12, 2, 16)).toBe(1);
    expect(labelScale(12, 0, 16)).toBe(1);
  });
});

describe('network editor view helpers', () => {
  it('shrinks crowded end systems and drops labels that would not fit', () => {
    expect(nodeSize(lib('two-sources'))).toEqual({ r: 17, nodeLabels: true, linkLabels: true });
    const many = nodeSize(lib('one-at-a-time'));
    expect(many.r).toBeLessThan(12);
    expect(many.r).toBeGreaterThanOrEqual(4);
    expect(many.nodeLabels).toBe(false);
    expect(many.linkLabels).toBe(false);
  });

  // QA: "+ Source" put S18 exactly on S3 in upstream, and in two-sources 20 units from S2,
  // which shrank every end system to a dot and hid all the names.
  it('puts a new node clear of every other, in its kind\'s column, so that no node shrinks or hides', () => {
    for (const e of LIBRARY.entries) {
      const before = nodeSize(e.scenario);
      const xs = (kind: string) => e.scenario.nodes.filter((n) => n.kind === kind).map((n) => n.x ?? 0);
      for (const kind of ['source', 'switch', 'destination'] as const) {
        const at = placeForNew(e.scenario, kind);
        for (const n of e.scenario.nodes) {
          const d = Math.hypot((n.x ?? 0) - at.x, (n.y ?? 0) - at.y);
          expect(d, `${e.id}: a new ${kind} at ${at.x},${at.y} is ${d.toFixed(0)} from ${n.id}`).toBeGreaterThanOrEqual(NEW_NODE_CLEARANCE);
        }
        const column = xs(kind);
        if (column.length) {
          expect(at.x, `${e.id}: a new ${kind} within its kind's column`).toBeGreaterThanOrEqual(Math.min(...column));
          expect(at.x).toBeLessThanOrEqual(Math.max(...column));
        }
        const after = nodeSize({ ...e.scenario, nodes: [...e.scenario.nodes, { id: 'NEW', kind, x: at.x, y: at.y }] });
        expect(after.r, `${e.id}: end systems keep their size with a new ${kind}`).toBe(before.r);
      }
    }
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

  it('keeps a selection across an undo while its element is still there (its form stays open)', () => {
    const s = lib('two-sources');
    const c2 = { kind: 'connection', id: 'C2' } as const;
    expect(selectionIn(s, c2)).toBe(c2);
    expect(selectionIn(s, { kind: 'node', id: 'S1' })).toEqual({ kind: 'node', id: 'S1' });
    expect(selectionIn(s, { kind: 'link', id: s.links[0].id })).toEqual({ kind: 'link', id: s.links[0].id });
    const without = { ...s, connections: s.connections.filter((c) => c.id !== 'C2') };
    expect(selectionIn(without, c2)).toBeNull();
    // A node's id is not a connection's.
    expect(selectionIn(s, { kind: 'connection', id: 'S1' })).toBeNull();
    expect(selectionIn(s, null)).toBeNull();
  });

  it('tabs through the nodes as a network reads (sources, switches, destinations, by name), then the links', () => {
    const order = tabOrder(lib('gfc1'));
    const s = lib('gfc1');
    expect(order).toHaveLength(s.nodes.length + s.links.length);
    // The file lists the switches first and the end systems in pairs; Tab does not.
    expect(order.slice(0, 4)).toEqual(['node:SA1', 'node:SA2', 'node:SA3', 'node:SB1']);
    const kinds = order.filter((k) => k.startsWith('node:')).map((k) => s.nodes.find((n) => `node:${n.id}` === k)!.kind);
    expect(kinds).toEqual([...kinds].sort((a, b) => ['source', 'switch', 'destination'].indexOf(a) - ['source', 'switch', 'destination'].indexOf(b)));
    expect(order.filter((k) => k.startsWith('node:SW'))).toEqual(['node:SW1', 'node:SW2', 'node:SW3', 'node:SW4', 'node:SW5']);
    const links = order.slice(s.nodes.length);
    expect(links.slice(8, 11)).toEqual(['link:L9', 'link:L10', 'link:L11']); // L10 after L9, not after L1
    expect(tabOrder(lib('upstream')).slice(8, 11)).toEqual(['node:S9', 'node:S10', 'node:S11']);
  });

  describe('link labels', () => {
    const overlap = (a: ReturnType<typeof labelBox>, b: ReturnType<typeof labelBox>) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
    /** Every link labelled (the full label, else its name), as the editor asks for them. */
    const place = (id: string) => {
      const s = lib(id);
      const pos = positions(s, new Map());
      const { r } = nodeSize(s);
      return { s, pos, r, placed: placeLinkLabels(s, pos, r, new Map(s.links.map((l) => [l.id, [linkLabel(l), l.id]]))) };
    };

    it.each(['two-sources', 'three-sources', 'parking-lot-5', 'gfc1', 'upstream'])('%s: no label covers a node, another label or its own line', (id) => {
      const { s, pos, r, placed } = place(id);
      expect(placed.size).toBeGreaterThan(s.links.length / 2);
      const boxes = [...placed.entries()].map(([lid, p]) => ({ lid, box: labelBox(p.x, p.y, p.text) }));
      for (const { lid, box } of boxes) {
        for (const n of s.nodes) expect(overlap(nodeBox(n.kind, pos.get(n.id)!, r), box), `${lid} on ${n.id}`).toBe(false);
        for (const o of boxes) if (o.lid !== lid) expect(overlap(o.box, box), `${lid} on ${o.lid}'s label`).toBe(false);
        const l = s.links.find((k) => k.id === lid)!;
        const a = pos.get(l.from)!;
        const b = pos.get(l.to)!;
        expect(crosses(a, b, box), `${lid} across its line`).toBe(false);
        // Beside its own link: the centre within a label's half width (and a line) of it.
        const c = { x: (box.x0 + box.x1) / 2, y: (box.y0 + box.y1) / 2 };
        const along = ((c.x - a.x) * (b.x - a.x) + (c.y - a.y) * (b.y - a.y)) / ((b.x - a.x) ** 2 + (b.y - a.y) ** 2);
        const t = Math.max(0, Math.min(1, along));
        const gap = Math.hypot(c.x - (a.x + t * (b.x - a.x)), c.y - (a.y + t * (b.y - a.y)));
        expect(gap, `${lid} far from its link`).toBeLessThanOrEqual((box.x1 - box.x0) / 2 + 30);
      }
    });

    // QA h65: presenting, the labels are set larger as the view zooms out (labelScale); placed
    // at that size they still cover no node, no other label and not their own line.
    it.each([1.5, 2])('two-sources and gfc1, labels %s times their size: none covers a node, another label or its own line', (scale) => {
      for (const id of ['two-sources', 'gfc1']) {
        const s = lib(id);
        const pos = positions(s, new Map());
        const { r } = nodeSize(s);
        const placed = placeLinkLabels(s, pos, r, new Map(s.links.map((l) => [l.id, [linkLabel(l), l.id]])), scale);
        expect(placed.size, id).toBeGreaterThan(0);
        const boxes = [...placed.entries()].map(([lid, p]) => ({ lid, box: labelBox(p.x, p.y, p.text, scale) }));
        for (const { lid, box } of boxes) {
          for (const n of s.nodes) expect(overlap(nodeBox(n.kind, pos.get(n.id)!, r), box), `${id}: ${lid} on ${n.id}`).toBe(false);
          for (const o of boxes) if (o.lid !== lid) expect(overlap(o.box, box), `${id}: ${lid} on ${o.lid}'s label`).toBe(false);
          const l = s.links.find((k) => k.id === lid)!;
          expect(crosses(pos.get(l.from)!, pos.get(l.to)!, box), `${id}: ${lid} across its line`).toBe(false);
        }
      }
    });

    it('says it all where there is room, and only the name on a link too short for more', () => {
      const two = place('two-sources').placed;
      expect(two.get('L1')!.text).toBe('L1 · 155.52 Mbps · 1 km');
      expect(two.get('L5')!.text).toBe('L5 · 155.52 Mbps · 1 km');
      // SW1–SW2 of parking-lot-5: 130 units between centres, 82 between the boxes.
      const lot = place('parking-lot-5');
      expect(lot.placed.get('L6')!.text).toBe('L6');
      // Where the old label sat (the middle, 6 above, full text) it ran under both switches.
      const sw1 = lot.pos.get('SW1')!;
      const sw2 = lot.pos.get('SW2')!;
      const old = labelBox((sw1.x + sw2.x) / 2, sw1.y - 6 - 5, linkLabel(lot.s.links.find((l) => l.id === 'L6')!));
      expect(overlap(nodeBox('switch', sw1, lot.r), old) && overlap(nodeBox('switch', sw2, lot.r), old)).toBe(true);
    });

    it('labels only the links asked for, and a label that fits nowhere is left out', () => {
      const s = lib('parking-lot-5');
      const pos = positions(s, new Map());
      expect([...placeLinkLabels(s, pos, 17, new Map([['L6', ['L6']]])).keys()]).toEqual(['L6']);
      // SW1 and SW2 side by side with S1 above and S2 below them: the name fits nowhere near.
      const boxed = new Map(pos);
      for (const [id, at] of [['SW1', { x: 0, y: 0 }], ['SW2', { x: 40, y: 0 }], ['S1', { x: 20, y: -30 }], ['S2', { x: 20, y: 30 }]] as const) boxed.set(id, at);
      expect(placeLinkLabels(s, boxed, 17, new Map([['L6', ['L6']]])).has('L6')).toBe(false);
    });

    it('tells whether a segment passes through a box', () => {
      const box = { x0: 0, y0: 0, x1: 10, y1: 10 };
      expect(crosses({ x: -5, y: 5 }, { x: 15, y: 5 }, box)).toBe(true);
      expect(crosses({ x: -5, y: -5 }, { x: 15, y: 15 }, box)).toBe(true);
      expect(crosses({ x: -5, y: 12 }, { x: 15, y: 12 }, box)).toBe(false);
      expect(crosses({ x: -5, y: 5 }, { x: -1, y: 5 }, box)).toBe(false); // stops short
      expect(crosses({ x: 21, y: 0 }, { x: 0, y: 21 }, box)).toBe(false); // passes by the corner
      expect(crosses({ x: 5, y: 20 }, { x: 5, y: -20 }, box)).toBe(true); // vertical
    });
  });
});
