import { describe, expect, it } from 'vitest';
import { LIBRARY } from './library';
import type { Scenario } from '../contract/scenario';
import { EditHistory } from './history';
import {
  addConnection,
  addLink,
  addNode,
  deleteConnection,
  deleteLink,
  deleteNode,
  deleteNodes,
  emptyNetwork,
  moveNode,
  moveNodes,
  sameButLayout,
  nextId,
  setLink,
  shortestPath,
  loopFreePaths,
  setPath,
} from './topologyEdits';
import { ENGINE_CATALOGUE as CAT } from '../test/engineCatalogue';

/** The engine's default algorithms and link fields, as its catalogue gives them. */
const DEFAULTS = CAT.default_algorithm;
const LINK = CAT.fields.link;
const lib = (id: string) => structuredClone(LIBRARY.entries.find((e) => e.id === id)!.scenario);
const ok = <T extends { ok: boolean }>(r: T) => {
  if (!r.ok) throw new Error(JSON.stringify(r));
  return r as Extract<T, { ok: true }>;
};

describe('topology edits', () => {
  it('names new nodes, links and connections with the first free number', () => {
    expect(nextId([{ id: 'S1' }, { id: 'S3' }], 'S')).toBe('S2');
    const s = lib('two-sources');
    const a = addNode(s, 'switch', 300.4, 99.6, DEFAULTS);
    expect(a.id).toBe('SW3');
    expect(a.scenario.nodes.at(-1)).toEqual({ id: 'SW3', kind: 'switch', algorithm: 'erica', x: 300, y: 100 });
    // The algorithm is the catalogue's default, whatever it is.
    expect(addNode(s, 'switch', 0, 0, { atm: 'erica_plus', ethernet: 'none' }).scenario.nodes.at(-1)!.algorithm).toBe('erica_plus');
    expect(s.nodes).toHaveLength(6); // the input is untouched
    expect(addNode(s, 'source', 0, 0, DEFAULTS).id).toBe('S3');
    expect(moveNode(s, 'S1', 10, 20).nodes[0]).toMatchObject({ x: 10, y: 20 });
  });

  it('moves and deletes a box selection of nodes as one edit', () => {
    const s = lib('two-sources');
    const moved = moveNodes(s, new Map([['S1', { x: 10.4, y: 20 }], ['SW1', { x: 30, y: 40.6 }]]));
    expect(moved.nodes.find((n) => n.id === 'S1')).toMatchObject({ x: 10, y: 20 });
    expect(moved.nodes.find((n) => n.id === 'SW1')).toMatchObject({ x: 30, y: 41 });
    expect(moved.nodes.find((n) => n.id === 'S2')).toEqual(s.nodes.find((n) => n.id === 'S2'));
    expect(sameButLayout(s, moved)).toBe(true);
    const gone = deleteNodes(s, ['S1', 'D2']);
    expect(gone.nodes.map((n) => n.id).sort()).toEqual(s.nodes.map((n) => n.id).filter((id) => id !== 'S1' && id !== 'D2').sort());
    expect(gone.connections).toEqual([]); // C1 from S1, C2 to D2
    expect(gone).toEqual(deleteNode(deleteNode(s, 'S1'), 'D2'));
  });

  it('tells a move (the same run) from an edit of the network', () => {
    const s = lib('two-sources');
    expect(sameButLayout(s, moveNode(s, 'S1', 10, 20))).toBe(true);
    expect(sameButLayout(s, addNode(s, 'switch', 10, 20, DEFAULTS).scenario)).toBe(false);
    expect(sameButLayout(s, deleteConnection(s, 'C1'))).toBe(false);
    expect(sameButLayout(s, { ...s, run: { ...s.run, duration_ms: 1 } })).toBe(false);
  });

  it('draws a two-switch network with three sources from an empty canvas', () => {
    let s = emptyNetwork(lib('two-sources'), CAT.fields);
    expect(s).toMatchObject({ nodes: [], links: [], connections: [] });
    expect(s.lesson).toBeUndefined();
    for (const [kind, x, y] of [
      ['switch', 200, 100],
      ['switch', 400, 100],
      ['source', 50, 40],
      ['source', 50, 100],
      ['source', 50, 160],
      ['destination', 550, 40],
      ['destination', 550, 100],
      ['destination', 550, 160],
    ] as const) s = addNode(s, kind, x, y, DEFAULTS).scenario;
    for (const [a, b] of [
      ['S1', 'SW1'],
      ['S2', 'SW1'],
      ['S3', 'SW1'],
      ['SW1', 'SW2'],
      ['SW2', 'D1'],
      ['SW2', 'D2'],
      ['SW2', 'D3'],
    ]) s = ok(addLink(s, a, b, LINK)).scenario;
    expect(s.links[0]).toMatchObject({ id: 'L1', from: 'S1', to: 'SW1', rate_mbps: 155.52, distance_km: 1 });
    for (const i of [1, 2, 3]) s = ok(addConnection(s, `S${i}`, `D${i}`)).scenario;
    expect(s.connections.map((c) => [c.id, c.from, c.to])).toEqual([
      ['C1', 'S1', 'D1'],
      ['C2', 'S2', 'D2'],
      ['C3', 'S3', 'D3'],
    ]);
    expect(shortestPath(s, 'S2', 'D2')).toEqual(['S2', 'SW1', 'SW2', 'D2']);
  });

  it('refuses loops, duplicates, end systems joined directly, and connections without a path', () => {
    const s = lib('two-sources');
    expect(addLink(s, 'SW1', 'SW1', LINK)).toEqual({ ok: false, rule: 'a link joins two different nodes' });
    expect(addLink(s, 'SW2', 'SW1', LINK)).toEqual({ ok: false, rule: 'SW2 and SW1 are already linked' });
    expect(addLink(s, 'S1', 'D1', LINK)).toEqual({ ok: false, rule: 'sources and destinations connect to switches' });
    expect(addConnection(s, 'D1', 'S1')).toEqual({ ok: false, rule: 'a connection starts at a source' });
    const lone = addNode(s, 'destination', 0, 0, DEFAULTS);
    expect(addConnection(lone.scenario, 'S1', lone.id)).toEqual({ ok: false, rule: 'no path of links from S1 to D3' });
  });

  it('routes through switches only, never through an end system', () => {
    let s = lib('two-sources');
    // A link from D1 back to SW1 would let a path relay through D1 if end systems relayed.
    s = ok(addLink(s, 'SW1', 'D1', LINK)).scenario;
    expect(shortestPath(s, 'S1', 'D1')).toEqual(['S1', 'SW1', 'D1']);
    expect(shortestPath(s, 'S1', 'D2')).toEqual(['S1', 'SW1', 'SW2', 'D2']);
  });

  it('deleting a node takes its links, its connections and its recorded changes along', () => {
    const s: Scenario = { ...lib('two-sources'), changes: [{ at_ms: 5, node: 'SW2', param: 'target_utilization', value: 0.5 }] };
    const d = deleteNode(s, 'S1');
    expect(d.nodes.map((n) => n.id)).not.toContain('S1');
    expect(d.links.map((l) => l.id)).toEqual(['L2', 'L3', 'L4', 'L5']);
    expect(d.connections.map((c) => c.id)).toEqual(['C2']);
    expect(d.changes).toHaveLength(1);
    const e = deleteNode(s, 'SW2');
    expect(e.connections).toEqual([]);
    expect(e.changes).toBeUndefined();
    expect(e.links.map((l) => l.id)).toEqual(['L1', 'L2']);
  });

  it('deleting a link drops the connections it leaves without a route; deleting a connection only it', () => {
    const s = lib('two-sources');
    expect(deleteLink(s, 'L4').connections.map((c) => c.id)).toEqual(['C2']);
    expect(deleteLink(s, 'L3').connections).toEqual([]);
    expect(deleteLink(s, 'nope')).toBe(s);
    expect(deleteConnection(s, 'C1').connections.map((c) => c.id)).toEqual(['C2']);
  });

  it('new Ethernet switches run FECN and new Ethernet links copy the network first link', () => {
    const s = lib('fecn-hotspot');
    const a = addNode(s, 'switch', 0, 0, DEFAULTS);
    expect(a.scenario.nodes.at(-1)!.algorithm).toBe('fecn');
    const l = ok(addLink(a.scenario, a.id, s.nodes.find((n) => n.kind === 'switch')!.id, LINK)).scenario.links.at(-1)!;
    expect(l.rate_mbps).toBe(s.links[0].rate_mbps);
  });
});

describe('link settings', () => {
  it('sets capacity and length; a distance replaces a delay and the reverse; bad values are refused by field', () => {
    const s = lib('two-sources');
    const a = ok(setLink(s, 'L3', { rate_mbps: 622.08 }, LINK)).scenario;
    expect(a.links[2]).toEqual({ ...s.links[2], rate_mbps: 622.08 });
    const b = ok(setLink(a, 'L3', { length: { delay_us: 250 } }, LINK)).scenario.links[2];
    expect(b.delay_us).toBe(250);
    expect('distance_km' in b).toBe(false);
    const c = ok(setLink(s, 'L3', { length: { distance_km: 1000 } }, LINK)).scenario.links[2];
    expect(c).toMatchObject({ distance_km: 1000 });
    expect('delay_us' in c).toBe(false);
    expect(setLink(s, 'L3', { rate_mbps: 0 }, LINK)).toEqual({
      ok: false,
      rule: 'rate_mbps = 0 is out of range: must be between 0.001 and 100000 Mbps',
    });
    expect(setLink(s, 'L3', { rate_mbps: NaN }, LINK)).toEqual({ ok: false, rule: 'rate_mbps must be a finite number' });
    expect(setLink(s, 'L3', { length: { distance_km: -1 } }, LINK)).toEqual({
      ok: false,
      rule: 'distance_km = -1 is out of range: must be between 0 and 200000 km',
    });
    expect(setLink(s, 'L9', { rate_mbps: 1 }, LINK)).toEqual({ ok: false, rule: 'no link L9' });
    expect(s.links[2].rate_mbps).toBe(155.52);
  });
});

describe('edit history (undo / redo)', () => {
  it('undoes and redoes edits in order; a new edit clears the redo branch', () => {
    const h = new EditHistory('a');
    h.push('b');
    h.push('c');
    expect(h.undo()).toBe('b');
    expect(h.undo()).toBe('a');
    expect(h.canUndo).toBe(false);
    expect(h.undo()).toBe('a');
    expect(h.redo()).toBe('b');
    h.push('x');
    expect(h.canRedo).toBe(false);
    expect(h.redo()).toBe('x');
    expect(h.undo()).toBe('b');
    h.reset('z');
    expect([h.present, h.canUndo, h.canRedo]).toEqual(['z', false, false]);
  });

  it('keeps a bounded past, and pushing the same document is not an edit', () => {
    const h = new EditHistory(0, 3);
    for (let i = 1; i <= 5; i++) h.push(i);
    h.push(5);
    let n = 0;
    while (h.canUndo) {
      h.undo();
      n++;
    }
    expect(n).toBe(3);
    expect(h.present).toBe(2);
  });
});

describe('path choice', () => {
  // two-sources plus SW3 between SW1 and SW2: S1 → D1 goes SW1–SW2 or SW1–SW3–SW2.
  const triangle = () => {
    let s = lib('two-sources');
    s = addNode(s, 'switch', 400, 300, DEFAULTS).scenario;
    s = ok(addLink(s, 'SW1', 'SW3', LINK)).scenario;
    return ok(addLink(s, 'SW3', 'SW2', LINK)).scenario;
  };

  it('lists the loop-free paths through switches, the shortest first', () => {
    const s = triangle();
    expect(loopFreePaths(s, 'S1', 'D1')).toEqual([
      ['S1', 'SW1', 'SW2', 'D1'],
      ['S1', 'SW1', 'SW3', 'SW2', 'D1'],
    ]);
    // End systems never relay: no path through S2.
    const viaSource = ok(addLink(s, 'S2', 'SW3', LINK)).scenario;
    expect(loopFreePaths(viaSource, 'S1', 'D1')).toHaveLength(2);
    expect(loopFreePaths(s, 'S1', 'S1')).toEqual([]);
    expect(loopFreePaths(s, 'S1', 'nowhere')).toEqual([]);
    expect(loopFreePaths(lib('two-sources'), 'S1', 'D1')).toEqual([shortestPath(lib('two-sources'), 'S1', 'D1')]);
  });

  it('routes a connection on another path, and the shortest again as no path', () => {
    const s = triangle();
    const long = ok(setPath(s, 'C1', ['S1', 'SW1', 'SW3', 'SW2', 'D1'])).scenario;
    expect(long.connections[0].path).toEqual(['S1', 'SW1', 'SW3', 'SW2', 'D1']);
    expect(ok(setPath(long, 'C1', ['S1', 'SW1', 'SW2', 'D1'])).scenario.connections[0].path).toBeUndefined();
    expect(setPath(s, 'C1', ['S1', 'SW3', 'SW2', 'D1'])).toEqual({ ok: false, rule: 'a path follows links' });
    expect(setPath(s, 'C1', ['S1', 'SW1', 'D1'])).toEqual({ ok: false, rule: 'a path follows links' });
    expect(setPath(s, 'C1', ['S2', 'SW1', 'SW2', 'D1'])).toEqual({ ok: false, rule: "a path must start at 'S1' and end at 'D1'" });
    // Deleting SW3 drops the connection that was routed through it.
    expect(deleteNode(long, 'SW3').connections.map((c) => c.id)).toEqual(['C2']);
  });
});

describe('empty canvas: ATM or Ethernet', () => {
  it('an Ethernet canvas has the ethernet block, FECN switches and 10 Gbps links; ATM drops it', () => {
    let s = emptyNetwork(lib('two-sources'), CAT.fields, 'ethernet');
    expect(s.ethernet).toEqual({ frame_bytes: 1500 });
    expect(s.defaults).toBeUndefined(); // TM 4.0 defaults do not apply to Ethernet sources
    s = addNode(s, 'switch', 300, 200, DEFAULTS).scenario;
    s = addNode(s, 'source', 80, 100, DEFAULTS).scenario;
    expect(s.nodes[0].algorithm).toBe('fecn');
    s = ok(addLink(s, 'S1', 'SW1', LINK)).scenario;
    expect(s.links[0]).toMatchObject({ rate_mbps: 10_000, delay_us: 1 });
    const atm = emptyNetwork(lib('fecn-hotspot'), CAT.fields, 'atm');
    expect(atm.ethernet).toBeUndefined();
    expect(atm.defaults).toBeUndefined();
    expect(emptyNetwork(lib('fecn-hotspot'), CAT.fields).ethernet).toEqual({ frame_bytes: 1500 });
    expect(emptyNetwork(lib('two-sources'), CAT.fields).defaults).toEqual(lib('two-sources').defaults);
  });

  it("a new network takes the catalogue's defaults: the frame size, and an ATM link's capacity", () => {
    const frames = CAT.fields.ethernet.map((f) => (f.name === 'frame_bytes' ? { ...f, default: 9000 } : f));
    expect(emptyNetwork(lib('two-sources'), { ethernet: frames }, 'ethernet').ethernet).toEqual({ frame_bytes: 9000 });
    const link = CAT.fields.link.map((f) => (f.name === 'rate_mbps' ? { ...f, default: 622.08 } : f));
    let s = emptyNetwork(lib('two-sources'), CAT.fields, 'atm');
    s = addNode(s, 'switch', 300, 200, DEFAULTS).scenario;
    s = addNode(s, 'source', 80, 100, DEFAULTS).scenario;
    expect(ok(addLink(s, 'S1', 'SW1', link)).scenario.links[0]).toMatchObject({ rate_mbps: 622.08, distance_km: 1 });
  });
});
