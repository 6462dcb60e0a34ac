#!/usr/bin/env node
// Dragging the time slider over a finished run (a class never waits): gfc1 played to the end at
// max speed with the Network view and the event log open (its RM cells recorded), then the
// slider's thumb pressed at the end and dragged to 30 % of the run in N moves of the mouse, in
// the production build on the system Chromium. Reported per drag: the wall time from the press
// to the run standing at the last position (the clock at the slider's value, paused), the long
// tasks (over 50 ms, Chromium's PerformanceObserver) and the longest, the main thread's busy
// time (Chromium's TaskDuration), of which in scripts (ScriptDuration) and in layout
// (LayoutDuration, LayoutCount: the event log's scroll-to-cursor forced one at every step), and
// how many RM-cell events the worker sent during the drag, and the charts' drawings of their
// lines during it (whole, or only the tiles that changed: `data-line-draws`, over every chart).
// Several drags (each on a fresh page), all printed, then the median. Numbers, not pass/fail.
// `ABR_BENCH_DRAG_MOVES` (30), `ABR_BENCH_DRAG_RUNS` (3), `ABR_BENCH_DRAG_THROTTLE` (1: the
// CPU throttling rate during the drag).
import { withPage } from './bench-page.mjs';

const MOVES = Number(process.env.ABR_BENCH_DRAG_MOVES ?? 30);
const RUNS = Number(process.env.ABR_BENCH_DRAG_RUNS ?? 3);
const THROTTLE = Number(process.env.ABR_BENCH_DRAG_THROTTLE ?? 1);

/** Counts the worker's messages (RM-cell events sent) from the page's side. */
function countWorkerMessages() {
  const Base = window.Worker;
  window.__benchRm = 0;
  window.Worker = class extends Base {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => {
        if (e.data?.type === 'rmEvents') window.__benchRm += e.data.records.length;
      });
    }
  };
}

async function drag(page, cdp, url) {
  await page.goto(url('/?scenario=gfc1'));
  await page.waitForFunction(() => !document.querySelector('[data-testid="reset"]').disabled);
  await page.getByTestId('view-network').click();
  await page.getByTestId('nv-node-SW1').waitFor();
  await page.getByTestId('view-rmlog').click();
  await page.getByTestId('rmlog-record').check();
  // gfc1's lesson has steps, at which a run below max speed pauses: played straight through here.
  const stops = page.getByTestId('lesson-stops');
  if ((await stops.count()) > 0 && (await stops.isChecked())) await stops.uncheck();
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('play').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="play"]').textContent.includes('Replay'), null, { timeout: 120_000 });
  await page.waitForTimeout(1000);
  await page.evaluate(() => {
    window.__benchLong = [];
    window.__benchRm = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__benchLong.push(e.duration);
    }).observe({ type: 'longtask' });
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
  const before = await metrics(cdp);
  const draws0 = await lineDraws(page);
  const box = await page.getByTestId('scrub-slider').boundingBox();
  const y = box.y + box.height / 2;
  const from = box.x + box.width - 4; // the thumb, at the run's end
  const to = box.x + box.width * 0.3;
  const t0 = Date.now();
  await page.mouse.move(from, y);
  await page.mouse.down();
  for (let i = 1; i <= MOVES; i++) await page.mouse.move(from + ((to - from) * i) / MOVES, y);
  await page.mouse.up();
  await page.waitForFunction(
    () => {
      if (!document.querySelector('[data-testid="clock"] .mode-paused')) return false;
      const want = Number(document.querySelector('[data-testid="scrub-slider"]').value);
      const now = Number(document.querySelector('[data-testid="sim-time"]').textContent.replace(/[^0-9.]/g, ''));
      return Math.abs(want - now) < 0.6;
    },
    null,
    { timeout: 300_000, polling: 50 },
  );
  const ms = Date.now() - t0;
  const after = await metrics(cdp);
  const draws1 = await lineDraws(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await page.waitForTimeout(200);
  const { long, rm } = await page.evaluate(() => ({ long: window.__benchLong, rm: window.__benchRm }));
  const spent = (name) => after[name] - before[name];
  return {
    ms,
    long: long.length,
    longest: Math.max(0, ...long),
    busy: spent('TaskDuration') * 1000,
    script: spent('ScriptDuration') * 1000,
    layout: spent('LayoutDuration') * 1000,
    layouts: spent('LayoutCount'),
    rm,
    whole: draws1.whole - draws0.whole,
    tiles: draws1.tiles - draws0.tiles,
  };
}

/** The charts' drawings of their lines so far, whole and by tiles, summed over the charts. */
function lineDraws(page) {
  return page.evaluate(() => {
    let whole = 0;
    let tiles = 0;
    for (const el of document.querySelectorAll('.chart-plot')) {
      const [w, t] = (el.dataset.lineDraws ?? '0/0').split('/').map(Number);
      whole += w;
      tiles += t;
    }
    return { whole, tiles };
  });
}

/** Chromium's running totals for the page (seconds, counts), by name. */
async function metrics(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return Object.fromEntries(metrics.map((m) => [m.name, m.value]));
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

await withPage(async (page, url) => {
  await page.addInitScript(countWorkerMessages);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await drag(page, cdp, url));
  const line = (r) =>
    `${(r.ms / 1000).toFixed(2)} s, ${r.long} long tasks (longest ${r.longest.toFixed(0)} ms), main thread busy ${(r.busy / 1000).toFixed(2)} s (scripts ${(r.script / 1000).toFixed(2)} s, ${r.layouts} layouts ${(r.layout / 1000).toFixed(2)} s), ${r.rm} RM-cell events sent, lines drawn ${r.whole} times whole and ${r.tiles} by tiles`;
  console.log(`\nTime slider dragged over a finished gfc1 (Network view and event log open), ${MOVES} moves from the end to 30 %${THROTTLE === 1 ? '' : `, at ${THROTTLE}× CPU throttling`}`);
  for (const r of runs) console.log(`  ${line(r)}`);
  const m = Object.fromEntries(Object.keys(runs[0]).map((k) => [k, median(runs.map((r) => r[k]))]));
  console.log(`  median: ${line(m)}`);
});
