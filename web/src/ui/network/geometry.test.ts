import { describe, expect, it } from 'vitest';
import { LIBRARY } from '../../scenario/library';
import { ATM_WORDS, ETHERNET_WORDS } from '../../lab/rmLog';
import {
  unmeasuredText,
  cardGrowthLimit,
  LANE_ROOM_PX,
  switchCardGrowth,
  textGrowth,
  zoomStep,
  endLabels,
  endTextBoxes,
  infoSide,
  END_RADIUS_PX,
  exitFraction,
  groupLine,
  labelBox,
  type Box,
  type HalfSize,
  LABEL_GAP_PX,
  LabelRoom,
  LANE_OFFSET_PX,
  laneAngle,
  laneLook,
  MAX_LANE_PX,
  MIN_LANE_PX,
  networkLayout,
  markLabels,
  markTextPx,
  PAGE_CARD,
  PRESENT_CARD,
  queueBadgeSpot,
  QUEUE_GAP_PX,
  QUEUE_SHOWN,
  queueSpot,
  switchHalfSize,
  laneLayout,
  placeNodes,
  offsetSegment,
  pointOnLane,
  sourceUtilisation,
  SWITCH_GAP_PX,
  UNMEASURED_COLOUR,
  UTILISATION_RAMP,
} from './geometry';

import { namesText, rangesLabel } from '../../lab/networkPorts';

const scenarioOf = (id: string) => LIBRARY.entries.find((e) => e.id === id)!.scenario;

describe('laneLook: utilisation → colour and width', () => {
  it('idle is the ramp start at the thinnest, full the ramp end at the widest; unmeasured is grey and thin', () => {
    expect(laneLook(0)).toEqual({ colour: UTILISATION_RAMP[0], widthPx: MIN_LANE_PX });
    expect(laneLook(100)).toEqual({ colour: UTILISATION_RAMP[UTILISATION_RAMP.length - 1], widthPx: MAX_LANE_PX });
    expect(laneLook(null)).toEqual({ colour: UNMEASURED_COLOUR, widthPx: MIN_LANE_PX });
    expect(laneLook(NaN)).toEqual(laneLook(null));
    // Out of range is clamped.
    expect(laneLook(140)).toEqual(laneLook(100));
    expect(laneLook(-3)).toEqual(laneLook(0));
  });

  it('grows with utilisation: wider and darker', () => {
    const lum = (hex: string) => [1, 3, 5].reduce((s, i) => s + parseInt(hex.slice(i, i + 2), 16), 0);
    let prev = laneLook(0);
    for (let u = 5; u <= 100; u += 5) {
      const cur = laneLook(u);
      expect(cur.widthPx).toBeGreaterThan(prev.widthPx);
      expect(lum(cur.colour)).toBeLessThanOrEqual(lum(prev.colour));
      prev = cur;
    }
    expect(laneLook(50).widthPx).toBeCloseTo((MIN_LANE_PX + MAX_LANE_PX) / 2, 12);
  });

  it("a source's link: its connections' ACRs over the link rate, capped; nothing known, nothing measured", () => {
    expect(sourceUtilisation([50, 25], 150)).toBe(50);
    expect(sourceUtilisation([200], 150)).toBe(100);
    expect(sourceUtilisation([NaN], 150)).toBeNull();
    expect(sourceUtilisation([], 150)).toBeNull();
  });
});

describe('lanes and positions along them', () => {
  it('a lane is offset to the right of its direction; the two directions of a link lie on either side', () => {
    const [a, b] = offsetSegment({ x: 0, y: 0 }, { x: 10, y: 0 }, 5);
    expect([a, b]).toEqual([
      { x: 0, y: 5 },
      { x: 10, y: 5 },
    ]);
    const [c] = offsetSegment({ x: 10, y: 0 }, { x: 0, y: 0 }, 5);
    expect(c.y).toBe(-5);
  });

  it('pointOnLane interpolates linearly and stays on the lane', () => {
    const lane = { a: { x: 0, y: 0 }, b: { x: 100, y: 50 } };
    expect(pointOnLane(lane, 0)).toEqual({ x: 0, y: 0 });
    expect(pointOnLane(lane, 0.25)).toEqual({ x: 25, y: 12.5 });
    expect(pointOnLane(lane, 1)).toEqual({ x: 100, y: 50 });
    expect(pointOnLane(lane, 2)).toEqual({ x: 100, y: 50 });
    expect(pointOnLane(lane, -1)).toEqual({ x: 0, y: 0 });
    expect(laneAngle(lane)).toBeCloseTo((Math.atan(0.5) * 180) / Math.PI, 12);
  });

  it('two-sources: every link has both lanes, named by port, LANE_OFFSET_PX apart on either side; switches far enough apart', () => {
    const s = scenarioOf('two-sources');
    const layout = networkLayout(s);
    expect(layout.nodes.map((n) => n.id).sort()).toEqual(s.nodes.map((n) => n.id).sort());
    expect(layout.links).toHaveLength(s.links.length);
    for (const l of layout.links) {
      expect(l.lanes.map((x) => x.port)).toEqual([`${l.from}->${l.to}`, `${l.to}->${l.from}`]);
      const [f, b] = l.lanes;
      expect(Math.hypot(f.a.x - b.b.x, f.a.y - b.b.y)).toBeCloseTo(2 * LANE_OFFSET_PX, 9);
    }
    expect(layout.lanes.get('SW1->SW2')!.from).toBe('SW1');
    const [sw1, sw2] = ['SW1', 'SW2'].map((id) => layout.nodes.find((n) => n.id === id)!);
    expect(Math.hypot(sw1.x - sw2.x, sw1.y - sw2.y)).toBeGreaterThanOrEqual(SWITCH_GAP_PX - 1e-9);
    expect(layout.summary).toBeNull();
    // S1 and S2 are far apart: room for their rate labels.
    expect(layout.endGapPx).toBeGreaterThan(LABEL_GAP_PX);
  });

  it('gfc1: its 5 switches spaced for their cards; a huge network is sampled and summarised', () => {
    const layout = networkLayout(scenarioOf('gfc1'));
    const sw = layout.nodes.filter((n) => n.kind === 'switch');
    expect(sw).toHaveLength(5);
    for (let i = 1; i < sw.length; i++) expect(Math.hypot(sw[i].x - sw[i - 1].x, sw[i].y - sw[i - 1].y)).toBeGreaterThanOrEqual(SWITCH_GAP_PX - 1e-9);
    // Its sources sit 12 editor units apart: too close for rate labels.
    expect(layout.endGapPx).toBeLessThan(LABEL_GAP_PX);
    const small = networkLayout(scenarioOf('gfc1'), 20);
    expect(small.nodes.length).toBeLessThan(scenarioOf('gfc1').nodes.length);
    expect(small.summary).not.toBeNull();
    // Only links between drawn nodes are drawn.
    const drawn = new Set(small.nodes.map((n) => n.id));
    for (const l of small.links) expect(drawn.has(l.from) && drawn.has(l.to)).toBe(true);
  });
});

describe('lanes end at the edges of what is drawn', () => {
  it('exitFraction: where a segment leaves a box centred on its start', () => {
    expect(exitFraction({ x: 0, y: 0 }, { x: 100, y: 0 }, { w: 10, h: 5 })).toBeCloseTo(0.1, 12);
    expect(exitFraction({ x: 0, y: 0 }, { x: 0, y: 100 }, { w: 10, h: 5 })).toBeCloseTo(0.05, 12);
    // Diagonal: the side it crosses first.
    expect(exitFraction({ x: 0, y: 0 }, { x: 100, y: 100 }, { w: 10, h: 20 })).toBeCloseTo(0.1, 12);
    // Never more than 45 % of the way (nodes overlapping each other).
    expect(exitFraction({ x: 0, y: 0 }, { x: 5, y: 0 }, { w: 10, h: 10 })).toBe(0.45);
  });

  it('two-sources: lanes start and end at the cards and circles, not the centres', () => {
    const s = scenarioOf('two-sources');
    const layout = networkLayout(s, undefined, (n) => (n.kind === 'switch' ? { w: 95, h: 40 } : { w: 12, h: 12 }));
    const at = (id: string) => layout.nodes.find((n) => n.id === id)!;
    const lane = layout.lanes.get('SW1->SW2')!;
    // SW1 and SW2 are level: the lane leaves SW1's card 95 px right of its centre.
    expect(lane.a.x - at('SW1').x).toBeCloseTo(95, 6);
    expect(at('SW2').x - lane.b.x).toBeCloseTo(95, 6);
    const l1 = layout.lanes.get('S1->SW1')!;
    expect(Math.hypot(l1.a.x - at('S1').x, l1.a.y - at('S1').y)).toBeGreaterThan(11);
  });
});

describe("endLabels: end systems' names clear of each other", () => {
  const half: HalfSize = (n) => (n.kind === 'switch' ? { w: 95, h: 60 } : { w: END_RADIUS_PX, h: END_RADIUS_PX });
  const apart = (a: Box, b: Box) => a.x1 <= b.x0 || b.x1 <= a.x0 || a.y1 <= b.y0 || b.y1 <= a.y0;

  it("gfc1: no name overlaps another or a node, on the page and presenting; each crowd is named once (SD1–SD6)", () => {
    const layout = networkLayout(scenarioOf('gfc1'), undefined, half);
    const nodeBoxes = layout.nodes.map((n) => {
      const h = half(n);
      return { x0: n.x - h.w, y0: n.y - h.h, x1: n.x + h.w, y1: n.y + h.h };
    });
    for (const fontPx of [11, 16]) {
      const { spots, groups } = endLabels(layout, half, fontPx);
      const names: Box[] = [
        ...layout.nodes.flatMap((n) => {
          const spot = spots.get(n.id);
          return spot ? [labelBox(n, spot, n.id.length, fontPx)] : [];
        }),
        ...groups.map((g) => g.box),
      ];
      for (let i = 0; i < names.length; i++) {
        for (let j = i + 1; j < names.length; j++) expect(apart(names[i], names[j]), `names ${i} and ${j} at ${fontPx} px`).toBe(true);
        for (const b of nodeBoxes) expect(apart(names[i], b), `name ${i} and a node at ${fontPx} px`).toBe(true);
      }
      // Every end system is named: on its own, or in its crowd's name.
      const inGroups = new Set(groups.flatMap((g) => g.members));
      for (const n of layout.nodes.filter((m) => m.kind !== 'switch')) expect(spots.get(n.id) !== null || inGroups.has(n.id), n.id).toBe(true);
      expect(groups.map((g) => g.text)).toContain('SD1–SD6');
      expect(groups.find((g) => g.text === 'SD1–SD6')!.members).toEqual(['SD1', 'SD2', 'SD3', 'SD4', 'SD5', 'SD6']);
    }
  });

  it('a roomy network names each end system on its own, on the side away from its switch; not under ACR lines', () => {
    const layout = networkLayout(scenarioOf('two-sources'), undefined, half);
    const { spots, groups } = endLabels(layout, half, 16);
    expect(groups).toEqual([]);
    expect(Object.fromEntries(spots)).toEqual({ S1: 'left', S2: 'left', D1: 'right', D2: 'right' });
    // A lone source right above its switch is named above; with its ACR lines below and above
    // taken, not below.
    const column = {
      nodes: [
        { id: 'SW1', kind: 'switch', x: 0, y: 0 },
        { id: 'S1', kind: 'source', x: 0, y: -200 },
        { id: 'S2', kind: 'source', x: 0, y: -226 },
      ],
      links: [
        { id: 'L1', from: 'S1', to: 'SW1' },
        { id: 'L2', from: 'S2', to: 'SW1' },
      ],
    } as unknown as Parameters<typeof endLabels>[0];
    expect(endLabels(column, half, 11).spots.get('S2')).toBe('above');
    expect(endLabels(column, half, 11, new Map([['S1', 'below']])).spots.get('S1')).not.toBe('below');
  });

  it("a source's ACR lines hang on the side its link does not leave by, and its name goes elsewhere", () => {
    const layout = networkLayout(scenarioOf('two-sources'), undefined, half);
    const at = (id: string) => layout.nodes.find((n) => n.id === id)!;
    // two-sources: S1 above its switch (its link heads down), S2 below it.
    expect(at('S1').y).toBeLessThan(at('SW1').y);
    expect(at('S2').y).toBeGreaterThan(at('SW1').y);
    expect(infoSide(layout, 'S1')).toBe('above');
    expect(infoSide(layout, 'S2')).toBe('below');
    const info = new Map([
      ['S1', infoSide(layout, 'S1')],
      ['S2', infoSide(layout, 'S2')],
    ]);
    const { spots } = endLabels(layout, half, 11, info);
    for (const [id, side] of info) expect(spots.get(id), id).not.toBe(side);
    // Level with its switch (or with no link), below.
    const level = {
      nodes: [
        { id: 'SW1', kind: 'switch', x: 0, y: 0 },
        { id: 'S1', kind: 'source', x: -300, y: 0 },
      ],
      links: [{ id: 'L1', from: 'S1', to: 'SW1' }],
    } as unknown as Parameters<typeof endLabels>[0];
    expect(infoSide(level, 'S1')).toBe('below');
    expect(infoSide(level, 'S9')).toBe('below');
  });
});

describe("LabelRoom: RM cells' labels never cover each other", () => {
  it('places the first of two labels at one spot, and both once they are apart', () => {
    const room = new LabelRoom(10);
    expect(room.place('139.97', 100, 50)).toBe(true);
    // The second cell 3 px on: its label would print over the first ("139.97139.97").
    expect(room.place('139.97', 103, 50)).toBe(false);
    // Six characters at 10 px are about 41 px wide: 45 px on, it fits; so does one a line above.
    expect(room.place('139.97', 145, 50)).toBe(true);
    expect(room.place('70.00', 100, 36)).toBe(true);
  });

  // QA: on long-rtt a cell's "155.52" at S1 lay over "S1" and "C1 ACR 25.00 Mbps".
  it("keeps clear of what is reserved (a node's name, a source's ACR lines, a card): below the marker, else left out", () => {
    const acrLines: Box = { x0: 20, y0: 20, x1: 180, y1: 36 };
    const room = new LabelRoom(11, [acrLines]);
    // Above (baseline 39) meets the ACR lines; below (baseline 70) is free.
    expect(room.placeFirst('155.52', 100, [39, 70])).toBe(70);
    // Out of the way of the reserved box, above as before.
    expect(room.placeFirst('155.52', 300, [39, 70])).toBe(39);
    // Both taken: left out.
    const boxed = new LabelRoom(11, [{ x0: 0, y0: 0, x1: 200, y1: 200 }]);
    expect(boxed.placeFirst('155.52', 100, [39, 70])).toBeNull();
    expect(boxed.place('155.52', 100, 39)).toBe(false);
  });

  it("long-rtt: the reserved boxes hold every end system's name, the ACR lines on their side of the source, and the cards", () => {
    const scenario = LIBRARY.entries.find((e) => e.id === 'long-rtt')!.scenario;
    const half: HalfSize = (n) => (n.kind === 'switch' ? { w: 75, h: 40 } : { w: END_RADIUS_PX, h: END_RADIUS_PX });
    const layout = networkLayout(scenario, undefined, half);
    const info = new Map(scenario.connections.map((c) => [c.from, infoSide(layout, c.from)] as const));
    const names = endLabels(layout, half, 12, info);
    const lines = new Map([...info].map(([id, side]) => [id, { side, lines: [`C1 ACR 000.00 Mbps`] }] as const));
    const boxes = endTextBoxes(layout, half, names, 12, lines, 11);
    const ends = layout.nodes.filter((n) => n.kind !== 'switch');
    const switches = layout.nodes.filter((n) => n.kind === 'switch');
    expect(boxes).toHaveLength(ends.length + info.size + switches.length);
    const s1 = layout.nodes.find((n) => n.id === 'S1')!;
    const s1Name = labelBox(s1, names.spots.get('S1')!, 2, 12);
    expect(boxes).toContainEqual(s1Name);
    // The ACR lines: centred on S1, on their side, 2 px off the circle.
    const acr = boxes.find((b) => b.x0 < s1.x && b.x1 > s1.x && (info.get('S1') === 'above' ? b.y1 === s1.y - END_RADIUS_PX - 2 : b.y0 === s1.y + END_RADIUS_PX + 2));
    expect(acr).toBeDefined();
    // A label at S1 (above its marker) does not go over them.
    const room = new LabelRoom(11, boxes);
    expect(room.placeFirst('155.52', s1.x, [s1.y - 11])).toBe(info.get('S1') === 'above' ? null : s1.y - 11);
  });

  it('scales with the type: presentation type needs more room', () => {
    const page = new LabelRoom(10);
    const present = new LabelRoom(16);
    expect(page.place('139.97', 0, 0) && page.place('139.97', 45, 0)).toBe(true);
    expect(present.place('139.97', 0, 0)).toBe(true);
    expect(present.place('139.97', 45, 0)).toBe(false);
  });
});

// QA: core-edge's and gfc1's text read 6–8 px at 1280 px: the view zooms out to fit, so type
// grows by 1/zoom, and the switch cards with it as far as their neighbours allow.
describe('type and cards that read at the zoom the drawing fits at', () => {
  it('text keeps its size on screen when zoomed out, and is left as it is zoomed in', () => {
    expect(textGrowth(0.5)).toBe(2);
    expect(textGrowth(1)).toBe(1);
    expect(textGrowth(2.5)).toBe(1);
    expect(zoomStep(0.487)).toBeCloseTo(2 ** (-17 / 16), 12); // 0.477, where steps of 0.05 gave 0.45
    expect(zoomStep(0.5)).toBe(0.5);
    expect(zoomStep(1)).toBe(1);
    expect(zoomStep(0.001)).toBe(0.05);
    // Never above the zoom (type never under its size), at most one step below it, and the same
    // step for zooms within one.
    for (let z = 0.06; z < 3; z *= 1.013) {
      expect(zoomStep(z)).toBeLessThanOrEqual(z);
      expect(zoomStep(z)).toBeGreaterThan(z / 2 ** (1 / 16) - 1e-12);
      expect(zoomStep(zoomStep(z))).toBe(zoomStep(z));
    }
  });

  it('cards grow until one would meet a neighbour card or an end system, never below 1', () => {
    const half: HalfSize = (n) => (n.kind === 'switch' ? { w: 75, h: 40 } : { w: END_RADIUS_PX, h: END_RADIUS_PX });
    const sw = (id: string, x: number, y: number) => ({ id, kind: 'switch', x, y });
    // Two cards side by side, 300 px apart: (300 − 12) / 150.
    expect(cardGrowthLimit([sw('SW1', 0, 0), sw('SW2', 300, 0)], half)).toBeCloseTo(288 / 150, 9);
    // One above the other, 200 px apart: (200 − 12) / 80; diagonal, the freer axis counts.
    expect(cardGrowthLimit([sw('SW1', 0, 0), sw('SW2', 0, 200)], half)).toBeCloseTo(188 / 80, 9);
    expect(cardGrowthLimit([sw('SW1', 0, 0), sw('SW2', 100, 300)], half)).toBeCloseTo(288 / 80, 9);
    // A source 120 px to the right: (120 − 12 − 12) / 75.
    expect(cardGrowthLimit([sw('SW1', 0, 0), { id: 'S1', kind: 'source', x: 120, y: 0 }], half)).toBeCloseTo(96 / 75, 9);
    // Already touching: no growth, and no shrinking.
    expect(cardGrowthLimit([sw('SW1', 0, 0), sw('SW2', 100, 0)], half)).toBe(1);
    // Alone, nothing limits it (the type's growth does).
    expect(cardGrowthLimit([sw('SW1', 0, 0)], half)).toBe(Infinity);
  });
});

// QA: on gfc1 and core-edge the lanes between switch cards were 20–30 px on screen, ~190 RM
// cells piled there unlabelled: the cards grew as far as 12 px short of each other.
describe('switch cards leave the lanes between them room on screen', () => {
  const half = (look: typeof PAGE_CARD): HalfSize => (n) => (n.kind === 'switch' ? { w: look.widthPx / 2, h: 40 } : { w: END_RADIUS_PX, h: END_RADIUS_PX });
  /** The shortest lane between two switches on screen (px) with the cards grown by `g`. */
  const shortestLane = (id: string, look: typeof PAGE_CARD, g: number, zoom: number) => {
    const s = scenarioOf(id);
    const placed = placeNodes(s);
    const grown: HalfSize = (n) => {
      const h = half(look)(n);
      return n.kind === 'switch' ? { w: h.w * g, h: h.h * g } : h;
    };
    const kinds = new Map(placed.nodes.map((n) => [n.id, n.kind]));
    const lanes = laneLayout(s, placed, grown).links.filter((l) => kinds.get(l.from) === 'switch' && kinds.get(l.to) === 'switch');
    return Math.min(...lanes.map((l) => Math.hypot(l.lanes[0].b.x - l.lanes[0].a.x, l.lanes[0].b.y - l.lanes[0].a.y))) * zoom;
  };

  it('gfc1 and core-edge: each lane keeps LANE_ROOM_PX on screen unless the cards\' type would read under its least (11 px, 18 presenting) or they meet', () => {
    for (const id of ['gfc1', 'core-edge'])
      for (const look of [PAGE_CARD, PRESENT_CARD])
        // The zooms they fit at in windows from 1280 to 1920 px wide, the side panel open.
        for (const zoom of [0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.95]) {
          const placed = placeNodes(scenarioOf(id));
          const g = switchCardGrowth(placed.nodes, half(look), zoom, look);
          const what = `${id}${look === PRESENT_CARD ? ' presenting' : ''} at ${zoom}: ×${g.toFixed(2)}`;
          const apart = cardGrowthLimit(placed.nodes, half(look));
          const typePx = look.fontPx * g * zoom;
          expect(g, what).toBeLessThanOrEqual(Math.min(textGrowth(zoom), apart) + 1e-9);
          // Shrunk for the lanes only down to the least type, never below it (but where the
          // cards would meet, or the type needs no growth).
          if (g < Math.min(textGrowth(zoom), apart) - 1e-9) expect(typePx, what).toBeGreaterThanOrEqual(look.readPx - 1e-6);
          // The lanes get their room, unless the type is at its least or the cards meet.
          const stopped = Math.abs(typePx - look.readPx) < 1e-6 || Math.abs(g - apart) < 1e-9;
          if (!stopped) expect(shortestLane(id, look, g, zoom), what).toBeGreaterThanOrEqual(LANE_ROOM_PX - 1e-6);
        }
  });

  it('gfc1 fitted in a 1440 px window (zoom 0.55): lanes longer than when the cards grew with the type, the type at 11 px', () => {
    const placed = placeNodes(scenarioOf('gfc1'));
    const g = switchCardGrowth(placed.nodes, half(PAGE_CARD), 0.55);
    const w = PAGE_CARD.widthPx;
    // The type alone asks 1 / 0.55 (12 px type at 21.8 px in the flow): cards w / 0.55 px wide,
    // 300 px apart.
    expect(shortestLane('gfc1', PAGE_CARD, textGrowth(0.55), 0.55)).toBeCloseTo(Math.max(0.1 * 300, 300 - w / 0.55) * 0.55, 6);
    // The lanes ask (300 − 60 / 0.55) / w at most; the type reads at 11 px at 11 / (12 × 0.55).
    expect(g).toBeCloseTo(Math.max(11 / (12 * 0.55), Math.min(1 / 0.55, (300 - LANE_ROOM_PX / 0.55) / w)), 9);
    expect(shortestLane('gfc1', PAGE_CARD, g, 0.55)).toBeCloseTo((300 - w * g) * 0.55, 6);
    expect(shortestLane('gfc1', PAGE_CARD, g, 0.55)).toBeGreaterThan(55);
  });

  // QA: at 1280 px beside the side panel gfc1's cards at the 11 px type floor took ~685 of
  // ~740 px, the lanes between them 15 px: the cells going by hidden under the cards' edges.
  it('gfc1 fitted in a 1280 px window beside the side panel (zoom 0.49): the lanes between its cards are twice as long as cards 150 px wide left them', () => {
    const zoom = 0.49;
    const placed = placeNodes(scenarioOf('gfc1'));
    // SW2–SW4's cards: a port and a group of destinations, both marked (T0·C), as tall as they are.
    const rows = [
      { group: false, marked: true, beyond: false },
      { group: true, marked: true, beyond: false },
    ];
    const half = (look: typeof PAGE_CARD): HalfSize => (n) => (n.kind === 'switch' ? switchHalfSize(rows, false, look) : { w: END_RADIUS_PX, h: END_RADIUS_PX });
    const shortestLane = (look: typeof PAGE_CARD, g: number) => {
      const grown: HalfSize = (n) => {
        const h = half(look)(n);
        return n.kind === 'switch' ? { w: h.w * g, h: h.h * g } : h;
      };
      const lanes = laneLayout(scenarioOf('gfc1'), placed, grown).links.filter((l) => l.from.startsWith('SW') && l.to.startsWith('SW'));
      return Math.min(...lanes.map((l) => Math.hypot(l.lanes[0].b.x - l.lanes[0].a.x, l.lanes[0].b.y - l.lanes[0].a.y))) * zoom;
    };
    for (const [look, least] of [
      [PAGE_CARD, 30],
      [PRESENT_CARD, 25],
    ] as const) {
      const g = switchCardGrowth(placed.nodes, half(look), zoomStep(zoom), look);
      const what = look === PRESENT_CARD ? 'presenting' : 'page';
      // 150 (175) px wide, the cards left the lanes their least, 10 % of the 300 px between
      // switches (a lane leaves a card at 45 % of the way at most): 14.7 px on screen.
      const wide = { ...look, widthPx: look === PRESENT_CARD ? 175 : 150 };
      expect(shortestLane(wide, switchCardGrowth(placed.nodes, half(wide), zoomStep(zoom), wide)), what).toBeCloseTo(0.1 * 300 * zoom, 6);
      expect(shortestLane(look, g), what).toBeGreaterThanOrEqual(least);
      // The type at its least or more: 11 px on the page; 18 px presenting, where the cards
      // meet SC3's circle above SW2 first (14 px cards of three lines a row and a line for the
      // marks' labels met it at ~12.5 px; the compact card, two lines a row, at 18).
      expect(look.fontPx * g * zoom, what).toBeGreaterThanOrEqual(look.readPx);
    }
  });

  it('two-sources, a small network, grows its cards with the type as before at the zooms it fits at (0.8 in a 1280 px window)', () => {
    const placed = placeNodes(scenarioOf('two-sources'));
    for (const look of [PAGE_CARD, PRESENT_CARD])
      for (const zoom of [0.8, 1, 1.5]) expect(switchCardGrowth(placed.nodes, half(look), zoom, look)).toBeCloseTo(Math.min(textGrowth(zoom), cardGrowthLimit(placed.nodes, half(look))), 9);
  });
});

// The view placed the nodes twice (once to measure how far the cards may grow, once with the
// grown cards): measured over the library, where nodes go never depends on the cards' size, so
// it places them once and lays only the lanes again.
describe('node positions do not depend on what is drawn at the nodes', () => {
  it('every library scenario: the same positions for point-sized, page-sized and grown cards', () => {
    const sizes: HalfSize[] = [() => ({ w: 0, h: 0 }), (n) => (n.kind === 'switch' ? { w: 75, h: 60 } : { w: 12, h: 12 }), (n) => (n.kind === 'switch' ? { w: 170, h: 240 } : { w: 12, h: 12 })];
    for (const e of LIBRARY.entries) {
      const [first, ...others] = sizes.map((h) => networkLayout(e.scenario, undefined, h));
      for (const other of others) {
        expect(other.nodes, e.id).toEqual(first.nodes);
        expect(other.endGapPx, e.id).toBe(first.endGapPx);
      }
      // Lanes do: they end at the cards' edges.
      const placed = placeNodes(e.scenario);
      expect(placed.nodes, e.id).toEqual(first.nodes);
      expect(laneLayout(e.scenario, placed, sizes[2]).links, e.id).toEqual(others[1].links);
    }
  });
});

// QA: marks' labels were 9 px, piled on each other (Series-D's Q1–Q4 at a ten-million-cell
// buffer's start), and a card taller than the layout assumed (a group's names on two lines).
describe("a switch card's height and its marks' labels", () => {
  it('a card is as tall as its rows: a group row has a line more, a marked bar a line for its labels; presenting, every row two lines of larger type', () => {
    const port = { group: false, marked: false, beyond: false };
    const one = switchHalfSize([port]).h;
    // 12 px type: padding, head and two lines of 15.6 px (app.css), borders.
    expect(2 * one).toBeCloseTo((1 / 3 + 1.5 + 0.5 + 0.25 + 2.6) * 12 + 4, 9);
    expect(switchHalfSize([port, port]).h - one).toBeCloseTo((0.25 + 2.6) * 6, 9);
    expect(switchHalfSize([{ ...port, group: true }]).h - one).toBeCloseTo(1.3 * 6, 9);
    expect(switchHalfSize([{ ...port, marked: true }]).h - one).toBeCloseTo((1 + 0.15) * 6, 9);
    expect(switchHalfSize([{ ...port, beyond: true }]).h - one).toBeCloseTo(1.3 * 6, 9);
    expect(switchHalfSize([port], true).h - one).toBeCloseTo((1 / 3 + 1.3) * 6, 9);
    // Presenting (compact): 18 px type; a row is its name's line and its bar's (the number
    // beside the bar), a group's as a port's, no line for the marks' labels; a line beyond.
    const present = switchHalfSize([{ ...port, marked: true }], false, PRESENT_CARD);
    expect(present.w).toBe(59);
    expect(2 * present.h).toBeCloseTo((1 / 3 + 1.5 + 0.5 + 0.25 + 2.6) * 18 + 6, 9);
    for (const shape of [{ ...port, group: true }, { ...port, group: true, marked: true }]) expect(switchHalfSize([shape], false, PRESENT_CARD).h).toBeCloseTo(present.h, 9);
    expect(switchHalfSize([{ ...port, beyond: true }], false, PRESENT_CARD).h - present.h).toBeCloseTo(1.3 * 9, 9);
  });

  const mark = (label: string, fraction: number) => ({ label, param: label, fraction });
  const clear = (ls: { leftPx: number; widthPx: number }[], gap: number) => ls.every((l, i) => i === 0 || ls[i - 1].leftPx + ls[i - 1].widthPx + gap <= l.leftPx);

  it('a label is centred on its mark, kept on the bar at its ends', () => {
    const [mid] = markLabels([mark('Qeq', 0.5)], 100, 12);
    expect(mid.leftPx + mid.widthPx / 2).toBeCloseTo(50, 9);
    expect(markLabels([mark('Qeq', 0)], 100, 12)[0].leftPx).toBe(0);
    const [end] = markLabels([mark('Qeq', 1)], 100, 12);
    expect(end.leftPx + end.widthPx).toBeCloseTo(100, 9);
  });

  it('labels apart stay apart; labels that would touch are joined at their middle, until none touch', () => {
    expect(markLabels([mark('QT', 0.1), mark('DQT', 0.9)], 100, 12).map((l) => l.text)).toEqual(['QT', 'DQT']);
    // Series-D on a buffer of ten million cells: all four at its start, one label.
    const piled = markLabels(['Q1', 'Q2', 'Q3', 'Q4'].map((q) => mark(q, 0)), 120, 12);
    expect(piled).toEqual([{ text: 'Q1, Q2, Q3, Q4', params: ['Q1', 'Q2', 'Q3', 'Q4'], leftPx: 0, widthPx: piled[0].widthPx }]);
    // On a narrower bar (a card narrow enough to leave the lanes room), the first and last.
    const narrow = markLabels(['Q1', 'Q2', 'Q3', 'Q4'].map((q) => mark(q, 0)), 50, 12);
    expect(narrow).toEqual([{ text: 'Q1–Q4', params: ['Q1', 'Q2', 'Q3', 'Q4'], leftPx: 0, widthPx: markTextPx('Q1–Q4', 12) }]);
    expect(narrow[0].widthPx).toBeLessThanOrEqual(50);
    // Any marks, any order: the labels never touch, and each mark is named once.
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let n = 0; n < 200; n++) {
      const marks = ['Q1', 'Q2', 'Q3', 'Q4', 'low', 'high'].slice(0, 1 + Math.floor(random() * 6)).map((q) => mark(q, random()));
      const labels = markLabels(marks, 60 + random() * 100, 12, 4);
      expect(clear(labels, 4) || labels.length === 1).toBe(true);
      expect(labels.flatMap((l) => l.params).sort()).toEqual(marks.map((m) => m.param).sort());
    }
  });
});

// QA: gfc1's group rows read "DD1–D… (6)" and "9 destinat…": the names cut where the card ends,
// and none of them told.
describe("a group's row: what of its destinations fits on its line", () => {
  const group = (names: string[]) => {
    const ports = names.map((to) => ({ to })) as never[];
    const label = rangesLabel(names);
    return { label, names: namesText(names), short: namesText(names, true), ports };
  };
  const room = (look: typeof PAGE_CARD) => look.widthPx - 16 - 2 * look.borderPx;
  it('the names with their count where they fit, shortened where not, else the count; never wider than the card', () => {
    const six = Array.from({ length: 6 }, (_, i) => `DD${i + 1}`);
    expect(groupLine(group(['D1', 'D2', 'D3']))).toEqual({ text: 'D1–D3', count: true });
    expect(groupLine(group(six))).toEqual({ text: 'DD1–6', count: true });
    const sw5 = group(['DB1', 'DB2', 'DB3', ...Array.from({ length: 6 }, (_, i) => `DE${i + 1}`)]);
    expect(groupLine(sw5).text).toMatch(/^9 dest/);
    for (const look of [PAGE_CARD, PRESENT_CARD])
      for (const g of [group(['D1', 'D2', 'D3']), group(six), sw5, group(['DB1', 'Q7', 'DB3', 'DE1', 'DE2', 'DE3'])]) {
        const line = groupLine(g, look);
        const px = (1.2 + (line.count ? 0.3 : 0)) * look.fontPx + markTextPx(line.text + (line.count ? ` (${g.ports.length})` : ''), look.fontPx);
        expect(px, `${line.text}`).toBeLessThanOrEqual(room(look));
      }
  });
});

// QA: presenting gfc1 at 1280 px, a queue's 18 px "+17" beside its last cell reached 20 px
// into the next switch's card across a lane some 28 px long.
describe("queueBadgeSpot: a long queue's \"+N\" badge", () => {
  // A lane heading right from a card's edge at x = 0: its outer side is below it.
  const lane = (len: number) => ({ a: { x: 0, y: 0 }, b: { x: len, y: 0 } });
  it('beside the last cell drawn, toward the lane\'s end, where the lane has room for it', () => {
    const last = queueSpot(lane(200), QUEUE_SHOWN - 1);
    expect(queueBadgeSpot(lane(200), 40)).toEqual({ x: last.x + 11 + 20, y: last.y });
  });
  it('on a lane too short for that, a spot further out than the last cell, halfway along: as far over the card it leaves as over the next', () => {
    const at = queueBadgeSpot(lane(60), 80);
    expect(at).toEqual({ x: 30, y: QUEUE_SHOWN * QUEUE_GAP_PX });
    // Clear of every cell drawn in the queue (8 px from its centre), and as far over one card as the other.
    for (let k = 0; k < QUEUE_SHOWN; k++) expect(Math.abs(at.y - queueSpot(lane(60), k).y)).toBeGreaterThanOrEqual(QUEUE_GAP_PX);
    expect(0 - (at.x - 40)).toBeCloseTo(at.x + 40 - 60, 9);
  });
});

// QA: Ethernet's SW2→SW1 lane, grey, was said to be "toward a host": grey lanes are those no
// data goes along, whatever their ends, and the legend says so, with what they carry.
describe('unmeasuredText: what the grey lanes are', () => {
  it('says no data goes that way and names the feedback they carry, not the kind of node they lead to', () => {
    expect(unmeasuredText(true, [ETHERNET_WORDS.phase.notification])).toBe('not measured: no data frames go this way (feedback only: QCN congestion notifications)');
    expect(unmeasuredText(true, [ETHERNET_WORDS.phase.backward, ETHERNET_WORDS.phase.notification])).toBe(
      'not measured: no data frames go this way (feedback only: reflected rate-discovery frames and QCN congestion notifications)',
    );
    expect(unmeasuredText(false, [ATM_WORDS.phase.backward])).toBe('not measured: no data goes this way (feedback only: backward RM cells)');
    expect(unmeasuredText(true, [])).toBe('not measured: no data frames go this way (feedback only)');
  });

  it("names a UBR source's own lane, grey with data on it, when the network has one", () => {
    expect(unmeasuredText(false, [ATM_WORDS.phase.backward], true)).toBe(
      "not measured: no data goes this way (feedback only: backward RM cells), or a UBR source's own link (no allowed rate to draw it from)",
    );
  });
});
