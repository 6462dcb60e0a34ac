import { expect, test } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { libraryScenarios, openLab, repoRoot, waitForMode } from './helpers';

const SCENARIOS = libraryScenarios();
const shots = resolve(repoRoot, 'test-results/screens');
mkdirSync(shots, { recursive: true });

const chart = (page: import('@playwright/test').Page, id: string) => page.getByTestId(`chart-${id}`);

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
  const canvas = chart(page, 'rate').locator('canvas');
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
  const tooltip = chart(page, 'rate').locator('.tooltip');
  await expect(tooltip).toContainText('Gbps');
  const f0 = await tooltip.locator('tr', { hasText: 'F0 rate limit' }).locator('.tooltip-value').textContent();
  expect(Number(f0)).toBeGreaterThan(1);
  expect(Number(f0)).toBeLessThan(10);

  // Queues in frames on request: the same series, frame_bytes / 1000 times the KB figure.
  await page.getByTestId('queue-unit').selectOption('frames');
  await expect(chart(page, 'queue')).toHaveAttribute('data-unit', 'frames');
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
