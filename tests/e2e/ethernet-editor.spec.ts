// Ethernet in the editor: an empty Ethernet canvas, a 2-to-1 hot spot drawn with the mouse,
// FECN at the switch (buffer in bytes), links in Gbps, a source at 60 % load; it plays.
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { openLab, repoRoot, waitForMode } from './helpers';

const shots = resolve(repoRoot, 'test-results/screens');
mkdirSync(shots, { recursive: true });

type Doc = {
  ethernet?: { frame_bytes?: number };
  nodes: { id: string; kind: string; algorithm?: string; buffer_bytes?: number }[];
  links: { id: string; rate_mbps: number }[];
  connections: { id: string; from: string; to: string; traffic?: { kind: string; load_percent: number } }[];
};
const doc = async (page: Page) => JSON.parse((await page.evaluate(() => window.__abrlab!.scenario()))!) as Doc;

test('draw an Ethernet hot spot with FECN on an empty Ethernet canvas and play it', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('view-editor').click();
  await page.getByTestId('clear-network').click();
  await expect(page.getByTestId('empty-atm')).toBeVisible();
  await page.screenshot({ path: resolve(shots, 'ethernet-empty-menu.png') });
  await page.getByTestId('empty-ethernet').click();
  await expect(page.getByTestId('empty-atm')).toHaveCount(0);
  await expect.poll(async () => (await doc(page)).ethernet).toEqual({ frame_bytes: 1500 });
  await expect(page.getByTestId('editor-message')).toContainText('An empty Ethernet network');

  for (const kind of ['switch', 'source', 'source', 'destination']) await page.getByTestId(`add-${kind}`).click();
  await page.getByTestId('tool-link').click();
  for (const [a, b] of [
    ['S1', 'SW1'],
    ['S2', 'SW1'],
    ['SW1', 'D1'],
  ]) {
    await page.getByTestId(`ed-node-${a}`).click();
    await page.getByTestId(`ed-node-${b}`).click();
  }
  await expect.poll(async () => (await doc(page)).links.map((l) => l.rate_mbps)).toEqual([10_000, 10_000, 10_000]);
  await page.getByTestId('tool-flow').click();
  for (const s of ['S1', 'S2']) {
    await page.getByTestId(`ed-node-${s}`).click();
    await page.getByTestId('ed-node-D1').click();
  }
  await expect.poll(async () => (await doc(page)).connections.map((c) => `${c.from}>${c.to}`)).toEqual(['S1>D1', 'S2>D1']);

  // The Ethernet inspector: Bernoulli arrivals at a load; 120 % is refused with the rule.
  await expect(page.getByTestId('conn-kind')).toHaveValue('bernoulli');
  await page.getByTestId('conn-field-load_percent').fill('120');
  await page.getByTestId('conn-field-load_percent').press('Enter');
  await expect(page.getByTestId('editor-message')).toHaveText('load_percent = 120 is out of range: must be between 0.001 and 100 %');
  await page.getByTestId('conn-field-load_percent').fill('60');
  await page.getByTestId('conn-field-load_percent').press('Enter');
  await expect.poll(async () => (await doc(page)).connections[1].traffic).toEqual({ kind: 'bernoulli', load_percent: 60 });
  await page.getByTestId('conn-params').locator('summary').click();
  await expect(page.getByTestId('conn-param-tag_interval_us')).toHaveAttribute('placeholder', '1000');
  await page.screenshot({ path: resolve(shots, 'ethernet-connection.png') });

  // Links in Gbps: the presets, and free entry in Gbps stored as Mbps.
  await page.getByTestId('tool-select').click();
  await page.getByTestId('ed-link-L1').click({ force: true });
  await expect(page.getByTestId('link-preset').locator('option')).toHaveText(['1 Gbps', '10 Gbps', '40 Gbps', '100 Gbps']);
  await page.getByTestId('link-rate').fill('40');
  await page.getByTestId('link-rate').press('Enter');
  await expect.poll(async () => (await doc(page)).links[0].rate_mbps).toBe(40_000);
  await page.screenshot({ path: resolve(shots, 'ethernet-editor.png') });

  // The switch runs FECN; its buffer is in bytes.
  await page.getByTestId('tab-switches').click();
  await expect(page.getByTestId('switch-algorithm')).toHaveValue('fecn');
  await expect(page.getByTestId('switch-algorithm').locator('option')).toHaveText([/FECN/, /QCN/, /[Nn]one/]);
  await expect(page.getByTestId('switch-buffer')).toContainText('bytes');

  await page.getByTestId('view-charts').click();
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('play').click();
  await waitForMode(page, 'done', 90_000);
  await expect(page.getByTestId('chart-rate')).toHaveAttribute('data-lines', /[1-9]/);
  await expect(page.getByTestId('chart-queue')).toBeVisible();
  await page.screenshot({ path: resolve(shots, 'ethernet-editor-run.png'), fullPage: true });
  expect(errors).toEqual([]);
});
