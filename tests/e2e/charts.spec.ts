import { expect, test } from '@playwright/test';
import { PALETTE } from '../../web/src/charts/palette';
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { canvasPixelsOf, composedChart, downloadText, libraryScenarios, openLab, repoRoot, status, waitForMode } from './helpers';

const SCENARIOS = libraryScenarios();
const shots = resolve(repoRoot, 'test-results/screens');
mkdirSync(shots, { recursive: true });

type Page = import('@playwright/test').Page;
const chart = (page: Page, id: string) => page.getByTestId(`chart-${id}`);
/** uPlot's plotting area (where the cursor, the drag and the double-click go). */
const plot = (page: Page, id: string) => chart(page, id).locator('.u-over');
const CHART_IDS = ['rate', 'queue', 'utilization', 'delivered', 'loss', 'algorithm'];

/** The time window (ms) every chart shows, from uPlot's x scale. */
const windows = (page: Page) =>
  page.evaluate((ids) => ids.map((id) => {
    const el = document.querySelector<HTMLElement>(`[data-testid="chart-${id}"] .chart-plot`)!;
    return [Number(el.dataset.xMin), Number(el.dataset.xMax)];
  }), CHART_IDS);

/** Pixels of a chart's canvas within a small distance of a colour (#rrggbb). */
const pixelsOf = (page: Page, id: string, hex: string) => canvasPixelsOf(chart(page, id), hex);

async function playToEnd(page: Page) {
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('play').click();
  await waitForMode(page, 'done');
}

test('ATM runs chart cells delivered per destination and the cell loss ratio per source', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=vbr-background');
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('play').click();
  await waitForMode(page, 'done');
  await expect(chart(page, 'delivered').locator('h2')).toHaveText('Cells delivered to each destination (cumulative)');
  await expect(chart(page, 'delivered')).toHaveAttribute('data-unit', 'cells');
  await expect(chart(page, 'loss').locator('h2')).toContainText('Cell loss ratio of each source');
  await expect(chart(page, 'rate')).toHaveAttribute('data-unit', 'Mbps');
  // One line per connection, the background one included.
  await expect(chart(page, 'delivered')).toHaveAttribute('data-lines', '3');
  await expect(chart(page, 'loss')).toHaveAttribute('data-lines', '3');
  // No TCP here: no TCP charts.
  await expect(chart(page, 'cwnd')).toHaveCount(0);
  await expect(chart(page, 'goodput')).toHaveCount(0);
  await page.screenshot({ path: resolve(shots, 'atm-charts.png'), fullPage: true });
  expect(errors).toEqual([]);
});

test('Ethernet runs show rates in Gbps, queues in KB or frames, frames delivered and dropped', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=fecn-hotspot');
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('play').click();
  await waitForMode(page, 'done');
  await expect(chart(page, 'rate').locator('h2')).toHaveText('Rate limit of each flow');
  await expect(chart(page, 'rate')).toHaveAttribute('data-unit', 'Gbps');
  await expect(chart(page, 'queue')).toHaveAttribute('data-unit', 'KB');
  await expect(chart(page, 'delivered').locator('h2')).toHaveText('Frames delivered to each destination (cumulative)');
  await expect(chart(page, 'delivered')).toHaveAttribute('data-unit', 'frames');
  await expect(chart(page, 'loss').locator('h2')).toContainText('Frame loss ratio of each flow');
  for (const id of ['rate', 'queue', 'utilization', 'delivered', 'loss', 'algorithm']) {
    await expect(chart(page, id).locator('h2')).not.toHaveText(/\bcells?\b|ACR/i);
  }

  // The tooltip shows the rate limit in Gbps: the 10 Gbps hot spot's fair share is 2.5 Gbps.
  const box = (await plot(page, 'rate').boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
  const tooltip = chart(page, 'rate').locator('.tooltip');
  await expect(tooltip).toContainText('Gbps');
  // F0's row (alone, or merged with the flows at the same rate: "F0 = F1 rate limit").
  const f0 = await tooltip.locator('.tooltip-row', { hasText: /\bF0\b.*rate limit/ }).first().locator('.tooltip-value').textContent();
  expect(Number(f0)).toBeGreaterThan(1);
  expect(Number(f0)).toBeLessThan(10);

  // Queues in frames on request: the same series, frame_bytes / 1000 times the KB figure.
  await page.getByTestId('queue-unit').selectOption('frames');
  await expect(chart(page, 'queue')).toHaveAttribute('data-unit', 'frames');
  // The run has ended; the lesson stays, its result one click away.
  await page.getByTestId('tab-result').click();
  await expect(page.getByTestId('summary')).toContainText('Frames dropped');
  await page.screenshot({ path: resolve(shots, 'ethernet-charts.png'), fullPage: true });
  expect(errors).toEqual([]);
});

test('TCP connections get a congestion window chart (KB) and a goodput chart (Mbps)', async ({ page }) => {
  const errors = await openLab(page);
  const s = JSON.parse(SCENARIOS.find((x) => x.scenario.id === 'two-sources')!.json);
  s.id = 'two-tcp';
  for (const c of s.connections) c.tcp = { mss_bytes: 9140, window_bytes: 600000, service: 'abr' };
  await page.evaluate((json) => window.__abrlab!.load(json, 'two-tcp.json'), JSON.stringify(s));
  await expect.poll(() => page.evaluate(() => window.__abrlab!.scenarioId())).toBe('two-tcp');
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('play').click();
  await waitForMode(page, 'done');
  await expect(chart(page, 'cwnd').locator('h2')).toHaveText('TCP congestion window of each connection');
  await expect(chart(page, 'cwnd')).toHaveAttribute('data-unit', 'KB');
  await expect(chart(page, 'cwnd')).toHaveAttribute('data-lines', '2');
  await expect(chart(page, 'goodput')).toHaveAttribute('data-unit', 'Mbps');
  await expect(chart(page, 'goodput')).toHaveAttribute('data-lines', '2');
  const last = await page.evaluate(() => window.__abrlab!.last());
  expect(last['cwnd:C1']).toBeGreaterThan(0);
  expect(last['goodput:C1']).toBeGreaterThan(0);
  await page.screenshot({ path: resolve(shots, 'tcp-charts.png'), fullPage: true });
  expect(errors).toEqual([]);
});

/** The y range (shown unit) a chart's axes are drawn for, from uPlot's y scale. */
const yRange = (page: Page, id: string) =>
  chart(page, id)
    .locator('.chart-plot')
    .evaluate((el: HTMLElement) => [Number(el.dataset.yMin), Number(el.dataset.yMax)]);

// Before Play a chart has no sample: its axis used to stop at the bare floor, 0–1 Mbps for the
// rates, which looked broken. It starts where the run's rates can reach: two-sources' 155.52 Mbps
// links (its PCRs), as the axis is once an ACR gets there.
test("before Play, the rate charts' axes already reach the network's top rate (not 0–1 Mbps)", async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await expect(chart(page, 'rate')).toHaveAttribute('data-lines', '6');
  expect(await page.evaluate(() => window.__abrlab!.rows())).toBe(0);
  await expect.poll(() => yRange(page, 'rate')).toEqual([0, 180]);
  // Charts of other units keep their floor; the algorithm chart reaches the top rate when its
  // quantity is a rate (ERICA's fair share), not for the overload factor.
  // Polled: a chart below the first may not have drawn its axis yet (NaN until then, seen once).
  await expect.poll(() => yRange(page, 'queue')).toEqual([0, 10]);
  await expect.poll(() => yRange(page, 'utilization')).toEqual([0, 100]);
  await expect.poll(() => yRange(page, 'algorithm')).toEqual([0, 1]);
  await page.getByTestId('algorithm-quantity').selectOption('fair_share_mbps');
  await expect.poll(() => yRange(page, 'algorithm')).toEqual([0, 180]);
  await chart(page, 'rate').screenshot({ path: resolve(shots, 'rate-chart-before-play.png') });
  // Once samples come, the axis follows them as it always did: the ACRs stay near 78 Mbps in the
  // first millisecond, and the axis ends above them, no longer at the links' rate.
  await page.getByTestId('until-ms').fill('1');
  await page.getByTestId('run-until').click();
  await waitForMode(page, 'paused');
  const hi = Math.max(...Object.entries(await page.evaluate(() => window.__abrlab!.last())).filter(([id]) => /^(acr|share|target):/.test(id)).map(([, v]) => v));
  expect(hi).toBeLessThan(100);
  await expect.poll(() => yRange(page, 'rate')).toEqual([0, 100]);
  await chart(page, 'rate').screenshot({ path: resolve(shots, 'rate-chart-after-1ms.png') });
  expect(errors).toEqual([]);
});

test('dragging across one chart zooms the time axis of every chart; a double-click resets them all', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources-staggered');
  await playToEnd(page);
  await expect.poll(() => windows(page)).toEqual(CHART_IDS.map(() => [0, 300]));
  // Drag over the queue chart from 20 % to 50 % of its width.
  const box = (await plot(page, 'queue').boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.35, box.y + box.height / 2, { steps: 4 });
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  await expect.poll(async () => (await windows(page))[0][0]).toBeGreaterThan(50);
  const zoomed = await windows(page);
  const [t0, t1] = zoomed[0];
  expect(t0).toBeCloseTo(60, -1);
  expect(t1).toBeCloseTo(150, -1);
  // The same window on every chart, the one dragged over and the others.
  expect(zoomed).toEqual(CHART_IDS.map(() => [t0, t1]));
  // The zoom is said above the charts, with a button back to the whole run.
  await expect(page.getByTestId('zoom')).toContainText(`${t0.toFixed(2)} – ${t1.toFixed(1)} ms`);
  await page.getByTestId('zoom-reset').click();
  await expect.poll(() => windows(page)).toEqual(CHART_IDS.map(() => [0, 300]));
  await expect(page.getByTestId('zoom-reset')).toHaveCount(0);
  // Zoom again; a double-click on any chart shows the whole run again, on all of them.
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  await expect.poll(async () => (await windows(page))[3][0]).toBeGreaterThan(50);
  // (The loss chart may be below the fold: the locator scrolls it into view first.)
  await plot(page, 'loss').dblclick();
  await expect.poll(() => windows(page)).toEqual(CHART_IDS.map(() => [0, 300]));
  expect(errors).toEqual([]);
});

test('a click on a legend entry hides that source\'s lines and a second click shows them again', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await playToEnd(page);
  const rate = chart(page, 'rate');
  // C1 and C2 coincide; C2 is drawn over C1, so its colour (vermilion) is what shows.
  const [c1, c2] = PALETTE;
  await expect.poll(() => pixelsOf(page, 'rate', c2)).toBeGreaterThan(200);
  await expect(rate).toHaveAttribute('data-visible', '6');
  const entry = rate.locator('.legend-entry', { hasText: /^C2$/ });
  await entry.click();
  await expect(entry).toHaveAttribute('aria-pressed', 'false');
  await expect(rate).toHaveAttribute('data-visible', '3');
  // C2's lines are gone from the canvas (C1's, under them, now show) and from the tooltip.
  await expect.poll(() => pixelsOf(page, 'rate', c2)).toBeLessThan(20);
  expect(await pixelsOf(page, 'rate', c1)).toBeGreaterThan(200);
  const box = (await plot(page, 'rate').boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2);
  await expect(rate.locator('.tooltip')).toContainText('C1 ACR');
  await expect(rate.locator('.tooltip')).not.toContainText('C2');
  // Hiding a line style: the dashed max-min shares.
  await rate.locator('.legend-entry', { hasText: 'max-min share' }).first().click();
  await expect(rate).toHaveAttribute('data-visible', '2');
  await entry.click();
  await expect(entry).toHaveAttribute('aria-pressed', 'true');
  await expect(rate).toHaveAttribute('data-visible', '4');
  await expect.poll(() => pixelsOf(page, 'rate', c2)).toBeGreaterThan(200);
  // Hidden lines are view state of this scenario: another one starts with every line shown.
  await entry.click();
  await expect(entry).toHaveAttribute('aria-pressed', 'false');
  await page.getByTestId('scenario-picker').selectOption('three-sources');
  await expect.poll(() => page.evaluate(() => window.__abrlab!.scenarioId())).toBe('three-sources');
  await expect(rate.locator('.legend-entry', { hasText: /^C2$/ })).toHaveAttribute('aria-pressed', 'true');
  expect(errors).toEqual([]);
});

test('hovering a legend entry highlights its lines: the other lines fade', async ({ page }) => {
  await openLab(page, '/?scenario=two-sources-staggered');
  await playToEnd(page);
  const queue = chart(page, 'queue');
  const first = queue.locator('.legend-entry').first();
  const colour = await first.locator('line').getAttribute('stroke');
  const second = await queue.locator('.legend-entry').nth(1).locator('line').getAttribute('stroke');
  const before = await pixelsOf(page, 'queue', second!);
  expect(before).toBeGreaterThan(50);
  await first.hover();
  // The second port's line fades to a pale tint: its full colour is (almost) gone; the first's stays.
  await expect.poll(() => pixelsOf(page, 'queue', second!)).toBeLessThan(before / 4);
  expect(await pixelsOf(page, 'queue', colour!)).toBeGreaterThan(50);
  await page.mouse.move(0, 0);
  await expect.poll(() => pixelsOf(page, 'queue', second!)).toBeGreaterThan(before / 2);
});

test('sources at the same value are named together ("C1 = C2") in the legend note and the tooltip', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources-staggered');
  await playToEnd(page);
  const rate = chart(page, 'rate');
  const box = (await plot(page, 'rate').boundingBox())!;
  // At 150 ms both sources run and sit at the same ACR (half the link each).
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
  await expect(rate.getByTestId('coincident')).toHaveText('at cursor: C1 = C2');
  await expect(rate.locator('.tooltip .tooltip-row.coincident').first()).toContainText('C1 = C2 ACR');
  // The other charts follow the shared cursor: their notes speak of the same instant.
  await expect(chart(page, 'delivered').getByTestId('coincident')).toHaveCount(0);
  // At 50 ms only C1 runs: nothing coincides, no note, C1 has its own row.
  await page.mouse.move(box.x + box.width * (50 / 300), box.y + box.height / 2);
  await expect(rate.getByTestId('coincident')).toHaveCount(0);
  await expect(rate.locator('.tooltip')).toContainText('C1 ACR');
  expect(errors).toEqual([]);
});

test('without a cursor, lines on top of each other at the latest sample are named there (C1 under C2 is not simply gone)', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await playToEnd(page);
  await page.mouse.move(0, 0);
  const note = chart(page, 'rate').getByTestId('coincident');
  await expect(note).toHaveAttribute('data-at', 'latest');
  await expect(note).toHaveText('at 100.0 ms: C1 = C2');
  // With a cursor the note speaks of the cursor's instant instead.
  const box = (await plot(page, 'rate').boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
  await expect(note).toHaveAttribute('data-at', 'cursor');
  await expect(note).toHaveText('at cursor: C1 = C2');
  expect(errors).toEqual([]);
});

// QA: three-sources at 0.01×, paused at 32.12 ms: for 0.6 s the note said "at 30.00 ms" while
// the latest sample was at 32. It followed the run once a second whatever the run did.
test('the latest-sample note follows a pause and a step at once', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=three-sources');
  await page.getByTestId('until-ms').fill('30');
  await page.getByTestId('run-until').click();
  await expect.poll(async () => (await status(page))?.nowMs ?? 0, { timeout: 60_000 }).toBeGreaterThanOrEqual(30);
  await waitForMode(page, 'paused');
  await page.mouse.move(0, 0);
  const note = chart(page, 'rate').getByTestId('coincident');
  await expect(note).toHaveAttribute('data-at', 'latest');
  const latest = async () => {
    const t = await page.evaluate(() => window.__abrlab!.lastTimeMs());
    return `at ${t >= 1000 ? t.toFixed(0) : t >= 100 ? t.toFixed(1) : t.toFixed(2)} ms: `;
  };
  // A quarter of the old second: a note on its once-a-second turn fails three tries in a row.
  const soon = { timeout: 250 };
  await page.getByTestId('speed').selectOption('0.01');
  for (let i = 0; i < 3; i++) {
    await page.getByTestId('play').click();
    await waitForMode(page, 'playing');
    await page.waitForTimeout(350 + 150 * i);
    await page.getByTestId('play').click();
    await waitForMode(page, 'paused');
    await expect(note).toContainText(await latest(), soon);
  }
  for (let i = 0; i < 3; i++) {
    const before = await page.evaluate(() => window.__abrlab!.lastTimeMs());
    await page.getByTestId('step').click();
    await expect.poll(() => page.evaluate(() => window.__abrlab!.lastTimeMs())).toBeGreaterThan(before);
    await expect(note).toContainText(await latest(), soon);
  }
  expect(errors).toEqual([]);
});

// Two-sources' links to D1 and D2 carry the same load to within a few hundredths of a percent:
// one line on screen, two values in the tooltip. The note named only lines that print the
// same, so the second link's line was simply not there.
test('lines a pixel apart are named as lying on each other (≈), beside those at one value (=)', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await playToEnd(page);
  await page.mouse.move(0, 0);
  const note = chart(page, 'utilization').getByTestId('coincident');
  await expect(note).toHaveAttribute('data-at', 'latest');
  await expect(note).toContainText(/SW2->D1 [=≈] SW2->D2/);
  // And under the cursor, where the tooltip gives each its own value when they differ.
  const box = (await plot(page, 'utilization').boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.9, box.y + box.height / 2);
  await expect(note).toHaveAttribute('data-at', 'cursor');
  await expect(note).toContainText(/SW2->D1 [=≈] SW2->D2/);
  expect(errors).toEqual([]);
});

// QA: GFC-1's 23 sources made the note one line ending in an ellipsis ("… = F2" cut), and the
// note takes no pointer, so its tooltip with the rest could never be seen.
test('a long list of sources at one value is shown whole in the note, never cut with an ellipsis', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 800 });
  const errors = await openLab(page, '/?scenario=gfc1');
  await page.getByTestId('until-ms').fill('12');
  await page.getByTestId('run-until').click();
  await expect.poll(async () => (await status(page))?.nowMs ?? 0, { timeout: 60_000 }).toBeGreaterThanOrEqual(12);
  const box = (await plot(page, 'rate').boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.02, box.y + box.height / 2);
  const note = chart(page, 'rate').getByTestId('coincident');
  await expect(note).toContainText('F1 = F2');
  // Every name is inside the note's box: nothing overflows it (an ellipsis would).
  const fits = await note.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1);
  expect(fits).toBe(true);
  const text = (await note.textContent())!;
  expect(text.match(/[A-F]\d/g)?.length).toBeGreaterThan(10);
  expect(errors).toEqual([]);
});

test('the cursor is shared by every chart, and the tooltip stays inside the window', async ({ page }) => {
  await openLab(page, '/?scenario=two-sources-staggered');
  await playToEnd(page);
  const box = (await plot(page, 'rate').boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
  // Each chart's cursor line sits at 30 % of its own plot width (they share the time axis).
  for (const id of CHART_IDS) {
    const fraction = await chart(page, id).evaluate((el) => {
      const over = el.querySelector('.u-over')!.getBoundingClientRect();
      const line = el.querySelector('.u-cursor-x')!.getBoundingClientRect();
      return (line.left - over.left) / over.width;
    });
    expect(fraction, id).toBeCloseTo(0.3, 1);
  }
  // Only the chart under the mouse shows a tooltip.
  await expect(page.locator('.tooltip')).toHaveCount(1);
  // Near the bottom-right corner of the window the tooltip flips to stay fully visible (a narrow
  // window: the charts take its whole width).
  await page.setViewportSize({ width: 900, height: 700 });
  const loss = plot(page, 'loss');
  // The plot's bottom edge at the window's bottom edge.
  await loss.evaluate((el) => el.scrollIntoView({ block: 'end' }));
  const lb = (await loss.boundingBox())!;
  await page.mouse.move(lb.x + lb.width - 2, lb.y + lb.height - 2);
  const tip = (await chart(page, 'loss').locator('.tooltip').boundingBox())!;
  expect(tip.x).toBeGreaterThanOrEqual(0);
  expect(tip.y).toBeGreaterThanOrEqual(0);
  expect(tip.x + tip.width).toBeLessThanOrEqual(900);
  expect(tip.y + tip.height).toBeLessThanOrEqual(700);
  // It flipped: left of and above the cursor.
  expect(tip.x + tip.width).toBeLessThan(lb.x + lb.width);
  expect(tip.y + tip.height).toBeLessThan(lb.y + lb.height);
});

test('the sources of one connection group share a hue (GFC-1: six groups)', async ({ page }) => {
  await openLab(page, '/?scenario=gfc1');
  const rate = chart(page, 'rate');
  // The legend lists the six groups; each source on request.
  await expect(rate.locator('.legend-group')).toHaveText(['A×3', 'B×3', 'C×3', 'D×6', 'E×6', 'F×2']);
  await rate.getByRole('button', { name: 'each of 23' }).click();
  const colours = await rate.locator('.legend-entry').evaluateAll((els) =>
    Object.fromEntries(els.map((e) => [e.textContent, e.querySelector('line')!.getAttribute('stroke')!])),
  ) as Record<string, string>;
  const hue = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
    const max = Math.max(r, g, b);
    const d = max - Math.min(r, g, b);
    const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
    return (h * 60 + 360) % 360;
  };
  // Hue spread within a group (8-bit channels round the shades' hues by a degree or two).
  const spread = (ids: string[]) => {
    const h = ids.map((id) => hue(colours[id]));
    return Math.max(...h) - Math.min(...h);
  };
  expect(spread(['A1', 'A2', 'A3'])).toBeLessThan(4);
  expect(spread(['D1', 'D2', 'D3', 'D4', 'D5', 'D6'])).toBeLessThan(4);
  const groupHues = ['A1', 'B1', 'C1', 'D1', 'E1', 'F1'].map((id) => hue(colours[id])).sort((a, b) => a - b);
  for (let i = 1; i < groupHues.length; i++) expect(groupHues[i] - groupHues[i - 1]).toBeGreaterThan(10);
  // Within a group, every source has its own shade.
  expect(new Set(['A1', 'A2', 'A3'].map((id) => colours[id])).size).toBe(3);
  // A group's entry hides and shows all its sources' lines (D: six sources, three lines each).
  await expect(rate).toHaveAttribute('data-visible', '69');
  await rate.locator('.legend-group', { hasText: 'D' }).getByRole('button').click();
  await expect(rate).toHaveAttribute('data-visible', '51');
  await expect(rate.locator('.legend-entry', { hasText: /^D4$/ })).toHaveAttribute('aria-pressed', 'true');
  await rate.locator('.legend-group', { hasText: 'D' }).getByRole('button').click();
  await expect(rate).toHaveAttribute('data-visible', '69');
});

test('each chart exports its visible data as CSV, and itself as SVG and as a PNG at twice its size', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources-staggered');
  await playToEnd(page);
  const rate = chart(page, 'rate');
  // What is on screen: C2 hidden, the time axis zoomed to about 60–150 ms.
  await rate.locator('.legend-entry', { hasText: /^C2$/ }).click();
  const box = (await plot(page, 'rate').boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 6 });
  await page.mouse.up();
  await expect.poll(async () => (await windows(page))[0][0]).toBeGreaterThan(50);
  const [t0, t1] = (await windows(page))[0];
  await page.mouse.move(0, 0);

  const download = async (kind: string) => {
    const [file] = await Promise.all([page.waitForEvent('download'), rate.getByTestId(`export-${kind}`).click()]);
    // Named after the scenario and its seed: a file that says which run it holds.
    expect(file.suggestedFilename()).toBe(`two-sources-staggered-seed1-rate.${kind}`);
    return readFileSync((await file.path())!);
  };

  // CSV: time_ms, then exactly the visible series; the rows of the visible window, as sampled.
  const [header, ...rows] = (await download('csv')).toString('utf8').trimEnd().split('\n');
  expect(header.split(',')).toEqual(['time_ms', 'C1 ACR (Mbps)', 'C1 max-min share (Mbps)', 'C1 max-min share at target utilisation (Mbps)']);
  const times = rows.map((r) => Number(r.split(',')[0]));
  expect(times[0]).toBeGreaterThanOrEqual(t0);
  expect(times[0] - t0).toBeLessThan(0.5 + 1e-9);
  expect(times[times.length - 1]).toBeLessThanOrEqual(t1);
  expect(rows.length).toBeGreaterThan((t1 - t0) / 0.5 - 2);
  const [t, acr] = rows[10].split(',').map(Number);
  expect(acr).toBe(await page.evaluate((t) => window.__abrlab!.valueAt('acr:C1', t), t));

  // SVG: title, legend without the hidden source, one path per visible line.
  const svg = (await download('svg')).toString('utf8');
  const parsed = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    return {
      error: doc.querySelector('parsererror') !== null,
      texts: [...doc.querySelectorAll('text')].map((e) => e.textContent),
      paths: [...doc.querySelectorAll('path[data-series]')].map((e) => e.getAttribute('data-series')),
    };
  }, svg);
  expect(parsed.error).toBe(false);
  expect(parsed.texts).toContain('Allowed cell rate (ACR) of each source');
  // The caption names the run: the scenario, its seed and the lab's version.
  const version = JSON.parse(readFileSync(resolve(repoRoot, 'web/package.json'), 'utf8')).version;
  expect(parsed.texts).toContain(`Two sources, staggered (two-sources-staggered) · seed 1 · ABR Lab ${version}`);
  expect(parsed.texts).toContain('C1');
  expect(parsed.texts).not.toContain('C2');
  expect(parsed.paths.sort()).toEqual(['C1 ACR', 'C1 max-min share', 'C1 max-min share at target utilisation']);

  // PNG: decodes, twice the SVG's size (its width is the plot's).
  const png = await download('png');
  const width = await rate.locator('.chart-plot').evaluate((el) => el.clientWidth);
  const size = await page.evaluate(async (b64) => {
    const blob = await (await fetch(`data:image/png;base64,${b64}`)).blob();
    const bitmap = await createImageBitmap(blob);
    return [bitmap.width, bitmap.height];
  }, png.toString('base64'));
  const svgHeight = Number(/height="(\d+(?:\.\d+)?)"/.exec(svg)![1]);
  expect(size).toEqual([2 * width, 2 * svgHeight]);
  expect(errors).toEqual([]);
});

test('a chart with no series says why (every switch runs "none": no algorithm state)', async ({ page }) => {
  await openLab(page);
  const s = JSON.parse(SCENARIOS.find((x) => x.scenario.id === 'two-sources')!.json);
  s.id = 'two-none';
  for (const n of s.nodes) if (n.kind === 'switch') n.algorithm = 'none';
  await page.evaluate((json) => window.__abrlab!.load(json, 'two-none.json'), JSON.stringify(s));
  await expect.poll(() => page.evaluate(() => window.__abrlab!.scenarioId())).toBe('two-none');
  const algorithm = chart(page, 'algorithm');
  await expect(algorithm).toHaveAttribute('data-lines', '0');
  await expect(algorithm.locator('.chart-empty')).toHaveText('No switch reports internal state (every switch runs “none”).');
  await expect(algorithm.getByTestId('export-csv')).toHaveCount(0);
  await expect(chart(page, 'rate').locator('.chart-empty')).toHaveCount(0);
});

// QA: deleting L3 in two-sources took both connections; the algorithm chart then said every
// switch runs "none" (SW1 runs ERICA), a gridline ran through the words, and the rate, queue
// and utilisation charts showed bare axes without their units.
test('charts without connections give the true reason and keep their units', async ({ page }) => {
  const errors = await openLab(page);
  const s = JSON.parse(SCENARIOS.find((x) => x.scenario.id === 'two-sources')!.json);
  s.id = 'two-unlinked';
  s.connections = [];
  await page.evaluate((json) => window.__abrlab!.load(json, 'two-unlinked.json'), JSON.stringify(s));
  await expect.poll(() => page.evaluate(() => window.__abrlab!.scenarioId())).toBe('two-unlinked');
  const algorithm = chart(page, 'algorithm');
  await expect(algorithm).toHaveAttribute('data-lines', '0');
  await expect(algorithm.locator('.chart-empty')).toHaveText('There is no connection, so no switch port carries traffic to report on.');
  // The words sit on the panel's colour, above the canvas the gridlines are drawn on.
  const words = algorithm.locator('.chart-empty > span');
  expect(await words.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(255, 255, 255)');
  expect(await algorithm.locator('.chart-empty').evaluate((el) => getComputedStyle(el).zIndex)).toBe('1');
  for (const [id, unit] of [['rate', 'Mbps'], ['queue', 'cells'], ['utilization', '%']]) {
    await expect(chart(page, id)).toHaveAttribute('data-unit', unit);
    await expect(chart(page, id).locator('.chart-axis-label-y')).toHaveText(unit);
  }
  expect(errors).toEqual([]);
});

test('a parameter change made during the run is marked on every chart (dashed vertical line)', async ({ page }) => {
  const errors = await openLab(page);
  // The marker colour, rgba(217, 119, 6, 0.8), over the white plot.
  const marker = '#e19238';
  const s = JSON.parse(SCENARIOS.find((x) => x.scenario.id === 'two-sources')!.json);
  s.id = 'two-changed';
  await page.evaluate((json) => window.__abrlab!.load(json, 'two-changed.json'), JSON.stringify(s));
  await expect.poll(() => page.evaluate(() => window.__abrlab!.scenarioId())).toBe('two-changed');
  await playToEnd(page);
  // Without a change, no marker colour on the charts, and no legend entry for one.
  expect(await pixelsOf(page, 'queue', marker)).toBeLessThan(5);
  await expect(chart(page, 'rate').getByTestId('legend-marker')).toHaveCount(0);
  s.id = 'two-changed-at-40';
  s.changes = [{ at_ms: 40, node: 'SW1', param: 'target_utilization', value: 0.6 }];
  await page.evaluate((json) => window.__abrlab!.load(json, 'two-changed-at-40.json'), JSON.stringify(s));
  await expect.poll(() => page.evaluate(() => window.__abrlab!.scenarioId())).toBe('two-changed-at-40');
  await playToEnd(page);
  for (const id of ['rate', 'queue', 'utilization']) {
    // A dashed line across the plot's height: tens of pixels of the marker colour.
    await expect.poll(() => pixelsOf(page, id, marker), { message: id }).toBeGreaterThan(40);
    // The legend on screen says what the dashed line is, as the exported image does.
    await expect(chart(page, id).getByTestId('legend-marker'), id).toHaveText('parameter change');
  }
  // The exported image says what the dashed line is.
  const svg = await downloadText(page, () => chart(page, 'rate').getByTestId('export-svg').click());
  expect(svg.text).toContain('>parameter change</text>');
  expect(svg.text).toContain('class="marker"');
  // Zoomed to a window after the change: no marker drawn, none named; the whole run again: named.
  const box = (await plot(page, 'rate').boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.7, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.95, box.y + box.height / 2, { steps: 6 });
  await page.mouse.up();
  await expect.poll(async () => (await windows(page))[0][0]).toBeGreaterThan(45);
  await expect(chart(page, 'rate').getByTestId('legend-marker')).toHaveCount(0);
  await page.getByTestId('zoom-reset').click();
  await expect(chart(page, 'rate').getByTestId('legend-marker')).toHaveText('parameter change');
  expect(errors).toEqual([]);
});

test('the charts draw again after the network editor has hidden them', async ({ page }) => {
  await openLab(page, '/?scenario=two-sources');
  await playToEnd(page);
  const c2 = PALETTE[1];
  await expect.poll(() => pixelsOf(page, 'rate', c2)).toBeGreaterThan(200);
  const width = await chart(page, 'rate').locator('canvas').first().evaluate((c: HTMLCanvasElement) => c.width);
  await page.getByTestId('view-editor').click();
  await expect(chart(page, 'rate')).toBeHidden();
  await page.getByTestId('view-charts').click();
  await expect(chart(page, 'rate')).toBeVisible();
  expect(await chart(page, 'rate').locator('canvas').first().evaluate((c: HTMLCanvasElement) => c.width)).toBe(width);
  await expect.poll(() => pixelsOf(page, 'rate', c2)).toBeGreaterThan(200);
  await expect.poll(() => windows(page)).toEqual(CHART_IDS.map(() => [0, 100]));
});

test('while a run plays its lines are drawn a few tiles at a time, and end as a whole drawing draws them', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=gfc1');
  const stops = page.getByTestId('lesson-stops');
  if (await stops.isChecked()) await stops.uncheck();
  // 0.2×: two seconds of wall time, many frames even on a busy machine.
  await page.getByTestId('speed').selectOption('0.2');
  const rate = chart(page, 'rate');
  await page.getByTestId('play').click();
  await waitForMode(page, 'done');
  // The rate chart took its lines tile by tile (23 ACRs, their max-min shares dashed and their
  // shares at the target dotted, with gaps at this sampling).
  const draws = () => rate.locator('.chart-plot').getAttribute('data-line-draws').then((d) => d!.split('/').map(Number));
  const [, tiles] = await draws();
  expect(tiles).toBeGreaterThan(5);
  // The lines' alpha, one byte per pixel.
  const alpha = () => composedChart(rate, (data) => Array.from({ length: data.length / 4 }, (_, i) => data[4 * i + 3]), '', 'lines');
  const grown = await alpha();
  // Hiding a line and showing it again draws every line whole.
  const [whole] = await draws();
  const entry = rate.locator('.legend-entry').first();
  await entry.click();
  await entry.click();
  // (The mouse away: over a legend entry, the other lines fade.)
  await page.mouse.move(0, 0);
  await expect.poll(async () => (await draws())[0]).toBeGreaterThan(whole + 1);
  const redrawn = await alpha();
  const inked = grown.filter((a) => a > 128).length;
  const differ = grown.filter((a, i) => Math.abs(a - redrawn[i]) > 128).length;
  expect(inked).toBeGreaterThan(5000);
  // The same lines: only anti-aliasing where a tile met the next may differ, a little.
  expect(differ).toBeLessThan(inked * 0.01);
  expect(errors).toEqual([]);
});
