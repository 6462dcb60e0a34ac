// Going back in time (issue 12): the time slider scrubs a paused run back, the charts' cursor
// and the event log follow, later samples are gone, and playing on ends with the very digest of
// a run that never went back. "Next RM event" runs the engine in one call per slice.
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { openLab, repoRoot, status, waitForMode } from './helpers';

const shots = resolve(repoRoot, 'test-results/screens');
mkdirSync(shots, { recursive: true });

/** The cursor time (ms) every chart was moved to, by chart. */
const cursors = (page: Page) =>
  page.evaluate(() => [...document.querySelectorAll<HTMLElement>('.chart-plot')].map((el) => el.dataset.cursorMs ?? null));
const digest = (page: Page) => page.evaluate(() => window.__abrlab!.digest());

test('scrubbing back moves the cursor, drops later samples, and playing on ends with the digest of an unscrubbed run', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  // The digest of the run played straight through.
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('play').click();
  await waitForMode(page, 'done');
  const straight = await digest(page);
  expect(straight).toMatch(/^[0-9a-f]{16}$/);

  // Again, with the event log on: play, pause past the middle.
  await page.getByTestId('reset').click();
  await expect.poll(async () => (await status(page))?.nowMs).toBe(0);
  await page.getByTestId('view-rmlog').click();
  await page.getByTestId('rmlog-record').check();
  await page.getByTestId('speed').selectOption('0.01');
  await page.getByTestId('play').click();
  await expect.poll(async () => (await status(page))?.nowMs ?? 0, { timeout: 30_000 }).toBeGreaterThan(45);
  await page.getByTestId('play').click();
  await waitForMode(page, 'paused');
  const pausedAt = (await status(page))!.nowMs;
  expect(await page.evaluate(() => window.__abrlab!.lastTimeMs())).toBeGreaterThan(45);

  // The slider, from the keyboard: Home goes to 0, Page Up a tenth of the run each.
  const slider = page.getByRole('slider', { name: 'Time' });
  await expect(slider).toBeVisible();
  await slider.focus();
  await slider.press('Home');
  for (let i = 0; i < 3; i++) await slider.press('PageUp');
  await expect.poll(async () => (await status(page))?.nowMs).toBe(30);
  await waitForMode(page, 'paused');
  await expect(page.getByTestId('scrub-time')).toHaveText('30.0 ms');
  // Every chart's cursor is at 30 ms; the samples after it are gone (one every 0.5 ms from 0).
  await expect.poll(() => cursors(page)).toEqual(expect.arrayContaining(['30']));
  expect(new Set(await cursors(page))).toEqual(new Set(['30']));
  expect(await page.evaluate(() => window.__abrlab!.lastTimeMs())).toBe(30);
  expect(await page.evaluate(() => window.__abrlab!.rows())).toBe(61);
  expect(await digest(page)).toBeNull();
  // The event log: nothing after 30 ms, and the event nearest to it marked and in view.
  const log = page.getByTestId('rmlog-list');
  // Polled: under load the log may take a frame or two to drop the events after the cursor.
  const latest = async () => Math.max(...(await page.getByTestId('rmlog-row').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-time-us'))))));
  await expect.poll(latest).toBeLessThanOrEqual(30_000);
  const atCursor = log.locator('[aria-current="time"]');
  await expect(atCursor).toBeVisible();
  // Polled: under load the mark may still be on the row of the slider's previous step (20 ms).
  await expect.poll(async () => Math.abs(Number(await atCursor.getAttribute('data-time-us')) - 30_000)).toBeLessThan(500);
  expect(pausedAt).toBeGreaterThan(30);
  // SW1 explains itself at that moment.
  await page.getByTestId('tab-switches').click();
  await page.getByTestId('topo-SW1').click();
  await expect(page.getByTestId('switch-explain').getByTestId('explain-head')).toContainText('t = 30.000 ms');
  await page.screenshot({ path: resolve(shots, 'scrub-back.png'), fullPage: true });

  // A click on a chart marks its time everywhere; the log scrolls to the event nearest to it.
  const plot = page.getByTestId('chart-rate').locator('.u-over');
  const box = (await plot.boundingBox())!;
  await plot.click({ position: { x: box.width * 0.1, y: box.height / 2 } });
  await expect.poll(async () => Number((await cursors(page))[0])).toBeLessThan(15);
  const clicked = Number((await cursors(page))[0]);
  expect(clicked).toBeGreaterThan(5);
  expect(new Set(await cursors(page))).toEqual(new Set([String(clicked)]));
  await expect.poll(async () => Math.abs(Number(await atCursor.getAttribute('data-time-us')) / 1000 - clicked)).toBeLessThan(0.5);
  await expect(atCursor).toBeInViewport();
  await page.screenshot({ path: resolve(shots, 'scrub-chart-click.png'), fullPage: true });

  // A Step moves the run on, as playing does: the cursor no longer stays at the picked time.
  await page.getByTestId('step').click();
  await expect.poll(async () => (await status(page))?.nowMs).toBe(31);
  await waitForMode(page, 'paused');
  expect(new Set(await cursors(page))).toEqual(new Set(['']));

  // Play on from 31 ms to the end: the same digest as the run that never went back.
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('play').click();
  await waitForMode(page, 'done');
  // Played on, the charts' cursor no longer stays at the time marked while paused.
  expect(new Set(await cursors(page))).toEqual(new Set(['']));
  expect(await digest(page)).toBe(straight);
  expect(await page.evaluate(() => window.__abrlab!.rows())).toBe(201);
  // In presentation mode the slider reads from the back of the room too.
  await page.getByTestId('present').click();
  await slider.focus();
  await slider.press('PageDown');
  await expect.poll(async () => (await status(page))?.nowMs).toBe(90);
  await expect(page.getByTestId('scrub-time')).toHaveText('90.0 ms');
  expect(await page.getByTestId('scrub-time').evaluate((el) => parseFloat(getComputedStyle(el).fontSize))).toBeGreaterThanOrEqual(18);
  await page.screenshot({ path: resolve(shots, 'scrub-present.png') });
  expect(errors).toEqual([]);
});

test('"Next RM event" on a long run reaches an event 15 s of simulated time away quickly', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  // two-sources for 20 s, with S2 starting at 15 s: D2 sees no RM cell before then, while C1
  // fills the link (about 35 million engine events).
  const doc = JSON.parse(readFileSync(resolve(repoRoot, 'scenarios/two-sources.json'), 'utf8'));
  doc.id = 'two-sources-late';
  doc.run = { ...doc.run, duration_ms: 20_000, sample_interval_us: 10_000 };
  doc.connections[1].start_ms = 15_000;
  await page.evaluate((json) => window.__abrlab!.load(json), JSON.stringify(doc));
  await expect.poll(() => page.evaluate(() => window.__abrlab!.scenarioId())).toBe('two-sources-late');
  await page.getByTestId('view-rmlog').click();
  await page.getByTestId('rmlog-node').selectOption('D2');
  const started = Date.now();
  await page.getByTestId('rmlog-next').click();
  await expect(page.locator('.rmlog-row.picked')).toBeVisible({ timeout: 60_000 });
  const tookMs = Date.now() - started;
  const s = (await status(page))!;
  expect(s.mode).toBe('paused');
  expect(s.nowMs).toBeGreaterThanOrEqual(15_000);
  const picked = page.locator('.rmlog-row.picked');
  await expect(picked).toContainText('D2');
  console.log(`next RM event at D2: ${(s.nowMs / 1000).toFixed(3)} s of simulated time, ${s.events} events, in ${tookMs} ms of wall time`);
  await page.screenshot({ path: resolve(shots, 'scrub-next-rm-long.png'), fullPage: true });
  expect(errors).toEqual([]);
});

test('a burst of arrow keys on the Time slider lands where the keys say, with no error', async ({ page }) => {
  // Each step is a short seek (paused → seeking → paused); a burst of them used to render the
  // whole page twice a key, one render after another, until React took it for an endless loop
  // of updates (error #185), about one burst in two.
  const consoleErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('play').click();
  await waitForMode(page, 'done');
  const slider = page.getByRole('slider', { name: 'Time' });
  await slider.focus();
  // 100 ms in steps of 0.5 ms: 120 keys left and 60 right, ≤ 5 ms apart, end 30 ms back.
  for (let i = 0; i < 180; i++) await page.keyboard.press(i % 3 === 2 ? 'ArrowRight' : 'ArrowLeft');
  await expect(page.getByTestId('scrub-time')).toHaveText('70.0 ms');
  await expect.poll(async () => (await status(page))?.nowMs).toBe(70);
  await waitForMode(page, 'paused');
  await expect(page.getByTestId('play')).toContainText('Play');
  expect(errors).toEqual([]);
  expect(consoleErrors).toEqual([]);
});
