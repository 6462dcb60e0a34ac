// A drag of the time slider (a class never waits): each step goes back in time, and the page
// keeps what it has instead of taking everything again — the worker does not send again the
// RM-cell events the page holds, the Network view cuts its cell index instead of building it
// afresh, the charts only move their cursor for a mark. Whatever the path, what the page shows
// at the time the drag ends must be what one scrub to that time shows.
import { expect, test, type Page } from '@playwright/test';
import { composedChart, openLab, status, waitForMode } from './helpers';

/** Where the drag ends, as a fraction of the slider's width. */
const END_AT = 0.35;

async function sliderAt(page: Page, fraction: number) {
  const slider = page.getByTestId('scrub-slider');
  await slider.scrollIntoViewIfNeeded();
  const box = (await slider.boundingBox())!;
  return { x: box.x + box.width * fraction, y: box.y + box.height / 2 };
}

/** The run standing paused at the slider's value. */
async function standing(page: Page) {
  await expect
    .poll(
      async () => {
        const s = await status(page);
        const want = Number(await page.getByTestId('scrub-slider').inputValue());
        return s?.mode === 'paused' && Math.abs(s.nowMs - want) < 1e-6;
      },
      { timeout: 60_000 },
    )
    .toBe(true);
  // The Network view's clock eases to the time; the log's throttle lets its last change through.
  await page.waitForTimeout(600);
}

/** What the page shows: the Network view's clock and RM cells, the event log, the charts. */
async function shown(page: Page) {
  await page.evaluate(() => window.scrollTo(0, 0));
  const network = await page.evaluate(() => ({
    clock: document.querySelector('[data-testid="nv-clock"]')?.textContent ?? null,
    cells: [...document.querySelectorAll<SVGGElement>('[data-testid="rm-cell"]')]
      .filter((g) => g.style.display !== 'none' && g.dataset.cell)
      // A cell by its loop and RM sequence number (gfc1 has no VS/VD, so that names it): its id
      // also holds where and when its index first saw it, and an index cut back may have seen a
      // cell under way from its source where one built afresh from the log's records (the
      // oldest of them later) first sees it at a switch.
      .map((g) => `${g.dataset.cell!.split('@')[0]}@${g.dataset.x},${g.dataset.y}:${g.lastChild?.textContent ?? ''}`)
      .sort(),
  }));
  const log = await page.evaluate(() => ({
    count: document.querySelector('[data-testid="rmlog-count"]')?.textContent ?? null,
    rows: [...document.querySelectorAll<HTMLElement>('[data-testid="rmlog-row"]')].map((r) => `${r.style.top}|${r.className}|${r.textContent}`),
  }));
  const charts: string[] = [];
  for (const chart of await page.locator('.chart').all()) {
    charts.push(
      await composedChart(
        chart,
        (data: Uint8ClampedArray) => {
          let h = 2166136261;
          for (let i = 0; i < data.length; i++) h = Math.imul(h ^ data[i], 16777619);
          return String(h >>> 0);
        },
        '',
      ),
    );
  }
  const cursors = await page.evaluate(() => [...document.querySelectorAll<HTMLElement>('.chart-plot')].map((el) => el.dataset.cursorMs ?? null));
  return { network, log, charts, cursors };
}

test('a drag of the time slider ends showing what one scrub to that time shows: Network view, event log and charts', async ({ page }) => {
  test.setTimeout(240_000);
  const errors = await openLab(page, '/?scenario=gfc1');
  await page.getByTestId('view-network').click();
  await page.getByTestId('nv-node-SW1').waitFor();
  await page.getByTestId('view-rmlog').click();
  await page.getByTestId('rmlog-record').check();
  const stops = page.getByTestId('lesson-stops');
  if ((await stops.count()) > 0 && (await stops.isChecked())) await stops.uncheck();
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('play').click();
  await waitForMode(page, 'done', 120_000);

  // The drag: from the end to near END_AT in twelve steps, each a scrub back (most from a
  // checkpoint before the events the page holds: the run sends them again), then to END_AT in
  // four small ones (within one checkpoint's stretch: the page keeps what it has).
  const from = await sliderAt(page, 0.995);
  const near = await sliderAt(page, END_AT + 0.02);
  const to = await sliderAt(page, END_AT);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) await page.mouse.move(from.x + ((near.x - from.x) * i) / 12, from.y);
  for (let i = 1; i <= 4; i++) await page.mouse.move(near.x + ((to.x - near.x) * i) / 4, from.y);
  await page.mouse.up();
  await standing(page);
  const endedAt = (await status(page))!.nowMs;
  expect(endedAt).toBeGreaterThan(100);
  expect(endedAt).toBeLessThan(200);
  const dragged = await shown(page);
  expect(dragged.network.cells.length).toBeGreaterThan(10);
  expect(dragged.log.rows.length).toBeGreaterThan(10);

  // The Network view opened again builds its cell index afresh from the events the log holds:
  // the same cells, where the drag's cut index put them (named by loop and sequence number: see
  // `shown`).
  await page.getByTestId('view-network').click();
  await expect(page.getByTestId('nv-node-SW1')).toHaveCount(0);
  await page.getByTestId('view-network').click();
  await page.getByTestId('nv-node-SW1').waitFor();
  // Once the view has settled (fitted to its size, its cards grown for that zoom, which moves
  // the lanes' ends and so every cell's place on them).
  await expect.poll(async () => (await shown(page)).network, { timeout: 15_000 }).toEqual(dragged.network);

  // Back to the end (a run forwards), then one scrub to the same time, from there: the charts,
  // their cursor, the Network view's clock and the newest events of the log are the drag's.
  // (How far back the log holds events, and so which RM cells in flight the Network view can
  // follow, depends on the checkpoint each replay starts from, as it did before.)
  await page.getByTestId('scrub-slider').focus();
  await page.keyboard.press('End');
  await expect.poll(async () => (await status(page))?.nowMs, { timeout: 60_000 }).toBe(400);
  // One change of the slider's value (as a click on it makes), to exactly that time.
  await page.getByTestId('scrub-slider').fill(String(endedAt));
  await standing(page);
  expect((await status(page))!.nowMs).toBe(endedAt);
  const scrubbed = await shown(page);
  expect(scrubbed.log.rows.length).toBeGreaterThan(10);

  expect.soft(dragged.network.clock).toEqual(scrubbed.network.clock);
  expect.soft(dragged.log.rows).toEqual(scrubbed.log.rows);
  expect.soft(dragged.cursors).toEqual(scrubbed.cursors);
  expect.soft(dragged.charts).toEqual(scrubbed.charts);
  expect(errors).toEqual([]);
});
