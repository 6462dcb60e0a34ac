// Issue 12 in the browser: the Network view — the topology animated from the run (links by
// utilisation, queue bars with the algorithm's marks, sources' ACR), RM cells moving in slow
// motion, and a paused RM cell's journey; in presentation mode too, and full screen.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { openLab, repoRoot, status, waitForMode } from './helpers';

const shots = resolve(repoRoot, 'test-results/screens');
mkdirSync(shots, { recursive: true });

/** The RM-cell markers on screen: cell id, phase, position in the flow's coordinates, and its
 *  label (in the label layer over the markers: '' when it has none). */
const markers = (page: Page) =>
  page.locator('[data-testid="rm-cell"]').evaluateAll((els) =>
    els
      .filter((e) => (e as SVGGElement).style.display !== 'none')
      .map((e) => {
        const g = e as SVGGElement;
        const label = [...document.querySelectorAll<SVGTextElement>('[data-testid="rm-label"]')].find((t) => t.style.display !== 'none' && t.dataset.cell === g.dataset.cell);
        // Whether a click at its middle reaches it (a cell entering a switch is under its card).
        const box = (g.firstElementChild ?? g).getBoundingClientRect();
        const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        const clickable = !!top && g.contains(top);
        return { id: g.dataset.cell!, cls: g.getAttribute('class')!, x: Number(g.dataset.x), y: Number(g.dataset.y), label: label?.textContent ?? '', clickable };
      }),
  );

/**
 * Steps the paused run and waits until the step is done and drawn: paused at a later time, the
 * view's clock showing it. (Waiting for 'paused' alone returns at once, before the worker has
 * heard of the step; markers read then are the old time's, and the drawing changes under the
 * next click.)
 */
async function step(page: Page, { holdingMouse = false } = {}) {
  const before = (await status(page))!.nowMs;
  // With a mouse button held down, the click is sent to the button without moving the mouse.
  if (holdingMouse) await page.getByTestId('step').dispatchEvent('click');
  else await page.getByTestId('step').click();
  await expect.poll(async () => {
    const s = await status(page);
    return s?.mode === 'paused' && s.nowMs > before ? s.nowMs : null;
  }).not.toBeNull();
  const nowMs = (await status(page))!.nowMs;
  await expect(page.getByTestId('nv-clock')).toHaveText(`t = ${nowMs.toFixed(3)} ms`);
}

/** two-sources in the Network view, slow motion (the trace on), run to 1 ms and paused there. */
async function pausedInSlowMotionAt1ms(page: Page) {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('view-network').click();
  await page.getByTestId('nv-slow').click();
  await page.getByTestId('until-ms').fill('1');
  await page.getByTestId('run-until').click();
  await expect(page.getByTestId('nv-clock')).toHaveText('t = 1.000 ms');
  await waitForMode(page, 'paused');
  return errors;
}

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
          }
          // The labels, in their layer over the markers, each naming a cell drawn.
          for (const t of document.querySelectorAll<SVGTextElement>('[data-testid="rm-label"]')) {
            if (t.style.display === 'none') continue;
            const marker = document.querySelector<SVGGElement>(`[data-testid="rm-cell"][data-cell="${t.dataset.cell}"]`);
            labels.add(marker && marker.style.display !== 'none' ? (t.textContent ?? '') : `no marker for ${t.dataset.cell}`);
          }
          if (performance.now() - t0 < 4000) requestAnimationFrame(tick);
          else done({ frames, phases: [...phases].sort(), moves, labels: [...labels] });
        };
        requestAnimationFrame(tick);
      }),
  );
  expect(watched.phases).toEqual(['nv-rm-backward', 'nv-rm-forward']);
  expect(watched.moves).toBeGreaterThan(5);
  // Labelled with their ER (Mbps), but for a cell whose label would cover another's.
  const shownLabels = watched.labels.filter(Boolean);
  expect(shownLabels.length).toBeGreaterThan(0);
  for (const l of shownLabels) expect(l).toMatch(/^\d+\.\d+$/);
  const overlapping = await page.evaluate(() => {
    const boxes = [...document.querySelectorAll<SVGTextElement>('[data-testid="rm-label"]')]
      .filter((t) => t.style.display !== 'none' && t.textContent)
      .map((t) => t.getBoundingClientRect());
    return boxes.filter((a, i) => boxes.some((b, k) => k > i && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)).length;
  });
  expect(overlapping).toBe(0);
  await page.screenshot({ path: resolve(shots, 'network-playing.png'), fullPage: true });

  // The links and queues follow the run: SW1->SW2 carries both sources, its utilisation shows.
  await expect.poll(async () => Number(await page.getByTestId('nv-lane-SW1->SW2').getAttribute('data-util')), { timeout: 20_000 }).toBeGreaterThan(5);
  await expect(page.getByTestId('nv-acr-C1')).toContainText('Mbps');

  // Pause, bring a backward cell into view, and click it: its fields and journey.
  await page.getByTestId('play').click();
  await waitForMode(page, 'paused');
  // Step 10 µs at a time until a backward cell is on screen.
  await page.getByTestId('step-ms').fill('0.01');
  for (let i = 0; i < 60 && !(await markers(page)).some((m) => m.cls.includes('nv-rm-backward') && m.clickable); i++) await step(page);
  const paused = (await markers(page)).filter((m) => m.clickable);
  expect(paused.length).toBeGreaterThan(0);
  const pick = paused.find((m) => m.cls.includes('nv-rm-backward')) ?? paused[0];
  await page.locator(`[data-cell="${pick.id}"] > g`).click({ force: true });
  const panel = page.getByTestId('nv-cell');
  await expect(panel).toHaveAttribute('data-cell', pick.id);
  await expect(panel.locator('[data-name="dir"]')).toContainText(/DIR = [01]/);
  await expect(panel.locator('[data-name="ccr"]')).toContainText('Mbps');
  const journey = panel.getByTestId('nv-journey');
  await expect(journey.locator('li').first()).toContainText('sent by S');
  if (pick.cls.includes('nv-rm-backward')) {
    await expect(panel.getByTestId('nv-journey-summary')).toContainText(/Turned around at D[12]/);
    // Past SW2 on its way back, ERICA there has lowered its ER; before, nothing has yet.
    const pastSw2 = await journey.locator('li.done[data-direction="backward"][data-node="SW2"]').count();
    await expect(panel.getByTestId('nv-journey-summary')).toContainText(pastSw2 ? 'ER lowered at SW2 by ERICA' : 'ER not lowered on its way');
  }
  await page.screenshot({ path: resolve(shots, 'network-journey.png'), fullPage: true });
  // The view, its cells and the journey pass axe: no serious or critical violation.
  const { violations } = await new AxeBuilder({ page }).include('[data-testid="network-view"]').analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`)).toEqual([]);
  expect(errors).toEqual([]);
});

test('on a 1280 × 720 laptop the drawing of a small network reads at 9 px or more, its ACR lines inside the canvas', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('until-ms').fill('5');
  await page.getByTestId('run-until').click();
  await waitForMode(page, 'paused');
  await page.getByTestId('view-network').click();
  const canvas = (await page.getByTestId('nv-canvas').boundingBox())!;
  // The type as drawn: its size in the flow times the canvas's zoom.
  const drawnPx = (sel: string) =>
    page.locator(sel).first().evaluate((el) => {
      const zoom = new DOMMatrix(getComputedStyle(el.closest('.react-flow__viewport')!).transform).a;
      return parseFloat(getComputedStyle(el).fontSize) * zoom;
    });
  await expect.poll(() => drawnPx('.nv-switch .nv-qtext')).toBeGreaterThanOrEqual(9);
  expect(await drawnPx('.nv-end-id')).toBeGreaterThanOrEqual(9);
  for (const c of ['C1', 'C2']) {
    const acr = (await page.getByTestId(`nv-acr-${c}`).boundingBox())!;
    expect(acr.x, c).toBeGreaterThanOrEqual(canvas.x);
    expect(acr.x + acr.width, c).toBeLessThanOrEqual(canvas.x + canvas.width);
  }
  expect(errors).toEqual([]);
});

test("vpc-abr: a virtual path's RM cell is drawn and named as the path's, carried under its first member", async ({ page }) => {
  const errors = await openLab(page, '/?scenario=vpc-abr');
  await page.getByTestId('view-network').click();
  await page.getByTestId('nv-slow').click();
  await page.getByTestId('until-ms').fill('2');
  await page.getByTestId('run-until').click();
  await waitForMode(page, 'paused');
  for (let i = 0; i < 60 && !(await markers(page)).some((m) => m.clickable); i++) await step(page);
  const [pick] = (await markers(page)).filter((m) => m.clickable);
  const vp = await page.locator(`[data-cell="${pick.id}"]`).getAttribute('data-vp');
  expect(vp).toMatch(/^VP[1-5]$/);
  const paths = JSON.parse((await page.evaluate(() => window.__abrlab!.scenario()))!).virtual_paths as { id: string; from: string; connections: string[] }[];
  const path = paths.find((p) => p.id === vp)!;
  const carrier = path.connections[0];
  await expect(page.locator(`[data-cell="${pick.id}"]`)).toHaveAttribute('aria-label', new RegExp(`RM cell of ${vp}\\b`));
  await page.locator(`[data-cell="${pick.id}"] > g`).click({ force: true });
  const panel = page.getByTestId('nv-cell');
  await expect(panel).toHaveAttribute('data-cell', pick.id);
  await expect(panel.locator('.nv-cell-head')).toContainText(`${vp} · RM cell #`);
  await expect(panel.locator('.nv-cell-head')).toContainText(`(the virtual path's loop from ${path.from}, carried under ${carrier})`);
  await expect(panel.getByTestId('nv-journey').locator('li').first()).toContainText(`sent by`);
  await page.screenshot({ path: resolve(shots, 'network-vp-cell.png'), fullPage: true });
  expect(errors).toEqual([]);
});

test('presentation mode: the Network view full screen, in large type; gfc1 with ERICA+ target-queue marks', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=gfc1&present=1');
  await page.getByTestId('view-network').click();
  // The cards name their switches alone (18 px type): the algorithm is said above the drawing.
  await expect(page.getByTestId('nv-algorithms')).toHaveText('Switches: ERICA+');
  await expect(page.getByTestId('nv-algorithm-SW3')).toBeHidden();
  // ERICA+'s target queue is marked on each port's bar.
  await expect(page.getByTestId('nv-port-SW1->SW2').locator('[data-mark="target_delay_us"]')).toHaveCount(1);
  await page.getByTestId('lesson-stops').uncheck(); // gfc1's lesson would pause at its first step (10 ms)
  await page.getByTestId('play').click();
  await expect.poll(async () => (await status(page))?.nowMs ?? 0).toBeGreaterThan(20);
  // SW2's six ports toward destinations share one row: the largest of their queues. A click
  // shows them one by one (the same largest among them), and the card folds them again.
  await page.getByTestId('play').click();
  await waitForMode(page, 'paused');
  const group = page.getByTestId('nv-group-SW2->DD1–DD6');
  // (Its count, which 18 px type leaves no room for on the line, in its tooltip.)
  await expect(group.locator('.nv-port-to')).toHaveText(/^→ DD1–(DD)?6( \(6\))?$/);
  await expect(group.locator('.nv-port-to')).toHaveAttribute('title', 'DD1–DD6 (6)');
  await expect(page.getByTestId('nv-port-SW2->DD3')).toHaveCount(0);
  // Presenting, the number alone (the legend gives the unit, and says a group's is the largest).
  await expect(group.getByTestId('nv-queue-SW2->DD1–DD6')).toHaveText(/^\d+(\.\d)?$/);
  await expect(page.getByTestId('nv-legend')).toContainText('queue (cells; several destinations: the largest)');
  // The buffer on demand: in the number's tooltip.
  await expect(group.getByTestId('nv-queue-SW2->DD1–DD6')).toHaveAttribute('title', /^max \d+(\.\d)? \/ 1000 cells \(largest queue \/ buffer\)$/);
  const largest = Number(await group.getByTestId('nv-queue-SW2->DD1–DD6').getAttribute('data-queue'));
  await group.click();
  await expect(page.getByTestId('nv-port-SW2->DD3')).toBeVisible();
  const each = await Promise.all(
    ['DD1', 'DD2', 'DD3', 'DD4', 'DD5', 'DD6'].map(async (d) => Number(await page.getByTestId(`nv-queue-SW2->${d}`).getAttribute('data-queue'))),
  );
  expect(Math.max(...each)).toBe(largest);
  await page.getByTestId('nv-collapse-SW2').click();
  await expect(page.getByTestId('nv-port-SW2->DD3')).toHaveCount(0);
  await expect(group).toBeVisible();
  await page.getByTestId('play').click();
  // GFC-1's sources crowd: their ACRs are on the rate chart, which full screen hides.
  await expect(page.getByTestId('nv-unlabelled')).toContainText('see the rate chart below');
  await page.getByTestId('nv-full-screen').click();
  await expect(page.getByTestId('network-view')).not.toHaveAttribute('data-full', 'no');
  await expect(page.getByTestId('nv-unlabelled')).toContainText('leave full screen for the rate chart');
  await page.waitForTimeout(300);
  await page.screenshot({ path: resolve(shots, 'network-present-fullscreen.png') });
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('network-view')).toHaveAttribute('data-full', 'no');
  expect(errors).toEqual([]);
});

test('qcn-hotspot (Ethernet): a QCN congestion notification on its way (no rate-discovery frames: no FECN switch), and what it carried', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=qcn-hotspot');
  await page.getByTestId('view-network').click();
  await expect(page.getByTestId('nv-node-SW1')).toContainText('QCN');
  await expect(page.getByTestId('nv-legend')).toContainText('QCN congestion notification');
  // Slow motion records the trace; run to a moment when SW1's first notification to F3's host
  // is on its way (the engine's trace: sent at 5.0724 ms, one hop of 5.2 µs).
  await page.getByTestId('nv-slow').click();
  await page.getByTestId('until-ms').fill('5.0745');
  await page.getByTestId('run-until').click();
  await expect.poll(async () => (await status(page))?.nowMs ?? 0).toBeGreaterThan(5.074);
  await waitForMode(page, 'paused');
  const notes = async () => (await markers(page)).filter((m) => m.cls.includes('nv-rm-notification'));
  await expect.poll(async () => (await notes()).length).toBeGreaterThan(0);
  const note = await notes();
  // On its way back to EP3 from when it was sent, at the network's pace (the 4 µs link and one
  // frame's 1.2 µs; no notification to F3 had made the hop before): about 40 % along its lane at
  // 5.0745 ms. QA: the first notifications waited at SW1 for the whole hop and then vanished.
  expect(note.map((n) => n.id)).toEqual([expect.stringMatching(/^F3\/0@SW1@/)]);
  const [ax, ay, bx, by] = (await page.getByTestId('nv-lane-SW1->EP3').getAttribute('d'))!.match(/-?[\d.]+/g)!.map(Number);
  const along = ((note[0].x - ax) * (bx - ax) + (note[0].y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2);
  const off = Math.abs((note[0].x - ax) * (by - ay) - (note[0].y - ay) * (bx - ax)) / Math.hypot(bx - ax, by - ay);
  expect(off).toBeLessThan(1);
  const shownUs = (await status(page))!.nowMs * 1000;
  expect(along).toBeCloseTo((shownUs - 5072.4) / 5.2, 1);
  await page.screenshot({ path: resolve(shots, 'network-qcn.png') });
  await page.locator(`[data-cell="${note[0].id}"] > g`).click({ force: true });
  const panel = page.getByTestId('nv-cell');
  await expect(panel.locator('[data-name="dir"]')).toHaveText('congestion notification');
  await expect(panel.getByTestId('nv-journey').locator('li').first()).toContainText('sent by switch SW1 (feedback');
  // In Ethernet's words (QA: the view spoke ATM): a notification's |Fb|, no ER, CCR or CI/NI/BN;
  // hosts' rate limits and links in Gbps, as the charts and the event log give them.
  const flow = (await page.locator(`[data-testid="rm-cell"][data-cell="${note[0].id}"]`).getAttribute('data-connection'))!;
  await expect(panel.locator('.nv-cell-head')).toContainText(`${flow} · QCN congestion notification #`);
  await expect(panel.locator('[data-name="feedback"]')).toHaveText(/^\|Fb\| \d+$/);
  await expect(panel.getByTestId('nv-cell-fields').locator('dt')).toHaveText(['direction', 'feedback']);
  await expect(panel.getByTestId('nv-journey-summary')).not.toContainText('ER');
  await expect(page.locator(`[data-testid="rm-cell"][data-cell="${note[0].id}"]`)).toHaveAttribute('aria-label', new RegExp(`^QCN congestion notification for ${flow}, feedback \\|Fb\\| \\d+$`));
  await expect(page.getByTestId('nv-acr-F0')).toHaveText(/^F0 rate limit \d+\.\d\d Gbps$/);
  await expect(page.getByTestId('nv-lane-EP0->SW1').locator('title')).toHaveText('EP0->SW1 (L0, 10 Gbps)');
  await expect(page.getByTestId('nv-rm-note')).toHaveText(/^QCN notifications move along the links/);
  const legend = page.getByTestId('nv-legend');
  await expect(legend).not.toContainText('rate-discovery');
  await expect(legend).not.toContainText('ER');
  await expect(legend).not.toContainText('Mbps');
  expect(errors).toEqual([]);
});

test('paused, an event picked in the log moves the Network view to its time', async ({ page }) => {
  const errors = await pausedInSlowMotionAt1ms(page);
  await page.getByTestId('view-rmlog').click();
  // An SW2 backward event: the cell is at SW2 at that time, on its way back.
  await page.getByTestId('rmlog-node').selectOption('SW2');
  await page.getByTestId('rmlog-direction').selectOption('backward');
  const row = page.getByTestId('rmlog-row').nth(1);
  const tUs = Number(await row.getAttribute('data-time-us'));
  await row.click();
  await expect(page.getByTestId('nv-clock')).toHaveText(`t = ${(tUs / 1000).toFixed(3)} ms`);
  await expect.poll(async () => (await markers(page)).filter((m) => m.cls.includes('nv-rm-backward')).length).toBeGreaterThan(0);
  expect(errors).toEqual([]);
});

/** The ACR (Mbps) a connection's label in the Network view shows. */
const acrShown = async (page: Page, connection: string) => Number(/([\d.]+) Mbps/.exec((await page.getByTestId(`nv-acr-${connection}`).textContent())!)?.[1]);

/** The ACR a backward RM cell last left `source` at, as the event log tells it (its newest `received` row); the log's filter is left on `node` and `direction`. */
async function acrFromLog(page: Page, source: string, restore: { node: string; direction: string }) {
  await page.getByTestId('rmlog-node').selectOption(source);
  await page.getByTestId('rmlog-direction').selectOption('received');
  const acr = (await page.getByTestId('rmlog-row').first().locator('span').nth(9).textContent())!;
  await page.getByTestId('rmlog-node').selectOption(restore.node);
  await page.getByTestId('rmlog-direction').selectOption(restore.direction);
  return Number(acr.split('→')[1]);
}

/** The event picked in the log: its time (µs), connection and RM sequence number. */
async function pickedEvent(page: Page) {
  const row = page.locator('[data-testid="rmlog-row"][aria-pressed="true"]');
  await expect(row).toBeVisible();
  const spans = await row.locator('span').allTextContents();
  return { us: Number(await row.getAttribute('data-time-us')), connection: spans[1], seq: spans[2], node: spans[3], direction: spans[4] };
}

/** Asks for the next RM event (the log's filter) and waits until the run pauses at it, picked. */
async function nextRmEvent(page: Page, after: number) {
  await page.getByTestId('rmlog-next').click();
  await expect.poll(async () => {
    const s = await status(page);
    return s?.mode === 'paused' && s.nowMs > after;
  }).toBe(true);
  const at = (await status(page))!.nowMs;
  await expect.poll(async () => (await pickedEvent(page)).us / 1000).toBeCloseTo(at, 6);
  return pickedEvent(page);
}

// QA: once an event had been picked (Next RM event), Step moved the run but not the Network
// view: its clock stayed at the event's 0.008 ms and S1's label at its ACR then (25.00, not
// 139.97), while the cells were drawn from the records the steps brought. The view follows the
// run when it moves (Step, Run to, another Next RM event); a pick made while it stands still
// shows the time picked. (The samples come every 500 µs: between two, a source's ACR is the one
// the trace tells.)
test('after an event is picked in the log, Step and Run to move the Network view with the run; a pick while paused shows its time', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources-staggered');
  await page.getByTestId('view-rmlog').click();
  await page.getByTestId('rmlog-node').selectOption('SW1');
  await page.getByTestId('rmlog-direction').selectOption('forward');
  const first = await nextRmEvent(page, 0);
  await page.getByTestId('view-network').click();
  const clock = page.getByTestId('nv-clock');
  await expect(clock).toHaveText(`t = ${(first.us / 1000).toFixed(3)} ms`);

  // Three steps: the clock, the ACR labels and the cells at the run's time (`step` checks the clock).
  await page.getByTestId('step-ms').fill('0.05');
  for (let i = 0; i < 3; i++) await step(page);
  expect((await status(page))!.nowMs).toBeGreaterThan(0.15);
  const acr = await acrFromLog(page, 'S1', { node: 'SW1', direction: 'forward' });
  expect(acr).toBeGreaterThan(100);
  expect(await acrShown(page, 'C1')).toBeCloseTo(acr, 2);

  // Paused, an earlier event picked in the log: the view goes to its time and stays there.
  const row = page.getByTestId('rmlog-row').last();
  const tUs = Number(await row.getAttribute('data-time-us'));
  await row.click();
  await expect(clock).toHaveText(`t = ${(tUs / 1000).toFixed(3)} ms`);
  await expect.poll(() => acrShown(page, 'C1')).toBeCloseTo(25, 2);
  await page.waitForTimeout(300);
  await expect(clock).toHaveText(`t = ${(tUs / 1000).toFixed(3)} ms`);

  // Run to: the run's time again.
  await page.getByTestId('until-ms').fill('0.5');
  await page.getByTestId('run-until').click();
  await expect(clock).toHaveText('t = 0.500 ms');
  await waitForMode(page, 'paused');
  // Another Next RM event: the event found.
  const next = await nextRmEvent(page, 0.5);
  await expect(clock).toHaveText(`t = ${(next.us / 1000).toFixed(3)} ms`);
  await step(page);
  expect(errors).toEqual([]);
});

// QA: with the trace recorded from mid-run, the first events picked at SW1 (backward) drew no
// cell: a cell first seen there, with no record after it yet and no earlier cell's hop from
// there to follow, was placed nowhere.
test('recording from mid-run, each event picked with Next RM event has its cell drawn at its node', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=parking-lot-3');
  await page.getByTestId('until-ms').fill('20');
  await page.getByTestId('run-until').click();
  await expect.poll(async () => (await status(page))?.nowMs).toBe(20);
  await waitForMode(page, 'paused');
  await page.getByTestId('view-rmlog').click();
  await page.getByTestId('rmlog-node').selectOption('SW1');
  await page.getByTestId('rmlog-direction').selectOption('backward');
  await page.getByTestId('view-network').click();
  let after = 20;
  for (let i = 0; i < 4; i++) {
    const picked = await nextRmEvent(page, after);
    after = picked.us / 1000;
    await expect(page.getByTestId('nv-clock')).toHaveText(`t = ${after.toFixed(3)} ms`);
    const ofPicked = async () => (await markers(page)).filter((m) => m.id.startsWith(`${picked.connection}/${picked.seq}@`) && m.cls.includes('nv-rm-backward'));
    await expect.poll(async () => (await ofPicked()).length, { message: `the cell of the event at ${after} ms` }).toBe(1);
    // At its node: the marker's middle on SW1's card or at its edge.
    const [m] = await ofPicked();
    const near = await page.evaluate(
      ([id]) => {
        const g = document.querySelector<SVGGElement>(`[data-cell="${id}"]`)!.firstElementChild!.getBoundingClientRect();
        const n = document.querySelector('[data-testid="nv-node-SW1"]')!.getBoundingClientRect();
        const [x, y] = [g.left + g.width / 2, g.top + g.height / 2];
        return Math.max(n.left - x, x - n.right, n.top - y, y - n.bottom, 0);
      },
      [m.id],
    );
    expect(near).toBeLessThan(20);
  }
  await page.getByTestId('network-view').screenshot({ path: resolve(shots, 'network-picked-mid-run.png') });
  expect(errors).toEqual([]);
});

test('paused, a click on a switch port in the Network view opens its explanation in the side panel (shown if hidden); full screen, beside the drawing without leaving it', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('view-network').click();
  await page.getByTestId('until-ms').fill('5');
  await page.getByTestId('run-until').click();
  await waitForMode(page, 'paused');
  await expect(page.getByTestId('tab-lesson')).toHaveAttribute('aria-selected', 'true');

  // From the page, with the side panel hidden (\\): SW2's port toward D1.
  await page.keyboard.press('\\');
  await expect(page.getByTestId('lesson')).toHaveCount(0);
  await page.getByTestId('nv-port-SW2->D1').click();
  await expect(page.getByTestId('lesson')).toBeVisible();
  await expect(page.getByTestId('tab-switches')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('switch-picker')).toHaveValue('SW2');
  const explain = page.getByTestId('lesson').getByTestId('switch-explain');
  await expect(explain.getByTestId('explain-port')).toHaveValue('SW2->D1');
  await expect(explain.getByTestId('explain-head')).toHaveText('ERICA at SW2->D1, t = 5.000 ms');
  await page.screenshot({ path: resolve(shots, 'network-port-explain.png'), fullPage: true });

  // Full screen, by keyboard: the view stays full screen and explains SW1's port over the drawing.
  const view = page.getByTestId('network-view');
  await page.getByTestId('step-ms').fill('1');
  await page.getByTestId('nv-full-screen').click();
  await expect(view).not.toHaveAttribute('data-full', 'no');
  // Named by its port and queue for a screen reader (QA: "→ SW2 —", the switch unsaid).
  await expect(page.getByTestId('nv-port-SW1->SW2')).toHaveAccessibleName(/^Port SW1->SW2, queue \S/);
  await page.getByTestId('nv-port-SW1->SW2').focus();
  await page.keyboard.press('Enter');
  const over = page.getByTestId('nv-explain');
  await expect(over).toBeVisible();
  await expect(view).not.toHaveAttribute('data-full', 'no');
  await expect(over.getByTestId('explain-port')).toHaveValue('SW1->SW2');
  await expect(over.getByTestId('explain-head')).toHaveText('ERICA at SW1->SW2, t = 5.000 ms');
  await expect(over.locator('[data-name="fair_share_mbps"] dd')).toContainText('Mbps');
  // It sits beside the drawing, inside the full-screen view, and the drawing fits what is left:
  // SW2's ports stay clear of it.
  const o = (await over.boundingBox())!;
  const c = (await page.getByTestId('nv-canvas').boundingBox())!;
  expect(o.x).toBeGreaterThanOrEqual(c.x + c.width - 1);
  expect(o.x + o.width).toBeLessThanOrEqual((await view.boundingBox())!.x + (await view.boundingBox())!.width + 1);
  await expect.poll(async () => {
    const p = (await page.getByTestId('nv-port-SW2->D2').boundingBox())!;
    return p.x + p.width <= c.x + c.width;
  }).toBe(true);
  // A step refreshes it; a click on another switch's port moves it there. (The toolbar is
  // outside the view: with the browser's full screen it is not on screen, so the click is sent.)
  await page.getByTestId('step').dispatchEvent('click');
  await waitForMode(page, 'paused');
  await expect(over.getByTestId('explain-head')).toHaveText('ERICA at SW1->SW2, t = 6.000 ms');
  await page.screenshot({ path: resolve(shots, 'network-full-screen-explain.png') });
  const { violations } = await new AxeBuilder({ page }).include('[data-testid="network-view"]').analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await page.getByTestId('nv-port-SW2->D2').click();
  await expect(over.getByTestId('explain-head')).toHaveText('ERICA at SW2->D2, t = 6.000 ms');
  await expect(view).not.toHaveAttribute('data-full', 'no');
  // Closed, then full screen left: the side panel explains what it did, at the time shown.
  await page.getByTestId('nv-explain-close').click();
  await expect(over).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(view).toHaveAttribute('data-full', 'no');
  await expect(explain.getByTestId('explain-head')).toHaveText('ERICA at SW2->D1, t = 6.000 ms');
  // Esc with the explanation open leaves full screen and closes it; the side panel goes on
  // with the port it explained.
  await page.getByTestId('nv-full-screen').click();
  await page.getByTestId('nv-port-SW1->SW2').click();
  await expect(over).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(view).toHaveAttribute('data-full', 'no');
  await expect(over).toHaveCount(0);
  await expect(explain.getByTestId('explain-head')).toHaveText('ERICA at SW1->SW2, t = 6.000 ms');

  // Hidden and shown again, the panel is back where the reader left it, not pulled to a port.
  await page.getByTestId('tab-lesson').click();
  await page.keyboard.press('\\');
  await page.keyboard.press('\\');
  await expect(page.getByTestId('tab-lesson')).toHaveAttribute('aria-selected', 'true');
  expect(errors).toEqual([]);
});

test("presentation mode: the sources' ACR lines fit in the drawing (they hang wider than the source), each on the side its link does not leave by", async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources&present=1');
  await page.getByTestId('view-network').click();
  await page.getByTestId('until-ms').fill('5');
  await page.getByTestId('run-until').click();
  await waitForMode(page, 'paused');
  await expect(page.getByTestId('nv-acr-C1')).toContainText('Mbps');
  const canvas = (await page.getByTestId('nv-canvas').boundingBox())!;
  for (const c of ['C1', 'C2']) {
    const b = (await page.getByTestId(`nv-acr-${c}`).boundingBox())!;
    expect(b.x, `${c}'s ACR line starts inside the drawing`).toBeGreaterThanOrEqual(canvas.x);
    expect(b.x + b.width, `${c}'s ACR line ends inside the drawing`).toBeLessThanOrEqual(canvas.x + canvas.width);
  }
  // Each source's lines hang on the side its link does not leave by, clear of the link: S1's
  // above it (its link heads down to SW1), S2's below it.
  const box = async (id: string) => (await page.getByTestId(id).boundingBox())!;
  const [s1, s2, info1, info2] = await Promise.all(['nv-node-S1', 'nv-node-S2', 'nv-info-S1', 'nv-info-S2'].map(box));
  expect(info1.y + info1.height, "S1's ACR line above its circle").toBeLessThanOrEqual(s1.y);
  expect(info2.y, "S2's ACR line below its circle").toBeGreaterThanOrEqual(s2.y + s2.height);
  expect(errors).toEqual([]);
});

test('paused, an RM cell is reached with Tab and opened with Enter (or Space, which does not play)', async ({ page }) => {
  const errors = await pausedInSlowMotionAt1ms(page);
  // On a LAN a cell is on a link for microseconds: step 10 µs at a time until some are.
  await page.getByTestId('step-ms').fill('0.01');
  for (let i = 0; i < 60 && (await markers(page)).length < 2; i++) await step(page);
  expect((await markers(page)).length).toBeGreaterThan(0);

  // From the view's last button, Tab comes to a cell; it says what it is.
  await page.getByTestId('nv-full-screen').focus();
  let name: string | null = null;
  for (let i = 0; i < 30 && name === null; i++) {
    await page.keyboard.press('Tab');
    name = await page.evaluate(() => (document.activeElement?.getAttribute('data-testid') === 'rm-cell' ? document.activeElement.getAttribute('aria-label') : null));
  }
  expect(name).toMatch(/^(Forward|Backward) RM cell of C[12](, ER \d+\.\d+ Mbps)?$/);
  await page.keyboard.press('Enter');
  const panel = page.getByTestId('nv-cell');
  await expect(panel).toBeVisible();
  await expect(panel.locator('[data-name="dir"]')).toContainText(/DIR = [01]/);
  const picked = await page.evaluate(() => (document.activeElement as SVGGElement).dataset.cell);
  expect(await page.locator('[data-testid="rm-cell"].picked').getAttribute('data-cell')).toBe(picked);

  // Space on another cell picks that one, and the run stays paused.
  const other = (await markers(page)).find((m) => m.id !== picked);
  if (other) {
    await page.locator(`[data-testid="rm-cell"][data-cell="${other.id}"]`).focus();
    await page.keyboard.press('Space');
    await expect(page.locator('[data-testid="rm-cell"].picked')).toHaveAttribute('data-cell', other.id);
  }
  await page.waitForTimeout(300);
  expect((await status(page))!.mode).toBe('paused');
  expect(errors).toEqual([]);
});

test('on a 1400 × 900 screen a picked RM cell brings its journey into view (it opens below the drawing)', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  const errors = await pausedInSlowMotionAt1ms(page);
  await page.getByTestId('step-ms').fill('0.01');
  for (let i = 0; i < 60 && !(await markers(page)).some((m) => m.clickable); i++) await step(page);
  const pick = (await markers(page)).find((m) => m.clickable)!;
  expect(pick).toBeTruthy();
  // Clicked where it is on screen (a locator's click would scroll the page itself): the panel
  // opens below the drawing, off screen but for its heading.
  const box = (await page.locator(`[data-cell="${pick.id}"] > g`).first().boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  const panel = page.getByTestId('nv-cell');
  await expect(panel).toHaveAttribute('data-cell', pick.id);
  await expect(panel.getByTestId('nv-journey')).toBeInViewport({ ratio: 0.5 });
  await expect(panel.locator('.nv-cell-head')).toBeInViewport();
  await page.screenshot({ path: resolve(shots, 'network-journey-1400x900.png') });
  expect(errors).toEqual([]);
});

// Markers are pooled: each frame gives the i-th cell drawn the i-th marker, so when the drawing
// changes between a press and its release (the run plays or steps), the marker under the pointer
// may be another cell's, or there is none. The cell opened is the one pressed, as when a moving
// cell is clicked in slow motion.
test('a marker pressed while the drawing changes (the run steps before the release) opens the cell pressed', async ({ page }) => {
  const errors = await pausedInSlowMotionAt1ms(page);
  await page.getByTestId('step-ms').fill('0.01');
  for (let i = 0; i < 60 && !(await markers(page)).some((m) => m.clickable); i++) await step(page);
  const [pressed] = (await markers(page)).filter((m) => m.clickable);
  const at = await page.locator(`[data-cell="${pressed.id}"] > g`).evaluate((shape) => {
    const b = shape.getBoundingClientRect();
    return { x: b.left + b.width / 2, y: b.top + b.height / 2 };
  });
  const under = () => page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest<SVGGElement>('[data-cell]')?.dataset.cell ?? null, at);
  expect(await under()).toBe(pressed.id);
  await page.mouse.move(at.x, at.y);
  await page.mouse.down();
  // The run steps with the button held: under the pointer now is another cell's marker, or none.
  await step(page, { holdingMouse: true });
  expect(await under()).not.toBe(pressed.id);
  await page.mouse.up();
  await expect(page.getByTestId('nv-cell')).toHaveAttribute('data-cell', pressed.id);
  expect(errors).toEqual([]);
});

// The pooling again, by keyboard: a marker reached with Tab keeps its cell while the run goes on.
// A cell setting out is drawn first and used to move every other cell to the next marker, so the
// focus (and Enter) went to a neighbour between two frames.
test('a marker focused with Tab keeps its cell while the run steps on (a cell sets out), and Enter opens that cell', async ({ page }) => {
  const errors = await pausedInSlowMotionAt1ms(page);
  await page.getByTestId('step-ms').fill('0.005');
  for (let i = 0; i < 120 && (await markers(page)).length === 0; i++) await step(page);
  const focusedCell = () => page.evaluate(() => (document.activeElement?.getAttribute('data-testid') === 'rm-cell' ? (document.activeElement as SVGGElement).dataset.cell! : null));
  /** Tab from the view's last button to the first marker: the newest cell's, the longest under way. */
  const tabToMarker = async () => {
    await page.getByTestId('nv-full-screen').focus();
    for (let i = 0; i < 30 && (await focusedCell()) === null; i++) await page.keyboard.press('Tab');
    const id = await focusedCell();
    expect(id).not.toBeNull();
    return id!;
  };
  let focused = await tabToMarker();
  let seen = new Set((await markers(page)).map((m) => m.id));
  let setOut = false;
  // Step (the step button clicked by an event: the focus stays on the marker) until a cell sets
  // out while the one focused is still drawn; one whose journey ends first hands over to the newest.
  for (let i = 0; i < 200 && !setOut; i++) {
    await step(page, { holdingMouse: true });
    const now = await markers(page);
    if (!now.some((m) => m.id === focused)) {
      // A screen reader hears it: the focused marker's cell is no longer drawn.
      await expect(page.getByTestId('nv-announcer')).toContainText('no longer drawn.');
      if (now.length === 0) continue;
      focused = await tabToMarker();
      seen = new Set(now.map((m) => m.id));
      continue;
    }
    setOut = now.some((m) => !seen.has(m.id));
    for (const m of now) seen.add(m.id);
  }
  expect(setOut).toBe(true);
  expect(await focusedCell()).toBe(focused);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('nv-cell')).toHaveAttribute('data-cell', focused);
  await expect(page.locator('[data-testid="rm-cell"].picked')).toHaveAttribute('data-cell', focused);
  await page.getByTestId('network-view').screenshot({ path: resolve(shots, 'network-keyboard-focus-kept.png') });
  expect(errors).toEqual([]);
});

test("presentation mode, the narrowest side panel: each explanation value keeps its unit on one line, and gfc1's per-VC table scrolls with its labels in view", async ({ page }) => {
  const errors = await openLab(page, '/?scenario=gfc1&present=1');
  // gfc1's lesson has steps at 10 and 20 ms: a stop there would bring the Lesson tab up over
  // the Switches tab clicked below.
  await page.getByTestId('lesson-stops').uncheck();
  await page.getByTestId('until-ms').fill('20');
  await page.getByTestId('run-until').click();
  await waitForMode(page, 'paused');
  await page.getByTestId('tab-switches').click();
  const explain = page.getByTestId('lesson').getByTestId('switch-explain');
  await expect(explain.getByTestId('explain-head')).toHaveText('ERICA+ at SW1->SW2, t = 20.000 ms');
  const panel = (await page.getByTestId('lesson').boundingBox())!;
  expect(panel.width).toBeLessThanOrEqual(342); // the side panel at its narrowest
  // Each value (with its unit) on one line, right-aligned, inside the panel.
  const values = await explain.locator('.explain-values dd:not(.explain-note)').evaluateAll((dds) =>
    dds.map((dd) => {
      const range = document.createRange();
      range.selectNodeContents(dd);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      const box = dd.getBoundingClientRect();
      const row = dd.parentElement!.getBoundingClientRect();
      return { text: dd.textContent, lines, rightGap: Math.round(row.right - box.right) };
    }),
  );
  expect(values.length).toBeGreaterThan(8);
  for (const v of values) {
    expect(v.lines, `${v.text} on one line`).toBe(1);
    expect(v.rightGap, `${v.text} right-aligned`).toBeLessThanOrEqual(1);
  }
  const rows = await explain.locator('.explain-values > div').evaluateAll((divs) => divs.map((d) => d.getBoundingClientRect().right));
  for (const right of rows) expect(right).toBeLessThanOrEqual(panel.x + panel.width);
  // The per-VC table: one line per number; it scrolls sideways (nine VCs), and scrolled, its row
  // labels stay in view.
  const cells = await explain.locator('.explain-vcs td').evaluateAll((tds) =>
    tds.map((td) => {
      const range = document.createRange();
      range.selectNodeContents(td);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    }),
  );
  expect(cells.length).toBeGreaterThan(9);
  expect(Math.max(...cells)).toBe(1);
  const wrap = explain.locator('.explain-vcs-wrap');
  expect((await wrap.boundingBox())!.width).toBeLessThanOrEqual(panel.width);
  const label = explain.locator('.explain-vcs th[scope="row"]').first();
  const before = (await label.boundingBox())!.x;
  await wrap.evaluate((w) => (w.scrollLeft = w.scrollWidth));
  expect(await wrap.evaluate((w) => w.scrollLeft)).toBeGreaterThan(0);
  expect((await label.boundingBox())!.x).toBeCloseTo(before, 0);
  await explain.scrollIntoViewIfNeeded();
  await page.getByTestId('lesson').screenshot({ path: resolve(shots, 'network-explain-narrow-present.png') });
  expect(errors).toEqual([]);
});

test("gfc1: end systems' names never overlap each other or a node (a crowd of sources is named once, SD1–SD6), on the page and presenting", async ({ page }) => {
  const errors = await openLab(page, '/?scenario=gfc1');
  await page.getByTestId('view-network').click();
  await page.getByTestId('until-ms').fill('20');
  await page.getByTestId('run-until').click();
  await waitForMode(page, 'paused');
  const clashes = () =>
    page.getByTestId('network-view').evaluate((view) => {
      const boxes = (sel: string) =>
        [...view.querySelectorAll<HTMLElement>(sel)].map((e) => ({ what: e.textContent ?? e.dataset.testid ?? '', r: e.getBoundingClientRect() }));
      const names = boxes('.nv-end-id, [data-testid="nv-group-name"]');
      const circles = boxes('.nv-end');
      const cross = (a: DOMRect, b: DOMRect) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
      const found: string[] = [];
      names.forEach((a, i) => {
        names.slice(i + 1).forEach((b) => cross(a.r, b.r) && found.push(`${a.what} × ${b.what}`));
        circles.forEach((c) => cross(a.r, c.r) && found.push(`${a.what} × circle`));
      });
      return { found, names: names.length };
    });
  for (const present of [false, true]) {
    if (present) await page.getByTestId('present').click();
    await expect.poll(async () => (await clashes()).found).toEqual([]);
    expect((await clashes()).names).toBeGreaterThan(10);
    await expect(page.getByTestId('nv-group-name').filter({ hasText: 'SD1–SD6' })).toBeVisible();
    // A name not drawn stays the node's text (screen readers) and its tooltip.
    await expect(page.getByTestId('nv-name-SD3')).toHaveText('SD3');
    await expect(page.getByTestId('nv-node-SD3')).toHaveAttribute('title', 'source SD3');
    await page.getByTestId('network-view').screenshot({ path: resolve(shots, `network-gfc1-names${present ? '-present' : ''}.png`) });
  }
  expect(errors).toEqual([]);
});

test('Network and Event log are toggle buttons, not tabs: outside the tablist, both on at once, each with a box ticked while on (QA: they looked like tabs)', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  const tabs = page.getByRole('tablist', { name: 'views' });
  await expect(tabs.getByRole('tab')).not.toHaveCount(0);
  const toggles = page.getByRole('group', { name: 'Show with the charts' });
  const network = toggles.getByRole('button', { name: 'Network' });
  const log = toggles.getByRole('button', { name: 'Event log' });
  await expect(tabs.getByRole('button')).toHaveCount(0);
  await expect(network).toHaveAttribute('aria-pressed', 'false');
  await network.click();
  await log.click();
  // Both on, and the Charts tab still the one selected.
  await expect(network).toHaveAttribute('aria-pressed', 'true');
  await expect(log).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('view-charts')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('network-view')).toBeVisible();
  await expect(page.getByTestId('rmlog')).toBeVisible();
  // The look of a toggle: a bordered button whose box is ticked while on; a tab has no border.
  const look = (el: Element) => ({ border: getComputedStyle(el).borderTopWidth, tick: getComputedStyle(el, '::before').content });
  expect(await network.evaluate(look)).toEqual({ border: '1px', tick: '"✓"' });
  await network.click();
  expect(await network.evaluate(look)).toEqual({ border: '1px', tick: '""' });
  expect(await page.getByTestId('view-charts').evaluate((el) => getComputedStyle(el).borderTopWidth)).toBe('0px');
  expect(errors).toEqual([]);
});

// QA: on a 1280 × 800 window core-edge's and gfc1's drawing read at 6–8 px, even presenting:
// the view fits them at half size. Names keep their type on screen, the cards grow as far as
// their neighbours allow, and no two cards (nor names) meet.
test('on a 1280 × 800 window the larger networks (core-edge, gfc1) read at 11 px or more, names larger presenting, cards apart', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  for (const id of ['core-edge', 'gfc1']) {
    const errors = await openLab(page, `/?scenario=${id}`);
    await page.getByTestId('view-network').click();
    for (const present of [false, true]) {
      if (present) await page.getByTestId('present').click();
      // The type as drawn: its size in the flow times every scale above it (zoom, card growth).
      const drawn = (sel: string) =>
        page.locator(`[data-testid="network-view"] ${sel}`).evaluateAll((els) =>
          els
            .filter((el) => !el.closest('.visually-hidden') && (el as HTMLElement).offsetHeight > 0)
            .map((el) => parseFloat(getComputedStyle(el).fontSize) * (el.getBoundingClientRect().height / (el as HTMLElement).offsetHeight)),
        );
      await expect.poll(async () => Math.min(...(await drawn('.nv-qtext'))), `${id} cards${present ? ', presenting' : ''}`).toBeGreaterThanOrEqual(10.9);
      const names = async () => [...(await drawn('.nv-end-id')), ...(await drawn('[data-testid="nv-group-name"]'))];
      await expect.poll(async () => (await names()).length).toBeGreaterThan(3);
      await expect.poll(async () => Math.min(...(await names())), `${id} names`).toBeGreaterThanOrEqual(present ? 15.5 : 11.5);
      const cards = await page.locator('[data-testid="network-view"] .nv-switch').evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ l: r.left, r: r.right, t: r.top, b: r.bottom })));
      cards.forEach((a, i) =>
        cards.slice(i + 1).forEach((b) => expect(a.l < b.r && b.l < a.r && a.t < b.b && b.t < a.b, `${id}: two cards meet`).toBe(false)),
      );
      // QA: gfc1's cards, 150 px wide for "max 0 / 1000 cells", left 6 px between them beside the
      // side panel: the lanes, and the cells on them, hidden. Cards as wide as "max 1000 cells"
      // leave some 30 px (27 presenting).
      if (id === 'gfc1') {
        const gaps = cards.flatMap((a, i) => cards.slice(i + 1).flatMap((b) => (a.t < b.b && b.t < a.b ? [Math.max(b.l - a.r, a.l - b.r)] : [])));
        expect(Math.min(...gaps), `gfc1${present ? ', presenting' : ''}: the narrowest lane between two cards`).toBeGreaterThanOrEqual(24);
      }
      if (present) await page.getByTestId('present').click();
    }
    expect(errors).toEqual([]);
  }
});

/** The smallest type (px on screen) of the text drawn in the Network view's canvas: the cards,
 *  the names, the sources' ACR lines, the RM cells' labels and "+N" badges — every element with
 *  text of its own that is drawn (not React Flow's attribution, not the screen readers' text). */
const smallestType = (page: Page) =>
  page.getByTestId('nv-canvas').evaluate((canvas) => {
    const sizes: { px: number; text: string }[] = [];
    for (const el of canvas.querySelectorAll<HTMLElement | SVGTextElement>('*')) {
      const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== '');
      if (!own || el.closest('.react-flow__attribution, .visually-hidden')) continue;
      const r = el.getBoundingClientRect();
      if (r.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
      // Its type times every scale above it (the zoom, a card's growth): its box on screen against
      // its own (an HTML element's layout box, an SVG text's box in its user units).
      const own_h = el instanceof SVGTextElement ? el.getBBox().height : (el as HTMLElement).offsetHeight;
      if (!(own_h > 0)) continue;
      sizes.push({ px: parseFloat(getComputedStyle(el).fontSize) * (r.height / own_h), text: el.textContent!.trim() });
    }
    sizes.sort((a, b) => a.px - b.px);
    return { least: sizes[0], count: sizes.length };
  });

// QA: presenting gfc1 in a 1280 × 720 window (a projector's), its cards' queues read at 12.5 px:
// the cards stopped growing where SW2's met the sources above it. The rest of presenting is at
// 18 px or more, for the back of a classroom: the cards are compact (a row is its name's line and
// its bar's, the number beside it), and so is everything else drawn, in 1920 × 1080 too.
// Below 1280 px presenting lays the page out in one column (app.css), the view as wide as the
// window: at 1024 × 768 beside the side panel its cards read at 12 px.
test('presenting gfc1 at 1280 × 720, 1920 × 1080 and 1024 × 768, everything drawn in the Network view reads at 18 px or more, its lanes apart', async ({ page }) => {
  for (const [width, height] of [[1280, 720], [1920, 1080], [1024, 768]] as const) {
    await page.setViewportSize({ width, height });
    const errors = await openLab(page, '/?scenario=gfc1&present=1');
    await page.getByTestId('view-network').click();
    // RM cells drawn, with their labels.
    await page.getByTestId('lesson-stops').uncheck();
    await page.getByTestId('nv-slow').click();
    await page.getByTestId('until-ms').fill('12');
    await page.getByTestId('run-until').click();
    await expect(page.getByTestId('nv-clock')).toHaveText('t = 12.000 ms');
    await waitForMode(page, 'paused');
    await expect.poll(async () => page.locator('[data-testid="nv-rm-labels"] text').evaluateAll((ts) => ts.filter((t) => (t as SVGTextElement).style.display !== 'none').length)).toBeGreaterThan(0);
    const { least, count } = await smallestType(page);
    expect(count, `${width} × ${height}`).toBeGreaterThan(40);
    expect(least.px, `${width} × ${height}: the smallest, "${least.text}"`).toBeGreaterThanOrEqual(17.95);
    const cards = await page.locator('[data-testid="network-view"] .nv-switch').evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ l: r.left, r: r.right, t: r.top, b: r.bottom })));
    const gaps = cards.flatMap((a, i) => cards.slice(i + 1).flatMap((b) => (a.t < b.b && b.t < a.b ? [Math.max(b.l - a.r, a.l - b.r)] : [])));
    expect(Math.min(...gaps), `${width} × ${height}: the narrowest lane between two cards`).toBeGreaterThanOrEqual(24);
    // The whole drawing in the canvas: no scrolling to see it.
    const canvas = await page.getByTestId('nv-canvas').boundingBox();
    for (const c of cards) expect(c.l >= canvas!.x && c.r <= canvas!.x + canvas!.width, `${width} × ${height}: a card outside the canvas`).toBe(true);
    // QA: at 1280 × 720 the legend's six lines at 18 px and a 560 px canvas put the drawing's
    // lower half below the fold. Brought into view, the view rests under the toolbar with its
    // compact legend (the queue's unit in it) and the whole drawing on screen.
    await expect(page.getByTestId('nv-legend')).toContainText('queue (cells;');
    await page.getByTestId('network-view').evaluate((e) => e.scrollIntoView({ block: 'start' }));
    await expect.poll(async () => (await page.getByTestId('network-view').boundingBox())!.y).toBeGreaterThanOrEqual((await page.locator('.toolbar').boundingBox())!.height);
    const legend = (await page.getByTestId('nv-legend').boundingBox())!;
    const drawn = (await page.getByTestId('nv-canvas').boundingBox())!;
    expect(legend.y, `${width} × ${height}: the legend under the toolbar`).toBeGreaterThanOrEqual((await page.locator('.toolbar').boundingBox())!.height);
    expect(drawn.y + drawn.height, `${width} × ${height}: the drawing's foot`).toBeLessThanOrEqual(height);
    expect(drawn.x + drawn.width, `${width} × ${height}: the drawing's right`).toBeLessThanOrEqual(width);
    await page.getByTestId('network-view').screenshot({ path: resolve(shots, `network-gfc1-present-${width}.png`) });
    expect(errors).toEqual([]);
  }
});

// QA: on gfc1 and core-edge the lanes between switch cards were 20–30 px on screen (the cards
// grew until 12 px apart), ~190 RM cells piled there unlabelled. The cards now leave the lanes
// room as far as their type still reads at 11 px (at 1280 px, beside the side panel, gfc1's
// cards take all of it; from 1440 px on the lanes grow).
test('on a 1440 × 1000 window the lanes between switch cards get room (gfc1, core-edge), their type still at 11 px or more', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 1000 });
  // gfc1 (core-edge) fits at zoom 0.6 (0.65), its type's step 0.59 (0.65): cards at 11 px type
  // are 116 × 11 / 12 / 0.59 (0.65) px wide, 300 apart, leaving some 60 px on screen between
  // two (when they were 150 px wide, 30 (45)).
  for (const [id, least] of [['gfc1', 55], ['core-edge', 40]] as const) {
    const errors = await openLab(page, `/?scenario=${id}`);
    await page.getByTestId('view-network').click();
    await expect.poll(async () => page.locator('[data-testid="network-view"] .nv-switch').count()).toBeGreaterThan(1);
    const look = await page.getByTestId('network-view').evaluate((view) => {
      const cards = [...view.querySelectorAll<HTMLElement>('.nv-switch')].map((e) => e.getBoundingClientRect());
      // The gap between cards side by side (on one row, apart in x).
      const gaps = cards.flatMap((a, i) =>
        cards.slice(i + 1).flatMap((b) => (a.top < b.bottom && b.top < a.bottom ? [Math.max(b.left - a.right, a.left - b.right)] : [])),
      );
      const type = [...view.querySelectorAll<HTMLElement>('.nv-qtext')].map((el) => parseFloat(getComputedStyle(el).fontSize) * (el.getBoundingClientRect().height / el.offsetHeight));
      return { gap: Math.min(...gaps), type: Math.min(...type) };
    });
    expect(look.gap, `${id}: the narrowest gap between two cards on a row`).toBeGreaterThanOrEqual(least);
    expect(look.type, `${id} cards' type`).toBeGreaterThanOrEqual(10.9);
    expect(errors).toEqual([]);
  }
});

// A class pauses at a moment of interest (here run to it at max speed, too fast to draw cells),
// then slows down to see the loop: the cells in flight show at once, the run replayed to where
// it stands with the trace on, not only those sent after the next step. seriesd-wan: 1,000 km
// links always hold RM cells.
test('slowed down on a paused run, the Network view shows the RM cells already in flight', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=seriesd-wan');
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('view-network').click();
  await page.getByTestId('until-ms').fill('300');
  await page.getByTestId('run-until').click();
  await expect(page.getByTestId('nv-clock')).toHaveText('t = 300.000 ms');
  await waitForMode(page, 'paused');
  expect(await markers(page)).toEqual([]); // too fast to draw them: none recorded
  await page.getByTestId('nv-slow').click();
  // Where it stood, paused, without a step, once the replay that fills the trace is done (cells
  // are drawn while it runs too: a late cell stays drawn, e7adde7).
  await expect
    .poll(async () => {
      const s = (await status(page))!;
      return s.mode === 'paused' && s.nowMs === 300 ? (await markers(page)).length : 0;
    }, { timeout: 15_000 })
    .toBeGreaterThan(3);
  const s = (await status(page))!;
  expect([s.mode, s.nowMs]).toEqual(['paused', 300]);
  await expect(page.getByTestId('nv-clock')).toHaveText('t = 300.000 ms');
  // SW2 runs no algorithm: the card says so in the catalogue's short name, whole (the full one
  // in its tooltip), where "None (FIFO)" ended in an ellipsis.
  const fifo = page.getByTestId('nv-algorithm-SW2');
  await expect(fifo).toHaveText('FIFO');
  await expect(fifo).toHaveAttribute('title', 'None (FIFO)');
  expect(await fifo.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
  await page.screenshot({ path: resolve(shots, 'network-backfilled.png') });
  // docs/network-view.png (used by the README) is written when missing or on request.
  const docs = resolve(repoRoot, 'docs/network-view.png');
  if (!existsSync(docs) || process.env.ABR_UPDATE_SCREENSHOT === '1') copyFileSync(resolve(shots, 'network-backfilled.png'), docs);
  expect(errors).toEqual([]);
});

// QA (gfc1 at 12 ms): SW1's queue toward SW2 held 971 cells, and the RM cells in it were drawn
// out on the link: the first cells of the growing queue went through quickly, and their hops,
// ending after the cells behind them came, were taken for the queue those cells met.
test("gfc1 paused at 12 ms: the RM cells in SW1's long queue toward SW2 are drawn waiting in it", async ({ page }) => {
  const errors = await openLab(page, '/?scenario=gfc1');
  await page.getByTestId('view-network').click();
  await page.getByTestId('nv-slow').click();
  await page.getByTestId('until-ms').fill('12');
  await page.getByTestId('run-until').click();
  await expect(page.getByTestId('nv-clock')).toHaveText('t = 12.000 ms');
  await waitForMode(page, 'paused');
  await expect.poll(() => page.getByTestId('nv-queue-SW1->SW2').getAttribute('data-queue')).not.toBe('');
  expect(Number(await page.getByTestId('nv-queue-SW1->SW2').getAttribute('data-queue'))).toBeGreaterThan(500);
  // Four drawn apart at the lane's start, the rest counted by the badge.
  const badge = page.locator('[data-testid="rm-queue-more"][data-port="SW1->SW2"]');
  await expect(badge).toBeVisible();
  expect(Number(await badge.getAttribute('data-waiting'))).toBeGreaterThanOrEqual(10);
  expect(errors).toEqual([]);
});

// QA: the queue bars' mark labels read at 9 px (8 presenting), Series-D's Q1–Q4 piled on each
// other; a switch card whose group of destinations took two lines (gfc1's SW5: "DB1–DB3,
// DE1–DE6") was taller than the layout took it to be, so lanes and the cards' growth missed it.
test("on a 1280 × 800 window the queue bars' marks read at 11 px or more, clear of each other, the bars and the card's text; presenting, ticks named in the bar's tooltip", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  for (const id of ['gfc1', 'fecn-hotspot', 'gfc-edge']) {
    const errors = await openLab(page, `/?scenario=${id}`);
    await page.getByTestId('view-network').click();
    const sizes: number[] = [];
    for (const present of [false]) {
      const look = () =>
        page.getByTestId('network-view').evaluate((view) => {
          const cross = (a: DOMRect, b: DOMRect) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
          const found: string[] = [];
          const px: number[] = [];
          for (const card of view.querySelectorAll<HTMLElement>('.nv-switch')) {
            const labels = [...card.querySelectorAll<HTMLElement>('.nv-mark-label')];
            const others = [...card.querySelectorAll<HTMLElement>('.nv-bar, .nv-port-to, .nv-qtext, .nv-switch-head > *')];
            const box = card.getBoundingClientRect();
            labels.forEach((l, i) => {
              const r = l.getBoundingClientRect();
              px.push(parseFloat(getComputedStyle(l).fontSize) * (r.height / l.offsetHeight));
              labels.slice(i + 1).forEach((m) => cross(r, m.getBoundingClientRect()) && found.push(`${l.textContent} × ${m.textContent}`));
              others.forEach((o) => cross(r, o.getBoundingClientRect()) && found.push(`${card.dataset.testid}: ${l.textContent} × ${o.className || o.textContent}`));
              if (r.left < box.left || r.right > box.right || r.top < box.top) found.push(`${l.textContent} outside ${card.dataset.testid}`);
            });
          }
          return { found, px };
        });
      await expect.poll(async () => (await look()).px.length, id).toBeGreaterThan(0);
      const { found, px } = await look();
      expect(found, `${id}${present ? ', presenting' : ''}`).toEqual([]);
      sizes.push(Math.min(...px));
    }
    expect(sizes[0], `${id} marks`).toBeGreaterThanOrEqual(11);
    // Presenting, a card is compact (18 px type, no line for the marks' labels): the marks are
    // ticks on the bar, each named in the bar's tooltip.
    await page.getByTestId('present').click();
    const presenting = () =>
      page.getByTestId('network-view').evaluate((view) => {
        const bars = [...view.querySelectorAll<HTMLElement>('.nv-switch .nv-bar')].filter((b) => b.querySelector('.nv-mark'));
        const labelled = [...view.querySelectorAll<HTMLElement>('.nv-switch .nv-mark-label')].filter((l) => l.offsetHeight > 0).length;
        const named = bars.every((b) => [...b.querySelectorAll<HTMLElement>('.nv-mark')].every((m) => b.title.includes(`(${m.dataset.mark})`)));
        return { marked: bars.length > 0, labelled, named };
      });
    await expect.poll(presenting, `${id} presenting`).toEqual({ marked: true, labelled: 0, named: true });
    await page.getByTestId('present').click();
    expect(errors).toEqual([]);
  }
  // Series-D's four marks at the start of a ten-million-cell buffer: one label names them all,
  // the first and the last on a bar too narrow for all four.
  await expect(page.getByTestId('nv-port-SW1->SW2').locator('.nv-mark-label')).toHaveText([/^(Q1, Q2, Q3, Q4|Q1–Q4)$/]);
});

test('every switch card is as tall as the layout takes it to be: a group of destinations on one line, never cut short (its full list in the tooltip and the name), an opened group, page and presenting', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const heights = () =>
    page.locator('[data-testid="network-view"] .nv-switch').evaluateAll((els) =>
      els.map((e) => ({ id: (e as HTMLElement).dataset.testid, real: (e as HTMLElement).offsetHeight, layout: Number((e as HTMLElement).dataset.layoutHeight) })),
    );
  for (const id of ['gfc1', 'core-edge', 'gfc-edge', 'qcn-hotspot']) {
    const errors = await openLab(page, `/?scenario=${id}`);
    await page.getByTestId('view-network').click();
    for (const present of [false, true]) {
      if (present) await page.getByTestId('present').click();
      await expect.poll(async () => (await heights()).length).toBeGreaterThan(0);
      for (const h of await heights()) expect(Math.abs(h.real - h.layout), `${id} ${h.id}${present ? ', presenting' : ''}: ${h.real} px drawn, ${h.layout} laid out`).toBeLessThanOrEqual(1);
      // A group's line is never cut short by an ellipsis (QA: "DD1–D… (6)").
      const cut = await page.locator('[data-testid="network-view"] .nv-group-label').evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.textContent));
      expect(cut, `${id}${present ? ', presenting' : ''}`).toEqual([]);
      if (present) await page.getByTestId('present').click();
    }
    expect(errors).toEqual([]);
  }
  // gfc1's SW5: nine destinations in two runs, wider than the card: one line, their count (not
  // the names cut short by an ellipsis); the whole list in the tooltip and the accessible name.
  await openLab(page, '/?scenario=gfc1');
  await page.getByTestId('view-network').click();
  const group = page.getByTestId('nv-group-SW5->DB1–DB3, DE1–DE6');
  const names = group.locator('.nv-port-to');
  const line = await names.evaluate((el) => ({ h: (el as HTMLElement).offsetHeight, lh: parseFloat(getComputedStyle(el).lineHeight), cut: el.querySelector('.nv-group-label')!.scrollWidth > (el.querySelector('.nv-group-label') as HTMLElement).clientWidth }));
  expect(line.h).toBeLessThanOrEqual(Math.ceil(line.lh));
  expect(line.cut).toBe(false);
  await expect(names).toHaveAttribute('title', 'DB1–DB3, DE1–DE6 (9)');
  await expect(group.locator('.nv-group-label')).toHaveText(/^9 dest/);
  await expect(group).toHaveAccessibleName(/SW5's 9 ports toward DB1–DB3, DE1–DE6, largest queue/);
  // Opened, its ports one by one and the button that folds them: still as laid out.
  await group.click();
  await expect(page.getByTestId('nv-collapse-SW5')).toBeVisible();
  const sw5 = (await heights()).find((h) => h.id === 'nv-node-SW5')!;
  expect(Math.abs(sw5.real - sw5.layout)).toBeLessThanOrEqual(1);
});

// Regression: a group of destinations beyond two runs was labelled "9 destinations", and its
// tooltip and accessible name said no more: nothing told which destinations it went to.
test('a group of destinations beyond two runs names every one in its tooltip and its accessible name, its card as laid out', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openLab(page);
  // gfc1 with DB2 renamed Q7: SW5's destinations are DB1, Q7, DB3, DE1–DE6 (four runs).
  const text = readFileSync(resolve(repoRoot, 'scenarios/gfc1.json'), 'utf8').replaceAll('"DB2"', '"Q7"');
  await page.getByTestId('scenario-file').setInputFiles({ name: 'gfc1-q7.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await page.getByTestId('view-network').click();
  const group = page.getByTestId('nv-group-SW5->9 destinations');
  await expect(group.locator('.nv-port-to')).toHaveAttribute('title', 'DB1, Q7, DB3, DE1–DE6 (9)');
  await expect(group).toHaveAccessibleName(/SW5's 9 ports toward DB1, Q7, DB3, DE1–DE6, largest queue/);
  // Too many for the line: their count, not said twice.
  await expect(group.locator('.nv-group-label')).toHaveText(/^9 dest/);
  await expect(group.locator('.nv-group-count')).toHaveCount(0);
  const card = page.getByTestId('nv-node-SW5');
  const h = await card.evaluate((e) => ({ real: (e as HTMLElement).offsetHeight, layout: Number((e as HTMLElement).dataset.layoutHeight) }));
  expect(Math.abs(h.real - h.layout)).toBeLessThanOrEqual(1);
});

// QA: on long-rtt, the label of S1's first RM cell ("155.52") lay over "S1" and "C1 ACR …" at
// the source (and another's over SW1's card).
test("long-rtt: RM cells' labels keep clear of the end systems' names, the sources' ACR lines and the switch cards, on the page and presenting", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  for (const present of [false, true]) {
    const errors = await openLab(page, `/?scenario=long-rtt${present ? '&present=1' : ''}`);
    await page.getByTestId('view-network').click();
    await page.getByTestId('nv-slow').click();
    await page.getByTestId('step-ms').fill('0.005');
    let labelled = 0;
    // Steps of 5 µs while S1's first cell sets out from S1 and S2's go by (LAN links: a few µs
    // on each), until some cells have been labelled in the open.
    for (let i = 0; i < 6 || (labelled < 2 && i < 80); i++) {
      await step(page);
      const met = await page.evaluate(() => {
        const boxOf = (e: Element) => e.getBoundingClientRect();
        const meet = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
        const texts = [...document.querySelectorAll('[data-testid^="nv-name-"]:not(.visually-hidden), [data-testid^="nv-info-"], .nv-switch')].map((e) => ({
          what: e.getAttribute('data-testid') ?? e.className,
          box: boxOf(e),
        }));
        const labels = [...document.querySelectorAll<SVGTextElement>('[data-testid="rm-label"]')]
          .filter((t) => t.style.display !== 'none' && t.textContent)
          .map((t) => ({ text: t.textContent!, box: boxOf(t) }));
        return {
          labels: labels.length,
          met: labels.flatMap((l) => texts.filter((t) => meet(l.box, t.box)).map((t) => `${l.text} over ${t.what}`)),
        };
      });
      expect(met.met, `step ${i + 1}${present ? ', presenting' : ''}`).toEqual([]);
      labelled += met.labels;
    }
    // Labels are still drawn where there is room for them.
    expect(labelled).toBeGreaterThan(0);
    if (present) await page.screenshot({ path: resolve(shots, 'network-long-rtt-labels.png') });
    expect(errors).toEqual([]);
  }
});

// QA: long-rtt's 25,000 km link, full of cells a few px apart, showed no ER label at all (a label
// kept clear of every marker). Some now lie over unlabelled markers, in a layer over them.
test("long-rtt: the dense link's cells show some ER labels, apart from each other, each naming a cell drawn", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const errors = await openLab(page, '/?scenario=long-rtt');
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('view-network').click();
  await page.getByTestId('until-ms').fill('300');
  await page.getByTestId('run-until').click();
  await expect(page.getByTestId('nv-clock')).toHaveText('t = 300.000 ms');
  await waitForMode(page, 'paused');
  await page.getByTestId('nv-slow').click();
  await expect.poll(async () => (await markers(page)).length, { timeout: 15_000 }).toBeGreaterThan(100);
  const drawn = await page.evaluate(() => {
    const labels = [...document.querySelectorAll<SVGTextElement>('[data-testid="rm-label"]')].filter((t) => t.style.display !== 'none' && t.textContent);
    const boxes = labels.map((t) => t.getBoundingClientRect());
    const meet = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const markerOf = (t: SVGTextElement) => document.querySelector<SVGGElement>(`[data-testid="rm-cell"][data-cell="${t.dataset.cell}"]`);
    const layers = [document.querySelector('[data-testid="nv-markers"]')!, document.querySelector('[data-testid="nv-rm-labels"]')!];
    return {
      texts: labels.map((t) => t.textContent!),
      unnamed: labels.filter((t) => !markerOf(t) || markerOf(t)!.style.display === 'none').length,
      overlapping: boxes.filter((a, i) => boxes.some((b, k) => k > i && meet(a, b))).length,
      // Painted after the markers: over them.
      over: !!(layers[0].compareDocumentPosition(layers[1]) & Node.DOCUMENT_POSITION_FOLLOWING),
    };
  });
  expect(drawn.texts.length).toBeGreaterThanOrEqual(3);
  for (const t of drawn.texts) expect(t).toMatch(/^\d+\.\d+$/);
  expect([drawn.unnamed, drawn.overlapping, drawn.over]).toEqual([0, 0, true]);
  await page.screenshot({ path: resolve(shots, 'network-long-rtt-dense-labels.png') });
  expect(errors).toEqual([]);
});

// QA (a LAN slowed down on a paused run): a feedback frame goes round in a few µs and the next
// sets out a millisecond later, so at 20 ms nothing was in flight and the view drew nothing at
// all. It now says so, names the latest, and shows it on its way with its journey.
test('fecn-hotspot paused between loops: the view says nothing is under way, and shows the latest frame on its way', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=fecn-hotspot');
  await page.getByTestId('view-network').click();
  await page.getByTestId('view-rmlog').click();
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('until-ms').fill('20');
  await page.getByTestId('run-until').click();
  await expect(page.getByTestId('nv-clock')).toHaveText('t = 20.000 ms');
  await waitForMode(page, 'paused');
  await page.getByTestId('nv-slow').click();
  // The log's box is clear, and it says why events come in all the same.
  await expect(page.getByTestId('rmlog-record')).not.toBeChecked();
  await expect(page.getByTestId('rmlog-held')).toHaveText('(recorded now for the Network view, which draws them moving)');
  const last = page.getByTestId('nv-last');
  await expect(last).toHaveText(/^Nothing under way now\. The latest, rate-discovery frame #\d+ of F\d, took \d+\.\d µs \((\d+\.\d{3}) → (\d+\.\d{3}) ms\)\. Show it$/);
  expect(await markers(page)).toEqual([]);
  const [, fromMs, toMs] = (await last.textContent())!.match(/\((\d+\.\d{3}) → (\d+\.\d{3}) ms\)/)!.map(Number);
  expect(toMs).toBeLessThanOrEqual(20);
  await page.screenshot({ path: resolve(shots, 'network-last-loop.png') });
  // Shown (from the keyboard): drawn on its way at a time within its loop, picked, its journey
  // open and the focus on it (the button goes); the run stays.
  await page.getByTestId('nv-last-show').focus();
  await page.keyboard.press('Enter');
  await expect(last).toBeHidden();
  await expect(page.getByTestId('nv-cell-close')).toBeFocused();
  const shownMs = Number((await page.getByTestId('nv-clock').textContent())!.match(/t = (\d+\.\d+) ms/)![1]);
  expect(shownMs).toBeGreaterThanOrEqual(fromMs);
  expect(shownMs).toBeLessThanOrEqual(toMs);
  const drawn = await markers(page);
  expect(drawn.length).toBeGreaterThan(0);
  const panel = page.getByTestId('nv-cell');
  await expect(panel.locator('.nv-cell-head')).toContainText('rate-discovery frame #');
  expect(drawn.map((m) => m.id)).toContain(await panel.getAttribute('data-cell'));
  await expect(panel.getByTestId('nv-journey').locator('li').first()).toContainText('sent by EP');
  expect((await status(page))!.nowMs).toBe(20);
  // The log's event nearest to that time is marked.
  await expect(page.locator('[data-testid="rmlog-row"][aria-current="time"]')).toBeVisible();
  const { violations } = await new AxeBuilder({ page }).include('[data-testid="network-view"]').analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  expect(errors).toEqual([]);
});

// QA (the teacher projecting): presentation mode turned on with the Network view already open
// kept the page's room at the drawing's sides; fecn-hotspot's "F0 rate limit 2.50 Gbps", in
// larger type, began off the drawing ("rate limit 2.50 Gbps").
test("presentation mode turned on with the view open: the drawing fits again, the hosts' rate lines inside it", async ({ page }) => {
  const errors = await openLab(page, '/?scenario=fecn-hotspot');
  await page.getByTestId('view-network').click();
  await page.getByTestId('until-ms').fill('5');
  await page.getByTestId('run-until').click();
  await waitForMode(page, 'paused');
  await expect(page.getByTestId('nv-acr-F0')).toContainText('Gbps');
  await page.getByTestId('present').click();
  await expect(page.getByTestId('present')).toHaveAttribute('aria-pressed', 'true');
  const inside = async () => {
    const canvas = (await page.getByTestId('nv-canvas').boundingBox())!;
    const out: string[] = [];
    for (const f of ['F0', 'F1', 'F2', 'F3']) {
      const b = (await page.getByTestId(`nv-acr-${f}`).boundingBox())!;
      if (b.x < canvas.x || b.x + b.width > canvas.x + canvas.width) out.push(f);
    }
    return out;
  };
  await expect.poll(inside).toEqual([]);
  await page.screenshot({ path: resolve(shots, 'network-present-toggled.png') });
  // And back: the page's room again, still inside.
  await page.getByTestId('present').click();
  await expect.poll(inside).toEqual([]);
  expect(errors).toEqual([]);
});

// QA (binary feedback): an EFCI run's journey never said where CI came from, nor why the
// source's ACR then fell; and its forward cells, long in SW1's queue, were taken as dropped.
test("two-sources with EFCI: a cell's journey says where CI was set and why the source's ACR fell (TM 4.0: CI = 1 cuts it by RDF)", async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('tab-switches').click();
  for (const sw of ['SW1', 'SW2']) {
    await page.getByTestId(`topo-${sw}`).click();
    await page.getByTestId('switch-algorithm').selectOption('efci');
  }
  await page.getByTestId('view-network').click();
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('until-ms').fill('29.7');
  await page.getByTestId('run-until').click();
  await expect(page.getByTestId('nv-clock')).toHaveText('t = 29.700 ms');
  await waitForMode(page, 'paused');
  await page.getByTestId('nv-slow').click();
  // Between two loops (the engine's run: cell #169 home at 29.687 ms, #170 sent at 29.78).
  await page.getByTestId('nv-last-show').click();
  const panel = page.getByTestId('nv-cell');
  const journey = panel.getByTestId('nv-journey');
  await expect(journey.locator('li[data-direction="turnaround"]')).toHaveText(/turned around at D[12]; CI set here \(its data cells came marked EFCI\)$/);
  const home = journey.locator('li[data-direction="received"]');
  await expect(home).toHaveText(/received by S[12]: ER 155\.52 Mbps; its ACR (\d+\.\d\d) → (\d+\.\d\d) \(CI = 1: cut by RDF\)$/);
  const [, before, after] = (await home.textContent())!.match(/ACR (\d+\.\d\d) → (\d+\.\d\d)/)!.map(Number);
  expect(after).toBeCloseTo(before * (15 / 16), 1); // RDF = 1/16
  await expect(panel.getByTestId('nv-journey-summary')).toContainText(/CI set at D[12]\./);
  await page.screenshot({ path: resolve(shots, 'network-efci-journey.png'), fullPage: true });
  // The event log's source ACR says the same when hovered, for every cell come home.
  await page.getByTestId('view-rmlog').click();
  await page.getByTestId('rmlog-direction').selectOption('received');
  const acrs = await page.getByTestId('rmlog-row').evaluateAll((els) =>
    els.map((e) => ({ flags: e.querySelectorAll('span')[7].textContent, why: e.querySelectorAll('span')[9].getAttribute('title') })),
  );
  expect(acrs.length).toBeGreaterThan(2);
  for (const a of acrs) expect(a.why).toMatch(a.flags === 'CI' ? /^CI = 1: cut by RDF/ : /^CI = 0, NI = 0/);
  expect(errors).toEqual([]);
});

// QA: in slow motion the toolbar's Step (1 ms) went past whole loops (two-sources' lasts 45 µs):
// a student saw the cells move only by typing 0.005 in its field. The view offers its own step.
test('the Network view steps the paused run by about half a hop (two-sources: 2 µs), with the keyboard too, and a cell moves along', async ({ page }) => {
  const errors = await pausedInSlowMotionAt1ms(page);
  const stepButton = page.getByTestId('nv-step');
  await expect(stepButton).toHaveText('Step 2 µs');
  // Step until a cell is under way, then once more: it has moved.
  for (let i = 0; i < 100 && (await markers(page)).length === 0; i++) {
    const before = (await status(page))!.nowMs;
    await stepButton.click();
    await expect.poll(async () => (await status(page))!.nowMs).toBeCloseTo(before + 0.002, 6);
    await waitForMode(page, 'paused');
  }
  const [first] = await markers(page);
  expect(first).toBeDefined();
  const before = (await status(page))!.nowMs;
  await stepButton.focus();
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await status(page))!.nowMs).toBeCloseTo(before + 0.002, 6);
  await expect(page.getByTestId('nv-clock')).toHaveText(`t = ${(before + 0.002).toFixed(3)} ms`);
  await expect.poll(async () => (await markers(page)).find((m) => m.id === first.id)).toBeDefined();
  const again = (await markers(page)).find((m) => m.id === first.id)!;
  expect([again.x, again.y]).not.toEqual([first.x, first.y]);
  // Playing, there is nothing to step.
  await page.getByTestId('play').click();
  await expect(stepButton).toBeHidden();
  expect(errors).toEqual([]);
});
