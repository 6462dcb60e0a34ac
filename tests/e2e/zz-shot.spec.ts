import { test, expect } from '@playwright/test';
import { openLab, status } from './helpers';

test.use({ viewport: { width: 1280, height: 800 } });

test('qa walk', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=gfc1');
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('play').click();
  await expect.poll(async () => (await status(page))?.mode, { timeout: 60_000 }).toBe('done');
  await page.getByTestId('tab-result').click();
  await page.screenshot({ path: '/tmp/qa/10-gfc1-result.png', fullPage: true });
  await page.getByTestId('chart-delivered').scrollIntoViewIfNeeded();
  await page.waitForTimeout(800);
  await page.screenshot({ path: '/tmp/qa/12-delivered.png' });
  await page.getByTestId('view-editor').click();
  await page.waitForTimeout(800);
  await page.screenshot({ path: '/tmp/qa/11-editor.png' });
  console.log('errors', JSON.stringify(errors));
});
