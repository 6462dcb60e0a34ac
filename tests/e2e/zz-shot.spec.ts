import { test } from '@playwright/test';
import { openLab } from './helpers';

test('shots', async ({ page }) => {
  for (const w of [1024, 1440]) {
    await page.setViewportSize({ width: w, height: 800 });
    await openLab(page, '/?scenario=two-sources');
    await page.getByTestId('view-editor').click();
    await page.getByTestId('ed-conn-C1').click();
    await page.getByTestId('conn-params').locator('summary').click();
    await page.getByTestId('conn-params').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `/tmp/s-conn-${w}.png` });
  }
});
