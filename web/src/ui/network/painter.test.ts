// The painter's wiring: what a frame writes into the registered elements, from the sample store
// and the RM-cell trace, at the shown time.
import { describe, expect, it } from 'vitest';
import { ChartGroup } from '../../charts/chartGroup';
import { SampleStore } from '../../charts/sampleStore';
import type { RmRecord, SeriesMeta } from '../../contract/engine';
import type { RunStatus, Speed } from '../../engine/protocol';
import type { Lab } from '../../lab/lab';
import { linkHopsUs, runMoved, type LinkHop } from '../../lab/networkClock';
import { portViews } from '../../lab/networkPorts';
import { ATM_WORDS, ETHERNET_WORDS, RmLog } from '../../lab/rmLog';
import { LIBRARY } from '../../scenario/library';
import { ENGINE_CATALOGUE } from '../../test/engineCatalogue';
import { laneAngle, laneLook, networkLayout, pointOnLane, QUEUE_SHOWN, queueSpot, sourceUtilisation, type Box } from './geometry';
import { countText, markerSlots, MAX_MARKERS, moreName, moreText, NetworkPainter, nextOnRoute, queueCount, queuePlaces, UTIL_STEP_PERCENT } from './painter';
import { rmRecord } from '../../test/rmRecord';
import { GUESS_REACH } from '../../lab/rmCells';

const twoSources = LIBRARY.entries.find((e) => e.id === 'two-sources')!.scenario;
const meta: SeriesMeta[] = [
  { id: 'acr:C1', kind: 'acr', label: 'C1 ACR', unit: 'Mbps', owner: 'C1', held: true },
  { id: 'acr:C2', kind: 'acr', label: 'C2 ACR', unit: 'Mbps', owner: 'C2', held: true },
  { id: 'queue:SW1->SW2', kind: 'queue', label: 'q', unit: 'cells', owner: 'SW1->SW2', held: false },
  { id: 'utilization:SW1->SW2', kind: 'utilization', label: 'u', unit: '%', owner: 'SW1->SW2', held: false },
];

/** The network's hops (networkClock.linkHopsUs) at a test's own pace: `us` for each link named
 *  (`from->to`), no transmission time. A cell whose next record has not come by the time drawn
 *  goes at the pace these tell (rmCells.cellAt: it is drawn from the records up to the time). */
const pace = (us: Record<string, number>): Map<string, LinkHop> => new Map(Object.entries(us).map(([k, v]) => [k, { us: v, cellUs: 0 }]));

function setup(speed: Speed = 1, scenario = twoSources, rmLog = new RmLog(), linkHopUs?: ReadonlyMap<string, LinkHop>, rows?: Float64Array) {
  // (Given rows: within the fewest rows a store keeps, past which it keeps min/max buckets.)
  const store = rows ? new SampleStore(16, 0) : new SampleStore();
  store.reset(meta);
  // Two rows: at 0.5 ms and at 1 ms (ACR C1, ACR C2, queue, utilisation).
  store.append(rows ?? new Float64Array([0.5, 25, 25, 0, 30, 1, 77.76, 50, 250, 90]), 5);
  let status: RunStatus = { run: 1, mode: 'paused', nowMs: 1, endMs: 100, done: false, events: 0, speed, achievedSpeed: null, eventsPerSec: null, engineMs: 0 };
  // One wall clock for the lab's moves and the charts' marks, a tick per reading.
  let wall = 0;
  const now = () => ++wall;
  let movedAtMs = now();
  const lab = { getState: () => ({ status, speed }), freshStatus: () => status, rmLog, get runMovedAtMs() { return movedAtMs; } } as unknown as Lab;
  const group = new ChartGroup(() => 0, () => undefined, now);
  const painter = new NetworkPainter(store, lab, group);
  const layout = networkLayout(scenario);
  const ports = portViews(scenario, ENGINE_CATALOGUE, meta, 0);
  painter.setModel({ scenario, layout, ports, rmLimit: 0.001, lookbackUs: 10_000, linkHopUs });
  const setStatus = (s: Partial<RunStatus>) => {
    const next = { ...status, ...s };
    if (runMoved(status, next)) movedAtMs = now();
    status = next;
  };
  return { painter, rmLog, group, layout, setStatus, store };
}

const svg = (tag: string) => document.createElementNS('http://www.w3.org/2000/svg', tag);

/** The RM cells' labels drawn in the label layer: text, cell, and box as LabelRoom reckons it
 *  (11 px type, centred on its marker, baseline at `y`). */
function shownLabels(labels: SVGGElement): { cell: string; text: string; box: Box }[] {
  return ([...labels.children] as SVGTextElement[])
    .filter((t) => t.style.display !== 'none')
    .map((t) => {
      const text = t.textContent!;
      const x = Number(t.getAttribute('x'));
      const base = Number(t.getAttribute('y'));
      const w = text.length * 0.62 * 11 + 4;
      return { cell: t.dataset.cell!, text, box: { x0: x - w / 2, x1: x + w / 2, y0: base - 12.1, y1: base + 2.75 } };
    });
}

/** A marker's box (a triangle's tip 8 px from its centre). */
const markerBox = (c: { x: number; y: number }): Box => ({ x0: c.x - 8, x1: c.x + 8, y0: c.y - 8, y1: c.y + 8 });
const meet = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

/** An RM cell of C1 (sent at 900 µs, now at 905) or C2 (sent at 906 µs, now at 907) on its way
 *  from its source to SW1. */
function cellSetsOut(rmLog: RmLog, setStatus: (s: Partial<RunStatus>) => void, connection: 'C1' | 'C2') {
  const [sent, nowMs] = connection === 'C1' ? [900, 0.905] : [906, 0.907];
  const source = connection === 'C1' ? 'S1' : 'S2';
  const rec = (time_us: number, node: string, direction: RmRecord['direction']) => rmRecord({ time_us, connection, rm_seq: 3, node, direction });
  rmLog.append([rec(sent, source, 'sent'), rec(sent + 10, 'SW1', 'forward')], 0);
  setStatus({ nowMs });
}

describe('NetworkPainter: one frame at the shown time', () => {
  it('colours a measured lane by its utilisation and a source lane by its ACR; fills the queue bar; writes the ACR', () => {
    const { painter } = setup();
    const trunk = svg('path') as SVGPathElement;
    const access = svg('path') as SVGPathElement;
    painter.lane('SW1->SW2', trunk);
    painter.lane('S1->SW1', access);
    const fill = document.createElement('div');
    const text = document.createElement('span');
    painter.queue('SW1->SW2', { fill, text });
    const acr = document.createElement('span');
    painter.acr('C1', acr);
    painter.frame();
    const look = laneLook(90);
    expect(trunk.style.stroke).toBe(look.colour);
    expect(trunk.dataset.util).toBe('90.0');
    expect(access.dataset.util).toBe((Math.round(sourceUtilisation([77.76], 155.52)! / UTIL_STEP_PERCENT) * UTIL_STEP_PERCENT).toFixed(1));
    expect(fill.style.transform).toBe(`scaleX(${(250 / 1000).toFixed(4)})`);
    // The queue; the buffer on demand, in its tooltip (the bar shows the one against the other).
    expect(text.textContent).toBe('250 cells');
    expect(text.title).toBe('250 / 1000 cells (queue / buffer)');
    expect(acr.textContent).toBe('77.76 Mbps');
  });

  it("paints a source's lane idle before its start and after its stop, whatever its ACR", () => {
    const later = (start_ms: number | undefined, stop_ms: number | undefined) => ({
      ...twoSources,
      connections: twoSources.connections.map((c) => (c.id === 'C1' ? { ...c, start_ms, stop_ms } : c)),
    });
    const utilAt = (s: ReturnType<typeof later>) => {
      const { painter } = setup(1, s);
      const access = svg('path') as SVGPathElement;
      painter.lane('S1->SW1', access);
      painter.frame(); // at 1 ms, C1's ACR 77.76 Mbps
      return access.dataset.util;
    };
    expect(utilAt(later(5, undefined))).toBe('0.0');
    expect(utilAt(later(undefined, 0.5))).toBe('0.0');
    expect(utilAt(later(0.5, 50))).toBe((Math.round(sourceUtilisation([77.76], 155.52)! / UTIL_STEP_PERCENT) * UTIL_STEP_PERCENT).toFixed(1));
  });

  it('shows the time marked on the charts when paused: the values of the row nearest to it', () => {
    const { painter, group } = setup();
    const trunk = svg('path') as SVGPathElement;
    painter.lane('SW1->SW2', trunk);
    group.cursorTo(0.5);
    painter.frame();
    expect(painter.shownMs).toBe(0.5);
    expect(trunk.dataset.util).toBe('30.0');
  });

  it('a mark made before the run played again no longer counts once it pauses; a new one does', () => {
    const { painter, group, setStatus } = setup();
    group.cursorTo(0.5);
    painter.frame();
    setStatus({ mode: 'playing' });
    painter.frame();
    setStatus({ mode: 'paused', nowMs: 1 });
    painter.frame();
    expect(painter.shownMs).toBe(1);
    group.cursorTo(0.5);
    painter.frame();
    expect(painter.shownMs).toBe(0.5);
  });

  // A long run's store keeps min/max buckets: read as samples, the cards showed a bucket's least
  // and its largest in turn as the time went on, and nothing said the run was kept so.
  it("a long run's samples in buckets: the cards show each bucket's largest, and say so", () => {
    // 400 samples every 0.5 ms (buckets of 4 past 256): the queue 0, 10, 20, 30, 0, 10…
    const rows = new Float64Array(Array.from({ length: 400 }, (_, i) => [i * 0.5, 25, 25, (i % 4) * 10, 50]).flat());
    const { painter, setStatus, store } = setup(1, twoSources, new RmLog(), undefined, rows);
    expect(store.samplesPerBucket).toBe(4);
    const note = document.createElement('span');
    note.hidden = true;
    painter.approxText(note);
    const fill = document.createElement('span');
    const text = document.createElement('span');
    painter.queue('SW1->SW2', { fill, text });
    for (const nowMs of [20, 20.5, 21, 21.5]) {
      setStatus({ nowMs });
      painter.frame();
      expect(text.textContent, `${nowMs} ms`).toBe('30 cells');
    }
    expect(note.hidden).toBe(false);
    expect(note.textContent).toBe("a long run: the values shown are the largest of every 4 samples, and the cells' waits in queues are estimates");
  });

  // QA: after Next RM event marked 0.008 ms, three steps left the view (clock, ACRs) at 0.008 ms.
  // A step's seek is too short for the page's status to show it, and no frame sees it seek.
  it('a step the frames never see seeking moves the view to the run time: clock, values and cells agree', () => {
    const { painter, group, rmLog, setStatus } = setup(0.0001, twoSources, new RmLog(), pace({ 'S1->SW1': 10 }));
    const clock = document.createElement('span');
    painter.clockText(clock);
    const acr = document.createElement('span');
    painter.acr('C1', acr);
    const layer = svg('g') as SVGGElement;
    painter.markerLayer(layer);
    setStatus({ nowMs: 0.5 });
    group.cursorTo(0.5);
    painter.frame();
    expect(clock.textContent).toBe('t = 0.500 ms');
    expect(acr.textContent).toBe('25.00 Mbps');
    // The step: seeking and paused again at 0.905 ms, between two frames; a cell set out meanwhile.
    setStatus({ mode: 'seeking' });
    cellSetsOut(rmLog, setStatus, 'C1');
    setStatus({ mode: 'paused' });
    painter.frame();
    expect(painter.shownMs).toBe(0.905);
    expect(clock.textContent).toBe('t = 0.905 ms');
    expect(acr.textContent).toBe('77.76 Mbps');
    expect(painter.drawn.map((c) => [c.from, c.to, c.fraction])).toEqual([['S1', 'SW1', 0.5]]);
    // Picked again while paused: the mark, until the next move.
    group.cursorTo(0.5);
    painter.frame();
    expect(clock.textContent).toBe('t = 0.500 ms');
    expect(painter.drawn).toEqual([]);
  });

  // h37: a paused run's view is drawn every animation frame; laying its markers out again each
  // time took ~7 ms a frame on gfc1 (40 % of an idle main thread, all of it at 4× CPU throttling).
  it('a frame with nothing new leaves the markers alone; a new record, a pick or another time draws them again', () => {
    const { painter, rmLog, setStatus } = setup(0.0001);
    const layer = svg('g') as SVGGElement;
    painter.markerLayer(layer);
    cellSetsOut(rmLog, setStatus, 'C1');
    painter.frame();
    const marker = layer.firstChild as SVGGElement;
    const placed = marker.getAttribute('transform');
    expect(placed).toMatch(/^translate\(/);
    // Something else moved the marker: an unchanged frame does not put it back.
    marker.setAttribute('transform', 'translate(0,0)');
    painter.frame();
    expect(marker.getAttribute('transform')).toBe('translate(0,0)');
    // A pick draws again (the marker's class says it is picked).
    painter.pick(marker.dataset.cell!);
    painter.frame();
    expect(marker.getAttribute('transform')).toBe(placed);
    expect(marker.getAttribute('class')).toContain('picked');
    // So does a new record (C2's cell sets out, drawn first) and a new time.
    marker.setAttribute('transform', 'translate(0,0)');
    cellSetsOut(rmLog, setStatus, 'C2');
    painter.frame();
    expect(painter.drawn.map((c) => c.cell.connection)).toEqual(['C2', 'C1']);
    expect(marker.getAttribute('transform')).not.toBe('translate(0,0)');
  });

  // QA, the same steps: S1's label said ACR 25.00 at 0.158 ms, when a backward RM cell had set it
  // to 139.97. The samples come every 500 µs; the trace tells the ACR in between.
  it("writes a source's ACR from the trace when a backward RM cell set it after the sample shown", () => {
    const { painter, rmLog, setStatus } = setup(0.0001);
    const acr = document.createElement('span');
    painter.acr('C1', acr);
    const trunk = svg('path') as SVGPathElement;
    const access = svg('path') as SVGPathElement;
    painter.lane('S1->SW1', access);
    painter.lane('SW1->SW2', trunk);
    rmLog.append([rmRecord({ time_us: 1100, rm_seq: 2, node: 'S1', direction: 'received', acr_before_mbps: 77.76, acr_after_mbps: 139.97 })], 0);
    setStatus({ nowMs: 1.05 });
    painter.frame();
    expect(acr.textContent).toBe('77.76 Mbps');
    setStatus({ nowMs: 1.2 });
    painter.frame();
    expect(acr.textContent).toBe('139.97 Mbps');
    // The source's lane is coloured by the same ACR.
    expect(access.dataset.util).toBe((Math.round(sourceUtilisation([139.97], 155.52)! / UTIL_STEP_PERCENT) * UTIL_STEP_PERCENT).toFixed(1));
    // Back at the sample's time (a pick), the sample's.
    setStatus({ nowMs: 1 });
    painter.frame();
    expect(acr.textContent).toBe('77.76 Mbps');
  });

  it('draws an RM cell where its records and the hop under way put it, labelled with its ER, and picks it on a click', () => {
    const { painter, rmLog, layout, setStatus } = setup(0.0001, twoSources, new RmLog(), pace({ 'S1->SW1': 10 }));
    const layer = svg('g') as SVGGElement;
    painter.markerLayer(layer);
    const labels = svg('g') as SVGGElement;
    painter.labelLayer(labels);
    const rec = (time_us: number, node: string, direction: RmRecord['direction'], er: number): RmRecord =>
      rmRecord({ time_us, rm_seq: 3, node, direction, er_in_mbps: er, er_out_mbps: er });
    rmLog.append([rec(900, 'S1', 'sent', 155.52), rec(910, 'SW1', 'forward', 155.52)], 0);
    setStatus({ nowMs: 0.905 });
    painter.frame();
    const shown = [...layer.children].filter((g) => (g as SVGGElement).style.display !== 'none') as SVGGElement[];
    expect(shown).toHaveLength(1);
    const at = pointOnLane(layout.lanes.get('S1->SW1')!, 0.5);
    expect(shown[0].getAttribute('transform')).toBe(`translate(${at.x.toFixed(1)},${at.y.toFixed(1)})`);
    expect(shown[0].getAttribute('class')).toContain('nv-rm-forward');
    expect(shownLabels(labels).map((l) => [l.cell, l.text])).toEqual([[shown[0].dataset.cell, '155.52']]);
    // Under its marker: S1 → SW1 heads right, and its lane lies right of its way (below it),
    // the backward cells' above; a label on the outer side is read as its own lane's.
    expect(shownLabels(labels)[0].box.y0).toBeGreaterThan(at.y);
    expect(shown[0].getAttribute('aria-label')).toBe('Forward RM cell of C1, ER 155.52 Mbps');
    painter.clicked({ target: shown[0].querySelector('path') });
    expect(painter.pickedCell).toBe(shown[0].dataset.cell);
    // A virtual path's own cell, carried under C1, is named by the path.
    const vp = (time_us: number, node: string, direction: RmRecord['direction']) => ({ ...rec(time_us, node, direction, 100), rm_seq: 4, vp: 'VP1' });
    rmLog.append([vp(920, 'SW1', 'sent'), vp(921, 'SW1', 'forward'), vp(940, 'SW2', 'forward')], 0);
    setStatus({ nowMs: 0.93 });
    painter.frame();
    const path = [...layer.children].find((g) => (g as SVGGElement).dataset.vp === 'VP1') as SVGGElement;
    expect(path.dataset.connection).toBe('C1');
    expect(path.getAttribute('aria-label')).toBe('Forward RM cell of VP1, ER 100.00 Mbps');
    // Playing too fast to follow, no cell is drawn.
    setStatus({ mode: 'playing', speed: 1 });
    const fast = setup(1);
    fast.painter.markerLayer(layer);
    fast.rmLog.append([rec(900, 'S1', 'sent', 155.52), rec(910, 'SW1', 'forward', 155.52)], 0);
    fast.setStatus({ mode: 'playing', nowMs: 0.905 });
    fast.painter.frame();
    expect([...layer.children].filter((g) => (g as SVGGElement).style.display !== 'none')).toHaveLength(0);
  });

  // QA: fecn-hotspot's reflected frames waiting at SW1 (their next record not come) were drawn
  // at its centre, over its card's bar and marks, every flow's on one spot.
  it("a cell waiting at a switch sits at its card's edge toward its loop's end, not at its centre", () => {
    const { painter, rmLog, layout, setStatus } = setup(0.0001);
    const layer = svg('g') as SVGGElement;
    painter.markerLayer(layer);
    const rec = (time_us: number, rm_seq: number, node: string, direction: RmRecord['direction']) => rmRecord({ time_us, connection: 'C1', rm_seq, node, direction });
    // Cell 3 came back to SW1 (backward) at 950 µs; cell 4 reached SW2 going forward at 955 µs.
    rmLog.append([rec(900, 3, 'S1', 'sent'), rec(910, 3, 'SW1', 'forward'), rec(930, 3, 'D1', 'turnaround'), rec(950, 3, 'SW1', 'backward')], 0);
    rmLog.append([rec(935, 4, 'S1', 'sent'), rec(945, 4, 'SW1', 'forward'), rec(955, 4, 'SW2', 'forward')], 0);
    setStatus({ nowMs: 0.96 });
    painter.frame();
    const at = (seq: number) => ([...layer.children] as SVGGElement[]).find((g) => g.style.display !== 'none' && g.dataset.cell?.startsWith(`C1/${seq}@`))!.getAttribute('transform');
    const edge = (port: string) => {
      const p = pointOnLane(layout.lanes.get(port)!, 0);
      return `translate(${p.x.toFixed(1)},${p.y.toFixed(1)})`;
    };
    expect(at(3)).toBe(edge('SW1->S1'));
    expect(at(4)).toBe(edge('SW2->D1'));
    // The forward cell's triangle points along its lane; the backward cell's diamond stays
    // upright on a sloping lane (turned, it read as a square).
    const turn = (seq: number) => (([...layer.children] as SVGGElement[]).find((g) => g.style.display !== 'none' && g.dataset.cell?.startsWith(`C1/${seq}@`))!.firstChild as SVGGElement).getAttribute('transform');
    expect(laneAngle(layout.lanes.get('SW1->S1')!).toFixed(0)).not.toBe('0');
    expect(turn(3)).toBe('rotate(0)');
    expect(turn(4)).toBe(`rotate(${laneAngle(layout.lanes.get('SW2->D1')!).toFixed(0)})`);
  });

  // QA: stepping two-sources from t = 0, the first backward cells (no cell before them had made
  // the hop) sat at SW2's centre over its queue's numbers: their source is a switch away.
  it("a cell waiting at a switch whose loop's end is further on sits at its card's edge toward the next node of its route", () => {
    const { painter, rmLog, layout, setStatus } = setup(0.0001);
    const layer = svg('g') as SVGGElement;
    painter.markerLayer(layer);
    const rec = (time_us: number, node: string, direction: RmRecord['direction']) => rmRecord({ time_us, connection: 'C1', rm_seq: 0, node, direction });
    rmLog.append([rec(1, 'S1', 'sent'), rec(6, 'SW1', 'forward')], 0);
    setStatus({ nowMs: 0.008 });
    painter.frame();
    const drawn = () => ([...layer.children] as SVGGElement[]).find((g) => g.style.display !== 'none')!.getAttribute('transform');
    const edge = (port: string) => {
      const p = pointOnLane(layout.lanes.get(port)!, 0);
      return `translate(${p.x.toFixed(1)},${p.y.toFixed(1)})`;
    };
    expect(drawn()).toBe(edge('SW1->SW2'));
    rmLog.append([rec(12, 'SW2', 'forward'), rec(18, 'D1', 'turnaround'), rec(24, 'SW2', 'backward')], 0);
    setStatus({ nowMs: 0.026 });
    painter.frame();
    expect(drawn()).toBe(edge('SW2->SW1'));
  });

  // QA: a loop's first cell, queued at a switch longer than four typical hops before any cell
  // had made a hop from there (gfc1's first cells behind SW2's queue of 700 cells), vanished.
  it("a loop's first cell waiting at a switch, however long, stays drawn there until a later cell of its loop is seen to leave it", () => {
    const { painter, rmLog, layout, setStatus } = setup(0.0001);
    const layer = svg('g') as SVGGElement;
    painter.markerLayer(layer);
    const rec = (time_us: number, rm_seq: number, node: string, direction: RmRecord['direction']) => rmRecord({ time_us, connection: 'C1', rm_seq, node, direction });
    rmLog.append([rec(1, 0, 'S1', 'sent'), rec(6, 0, 'SW1', 'forward')], 0);
    const drawn = () => ([...layer.children] as SVGGElement[]).filter((g) => g.style.display !== 'none').map((g) => [g.dataset.cell!.split('@')[0], g.getAttribute('transform')]);
    const p = pointOnLane(layout.lanes.get('SW1->SW2')!, 0);
    const edge = `translate(${p.x.toFixed(1)},${p.y.toFixed(1)})`;
    // 200 µs at SW1 (a hop of two-sources is 10 µs): still there.
    for (const nowMs of [0.02, 0.206]) {
      setStatus({ nowMs });
      painter.frame();
      expect(drawn(), `${nowMs} ms`).toEqual([['C1/0', edge]]);
    }
    // Cell 1 goes by SW1 and reaches SW2: cell 0, ahead of it in the queue, has left SW1 (the
    // trace missed where it went).
    rmLog.append([rec(210, 1, 'S1', 'sent'), rec(215, 1, 'SW1', 'forward'), rec(225, 1, 'SW2', 'forward')], 0);
    setStatus({ nowMs: 0.226 });
    painter.frame();
    expect(drawn().map(([id]) => id)).toEqual(['C1/1']);
  });

  // QA: the cells waiting at a switch were all drawn on one spot, one over another: a student
  // could not tell one from six.
  it('cells waiting at a node are drawn as a queue beside the lane they leave by, the first at its start, the newest furthest; "+N" past a few', () => {
    const { painter, rmLog, layout, setStatus, store } = setup(0.0001);
    const layer = svg('g') as SVGGElement;
    painter.markerLayer(layer);
    const labels = svg('g') as SVGGElement;
    painter.labelLayer(labels);
    // Six cells of C1 reach SW1 2 µs apart; none has left (nothing tells how long the hop takes).
    const recs: RmRecord[] = [];
    for (let k = 0; k < 6; k++) recs.push(rmRecord({ time_us: 10 * k, connection: 'C1', rm_seq: k, node: 'S1', direction: 'sent' }));
    for (let k = 0; k < 6; k++) recs.push(rmRecord({ time_us: 100 + 2 * k, connection: 'C1', rm_seq: k, node: 'SW1', direction: 'forward' }));
    rmLog.append(recs, 0);
    setStatus({ nowMs: 0.2 });
    painter.frame();
    const drawn = () =>
      ([...layer.children] as SVGGElement[])
        .filter((g) => g.style.display !== 'none')
        .map((g) => ({ seq: Number(g.dataset.cell!.split('/')[1].split('@')[0]), at: `${g.dataset.x},${g.dataset.y}` }))
        .sort((a, b) => a.seq - b.seq);
    const lane = layout.lanes.get('SW1->SW2')!;
    const spot = (k: number) => {
      const p = queueSpot(lane, k);
      return `${p.x.toFixed(1)},${p.y.toFixed(1)}`;
    };
    // The first to come at the lane's start, where it sets out from; the next ones beside it.
    expect(spot(0)).toBe(`${pointOnLane(lane, 0).x.toFixed(1)},${pointOnLane(lane, 0).y.toFixed(1)}`);
    expect(drawn().map((d) => d.at)).toEqual([spot(0), spot(1), spot(2), spot(3), spot(3), spot(3)]);
    expect(new Set([0, 1, 2, 3].map(spot)).size).toBe(4);
    // On the lane's outer side (SW1->SW2 heads right: below it), away from the cells coming back.
    expect(queueSpot(lane, 3).y).toBeGreaterThan(queueSpot(lane, 0).y);
    const badges = () => ([...labels.querySelectorAll<SVGTextElement>('[data-testid="rm-queue-more"]')] as SVGTextElement[]).filter((t) => t.style.display !== 'none');
    expect(badges().map((t) => [t.firstChild!.textContent, t.dataset.port, t.dataset.waiting])).toEqual([['+2', 'SW1->SW2', '6']]);
    // The network tells each hop (the link's, after the cells SW1's queue to SW2 held before
    // they came: a sample at 50 µs of 50 µs' worth, less the link's). Each cell waits its own
    // 50 µs less the link's time at SW1, then goes along, never back to the queue; the ones
    // still waiting step up a place. (Not the first cell's hop, 50 µs too, whose end comes
    // after they all came: what is drawn at a time is told by the records up to it.)
    const linkHopUs = linkHopsUs(twoSources, ENGINE_CATALOGUE.delay_us_per_km, 1500);
    const link = linkHopUs.get('SW1->SW2')!;
    const linkUs = link.us;
    expect(linkUs).toBeLessThan(10);
    store.reset(meta);
    store.append(new Float64Array([0.05, 25, 25, (50 - linkUs) / link.cellUs, 30, 0.5, 25, 25, 0, 30, 1, 77.76, 50, 250, 90]), 5);
    painter.setModel({ scenario: twoSources, layout, ports: portViews(twoSources, ENGINE_CATALOGUE, meta, 0), rmLimit: 0.001, lookbackUs: 10_000, linkHopUs });
    rmLog.append([rmRecord({ time_us: 150, connection: 'C1', rm_seq: 0, node: 'SW2', direction: 'forward' })], 0);
    // Cell 3 (at SW1 at 106 µs) has just set out: cells 4 and 5 wait.
    setStatus({ nowMs: (106 + 50 - linkUs + 0.5) / 1000 });
    painter.frame();
    const queued = new Set([0, 1, 2, 3].map(spot));
    expect(drawn().filter((d) => d.seq > 0 && queued.has(d.at)).map((d) => [d.seq, d.at])).toEqual([
      [4, spot(0)],
      [5, spot(1)],
    ]);
    expect(badges()).toEqual([]);
    const along = (seq: number) => painter.drawn.find((c) => c.cell.seq === seq)!;
    for (const seq of [1, 2, 3]) expect(along(seq)).toMatchObject({ from: 'SW1', to: 'SW2' });
    expect(along(1).fraction).toBeGreaterThan(along(3).fraction);
    // Late (the link's time up, no record at SW2): where they got to, short of SW2.
    setStatus({ nowMs: 0.2 });
    painter.frame();
    for (const seq of [1, 2, 3, 4, 5]) expect(along(seq)).toMatchObject({ from: 'SW1', to: 'SW2', fraction: GUESS_REACH });
  });

  // Regression: a scrub back past the records the view had forgotten rebuilt its cell index from
  // the log's, whose ids counted cells from another start: the cell picked was not found again
  // (its journey said "no longer in the trace kept") though its records were all there.
  it('a cell picked is found again, and drawn picked, after a scrub rebuilds the index from the log', () => {
    const rmLog = new RmLog(100);
    const { painter, setStatus } = setup(0.0001, twoSources, rmLog);
    const layer = svg('g') as SVGGElement;
    painter.markerLayer(layer);
    // C1's cells every 10 µs, each 5 µs a hop: S1, SW1, SW2, D1 and back.
    const way: [string, RmRecord['direction']][] = [['S1', 'sent'], ['SW1', 'forward'], ['SW2', 'forward'], ['D1', 'turnaround'], ['SW2', 'backward'], ['SW1', 'backward'], ['S1', 'received']];
    const records = Array.from({ length: 30 }, (_, k) => way.map(([node, direction], i) => rmRecord({ time_us: 10 * k + 5 * i, connection: 'C1', rm_seq: k, node, direction })))
      .flat()
      .sort((a, b) => a.time_us - b.time_us);
    const at = (us: number) => {
      setStatus({ nowMs: us / 1000 });
      painter.frame();
    };
    rmLog.append(records.slice(0, 60), 0);
    at(records[59].time_us);
    // The log keeps its newest 100: the view forgets the cells before them.
    rmLog.append(records.slice(60), 0);
    at(records[records.length - 1].time_us);
    // A cell whose records are all among those the replay sends again (from the 100th on).
    const cell = painter.cells()!.cells.find((c) => c.records[0] === records.slice(110).find((r) => r.direction === 'sent'))!;
    expect(cell).toBeDefined();
    painter.pick(cell.id);
    // The scrub: the run goes back to its 100th event and replays to the 150th.
    rmLog.keepFirst(100);
    rmLog.append(records.slice(100, 150), 0);
    const us = cell.records[2].time_us + 1;
    at(us);
    expect(painter.cells()!.cells.map((c) => c.id)).toContain(cell.id);
    expect(painter.cells()!.cells.find((c) => c.id === cell.id)!.records.length).toBeGreaterThan(2);
    expect(([...layer.children] as SVGGElement[]).filter((g) => g.style.display !== 'none' && g.classList.contains('picked')).map((g) => g.dataset.cell)).toEqual([cell.id]);
  });

  // Regression: with more cells under way than are drawn (MAX_MARKERS), the badge counted only the
  // share drawn: 400 cells waiting at SW1 read "+196", and the number jumped as the share changed.
  it('"+N" counts every cell waiting in the queue, drawn or not, and reads short for any N', () => {
    const { painter, rmLog, setStatus } = setup(0.0001);
    const layer = svg('g') as SVGGElement;
    painter.markerLayer(layer);
    const labels = svg('g') as SVGGElement;
    painter.labelLayer(labels);
    const waiting = 400;
    expect(waiting).toBeGreaterThan(MAX_MARKERS);
    const recs: RmRecord[] = [];
    for (let k = 0; k < waiting; k++) recs.push(rmRecord({ time_us: k * 0.1, connection: 'C1', rm_seq: k, node: 'S1', direction: 'sent' }));
    for (let k = 0; k < waiting; k++) recs.push(rmRecord({ time_us: 100 + k * 0.1, connection: 'C1', rm_seq: k, node: 'SW1', direction: 'forward' }));
    rmLog.append(recs, 0);
    setStatus({ nowMs: 0.2 });
    painter.frame();
    expect(painter.drawn.length).toBeLessThanOrEqual(MAX_MARKERS);
    const badges = ([...labels.querySelectorAll<SVGTextElement>('[data-testid="rm-queue-more"]')] as SVGTextElement[]).filter((t) => t.style.display !== 'none');
    expect(badges.map((t) => [t.firstChild!.textContent, t.dataset.port, t.dataset.waiting])).toEqual([[`+${waiting - QUEUE_SHOWN}`, 'SW1->SW2', String(waiting)]]);
    // Up to a buffer of ten million cells: a few characters, the exact count in data-waiting.
    expect([3, 996, 1_234, 12_345, 999_999, 9_999_996].map(moreText)).toEqual(['+3', '+996', '+1.2k', '+12k', '+1M', '+10M']);
    for (const n of [3, 996, 1_234, 12_345, 9_999_996]) expect(moreText(n).length).toBeLessThanOrEqual(5);
  });

  // QA: "+12" sat beside a bar reading "407 cells", and read as 12 more of those; it counts RM
  // cells only. Its tooltip and its name for a screen reader say so.
  it('"+N" says, in its tooltip and its accessible name, that it counts the RM cells waiting', () => {
    const { painter, rmLog, setStatus } = setup(0.0001);
    const layer = svg('g') as SVGGElement;
    painter.markerLayer(layer);
    const labels = svg('g') as SVGGElement;
    painter.labelLayer(labels);
    const recs: RmRecord[] = [];
    for (let k = 0; k < 16; k++) recs.push(rmRecord({ time_us: k, connection: 'C1', rm_seq: k, node: 'S1', direction: 'sent' }));
    for (let k = 0; k < 16; k++) recs.push(rmRecord({ time_us: 100 + k, connection: 'C1', rm_seq: k, node: 'SW1', direction: 'forward' }));
    rmLog.append(recs, 0);
    setStatus({ nowMs: 0.2 });
    painter.frame();
    const shown = ([...labels.children] as SVGTextElement[]).filter((t) => t.style.display !== 'none');
    const badges = shown.filter((t) => t.dataset.testid === 'rm-queue-more');
    expect(badges.map((t) => [t.firstChild!.textContent, t.getAttribute('role'), t.querySelector('title')?.textContent, t.getAttribute('aria-hidden')])).toEqual([
      ['+12', 'img', '+12: 12 more RM cells waiting here', null],
    ]);
    // The cells' labels stay hidden from a screen reader: their markers' names say them.
    const cellLabels = shown.filter((t) => t.dataset.testid === 'rm-label');
    expect(cellLabels.length).toBeGreaterThan(0);
    for (const t of cellLabels) expect(t.getAttribute('aria-hidden')).toBe('true');
    // One fewer waiting (the last not come yet): the same badge, its name written again.
    setStatus({ nowMs: 0.1145 });
    painter.frame();
    expect(badges.map((t) => [t.firstChild!.textContent, t.querySelector('title')?.textContent, t.querySelectorAll('title').length])).toEqual([['+11', '+11: 11 more RM cells waiting here', 1]]);
    // One, in the network's words (an Ethernet network's frames; QCN's notifications).
    expect(moreName(1, 1, 0, ATM_WORDS)).toBe('+1: 1 more RM cell waiting here');
    expect(moreName(1_234, 1_300, 0, ETHERNET_WORDS)).toBe('+1.2k: 1234 more rate-discovery frames waiting here');
    expect(moreName(3, 7, 7, ETHERNET_WORDS)).toBe('+3: 3 more QCN congestion notifications waiting here');
    expect(moreName(3, 7, 2, ETHERNET_WORDS)).toBe('+3: 3 more rate-discovery frames and QCN congestion notifications waiting here');
    expect(moreName(1, 7, 2, ETHERNET_WORDS)).toBe('+1: 1 more rate-discovery frame or QCN congestion notification waiting here');
  });

  // QA: gfc1's first cells piled at their switches' edges for the 5 ms of a 1000 km link, as if
  // queued: no cell of the loop had made the hop, so nothing told how long it takes.
  it("before any cell of its loop made a hop, a cell goes along the link over the link's own delay, then stays where it got to", () => {
    const { painter, rmLog, layout, setStatus } = setup(0.0001);
    const layer = svg('g') as SVGGElement;
    painter.markerLayer(layer);
    const hops = linkHopsUs(twoSources, ENGINE_CATALOGUE.delay_us_per_km, 1500);
    painter.setModel({ scenario: twoSources, layout, ports: portViews(twoSources, ENGINE_CATALOGUE, meta, 0), rmLimit: 0.001, lookbackUs: 10_000, linkHopUs: hops });
    const hop = hops.get('SW1->SW2')!.us;
    expect(hop).toBeGreaterThan(0);
    const rec = (time_us: number, node: string, direction: RmRecord['direction']) => rmRecord({ time_us, connection: 'C1', rm_seq: 0, node, direction });
    rmLog.append([rec(1, 'S1', 'sent'), rec(6, 'SW1', 'forward')], 0);
    const drawn = () => ([...layer.children] as SVGGElement[]).filter((g) => g.style.display !== 'none').map((g) => g.getAttribute('transform'));
    const at = (fraction: number) => {
      const p = pointOnLane(layout.lanes.get('SW1->SW2')!, fraction);
      return `translate(${p.x.toFixed(1)},${p.y.toFixed(1)})`;
    };
    // Halfway through the link's hop: halfway along SW1->SW2.
    setStatus({ nowMs: (6 + hop / 2) / 1000 });
    painter.frame();
    expect(drawn()).toEqual([at(0.5)]);
    // Later than that hop (its record at SW2 would be here): where it got to, short of SW2, not
    // back at SW1's edge (QA: gfc1's first cells jumped back).
    setStatus({ nowMs: (6 + hop * 3) / 1000 });
    painter.frame();
    expect(drawn()).toEqual([at(GUESS_REACH)]);
    // A cell that finds 250 cells in SW1->SW2's queue (the sample at 1 ms, the last before it
    // came) waits their transmission at SW1 (in its queue, at the lane's start), then goes along
    // over the link's.
    rmLog.keepFirst(0);
    rmLog.append([rmRecord({ time_us: 1000, connection: 'C1', rm_seq: 0, node: 'S1', direction: 'sent' }), rmRecord({ time_us: 1005, connection: 'C1', rm_seq: 0, node: 'SW1', direction: 'forward' })], 0);
    const queueUs = 250 * hops.get('SW1->SW2')!.cellUs;
    setStatus({ nowMs: (1005 + queueUs / 2) / 1000 });
    painter.frame();
    expect(drawn()).toEqual([at(0)]);
    setStatus({ nowMs: (1005 + queueUs + hop / 2) / 1000 });
    painter.frame();
    expect(drawn()).toEqual([at(0.5)]);
    // One that came at 990 µs knew the sample at 0.5 ms (an empty queue), not the one at 1 ms,
    // which had not been taken yet: drawn as a live run drew it, though the store now holds both.
    rmLog.keepFirst(0);
    rmLog.append([rmRecord({ time_us: 985, connection: 'C1', rm_seq: 0, node: 'S1', direction: 'sent' }), rmRecord({ time_us: 990, connection: 'C1', rm_seq: 0, node: 'SW1', direction: 'forward' })], 0);
    setStatus({ nowMs: (990 + hop / 2) / 1000 });
    painter.frame();
    expect(drawn()).toEqual([at(0.5)]);
  });

  // QA: qcn-hotspot's first notifications waited at SW1 for their whole hop (no guess for a
  // notification) and vanished; on Ethernet the port's queue (in frames) was not read at all.
  it("qcn-hotspot: a switch's first notification waits out the frames queued toward its host, goes along the link, and leaves the queue when a later sample finds it sent", () => {
    const qcn = LIBRARY.entries.find((e) => e.id === 'qcn-hotspot')!.scenario;
    const qMeta: SeriesMeta[] = [{ id: 'queue:SW1->EP3', kind: 'queue', label: 'q', unit: 'frames', owner: 'SW1->EP3', held: false }];
    const store = new SampleStore();
    store.reset(qMeta);
    // SW1->EP3's queue: 10 frames at 5.0 ms, none at 5.080 ms.
    store.append(new Float64Array([5, 10, 5.08, 0]), 2);
    const rmLog = new RmLog();
    let status: RunStatus = { run: 1, mode: 'paused', nowMs: 5.1, endMs: 250, done: false, events: 0, speed: 0.0001, achievedSpeed: null, eventsPerSec: null, engineMs: 0 };
    const lab = { getState: () => ({ status, speed: 0.0001 }), freshStatus: () => status, rmLog, runMovedAtMs: 0 } as unknown as Lab;
    const painter = new NetworkPainter(store, lab, new ChartGroup(() => 0, () => undefined, () => 0));
    const hops = linkHopsUs(qcn, ENGINE_CATALOGUE.delay_us_per_km, 1500);
    const hop = hops.get('SW1->EP3')!;
    // The link's 4 µs and one frame's 1.2 µs at 10 Gbps.
    expect(hop.us).toBeCloseTo(5.2, 9);
    expect(hop.cellUs).toBeCloseTo(1.2, 9);
    painter.setModel({ scenario: qcn, layout: networkLayout(qcn), ports: portViews(qcn, ENGINE_CATALOGUE, qMeta, 0), rmLimit: 1, lookbackUs: 10_000, linkHopUs: hops });
    painter.markerLayer(svg('g') as SVGGElement);
    rmLog.append([rmRecord({ time_us: 5072.4, connection: 'F3', rm_seq: 0, node: 'SW1', direction: 'notification', bn: true, er_in_mbps: null, er_out_mbps: null, feedback: 63 })], 0);
    const drawnAt = (us: number) => {
      status = { ...status, nowMs: us / 1000 };
      painter.frame();
      return painter.drawn.map((c) => [c.phase, c.from, c.to, Number(c.fraction.toFixed(3))]);
    };
    // In SW1's queue toward EP3 behind the 10 frames of the sample before it (12 µs)…
    expect(drawnAt(5079.9)).toEqual([['notification', 'SW1', 'SW1', 0]]);
    // …until the sample at 5.080 ms finds that queue empty: sent by then, along the link since.
    expect(drawnAt(5081.3)).toEqual([['notification', 'SW1', 'EP3', 0.25]]);
    expect(drawnAt(5082.6)).toEqual([['notification', 'SW1', 'EP3', 0.5]]);
  });

  // Regression: the wait at the node was read from the sample nearest the record. In a live run
  // played slowly, the next sample came after the cell was first drawn out on the link, was
  // nearer, told a long queue, and the cell was drawn back in the queue at SW1.
  it('a cell drawn out on the link is not drawn back in the queue when a later sample comes', () => {
    const { painter, rmLog, layout, setStatus, store } = setup(0.0001);
    const layer = svg('g') as SVGGElement;
    painter.markerLayer(layer);
    const hops = linkHopsUs(twoSources, ENGINE_CATALOGUE.delay_us_per_km, 1500);
    painter.setModel({ scenario: twoSources, layout, ports: portViews(twoSources, ENGINE_CATALOGUE, meta, 0), rmLimit: 0.001, lookbackUs: 10_000, linkHopUs: hops });
    const hop = hops.get('SW1->SW2')!.us;
    // The run so far: one sample, at 0.5 ms, SW1->SW2's queue empty.
    store.reset(meta);
    store.append(new Float64Array([0.5, 25, 25, 0, 30]), 5);
    const rec = (time_us: number, node: string, direction: RmRecord['direction']) => rmRecord({ time_us, connection: 'C1', rm_seq: 0, node, direction });
    rmLog.append([rec(795, 'S1', 'sent'), rec(800, 'SW1', 'forward')], 0);
    const fraction = () => painter.drawn.map((c) => [c.from, c.to, Number(c.fraction.toFixed(3))]);
    setStatus({ nowMs: (800 + hop / 2) / 1000 });
    painter.frame();
    expect(fraction()).toEqual([['SW1', 'SW2', 0.5]]);
    // The sample at 1 ms comes (250 cells queued then), nearer 0.8 ms than the one at 0.5; the
    // shown time steps on: the cell goes on along the link.
    store.append(new Float64Array([1, 77.76, 50, 250, 90]), 5);
    setStatus({ nowMs: (800 + (3 * hop) / 4) / 1000 });
    painter.frame();
    expect(fraction()).toEqual([['SW1', 'SW2', 0.75]]);
    // A cell at SW1 at the very time of a sample that comes after the cell is drawn (the engine
    // recorded the cell before it sampled): its wait is the queue of the sample before it.
    store.reset(meta);
    store.append(new Float64Array([0.5, 25, 25, 0, 30]), 5);
    rmLog.keepFirst(0);
    rmLog.append([rec(995, 'S1', 'sent'), rec(1000, 'SW1', 'forward')], 0);
    setStatus({ nowMs: (1000 + hop / 2) / 1000 });
    painter.frame();
    expect(fraction()).toEqual([['SW1', 'SW2', 0.5]]);
    store.append(new Float64Array([1, 77.76, 50, 250, 90]), 5);
    setStatus({ nowMs: (1000 + (3 * hop) / 4) / 1000 });
    painter.frame();
    expect(fraction()).toEqual([['SW1', 'SW2', 0.75]]);
  });

  // QA (the log after a backfill): the run went back and sent as many events again before the
  // next frame; the count alone did not tell, and the cells of the history left stayed drawn.
  it('a run gone back (events taken back, as many sent again before the next frame) draws only the new events', () => {
    const { painter, rmLog, setStatus } = setup(0.0001);
    const layer = svg('g') as SVGGElement;
    painter.markerLayer(layer);
    const rec = (connection: string, time_us: number, node: string, direction: RmRecord['direction']) => rmRecord({ time_us, connection, rm_seq: 3, node, direction });
    rmLog.append([rec('C1', 900, 'S1', 'sent'), rec('C1', 910, 'SW1', 'forward')], 0);
    setStatus({ nowMs: 0.905 });
    painter.frame();
    const drawn = () => ([...layer.children] as SVGGElement[]).filter((g) => g.style.display !== 'none').map((g) => g.dataset.connection);
    expect(drawn()).toEqual(['C1']);
    rmLog.keepFirst(0);
    rmLog.append([rec('C2', 901, 'S2', 'sent'), rec('C2', 911, 'SW1', 'forward')], 0);
    painter.frame();
    expect(drawn()).toEqual(['C2']);
  });

  // The log keeps the newest events and the index forgets the cells before them. A run going
  // back within what the log keeps cuts the index: it draws what a view that watched the run go
  // straight to that time draws. Going back past it (a drag to early in a long run) builds the
  // index afresh: it holds exactly what a fresh view of the log holds.
  it('a run gone back within or past what the log still keeps draws what a view that never went back draws', () => {
    const loop = (k: number): RmRecord[] => {
      const t = 100 + 40 * k;
      const at = (dt: number, node: string, direction: RmRecord['direction'], acr: number | null = null) =>
        rmRecord({ time_us: t + dt, connection: k % 2 ? 'C2' : 'C1', rm_seq: k, node, direction, acr_after_mbps: acr });
      const [src, dst] = k % 2 ? ['S2', 'D2'] : ['S1', 'D1'];
      return [at(0, src, 'sent'), at(10, 'SW1', 'forward'), at(20, 'SW2', 'forward'), at(30, dst, 'turnaround'), at(40, 'SW2', 'backward'), at(50, 'SW1', 'backward'), at(60, src, 'received', 20 + k)];
    };
    const records = Array.from({ length: 12 }, (_, k) => loop(k)).flat();
    const view = ({ setStatus, painter }: ReturnType<typeof setup>, layer: SVGGElement, us: number) => {
      setStatus({ nowMs: us / 1000 });
      painter.frame();
      // A cell's id counts the cells opened before it in the index: not what is drawn.
      return ([...layer.children] as SVGGElement[]).filter((g) => g.style.display !== 'none').map((g) => `${g.dataset.cell?.replace(/#\d+$/, '')}@${g.dataset.x},${g.dataset.y}:${g.lastChild?.textContent}`);
    };
    const cells = (p: NetworkPainter) => p.cells()!.cells.map((c) => `${c.id.replace(/#\d+$/, '')}:${c.closed}:${c.records.map((r) => r.time_us).join('|')}`);
    /** A view fed the records in loops of seven through a log of 40, a frame after each. */
    const played = (upTo: number) => {
      const t = setup(0.0001, twoSources, new RmLog(40));
      const layer = svg('g') as SVGGElement;
      t.painter.markerLayer(layer);
      for (let i = 0; i < upTo; i += 7) {
        t.rmLog.append(records.slice(i, Math.min(upTo, i + 7)), 0);
        view(t, layer, records[Math.min(upTo, i + 7) - 1].time_us);
      }
      return { t, layer };
    };
    for (const back of [60, 20]) {
      // 84 records through a log of 40: it let the oldest go, and the index forgot their cells.
      const { t, layer } = played(records.length);
      // Back to the `back`-th record (within what is kept, or before it), and the replay's.
      t.rmLog.keepFirst(back);
      t.rmLog.append(structuredClone(records.slice(back, back + 10)), 0);
      const us = records[back + 9].time_us - 25; // a cell on its way back
      const shown = view(t, layer, us);
      expect(shown.length).toBeGreaterThan(0);
      if (back === 60) {
        const straight = played(back + 10);
        expect(shown).toEqual(view(straight.t, straight.layer, us));
      } else {
        const fresh = setup(0.0001);
        const freshLayer = svg('g') as SVGGElement;
        fresh.painter.markerLayer(freshLayer);
        fresh.rmLog.append(t.rmLog.records(), 0);
        expect(shown).toEqual(view(fresh, freshLayer, us));
        expect(cells(t.painter)).toEqual(cells(fresh.painter));
      }
    }
  });

  // A time shows the same picture while a run plays (the trace a flush past it or not) and after
  // a scrub back to it (every later record come): a cell drawn on a hop learnt from the cell
  // ahead, whose slower hop (a queue building at SW1) ended after it set out, was drawn back.
  it('a time is drawn the same however far the trace has come past it', () => {
    const loop = (k: number): RmRecord[] => {
      const t = 100 + 4 * k;
      // Each cell 6 µs longer from SW1 to SW2 than the one before: a queue building.
      const q = 6 * k;
      const at = (dt: number, node: string, direction: RmRecord['direction']) => rmRecord({ time_us: t + dt, connection: 'C1', rm_seq: k, node, direction });
      return [at(0, 'S1', 'sent'), at(10, 'SW1', 'forward'), at(20 + q, 'SW2', 'forward'), at(30 + q, 'D1', 'turnaround'), at(40 + q, 'SW2', 'backward'), at(50 + q, 'SW1', 'backward'), at(60 + q, 'S1', 'received')];
    };
    const records = Array.from({ length: 8 }, (_, k) => loop(k))
      .flat()
      .sort((a, b) => a.time_us - b.time_us);
    const links = pace({ 'S1->SW1': 10, 'SW1->SW2': 10, 'SW2->D1': 10, 'D1->SW2': 10, 'SW2->SW1': 10, 'SW1->S1': 10 });
    const view = (known: readonly RmRecord[], us: number) => {
      const t = setup(0.0001, twoSources, new RmLog(), links);
      const layer = svg('g') as SVGGElement;
      t.painter.markerLayer(layer);
      t.rmLog.append(known, 0);
      t.setStatus({ nowMs: us / 1000 });
      t.painter.frame();
      return ([...layer.children] as SVGGElement[]).filter((g) => g.style.display !== 'none').map((g) => `${g.dataset.cell}@${g.dataset.x},${g.dataset.y}`);
    };
    let drawn = 0;
    for (const us of [115, 123.5, 131, 138, 149.5, 163, 177]) {
      const now = view(records.filter((r) => r.time_us <= us), us);
      expect(now.length, `${us} µs`).toBeGreaterThan(0);
      expect(view(records.filter((r) => r.time_us <= us + 15), us), `${us} µs, the trace 15 µs ahead`).toEqual(now);
      expect(view(records, us), `${us} µs, after a scrub back`).toEqual(now);
      drawn += now.length;
    }
    expect(drawn).toBeGreaterThan(10);
  });

  // QA: long-rtt's 25,000 km link full of cells: markers drawn later covered the labels of the
  // cells before them ("5.52", "52" along S1's link). The labels now lie in a layer over the
  // markers; a label may cover a marker it does not name, but never a labelled one.
  it("no label lies over a labelled cell's marker nor over another label; the picked cell's label is placed first", () => {
    const { painter, rmLog, setStatus } = setup(0.0001, twoSources, new RmLog(), pace({ 'S1->SW1': 100 }));
    const layer = svg('g') as SVGGElement;
    painter.markerLayer(layer);
    const labels = svg('g') as SVGGElement;
    painter.labelLayer(labels);
    // Cells 1 µs apart on S1's 100 µs hop: markers a few px apart along the lane.
    const recs: RmRecord[] = [];
    for (let k = 0; k < 6; k++) recs.push(rmRecord({ time_us: 100 + k, rm_seq: k, node: 'S1', direction: 'sent', er_in_mbps: 155.52, er_out_mbps: 155.52 }));
    for (let k = 0; k < 6; k++) recs.push(rmRecord({ time_us: 200 + k, rm_seq: k, node: 'SW1', direction: 'forward', er_in_mbps: 155.52, er_out_mbps: 155.52 }));
    rmLog.append(recs, 0);
    setStatus({ nowMs: 0.15 });
    painter.frame();
    const shown = () =>
      ([...layer.children] as SVGGElement[]).filter((g) => g.style.display !== 'none').map((g) => ({ id: g.dataset.cell!, x: Number(g.dataset.x), y: Number(g.dataset.y) }));
    const check = (followed = '') => {
      const cells = shown();
      expect(cells).toHaveLength(6);
      const drawn = shownLabels(labels);
      expect(drawn.length).toBeGreaterThan(0);
      const named = new Set(drawn.map((l) => l.cell));
      drawn.forEach((l, i) => {
        drawn.slice(i + 1).forEach((m) => expect(meet(l.box, m.box), `${l.cell}'s label over ${m.cell}'s`).toBe(false));
        // The cell followed may lie over the others' markers.
        if (l.cell === followed) return;
        for (const n of cells) if (n.id !== l.cell && named.has(n.id)) expect(meet(l.box, markerBox(n)), `${l.cell}'s label over ${n.id}'s marker`).toBe(false);
      });
      return [...named];
    };
    const first = check();
    // The picked cell keeps a label, though another's would have taken its place.
    const unlabelled = shown().find((c) => !first.includes(c.id))!;
    painter.pick(unlabelled.id);
    painter.frame();
    expect(check(unlabelled.id)).toContain(unlabelled.id);
  });

  // QA: a backward cell's ER label, its own side of the link taken, was put on the forward
  // lane's side, where it read as a forward cell's.
  it("a cell's label on a level link stays on its own lane's side, or is left out", () => {
    const { painter, rmLog, layout, setStatus } = setup(0.0001);
    const layer = svg('g') as SVGGElement;
    painter.markerLayer(layer);
    const labels = svg('g') as SVGGElement;
    painter.labelLayer(labels);
    // A backward cell at SW2 on its way to SW1 (heading left: its lane is above the link), a
    // forward one halfway from SW1 to SW2 (below).
    const rec = (time_us: number, rm_seq: number, node: string, direction: RmRecord['direction']) =>
      rmRecord({ time_us, connection: 'C1', rm_seq, node, direction, er_in_mbps: 155.52, er_out_mbps: 77.76 });
    rmLog.append([rec(0, 0, 'S1', 'sent'), rec(10, 0, 'SW1', 'forward'), rec(20, 0, 'SW2', 'forward'), rec(30, 0, 'D1', 'turnaround'), rec(40, 0, 'SW2', 'backward')], 0);
    rmLog.append([rec(35, 1, 'S1', 'sent'), rec(45, 1, 'SW1', 'forward'), rec(55, 1, 'SW2', 'forward')], 0);
    setStatus({ nowMs: 0.05 });
    const base = { scenario: twoSources, layout, ports: portViews(twoSources, ENGINE_CATALOGUE, meta, 0), rmLimit: 0.001, lookbackUs: 10_000 };
    const cells = () =>
      ([...layer.children] as SVGGElement[])
        .filter((g) => g.style.display !== 'none')
        .map((g) => ({ id: g.dataset.cell!, cls: g.getAttribute('class')!, x: Number(g.dataset.x), y: Number(g.dataset.y) }));
    const sides = () =>
      Object.fromEntries(
        shownLabels(labels).map((l) => {
          const c = cells().find((m) => m.id === l.cell)!;
          return [c.cls.includes('backward') ? 'backward' : 'forward', l.box.y1 <= c.y ? 'above' : 'below'];
        }),
      );
    painter.setModel(base);
    painter.frame();
    expect(cells()).toHaveLength(2);
    expect(sides()).toEqual({ backward: 'above', forward: 'below' });
    // Each cell's outer side taken (a name, a card written there), the other side free: no
    // label, rather than one on the other lane's side.
    const back = cells().find((c) => c.cls.includes('backward'))!;
    const fwd = cells().find((c) => c.cls.includes('forward'))!;
    expect(Math.abs(back.x - fwd.x)).toBeGreaterThan(60);
    const reserved: Box[] = [
      { x0: back.x - 30, x1: back.x + 30, y0: back.y - 40, y1: back.y - 9 },
      { x0: fwd.x - 30, x1: fwd.x + 30, y0: fwd.y + 9, y1: fwd.y + 40 },
    ];
    painter.setModel({ ...base, reserved });
    painter.frame();
    expect(cells()).toHaveLength(2);
    expect(sides()).toEqual({});
  });

  // QA: long-rtt's 25,000 km link, its markers a few px apart, showed no ER label at all: a label
  // kept clear of every marker, and none could.
  it('a dense lane shows some labels, spread along it: over unlabelled markers, clear of the labelled ones and of each other', () => {
    const longRtt = LIBRARY.entries.find((e) => e.id === 'long-rtt')!.scenario;
    const { painter, rmLog, layout, setStatus } = setup(0.0001, longRtt, new RmLog(), pace({ 'S1->SW1': 120 }));
    const layer = svg('g') as SVGGElement;
    painter.markerLayer(layer);
    const labelLayer = svg('g') as SVGGElement;
    painter.labelLayer(labelLayer);
    // 120 cells of C1 set out 1 µs apart on a 120 µs hop: at 120 µs they lie along the whole
    // lane, about 3 px apart.
    const recs: RmRecord[] = [];
    for (let k = 0; k < 120; k++) recs.push(rmRecord({ time_us: k, rm_seq: k, node: 'S1', direction: 'sent', er_in_mbps: 155.52, er_out_mbps: 155.52 }));
    for (let k = 0; k < 120; k++) recs.push(rmRecord({ time_us: 120 + k, rm_seq: k, node: 'SW1', direction: 'forward', er_in_mbps: 155.52, er_out_mbps: 155.52 }));
    rmLog.append(recs, 0);
    setStatus({ nowMs: 0.1195 });
    painter.frame();
    const cells = ([...layer.children] as SVGGElement[]).filter((g) => g.style.display !== 'none').map((g) => ({ id: g.dataset.cell!, x: Number(g.dataset.x), y: Number(g.dataset.y) }));
    expect(cells).toHaveLength(120);
    const labels = shownLabels(labelLayer);
    expect(labels.length).toBeGreaterThanOrEqual(4);
    for (const l of labels) expect(l.text).toBe('155.52');
    // Spread along the lane: from near one end to near the other.
    const lane = layout.lanes.get('S1->SW1')!;
    const along = (x: number) => (x - lane.a.x) / (lane.b.x - lane.a.x);
    const xs = labels.map((l) => along(cells.find((c) => c.id === l.cell)!.x)).sort((a, b) => a - b);
    expect(xs[xs.length - 1] - xs[0]).toBeGreaterThan(0.5);
    // No label over another, nor over a labelled cell's marker (its own but).
    const labelled = new Set(labels.map((l) => l.cell));
    labels.forEach((l, i) => {
      labels.slice(i + 1).forEach((m) => expect(meet(l.box, m.box), `${l.cell} × ${m.cell}`).toBe(false));
      for (const c of cells) if (labelled.has(c.id) && c.id !== l.cell) expect(meet(l.box, markerBox(c)), `${l.cell}'s label over ${c.id}`).toBe(false);
    });
  });

  it('the next node of a route: toward the destination forward, toward the source backward', () => {
    const route = ['S1', 'SW1', 'SW2', 'D1'];
    expect(nextOnRoute(route, 'SW1', 'forward')).toBe('SW2');
    expect(nextOnRoute(route, 'SW2', 'backward')).toBe('SW1');
    expect(nextOnRoute(route, 'SW2', 'notification')).toBe('SW1');
    expect(nextOnRoute(route, 'S1', 'backward')).toBeUndefined();
    expect(nextOnRoute(route, 'SW9', 'forward')).toBeUndefined();
    expect(nextOnRoute(undefined, 'SW1', 'forward')).toBeUndefined();
  });

  it('a press on a marker picks its cell, though a frame drawn before the release puts another cell in that marker', () => {
    const { painter, rmLog, setStatus } = setup(0.0001);
    const layer = svg('g') as SVGGElement;
    painter.markerLayer(layer);
    cellSetsOut(rmLog, setStatus, 'C1');
    painter.frame();
    const first = layer.children[0] as SVGGElement;
    const c1 = first.dataset.cell!;
    painter.pressed({ button: 0, pointerId: 1, target: first.querySelector('path'), currentTarget: layer });
    // The run goes on (playing, or a step) and C2's cell sets out: the newest is drawn first, so
    // the marker pressed is C2's now.
    cellSetsOut(rmLog, setStatus, 'C2');
    painter.frame();
    expect(first.dataset.connection).toBe('C2');
    painter.released({ pointerId: 1 });
    expect(painter.pickedCell).toBe(c1);
    // The click the release brings (here on the marker now C2's, as after a touch) picks no other.
    painter.clicked({ target: first.querySelector('path') });
    expect(painter.pickedCell).toBe(c1);
    // A click with no press (assistive technology's) picks the cell of the marker clicked.
    painter.clicked({ target: first.querySelector('path') });
    expect(painter.pickedCell).toBe(first.dataset.cell);
  });

  it('a marker focused with the keyboard keeps its cell while a cell setting out moves the others; Enter opens that cell', () => {
    const { painter, rmLog, setStatus } = setup(0.0001);
    const root = svg('svg');
    const layer = svg('g') as SVGGElement;
    root.append(layer);
    document.body.append(root);
    painter.markerLayer(layer);
    cellSetsOut(rmLog, setStatus, 'C1');
    painter.frame();
    const focused = layer.children[0] as SVGGElement;
    const c1 = focused.dataset.cell!;
    focused.focus();
    expect(document.activeElement).toBe(focused);
    // C2's cell sets out: drawn first (the newest), it would take the focused marker.
    cellSetsOut(rmLog, setStatus, 'C2');
    painter.frame();
    expect(painter.drawn.map((c) => c.cell.connection)).toEqual(['C2', 'C1']);
    expect(focused.dataset.cell).toBe(c1);
    expect(focused.dataset.connection).toBe('C1');
    // C2's cell is drawn too, in the other marker.
    const other = layer.children[1] as SVGGElement;
    expect(other.style.display).toBe('');
    expect(other.dataset.connection).toBe('C2');
    const enter = { key: 'Enter', target: focused, preventDefault() {}, stopPropagation() {} };
    painter.keyed(enter);
    expect(painter.pickedCell).toBe(c1);
    // Without the focus, the markers go by the drawing's order again.
    focused.blur();
    painter.frame();
    expect(focused.dataset.connection).toBe('C2');
    root.remove();
  });

  it("says in its live region when the focused marker's cell is no longer drawn, and what the marker shows instead", () => {
    const { painter, rmLog, setStatus } = setup(0.0001);
    const root = svg('svg');
    const layer = svg('g') as SVGGElement;
    root.append(layer);
    document.body.append(root);
    const announcer = document.createElement('span');
    painter.announcerText(announcer);
    painter.markerLayer(layer);
    cellSetsOut(rmLog, setStatus, 'C1');
    painter.frame();
    const focused = layer.children[0] as SVGGElement;
    focused.focus();
    const name = focused.getAttribute('aria-label')!;
    expect(name).toContain('of C1');
    // Still drawn a little later: nothing said.
    setStatus({ nowMs: 0.906 });
    painter.frame();
    expect(announcer.textContent).toBe('');
    // Past the look-back a later cell of C2 is the only one drawn: it takes the focused marker.
    const rec = (time_us: number, node: string, direction: RmRecord['direction']) => rmRecord({ time_us, connection: 'C2', rm_seq: 9, node, direction });
    rmLog.append([rec(20_000, 'S2', 'sent'), rec(20_010, 'SW1', 'forward')], 0);
    setStatus({ nowMs: 20.005 });
    painter.frame();
    expect(focused.dataset.connection).toBe('C2');
    expect(announcer.textContent).toBe(`${name}: no longer drawn. This marker now shows ${focused.getAttribute('aria-label')}.`);
    // Said once: the next frame has nothing new to say.
    announcer.textContent = '';
    setStatus({ nowMs: 20.006 });
    painter.frame();
    expect(announcer.textContent).toBe('');
    // Long after, no cell is drawn at all: the marker is hidden and that is said too.
    const c2 = focused.getAttribute('aria-label')!;
    setStatus({ nowMs: 60 });
    painter.frame();
    expect(focused.style.display).toBe('none');
    expect(announcer.textContent).toBe(`${c2}: no longer drawn. No RM cell is drawn in its place.`);
    root.remove();
  });

  it("places the cells in the markers in the drawing's order, but for the focused marker's, while it is drawn", () => {
    const [a, b, c] = ['a', 'b', 'c'].map((id) => ({ cell: { id } }));
    expect(markerSlots([a, b, c], null)).toEqual([a, b, c]);
    expect(markerSlots([a, b, c], { slot: 0, cell: 'b' })).toEqual([b, a, c]);
    // The focused marker is past the cells drawn now: the one before it is left empty (hidden).
    expect(markerSlots([a, b], { slot: 3, cell: 'a' })).toEqual([undefined, b, undefined, a]);
    // Its cell is gone: the drawing's order.
    expect(markerSlots([a, b], { slot: 0, cell: 'z' })).toEqual([a, b]);
  });
});

// QA: "max 1.0 / 10000000 cells" (gfc-edge's Series-D buffer) overran a card's line.
describe('countText: a queue and its unit, as a card writes it', () => {
  it('says one cell, not "1 cells"', () => {
    expect(countText(1, 'cells')).toBe('1 cell');
    expect(countText(0, 'cells')).toBe('0 cells');
    expect(countText(971, 'cells')).toBe('971 cells');
    expect(countText(2.5, 'frames')).toBe('2.5 frames');
  });
});

describe('queueCount: a card line holds its queue text', () => {
  // QA: "1.0 / 1000 cells", a decimal on a count of cells.
  it('a count of cells or frames as a whole number (a buffer of frames under 10 with a decimal), whole numbers to 99 999, short above', () => {
    expect([0, 1, 7, 2.345, 10, 999.6, 99_999, 123_456, 10_000_000].map(queueCount)).toEqual(['0', '1', '7', '2.3', '10', '1000', '99999', '123K', '10M']);
    expect(`max ${queueCount(1)} / ${queueCount(10_000_000)} cells`.length).toBeLessThanOrEqual('max 1000 / 1000 cells'.length);
  });
});

describe('queuePlaces: cells waiting at a node, a queue per lane', () => {
  it('numbers each queue from its first to come, ties by id; a cell not waiting has no place', () => {
    const w = (queue: string, sinceUs: number, id: string) => ({ queue, sinceUs, id });
    const { place, size } = queuePlaces([w('SW1->SW2', 30, 'c'), null, w('SW1->SW2', 10, 'b'), w('SW2->SW1', 5, 'x'), w('SW1->SW2', 10, 'a')]);
    expect(place).toEqual([2, -1, 1, 0, 0]);
    expect([...size]).toEqual([['SW1->SW2', 3], ['SW2->SW1', 1]]);
  });
});
