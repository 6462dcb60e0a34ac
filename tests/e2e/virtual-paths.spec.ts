// Issue 6 in the browser: the virtual paths of a scenario listed, one made from chosen
// connections between two edge switches, one refused by the engine (its rule at the field), deleted.
import { expect, test, type Page } from '@playwright/test';
import { openLab, status } from './helpers';

const pathsOf = async (page: Page) =>
  (JSON.parse((await page.evaluate(() => window.__abrlab!.scenario()))!) as { virtual_paths?: { id: string; connections: string[]; from: string; to: string; service?: string }[] })
    .virtual_paths;

test("a library scenario's virtual paths are listed", async ({ page }) => {
  await openLab(page, '/?scenario=vpc-abr');
  await page.getByTestId('tab-paths').click();
  await expect(page.getByTestId('vp-list').locator('li')).toHaveCount(5);
  await expect(page.getByTestId('vp-VP1')).toContainText('ABR E1 → X: C1, C2, C3, C4');
});

test('a virtual path is made from chosen connections, a wrong one is refused at its field, and one is deleted', async ({
  page,
}) => {
  const errors = await openLab(page, '/?scenario=vsvd-1-end-to-end');
  await page.getByTestId('tab-paths').click();
  await expect(page.getByTestId('virtual-paths')).toContainText('no virtual paths');
  await expect(page.getByTestId('vp-add')).toBeDisabled();

  await page.getByTestId('vp-conn-C1').check();
  await page.getByTestId('vp-conn-C2').check();
  await page.getByTestId('vp-from').selectOption('SW1');
  await page.getByTestId('vp-to').selectOption('SW3');
  await page.getByTestId('vp-service').selectOption('ubr');
  await page.getByTestId('vp-add').click();
  await expect(page.getByTestId('vp-note')).toContainText('VP1 added');
  await expect(page.getByTestId('vp-VP1')).toContainText('UBR SW1 → SW3: C1, C2');
  expect(await pathsOf(page)).toEqual([{ id: 'VP1', connections: ['C1', 'C2'], from: 'SW1', to: 'SW3', service: 'ubr' }]);
  expect((await status(page))?.nowMs ?? 0).toBe(0);

  // Backwards along the path: the engine refuses it, its rule shown at the connections.
  const before = await page.evaluate(() => window.__abrlab!.scenario());
  await page.getByTestId('vp-conn-C1').uncheck();
  await page.getByTestId('vp-conn-C2').uncheck();
  await page.getByTestId('vp-conn-C3').check();
  await page.getByTestId('vp-from').selectOption('SW3');
  await page.getByTestId('vp-to').selectOption('SW1');
  await page.getByTestId('vp-add').click();
  await expect(page.getByTestId('vp-connections').locator('..').getByRole('alert').first()).toContainText("'C3'");
  expect(await page.evaluate(() => window.__abrlab!.scenario())).toBe(before);
  await page.screenshot({ path: 'test-results/virtual-paths.png' });
  // The refused path left no step in the undo history: one undo takes VP1 away, redo brings it back.
  await page.getByTestId('view-editor').click();
  await page.getByTestId('undo').click();
  await expect.poll(() => pathsOf(page)).toBeUndefined();
  await page.getByTestId('redo').click();
  await expect.poll(async () => (await pathsOf(page))?.map((p) => p.id)).toEqual(['VP1']);
  await page.getByTestId('view-charts').click();

  await page.getByTestId('vp-delete-VP1').click();
  await expect(page.getByTestId('vp-note')).toContainText('VP1 deleted');
  expect(await pathsOf(page)).toBeUndefined();
  expect(errors).toEqual([]);
});
