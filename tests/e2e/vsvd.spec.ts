// Issue 6 in the browser: switches of an ATM scenario turned into virtual sources / virtual
// destinations, and their discard policy and EPD threshold, through the switch inspector.
import { expect, test, type Page } from '@playwright/test';
import { openLab, status } from './helpers';

const switchOf = async (page: Page, id: string) => {
  const s = JSON.parse((await page.evaluate(() => window.__abrlab!.scenario()))!) as {
    nodes: { id: string; vsvd?: boolean; discard?: string; epd_threshold_cells?: number; buffer_cells?: number }[];
  };
  return s.nodes.find((n) => n.id === id)!;
};

async function inspect(page: Page, node: string) {
  await page.getByTestId(`topo-${node}`).click();
  await expect(page.getByTestId('switch-inspector')).toBeVisible();
  await expect(page.getByTestId('switch-picker')).toHaveValue(node);
}

test('SW1 and SW2 of vsvd-1-end-to-end made VS/VD restart the run and play to 3000 ms with queues and rates charted', async ({
  page,
}) => {
  const errors = await openLab(page, '/?scenario=vsvd-1-end-to-end');
  for (const sw of ['SW1', 'SW2']) {
    await inspect(page, sw);
    const box = page.getByTestId('switch-vsvd');
    await expect(box).not.toBeChecked();
    await box.click(); // not check(): the box follows the scenario, which the engine reloads first
    await expect(page.getByTestId('switch-note')).toContainText(`${sw} is now a virtual source / virtual destination`);
    await expect(page.getByTestId('switch-vsvd')).toBeChecked();
    expect((await switchOf(page, sw)).vsvd).toBe(true);
  }
  expect((await switchOf(page, 'SW3')).vsvd).toBeUndefined();
  expect((await status(page))?.nowMs ?? 0).toBe(0);

  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('until-ms').fill('3000');
  await page.getByTestId('run-until').click();
  await expect.poll(async () => (await status(page))?.nowMs, { timeout: 30_000 }).toBe(3000);

  const valued = await page.evaluate(() => window.__abrlab!.valued());
  const meta = await page.evaluate(() => window.__abrlab!.meta());
  const queues = meta.filter((m) => m.kind === 'queue' && m.owner.startsWith('SW1->'));
  expect(queues.length).toBeGreaterThan(0);
  for (const m of queues) expect(valued[m.id]).toBeGreaterThan(0);
  await expect(page.getByTestId('chart-rate')).not.toHaveAttribute('data-lines', '0');
  await expect(page.getByTestId('chart-queue')).not.toHaveAttribute('data-lines', '0');
  await page.screenshot({ path: 'test-results/vsvd-inspector.png' });
  expect(errors).toEqual([]);
});

test('the discard policy and EPD threshold are set from the inspector; a threshold beyond the buffer is refused', async ({
  page,
}) => {
  await openLab(page, '/?scenario=vsvd-1-end-to-end');
  await inspect(page, 'SW1');
  const epd = page.getByTestId('switch-epd-threshold');
  // With tail drop there is no threshold to set.
  await expect(epd).toHaveCount(0);

  await page.getByTestId('switch-discard').selectOption('epd_ppd');
  await expect(page.getByTestId('switch-note')).toContainText('Discard policy changed');
  expect((await switchOf(page, 'SW1')).discard).toBe('epd_ppd');
  // The buffer is 10 000 000 cells: the threshold ranges up to it; its default is the engine's
  // (the catalogue's note).
  await expect(epd.locator('input')).toHaveAttribute('placeholder', '90 % of the buffer');
  await expect(epd).toContainText('range 0 – 10,000,000');

  await epd.locator('input').fill('10000001');
  await epd.locator('input').press('Enter');
  await expect(epd.getByRole('alert')).toContainText('epd_threshold_cells = 10000001 is out of range');
  expect((await switchOf(page, 'SW1')).epd_threshold_cells).toBeUndefined();

  // With a smaller buffer, a threshold beyond it is refused too (the engine's rule, at the field).
  await page.getByTestId('switch-buffer').locator('input').fill('6000');
  await page.getByTestId('switch-buffer').locator('input').press('Enter');
  await expect.poll(async () => (await switchOf(page, 'SW1')).buffer_cells).toBe(6000);
  await epd.locator('input').fill('6001');
  await epd.locator('input').press('Enter');
  await expect(epd.getByRole('alert')).toHaveText('epd_threshold_cells = 6001 must be at most the buffer (6000 cells)');
  expect((await switchOf(page, 'SW1')).epd_threshold_cells).toBeUndefined();

  await epd.locator('input').fill('5000');
  await epd.locator('input').press('Enter');
  await expect(page.getByTestId('switch-note')).toContainText('EPD threshold changed');
  expect((await switchOf(page, 'SW1')).epd_threshold_cells).toBe(5000);
  await expect(page.getByTestId('switch-epd-threshold').locator('input')).toHaveValue('5000');
});

test('a switch setting changed in the side panel is undone and redone from the editor, across tab changes', async ({ page }) => {
  await openLab(page, '/?scenario=vsvd-1-end-to-end');
  await inspect(page, 'SW1');
  await page.getByTestId('switch-vsvd').click();
  await expect(page.getByTestId('switch-vsvd')).toBeChecked();
  await page.getByTestId('switch-discard').selectOption('epd');
  await expect.poll(async () => (await switchOf(page, 'SW1')).discard).toBe('epd');
  // The editor, opened only now, holds both side-panel edits in its history.
  await page.getByTestId('view-editor').click();
  await expect(page.getByTestId('network-editor')).toBeVisible();
  await page.getByTestId('undo').click();
  await expect.poll(async () => (await switchOf(page, 'SW1')).discard).toBeUndefined();
  expect((await switchOf(page, 'SW1')).vsvd).toBe(true);
  await page.getByTestId('undo').click();
  await expect.poll(async () => (await switchOf(page, 'SW1')).vsvd).toBeUndefined();
  await expect(page.getByTestId('undo')).toBeDisabled();
  await page.getByTestId('redo').click();
  await expect.poll(async () => (await switchOf(page, 'SW1')).vsvd).toBe(true);
});
