// Issue 14: a source faster than its link says what waited at its host; a run longer than the
// lab keeps at full resolution plays to its end and its charts say they show min/max buckets.
import { expect, test } from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { openLab, repoRoot, waitForMode } from './helpers';

const shots = resolve(repoRoot, 'test-results/screens');
mkdirSync(shots, { recursive: true });

test('a source asking for more than its access link carries: the result says how many cells waited at its host', async ({ page }) => {
  await openLab(page, '/?scenario=two-sources');
  const doc = JSON.parse(readFileSync(resolve(repoRoot, 'scenarios/two-sources.json'), 'utf8'));
  doc.id = 'fast-source';
  for (const n of doc.nodes) if (n.kind === 'switch') { n.algorithm = 'none'; n.params = {}; }
  doc.connections[0].params = { pcr_mbps: 100000, icr_mbps: 100000 };
  doc.connections[1].stop_ms = 1;
  doc.run.duration_ms = 40;
  doc.run.steady_from_ms = null;
  await page.getByTestId('scenario-file').setInputFiles({ name: 'fast.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(doc)) });
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('play').click();
  await waitForMode(page, 'done');
  await page.getByRole('tab', { name: 'Result' }).click();
  await expect(page.getByTestId('summary-host-queue')).toContainText('C1 asked for more than its access link carries: up to 1000 cells');
  await page.screenshot({ path: resolve(shots, 'host-queue.png') });
});

test('a 250 s run (more samples than the lab keeps) plays to its end; the tooltip says it shows min and max per bucket', async ({ page }) => {
  test.setTimeout(240_000);
  const doc = JSON.parse(readFileSync(resolve(repoRoot, 'scenarios/two-sources.json'), 'utf8'));
  doc.id = 'long-two';
  doc.run.duration_ms = 250000;
  doc.run.steady_from_ms = null;
  await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('scenario-file').setInputFiles({ name: 'long.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(doc)) });
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('play').click();
  await waitForMode(page, 'done', 200_000);
  const canvas = page.getByTestId('chart-rate').locator('canvas').first();
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.4);
  await expect(page.getByTestId('tooltip-decimated')).toContainText(/min and max of every \d+ samples/);
  await page.screenshot({ path: resolve(shots, 'long-run-decimated.png') });
});
