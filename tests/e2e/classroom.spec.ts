// Issue 12, "a class can follow" and "keyboard and screen reader": each scenario opens at a
// speed that plays it in 10–30 s and a share link carries the speed; presentation mode, the
// collapsible side panel, full-screen charts, the shortcuts help, and an axe run over the main
// screens. Screenshots go to test-results/screens/classroom-*.png.
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { libraryScenarios, openLab, repoRoot, status } from './helpers';

const shots = resolve(repoRoot, 'test-results/screens');
mkdirSync(shots, { recursive: true });
const shot = (page: Page, name: string) => page.screenshot({ path: resolve(shots, `classroom-${name}.png`) });

const durationOf = (id: string) => libraryScenarios().find((s) => s.scenario.id === id)!.scenario.run.duration_ms;

test('a long scenario opens at a speed that plays it in 10–30 s; the speed travels in a share link', async ({ page, context }) => {
  const errors = await openLab(page, '/?scenario=vsvd-1');
  const speed = Number(await page.getByTestId('speed').inputValue());
  const wallS = durationOf('vsvd-1') / speed / 1000;
  expect(wallS).toBeGreaterThanOrEqual(10);
  expect(wallS).toBeLessThanOrEqual(30);
  // Playing for a second of wall time moves the clock by about `speed` seconds of simulated
  // time (the old default, 0.01×, would have moved it 10 ms).
  await page.getByTestId('play').click();
  await page.waitForTimeout(1500);
  await page.getByTestId('play').click();
  expect((await status(page))!.nowMs).toBeGreaterThan(200);

  // A short one opens at its own, slower speed.
  await page.getByTestId('scenario-picker').selectOption('two-sources');
  await expect.poll(() => page.evaluate(() => window.__abrlab!.scenarioId())).toBe('two-sources');
  await expect(page.getByTestId('speed')).not.toHaveValue(String(speed));
  const shortWallS = durationOf('two-sources') / Number(await page.getByTestId('speed').inputValue()) / 1000;
  expect(shortWallS).toBeGreaterThanOrEqual(10);
  expect(shortWallS).toBeLessThanOrEqual(30);

  // The user's choice goes into the link, and the link opens at it.
  await page.getByTestId('speed').selectOption('0.02');
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByTestId('share').click();
  await expect.poll(() => page.evaluate(() => (window.__abrlab!.notice() as { link?: string } | null)?.link ?? null)).toContain('&v=0.02');
  const link = (await page.evaluate(() => (window.__abrlab!.notice() as { link: string }).link));
  const other = await context.newPage();
  await openLab(other, link.slice(link.indexOf('/', 8)));
  await expect.poll(() => other.evaluate(() => window.__abrlab!.origin())).toBe('shared link');
  await expect(other.getByTestId('speed')).toHaveValue('0.02');
  await shot(other, 'shared-speed');
  expect(errors).toEqual([]);
});
