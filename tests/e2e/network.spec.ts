// Issue 12 in the browser: the Network view — the topology animated from the run (links by
// utilisation, queue bars with the algorithm's marks, sources' ACR), RM cells moving in slow
// motion, and a paused RM cell's journey; in presentation mode too, and full screen.
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { openLab, repoRoot, status, waitForMode } from './helpers';

const shots = resolve(repoRoot, 'test-results/screens');
mkdirSync(shots, { recursive: true });

/** The RM-cell markers on screen: cell id, phase, position in the flow's coordinates. */
const markers = (page: Page) =>
  page.locator('[data-testid="rm-cell"]').evaluateAll((els) =>
    els
      .filter((e) => (e as SVGGElement).style.display !== 'none')
      .map((e) => {
        const g = e as SVGGElement;
        return { id: g.dataset.cell!, cls: g.getAttribute('class')!, x: Number(g.dataset.x), y: Number(g.dataset.y), label: g.textContent ?? '' };
      }),
  );

test('two-sources: the Network view animates links, queues and ACRs; an RM cell goes round in slow motion; paused, one tells its journey', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('view-network').click();
  const view = page.getByTestId('network-view');
  await expect(view).toBeVisible();
  // The switches with their ports, ERICA's, and the sources.
  await expect(page.getByTestId('nv-node-SW1')).toContainText('ERICA');
  await expect(page.getByTestId('nv-port-SW1->SW2')).toBeVisible();
  await expect(page.getByTestId('nv-node-S1')).toBeVisible();

  // At the scenario's own speed RM cells are too fast to draw: the view offers slow motion.
  await expect(page.getByTestId('nv-rm-note')).toContainText('drawn moving at');
  await page.getByTestId('nv-slow').click();
  await expect(page.getByTestId('nv-rm-note')).toContainText('move along the links');

  await page.getByTestId('play').click();
  // Watch the markers for a few seconds, frame by frame: forward and backward cells go by, and a
  // cell seen in two frames has moved along its lane between them.
  const watched = await page.evaluate(
    () =>
      new Promise<{ frames: number; phases: string[]; moves: number; labels: string[] }>((done) => {
        const seen = new Map<string, string>();
        const phases = new Set<string>();
        const labels = new Set<string>();
        let moves = 0;
        let frames = 0;
        const t0 = performance.now();
        const tick = () => {
          frames++;
          for (const el of document.querySelectorAll<SVGGElement>('[data-testid="rm-cell"]')) {
            if (el.style.display === 'none' || !el.dataset.cell) continue;
            const at = `${el.dataset.x},${el.dataset.y}`;
            const before = seen.get(el.dataset.cell);
            if (before !== undefined && before !== at) moves++;
            seen.set(el.dataset.cell, at);
            phases.add(el.getAttribute('class')!.split(' ')[1]);
            labels.add(el.textContent ?? '');
          }
          if (performance.now() - t0 < 4000) requestAnimationFrame(tick);
          else done({ frames, phases: [...phases].sort(), moves, labels: [...labels] });
        };
        requestAnimationFrame(tick);
      }),
  );
  expect(watched.phases).toEqual(['nv-rm-backward', 'nv-rm-forward']);
  expect(watched.moves).toBeGreaterThan(5);
  // Labelled with their ER (Mbps).
  for (const l of watched.labels) expect(l).toMatch(/^\d+\.\d+$/);
  await page.screenshot({ path: resolve(shots, 'network-playing.png'), fullPage: true });

  // The links and queues follow the run: SW1->SW2 carries both sources, its utilisation shows.
  await expect.poll(async () => Number(await page.getByTestId('nv-lane-SW1->SW2').getAttribute('data-util')), { timeout: 20_000 }).toBeGreaterThan(5);
  await expect(page.getByTestId('nv-acr-C1')).toContainText('Mbps');

  // Pause, bring a backward cell into view, and click it: its fields and journey.
  await page.getByTestId('play').click();
  await waitForMode(page, 'paused');
  // Step 10 µs at a time until a backward cell is on screen.
  await page.getByTestId('step-ms').fill('0.01');
  for (let i = 0; i < 60 && !(await markers(page)).some((m) => m.cls.includes('nv-rm-backward')); i++) {
    await page.getByTestId('step').click();
    await waitForMode(page, 'paused');
  }
  const paused = await markers(page);
  expect(paused.length).toBeGreaterThan(0);
  const pick = paused.find((m) => m.cls.includes('nv-rm-backward')) ?? paused[0];
  await page.locator(`[data-cell="${pick.id}"]`).click({ force: true });
  const panel = page.getByTestId('nv-cell');
  await expect(panel).toBeVisible();
  await expect(panel.locator('[data-name="dir"]')).toContainText(/DIR = [01]/);
  await expect(panel.locator('[data-name="ccr"]')).toContainText('Mbps');
  const journey = panel.getByTestId('nv-journey');
  await expect(journey.locator('li').first()).toContainText('sent by S');
  if (pick.cls.includes('nv-rm-backward')) {
    await expect(panel.getByTestId('nv-journey-summary')).toContainText(/Turned around at D[12]/);
    await expect(panel.getByTestId('nv-journey-summary')).toContainText('ER lowered at SW2 by ERICA');
  }
  await page.screenshot({ path: resolve(shots, 'network-journey.png'), fullPage: true });
  expect(errors).toEqual([]);
});

test('presentation mode: the Network view full screen, in large type; gfc1 with ERICA+ target-queue marks', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=gfc1&present=1');
  await page.getByTestId('view-network').click();
  await expect(page.getByTestId('nv-node-SW3')).toContainText('ERICA+');
  // ERICA+'s target queue is marked on each port's bar.
  await expect(page.getByTestId('nv-port-SW1->SW2').locator('[data-mark="target_delay_us"]')).toHaveCount(1);
  await page.getByTestId('play').click();
  await expect.poll(async () => (await status(page))?.nowMs ?? 0).toBeGreaterThan(20);
  await page.getByTestId('nv-full-screen').click();
  await expect(page.getByTestId('network-view')).not.toHaveAttribute('data-full', 'no');
  await page.waitForTimeout(300);
  await page.screenshot({ path: resolve(shots, 'network-present-fullscreen.png') });
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('network-view')).toHaveAttribute('data-full', 'no');
  expect(errors).toEqual([]);
});
