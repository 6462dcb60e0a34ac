// The compare view: ERICA against ERICA+ on two-sources runs in the pool, both summaries read
// side by side with their digests those of the wasm engine run directly; the compare link
// replays both runs digest for digest.
import { expect, test } from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { openLab, repoRoot } from './helpers';

const shots = resolve(repoRoot, 'test-results/screens');
mkdirSync(shots, { recursive: true });

/** The digests of two-sources with ERICA and with ERICA+ at both switches, from the wasm engine under Node. */
async function expectedDigests(): Promise<string[]> {
  const { loadWasmEngine, runToEnd } = await import('../node/wasm-engine.mjs');
  const pkg = await loadWasmEngine();
  const doc = JSON.parse(readFileSync(resolve(repoRoot, 'scenarios/two-sources.json'), 'utf8'));
  const plus = structuredClone(doc);
  for (const n of plus.nodes) if (n.kind === 'switch') n.algorithm = 'erica_plus';
  return [doc, plus].map((d) => {
    const { sim } = runToEnd(pkg, JSON.stringify(d));
    const digest = sim.digest() as string;
    sim.free();
    return digest;
  });
}

test('compare ERICA with ERICA+ on two-sources: both summaries side by side, and a link that replays them', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('view-compare').click();
  await page.getByTestId('variant-1-alg-SW1').selectOption('erica_plus');
  await page.getByTestId('variant-1-alg-SW2').selectOption('erica_plus');
  await page.getByTestId('compare-run').click();
  const view = page.getByTestId('compare');
  await expect(view).toHaveAttribute('data-phase', 'done', { timeout: 60_000 });
  await expect(page.getByTestId('compare-head-0')).toContainText('two-sources');
  await expect(page.getByTestId('compare-head-1')).toContainText('SW1.algorithm = erica_plus, SW2.algorithm = erica_plus');

  // Both summaries: every row has a number for each run.
  const rows = page.getByTestId('compare-row');
  const labels = await rows.locator('th').allTextContents();
  expect(labels).toEqual(expect.arrayContaining(['C1 mean rate (Mbps)', 'C2 mean rate (Mbps)', "Jain's index", 'lost cells', 'largest queue (cells)']));
  for (const label of ['C1 mean rate (Mbps)', 'C2 mean rate (Mbps)', "Jain's index"]) {
    const cells = await rows.filter({ has: page.locator('th', { hasText: label }) }).locator('td').allTextContents();
    expect(cells).toHaveLength(2);
    for (const c of cells) expect(Number.isFinite(Number(c))).toBe(true);
  }
  // ERICA aims at 90 % of the link, ERICA+ at all of it: the rates differ, and are marked.
  const c1 = rows.filter({ has: page.locator('th', { hasText: 'C1 mean rate (Mbps)' }) }).locator('td');
  await expect(c1.nth(1)).toHaveAttribute('data-differs', 'true');
  const [erica, plus] = (await c1.allTextContents()).map(Number);
  expect(plus).toBeGreaterThan(erica);

  // The digests are the engine's for those two scenarios.
  const want = await expectedDigests();
  await expect(page.getByTestId('compare-head-0').locator('[title^="digest"]')).toHaveAttribute('title', `digest ${want[0]}`);
  await expect(page.getByTestId('compare-head-1').locator('[title^="digest"]')).toHaveAttribute('title', `digest ${want[1]}`);
  // Each variant's rates and queues, side by side.
  for (const id of ['compare-chart-rate-0', 'compare-chart-rate-1', 'compare-chart-queue-0', 'compare-chart-queue-1']) {
    await expect(page.getByTestId(id)).toBeVisible();
  }
  await page.screenshot({ path: resolve(shots, 'compare-erica.png'), fullPage: true });
  await page.screenshot({ path: '/tmp/compare-e2e.png', fullPage: true });

  // The link: opening it runs both again, digest for digest.
  await page.getByTestId('compare-link').click();
  const url = await page.getByTestId('compare-linktext').inputValue();
  expect(url).toMatch(/#c=1\.[A-Za-z0-9_-]+$/);
  await page.goto('about:blank');
  await page.goto(url);
  await expect(page.getByTestId('compare')).toHaveAttribute('data-phase', 'done', { timeout: 60_000 });
  await expect(page.getByTestId('compare-head-0')).toContainText('✓ as linked');
  await expect(page.getByTestId('compare-head-1')).toContainText('✓ as linked');
  expect(errors).toEqual([]);
});

test('a bad override path is refused naming the variant and the rule; vsvd-1 against vsvd-1-end-to-end in one click', async ({ page }) => {
  await openLab(page, '/?scenario=vsvd-1');
  await page.getByTestId('view-compare').click();
  await page.getByTestId('variant-1-sets').fill('nodes.SW9.algorithm=erica');
  await page.getByTestId('compare-run').click();
  await expect(page.getByTestId('compare-refused')).toContainText("variant 1: 'nodes.SW9.algorithm': no element with id 'SW9' in 'nodes'");
  // The lesson's comparison in one click.
  await page.getByTestId('compare-lesson').click();
  await expect(page.getByTestId('compare')).toHaveAttribute('data-phase', 'done', { timeout: 60_000 });
  await expect(page.getByTestId('compare-head-1')).toContainText('vsvd-1-end-to-end');
});

test('a lesson that compares offers it in one click: qcn-hotspot against fqcn-hotspot and fecn-hotspot', async ({ page }) => {
  await openLab(page, '/?scenario=qcn-hotspot');
  await page.getByTestId('lesson-compare').click();
  await expect(page.getByTestId('compare')).toHaveAttribute('data-phase', 'done', { timeout: 60_000 });
  await expect(page.getByTestId('compare-head-1')).toContainText('fqcn-hotspot');
  await expect(page.getByTestId('compare-head-2')).toContainText('fecn-hotspot');
  await expect(page.getByTestId('variant-2-from')).toHaveValue('fecn-hotspot');
  await page.screenshot({ path: resolve(shots, 'compare-qcn.png'), fullPage: true });
});
