import { describe, expect, it } from 'vitest';
import type { SeriesMeta } from '../contract/engine';
import { chartCsv, chartSvg, csvColumn, prettyJson, runCsv, rustFloat, type ChartExport } from './export';
import { PINNED_ALPHA } from './palette';
import { coincidenceAtRow } from './readout';
import { NORMAL_LOOK, PRESENTATION_LOOK } from './look';
import { SampleStore } from './sampleStore';
import { CHARTS, linesFor } from './specs';

const meta: SeriesMeta[] = [
  { id: 'acr:C1', kind: 'acr', label: 'C1 ACR', unit: 'Mbps', owner: 'C1', held: true },
  { id: 'share:C1', kind: 'share', label: 'C1 max-min share', unit: 'Mbps', owner: 'C1', held: true },
  { id: 'acr:C2', kind: 'acr', label: 'C2 ACR', unit: 'Mbps', owner: 'C2', held: true },
  { id: 'share:C2', kind: 'share', label: 'C2 max-min share', unit: 'Mbps', owner: 'C2', held: true },
];
const rate = linesFor(CHARTS.find((c) => c.id === 'rate')!, meta);

/** Rows every 10 ms from 0 to 100 ms: C1 = t, its share 50; C2 absent (NaN) before 50 ms, then 2t. */
function store() {
  const s = new SampleStore();
  s.reset(meta);
  const rows: number[] = [];
  for (let t = 0; t <= 100; t += 10) rows.push(t, t, 50, t < 50 ? NaN : 2 * t, 50);
  s.append(new Float64Array(rows), 5);
  return s;
}

const view = (over: Partial<ChartExport> = {}): ChartExport => ({
  title: 'Allowed cell rate (ACR) of each source',
  lines: rate,
  t0: 0,
  t1: 100,
  yUnit: 'Mbps',
  yScale: 1,
  yFloor: 1,
  markers: [],
  ...over,
});

describe('CSV export', () => {
  it('has time_ms and one column per visible series, with its unit', () => {
    const csv = chartCsv(store(), view({ lines: rate.filter((l) => l.owner === 'C2' || l.kind === 'acr') }));
    const [header, ...rows] = csv.trimEnd().split('\n');
    expect(header).toBe('time_ms,C1 ACR (Mbps),C2 ACR (Mbps),C2 max-min share (Mbps)');
    expect(rows).toHaveLength(11);
    expect(rows[0]).toBe('0,0,,50');
    expect(rows[10]).toBe('100,100,200,50');
  });

  it('keeps the rows of the visible window only, in the unit shown', () => {
    const csv = chartCsv(store(), view({ t0: 25, t1: 60, yUnit: 'Gbps', yScale: 1e-3, lines: [rate[0]] }));
    expect(csv).toBe('time_ms,C1 ACR (Gbps)\n30,0.03\n40,0.04\n50,0.05\n60,0.06\n');
  });

  it('writes values to 12 significant digits: no float noise from the engine or the scale', () => {
    const noisy = new SampleStore();
    noisy.reset(meta);
    noisy.append(new Float64Array([0, 69.98400000000001, 0.1 + 0.2, 1, 1]), meta.length + 1);
    const csv = chartCsv(noisy, view({ lines: rate.filter((l) => l.owner === 'C1'), t1: 0 }));
    expect(csv.trimEnd().split('\n')[1]).toBe('0,69.984,0.3');
    expect(chartCsv(noisy, view({ yUnit: 'Gbps', yScale: 1e-3, lines: [rate[0]], t1: 0 })).trimEnd().split('\n')[1]).toBe('0,0.069984');
  });

  // Issue: a label with words of its own in brackets gave a head with two, `queue (peak) (cells)`.
  it('heads each column with one bracket, the unit: the words a label brackets become a plain suffix', () => {
    const peak = { ...rate[0], label: 'SW1->SW2 queue (peak)' };
    const goodput = { ...rate[0], label: 'C1 TCP goodput (8-sample average) · current (2)' };
    const header = chartCsv(store(), view({ lines: [peak, goodput], t1: 0 })).split('\n')[0];
    expect(header).toBe('time_ms,SW1->SW2 queue peak (Mbps),C1 TCP goodput 8-sample average · current 2 (Mbps)');
    expect(csvColumn('C1 (UBR: no allowed rate)', '')).toBe('C1 UBR: no allowed rate');
    expect(csvColumn('VP1 ACR [ABR virtual path]', 'Mbps')).toBe('VP1 ACR ABR virtual path (Mbps)');
    for (const head of header.split(',')) expect(head.match(/\(/g)?.length ?? 0, head).toBeLessThanOrEqual(1);
  });

  it('quotes a label holding a comma or a quote', () => {
    const odd = { ...rate[0], label: 'C1 "fast", ACR' };
    expect(chartCsv(store(), view({ lines: [odd], t1: 0 })).split('\n')[0]).toBe('time_ms,"C1 ""fast"", ACR (Mbps)"');
  });
});

const parse = (svg: string) => new DOMParser().parseFromString(svg, 'image/svg+xml');

describe('SVG export', () => {
  // Issue: an exported chart did not say which scenario or seed it showed.
  it('names the run in a caption under the time axis, the image taller by it; without one, none', () => {
    const caption = 'Two sources (two-sources) · seed 3 · ABR Lab 0.1.0';
    const plain = chartSvg(store(), view(), 640);
    const captioned = chartSvg(store(), view({ caption }), 640);
    const doc = parse(captioned.svg);
    const shown = doc.querySelector('text.caption')!;
    expect(shown.textContent).toBe(caption);
    expect(parse(plain.svg).querySelector('text.caption')).toBeNull();
    expect(captioned.height).toBeGreaterThan(plain.height);
    expect(Number(shown.getAttribute('y'))).toBeLessThanOrEqual(captioned.height);
    // Below the time axis's label.
    const axisLabel = [...doc.querySelectorAll('text')].find((t) => t.textContent === 'time (ms)')!;
    expect(Number(shown.getAttribute('y'))).toBeGreaterThan(Number(axisLabel.getAttribute('y')));
  });

  it('is a standalone document with the title, the legend and both axes', () => {
    const doc = parse(chartSvg(store(), view({ markers: [40] }), 640).svg);
    const root = doc.documentElement;
    expect(root.tagName).toBe('svg');
    expect(doc.querySelector('parsererror')).toBeNull();
    expect(root.getAttribute('width')).toBe('640');
    const texts = [...doc.querySelectorAll('text')].map((t) => t.textContent);
    expect(texts).toContain('Allowed cell rate (ACR) of each source');
    // Legend: the owners and the style key.
    expect(texts).toEqual(expect.arrayContaining(['C1', 'C2', 'ACR', 'max-min share']));
    // Axes: units and tick labels from 0 to the top of the domain (200 × 1.05 → 250).
    expect(texts).toEqual(expect.arrayContaining(['time (ms)', 'Mbps', '0', '100', '250']));
    expect(doc.querySelectorAll('line.marker')).toHaveLength(1);
  });

  // QA: a chart half the page wide exported its title cut at the image's edge ("Queue length at
  // each switch output port (peak in each s").
  it('flows a title too long for the width onto more lines, inside the image, the legend below it', () => {
    const title = 'Queue length at each switch output port (peak in each sample interval)';
    const doc = parse(chartSvg(store(), view({ title }), 489).svg);
    const lines = [...doc.querySelectorAll('text.title')];
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.map((t) => t.textContent).join(' ')).toBe(title);
    for (const t of lines) expect(t.textContent!.length * 15 * 0.62).toBeLessThanOrEqual(489 - 32);
    const ys = lines.map((t) => Number(t.getAttribute('y')));
    expect(ys[1]).toBeGreaterThan(ys[0]);
    const legend = [...doc.querySelectorAll('text')].find((t) => t.textContent === 'C1')!;
    expect(Number(legend.getAttribute('y'))).toBeGreaterThan(ys[ys.length - 1]);
    // Wide enough, one line.
    expect(parse(chartSvg(store(), view({ title }), 1200).svg).querySelectorAll('text.title')).toHaveLength(1);
  });

  it('names a parameter change in the legend when the image shows its marker, in the marker\'s stroke', () => {
    const legendTexts = (svg: string) => [...parse(svg).querySelectorAll('text')].map((t) => t.textContent);
    const svg = chartSvg(store(), view({ markers: [40] }), 640).svg;
    expect(legendTexts(svg)).toContain('parameter change');
    const doc = parse(svg);
    const swatch = doc.querySelector('line.marker-swatch')!;
    const mark = doc.querySelector('line.marker')!;
    for (const a of ['stroke', 'stroke-width', 'stroke-dasharray']) expect(swatch.getAttribute(a)).toBe(mark.getAttribute(a));
    // Upright, as on the plot, and above it (in the legend).
    expect(swatch.getAttribute('x1')).toBe(swatch.getAttribute('x2'));
    expect(Number(swatch.getAttribute('y2'))).toBeLessThan(Number(mark.getAttribute('y1')));
    // No marker in the window (or none at all): no entry.
    for (const markers of [[], [140]]) {
      const svg = chartSvg(store(), view({ markers }), 640).svg;
      expect(legendTexts(svg)).not.toContain('parameter change');
      expect(parse(svg).querySelector('line.marker-swatch')).toBeNull();
    }
  });

  // QA: two-sources' rate chart said "C1 = C2" on screen, but its PNG showed C2's line only and
  // listed C1 as if it were drawn.
  it('names owners whose lines lie on one another over the whole image in one legend entry, "C1 = C2"', () => {
    const same = new SampleStore();
    same.reset(meta);
    const rows: number[] = [];
    for (let t = 0; t <= 100; t += 10) rows.push(t, t, 50, t + 0.001, 50);
    same.append(new Float64Array(rows), 5);
    const doc = parse(chartSvg(same, view(), 640).svg);
    const texts = [...doc.querySelectorAll('text')].map((t) => t.textContent);
    expect(texts).toContain('C1 = C2');
    expect(texts).not.toContain('C1');
    expect(texts).not.toContain('C2');
    // Its swatch is the colour of the line on top (drawn last: C2's).
    const entry = [...doc.querySelectorAll('text')].find((t) => t.textContent === 'C1 = C2')!;
    const swatch = entry.previousElementSibling!;
    expect(swatch.getAttribute('stroke')).toBe(rate.find((l) => l.label === 'C2 ACR')!.color);
    // Lines apart somewhere in the window (the fixture: C2 = 2t from 50 ms) keep an entry each.
    const apart = [...parse(chartSvg(store(), view(), 640).svg).querySelectorAll('text')].map((t) => t.textContent);
    expect(apart).toEqual(expect.arrayContaining(['C1', 'C2']));
    expect(apart).not.toContain('C1 = C2');
  });

  // QA: lines that met only at the end kept an entry each in the image, with nothing to say that
  // C1 lay under C2 there, while the screen said "at 100 ms: C1 = C2".
  it('says under the legend, as the screen does, which lines lie on one another at the last sample shown', () => {
    const meeting = new SampleStore();
    meeting.reset(meta);
    const rows: number[] = [];
    for (let t = 0; t <= 100; t += 10) rows.push(t, t, 50, 200 - t, 50);
    meeting.append(new Float64Array(rows), 5);
    const doc = parse(chartSvg(meeting, view(), 640).svg);
    const texts = [...doc.querySelectorAll('text')].map((t) => t.textContent);
    expect(texts).toEqual(expect.arrayContaining(['C1', 'C2']));
    const screen = coincidenceAtRow(meeting, meeting.length - 1, rate, 1, 'acr', 0)!;
    expect(screen).toEqual({ at: 'at 100.0 ms', notes: ['C1 = C2'] });
    expect(doc.querySelector('text.note')?.textContent).toBe(`${screen.at}: ${screen.notes.join(' · ')}`);
    // Under the legend, above the plot.
    const plotTop = Number(doc.querySelector('clipPath rect')!.getAttribute('y'));
    expect(Number(doc.querySelector('text.note')!.getAttribute('y'))).toBeLessThan(plotTop);
    // A window that ends before they meet (at 50 ms: 50 and 150): no note.
    expect(parse(chartSvg(meeting, view({ t1: 50 }), 640).svg).querySelector('text.note')).toBeNull();
    // Lines apart at the end, or on one another all along (the legend's "C1 = C2" says it): none.
    expect(parse(chartSvg(store(), view(), 640).svg).querySelector('text.note')).toBeNull();
    const same = new SampleStore();
    same.reset(meta);
    same.append(new Float64Array([0, 5, 50, 5, 50, 10, 7, 50, 7, 50]), 5);
    const alongDoc = parse(chartSvg(same, view({ t1: 10 }), 640).svg);
    expect([...alongDoc.querySelectorAll('text')].map((t) => t.textContent)).toContain('C1 = C2');
    expect(alongDoc.querySelector('text.note')).toBeNull();
  });

  // QA: the last time label ("100") sat against the right edge of the exported image.
  it('keeps every time label whole inside the image, with a margin on the right', () => {
    for (const look of [NORMAL_LOOK, PRESENTATION_LOOK]) {
      for (const width of [480, 640, 1000]) {
        const { svg } = chartSvg(store(), view({ look }), width);
        const doc = parse(svg);
        const axisLabel = [...doc.querySelectorAll('text')].find((t) => t.textContent === 'time (ms)')!;
        const below = Number(axisLabel.getAttribute('y'));
        const timeLabels = [...doc.querySelectorAll('text[text-anchor="middle"]')].filter(
          (t) => /^[0-9.]+$/.test(t.textContent!) && Number(t.getAttribute('y')) < below,
        );
        expect(timeLabels.map((t) => t.textContent)).toContain('100');
        for (const t of timeLabels) {
          // Digits are about 0.56 em wide in sans-serif fonts; 0.62 em leaves room to spare.
          const half = (t.textContent!.length * look.fontPx * 0.62) / 2;
          expect(Number(t.getAttribute('x')) + half, `${t.textContent} at ${width} px`).toBeLessThanOrEqual(width - 8);
        }
      }
    }
  });

  it('draws one path per visible line, dashed lines under solid ones, and leaves hidden lines out', () => {
    const doc = parse(chartSvg(store(), view(), 640).svg);
    const paths = [...doc.querySelectorAll('path[data-series]')];
    expect(paths.map((p) => p.getAttribute('data-series'))).toEqual(['C1 max-min share', 'C2 max-min share', 'C1 ACR', 'C2 ACR']);
    expect(paths[0].getAttribute('stroke-dasharray')).toBe('7 5');
    expect(paths[2].getAttribute('stroke-dasharray')).toBeNull();
    const only = parse(chartSvg(store(), view({ lines: [rate[0]] }), 640).svg);
    expect([...only.querySelectorAll('path[data-series]')].map((p) => p.getAttribute('data-series'))).toEqual(['C1 ACR']);
    expect([...only.querySelectorAll('text')].map((t) => t.textContent)).not.toContain('C2');
  });

  it("in presentation mode draws what the projector shows: text of at least 18 px and lines of at least 3 px", () => {
    const sizes = (look: typeof NORMAL_LOOK) => {
      const doc = parse(chartSvg(store(), view({ look }), 640).svg);
      return {
        font: Math.min(...[...doc.querySelectorAll('text')].map((t) => Number(t.getAttribute('font-size')))),
        stroke: Math.min(...[...doc.querySelectorAll('path[data-series]')].map((p) => Number(p.getAttribute('stroke-width')))),
        height: Number(doc.documentElement.getAttribute('height')),
      };
    };
    const normal = sizes(NORMAL_LOOK);
    const present = sizes(PRESENTATION_LOOK);
    expect(present.font).toBeGreaterThanOrEqual(18);
    expect(present.stroke).toBeGreaterThanOrEqual(3);
    expect(normal.font).toBeLessThan(18); // the everyday look stays as it was
    expect(present.height).toBeGreaterThan(normal.height); // larger text, more room around the plot
    // No look: the everyday one.
    expect(chartSvg(store(), view(), 640).svg).toBe(chartSvg(store(), view({ look: NORMAL_LOOK }), 640).svg);
  });

  it('fits the y axis to the lines shown', () => {
    // C1 alone peaks at 100: the axis ends at 120, not at C2's 250.
    const texts = [...parse(chartSvg(store(), view({ lines: [rate[0]] }), 640).svg).querySelectorAll('text')].map((t) => t.textContent);
    expect(texts).toContain('120');
    expect(texts).not.toContain('250');
  });

  it("draws the study's published values as the screen does: in range, dashed from the steady window to the run's end, labelled", () => {
    // C1 alone peaks at 100; a published 300 for C2 stretches the axis to it, as on screen.
    const published = [
      { value: 300, fromMs: 60, color: '#123456', label: 'published: connection C2 300' },
      { value: 40, fromMs: 60, color: '#654321', label: 'published: connection C1 40' },
    ];
    const doc = parse(chartSvg(store(), view({ lines: [rate[0]], published, endMs: 100 }), 640).svg);
    const texts = [...doc.querySelectorAll('text')].map((t) => t.textContent);
    expect(texts).toContain('300');
    const g = doc.querySelector('g[data-published]')!;
    expect(g.getAttribute('stroke-dasharray')).toBe('12 4 2 4');
    const lines = [...g.querySelectorAll('line')];
    expect(lines.map((l) => l.getAttribute('stroke'))).toEqual(['#123456', '#654321']);
    expect(lines.map((l) => l.querySelector('title')!.textContent)).toEqual(published.map((p) => p.label));
    // From the steady window (60 ms) to the end: 40 % of the plot's width, ending at its right.
    const [x1, x2] = ['x1', 'x2'].map((a) => Number(lines[0].getAttribute(a)));
    const axis = doc.querySelector('path[d^="M"]')!.getAttribute('d')!;
    const [left, right] = [Number(/^M([\d.]+)/.exec(axis)![1]), Number(/H([\d.]+)$/.exec(axis)![1])];
    expect(x2).toBeCloseTo(right, 0);
    expect((x2 - x1) / (right - left)).toBeCloseTo(0.4, 2);
    expect(texts.filter((t) => t.startsWith('published'))).toEqual(['published 300', 'published 40']);
    // None published: no group, and the axis fits the lines.
    expect(parse(chartSvg(store(), view({ lines: [rate[0]] }), 640).svg).querySelector('g[data-published]')).toBeNull();
  });

  it('before any sample, ends the y axis at the reach the screen gives it', () => {
    const empty = new SampleStore();
    empty.reset(meta);
    const texts = [...parse(chartSvg(empty, view({ yReach: 155.52 }), 640).svg).querySelectorAll('text')].map((t) => t.textContent);
    expect(texts).toContain('150');
  });

  it('lists connection groups in the legend rather than each of their members', () => {
    const grouped = rate.map((l) => ({ ...l, group: 'A' }));
    const texts = [...parse(chartSvg(store(), view({ lines: grouped }), 640).svg).querySelectorAll('text')].map((t) => t.textContent);
    expect(texts).toContain('A (2)');
    expect(texts).not.toContain('C1');
  });

  it('escapes text', () => {
    const svg = chartSvg(store(), view({ title: 'Queue <SW1->SW2> & more' }), 640).svg;
    expect(parse(svg).querySelector('parsererror')).toBeNull();
    expect(svg).toContain('Queue &lt;SW1-&gt;SW2&gt; &amp; more');
  });
});

describe('whole-run exports', () => {
  it('writes numbers as Rust prints an f64 (the CLI\'s CSV): no exponent, shortest digits', () => {
    expect(rustFloat(3)).toBe('3');
    expect(rustFloat(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(rustFloat(1e-7)).toBe('0.0000001');
    expect(rustFloat(-2.5e-8)).toBe('-0.000000025');
    expect(rustFloat(1.5e-10)).toBe('0.00000000015');
    expect(rustFloat(1e21)).toBe('1000000000000000000000');
    expect(rustFloat(1.2345e25)).toBe('12345000000000000000000000');
    expect(rustFloat(-0)).toBe('-0');
    expect(rustFloat(-Infinity)).toBe('-inf');
  });

  it('has every series of the run, in the engine\'s order and units, as abrsim run --series-csv', () => {
    const csv = runCsv(store());
    const [header, ...rows] = csv.trimEnd().split('\n');
    expect(header).toBe('time_ms,acr:C1 (Mbps),share:C1 (Mbps),acr:C2 (Mbps),share:C2 (Mbps)');
    expect(rows).toHaveLength(11);
    expect(rows[0]).toBe('0,0,50,,50');
    expect(rows[10]).toBe('100,100,50,200,50');
    expect(csv.endsWith('\n')).toBe(true);
  });

  // QA: past the store's budget its rows are min/max pairs per bucket; the CSVs wrote them as
  // samples, unmarked, so that a mean over a long run's export came out high.
  it('says which row is a minimum and which a maximum once a long run is kept in buckets', () => {
    const s = new SampleStore(16, 8 * 2 * 256);
    s.reset([meta[0]]);
    const rows: number[] = [];
    const n = 3 * s.maxRows;
    for (let i = 0; i < n; i++) rows.push(i * 0.5, i % 7);
    s.append(new Float64Array(rows), 2);
    const per = s.samplesPerBucket;
    expect(per).toBeGreaterThan(1);
    const [header, ...lines] = runCsv(s).trimEnd().split('\n');
    expect(header).toBe(`time_ms,min_max_of_${per}_samples,acr:C1 (Mbps)`);
    expect(lines).toHaveLength(s.length);
    // The first bucket: samples 0 … per-1, its minimum at its first time, its maximum at its last.
    const first = Array.from({ length: per }, (_, i) => i % 7);
    expect(lines[0]).toBe(`0,min,${Math.min(...first)}`);
    expect(lines[1]).toBe(`${rustFloat((per - 1) * 0.5)},max,${Math.max(...first)}`);
    const chart = chartCsv(s, view({ lines: [rate[0]], t0: 0, t1: 1e9 })).trimEnd().split('\n');
    expect(chart[0]).toBe(`time_ms,min_max_of_${per}_samples,C1 ACR (Mbps)`);
    expect(chart.slice(1, 3).map((l) => l.split(',')[1])).toEqual(['min', 'max']);
  });

  it('heads a series without a unit with its bare id, as the CLI does', () => {
    const s = new SampleStore();
    s.reset([meta[0], { id: 'loss_ratio:C1', kind: 'loss_ratio', label: 'C1 loss ratio', unit: '', owner: 'C1', held: false }]);
    s.append(new Float64Array([0, 10, 0.5]), 3);
    expect(runCsv(s).split('\n')[0]).toBe('time_ms,acr:C1 (Mbps),loss_ratio:C1');
  });

  it('lays a summary out as serde_json\'s pretty printer does, keeping the engine\'s numbers', () => {
    const json = '{"a":1.0,"b":[],"c":[{"x":null,"y":{}}],"d":"s, :{[\\"","e":-2.5e-8}';
    expect(prettyJson(json)).toBe(
      ['{', '  "a": 1.0,', '  "b": [],', '  "c": [', '    {', '      "x": null,', '      "y": {}', '    }', '  ],', '  "d": "s, :{[\\"",', '  "e": -2.5e-8', '}'].join('\n'),
    );
    expect(JSON.parse(prettyJson(json))).toEqual(JSON.parse(json));
  });
});

describe('SVG export of a pinned run and of overlaid compare lines', () => {
  it('draws a pinned run faintly under the lines and names it in the legend', () => {
    // The pinned run: C1 at 3t (so it reaches 300, above the live lines), no C2.
    const pinned = new SampleStore();
    pinned.reset(meta.slice(0, 2));
    const rows: number[] = [];
    for (let t = 0; t <= 100; t += 10) rows.push(t, 3 * t, 50);
    pinned.append(new Float64Array(rows), 3);
    const lines = [rate[0], rate[2]];
    const doc = parse(chartSvg(store(), view({ lines, pinned: { store: pinned, series: [0, -1], label: 'SW1 ERICA, target 0.9' } }), 640).svg);
    const faint = [...doc.querySelectorAll('path[data-pinned]')];
    expect(faint.map((p) => p.getAttribute('data-pinned'))).toEqual(['C1 ACR']);
    expect(faint[0].getAttribute('stroke-opacity')).toBe(String(PINNED_ALPHA));
    expect(faint[0].getAttribute('stroke')).toBe(rate[0].color);
    // Under the live lines: every pinned path comes before the first live one.
    const all = [...doc.querySelectorAll('path[data-pinned], path[data-series]')];
    expect(all.findIndex((p) => p.hasAttribute('data-series'))).toBe(faint.length);
    const texts = [...doc.querySelectorAll('text')].map((t) => t.textContent);
    expect(texts).toContain('pinned: SW1 ERICA, target 0.9');
    // The y axis reaches the pinned run's 300 (the live lines stop at 200).
    expect(texts).toContain('300');
    const without = [...parse(chartSvg(store(), view({ lines }), 640).svg).querySelectorAll('text')].map((t) => t.textContent);
    expect(without.some((t) => t?.startsWith('pinned'))).toBe(false);
    expect(without).not.toContain('300');
  });

  it('keys lines with their own dash by series and keeps clip ids apart with a prefix', () => {
    const dashed = [
      { ...rate[0], owner: 'ERICA', series: 'C1', dash: [] },
      { ...rate[2], owner: 'ERICA', series: 'C2', dash: [8, 4] },
    ];
    const doc = parse(chartSvg(store(), view({ lines: dashed }), 640, 'k1-').svg);
    const texts = [...doc.querySelectorAll('text')].map((t) => t.textContent);
    expect(texts).toEqual(expect.arrayContaining(['ERICA', 'C1', 'C2']));
    expect(doc.querySelector('path[data-series="C2 ACR"]')!.getAttribute('stroke-dasharray')).toBe('8 4');
    expect(doc.querySelector('clipPath')!.id).toBe('k1-plot');
    expect(doc.querySelector('g[clip-path]')!.getAttribute('clip-path')).toBe('url(#k1-plot)');
  });
});
