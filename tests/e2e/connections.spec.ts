// The connection inspector: pick a connection, refuse an out-of-range source parameter with its
// rule, make it TCP over UBR, and play it: the TCP charts appear.
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { openLab, repoRoot, waitForMode } from './helpers';

const shots = resolve(repoRoot, 'test-results/screens');
mkdirSync(shots, { recursive: true });

type Conn = { id: string; params?: Record<string, number>; tcp?: Record<string, unknown>; start_ms?: number };
const conns = async (page: Page) =>
  (JSON.parse((await page.evaluate(() => window.__abrlab!.scenario()))!) as { connections: Conn[] }).connections;

test('a connection made TCP over UBR in the inspector plays with the TCP charts', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('view-editor').click();
  // Clicking a source shows the connection it sends.
  await page.getByTestId('ed-node-S1').click();
  await expect(page.getByTestId('conn-form')).toContainText('C1: S1 → D1');
  await page.getByTestId('ed-conn-C2').click();
  await expect(page.getByTestId('conn-form')).toContainText('C2: S2 → D2');

  // A TM 4.0 parameter out of range is refused with the rule; the scenario is unchanged.
  await page.getByTestId('conn-params').locator('summary').click();
  await expect(page.getByTestId('conn-param-pcr_mbps')).toHaveAttribute('placeholder', "the rate of the source's access link");
  await page.getByTestId('conn-param-nrm').fill('1000');
  await page.getByTestId('conn-param-nrm').press('Enter');
  await expect(page.getByTestId('editor-message')).toHaveText('nrm = 1000 is out of range: must be between 2 and 256 cells');
  expect((await conns(page))[1].params).toBeUndefined();
  await page.getByTestId('conn-param-nrm').fill('16');
  await page.getByTestId('conn-param-nrm').press('Enter');
  await expect.poll(async () => (await conns(page))[1].params).toEqual({ nrm: 16 });
  await expect(page.getByTestId('editor-message')).toHaveText('C2 nrm changed: the run restarted at t = 0.');

  // TCP over UBR.
  await page.getByTestId('conn-kind').selectOption('tcp');
  await expect.poll(async () => (await conns(page))[1].tcp).toEqual({});
  await page.getByTestId('conn-service').selectOption('ubr');
  await expect.poll(async () => (await conns(page))[1].tcp).toEqual({ service: 'ubr' });
  await page.getByTestId('conn-field-mss_bytes').fill('10');
  await page.getByTestId('conn-field-mss_bytes').press('Enter');
  await expect(page.getByTestId('editor-message')).toHaveText('mss_bytes = 10 must be between 64 and 65495 bytes');
  await page.screenshot({ path: resolve(shots, 'connection-inspector.png') });

  // Undo goes back to ABR with nrm 16, redo to TCP over UBR.
  await page.getByTestId('undo').click();
  await expect.poll(async () => (await conns(page))[1].tcp).toEqual({});
  await page.getByTestId('redo').click();
  await expect.poll(async () => (await conns(page))[1].tcp).toEqual({ service: 'ubr' });

  await page.getByTestId('view-charts').click();
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('play').click();
  await waitForMode(page, 'done');
  await expect(page.getByTestId('chart-cwnd')).toHaveAttribute('data-lines', '1');
  await expect(page.getByTestId('chart-goodput')).toBeVisible();
  await page.screenshot({ path: resolve(shots, 'connection-tcp-run.png'), fullPage: true });
  expect(errors).toEqual([]);
});
