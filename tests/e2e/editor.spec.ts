// The network editor, with the mouse: from an empty canvas, a two-switch network with three
// sources; links, connections, an algorithm per switch; the run and its charts; undo/redo;
// then the link of the drawn network reproduces the run in a new page.
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { openLab, repoRoot, waitForMode } from './helpers';

const shots = resolve(repoRoot, 'test-results/screens');
mkdirSync(shots, { recursive: true });

type Doc = {
  id: string;
  nodes: { id: string; kind: string; x: number; y: number; algorithm?: string }[];
  links: { id: string; from: string; to: string; rate_mbps: number; distance_km?: number; delay_us?: number }[];
  connections: { id: string; from: string; to: string }[];
};
const doc = async (page: Page) => JSON.parse((await page.evaluate(() => window.__abrlab!.scenario()))!) as Doc;

async function centre(page: Page, testId: string) {
  const b = (await page.getByTestId(testId).boundingBox())!;
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}

async function dragBy(page: Page, node: string, dx: number, dy: number) {
  const c = await centre(page, `ed-node-${node}`);
  await page.mouse.move(c.x, c.y);
  await page.mouse.down();
  for (let i = 1; i <= 5; i++) await page.mouse.move(c.x + (dx * i) / 5, c.y + (dy * i) / 5);
  await page.mouse.up();
}

test('draw a two-switch network with three sources from an empty canvas, run it, share it', async ({ page, context }) => {
  const errors = await openLab(page);
  await page.getByTestId('view-editor').click();
  await expect(page.getByTestId('network-editor')).toBeVisible();
  await page.getByTestId('clear-network').click();
  await page.getByTestId('empty-atm').click();
  await expect.poll(async () => (await doc(page)).nodes.length).toBe(0);

  // Palette: two switches, three sources, three destinations.
  for (const kind of ['switch', 'switch', 'source', 'source', 'source', 'destination', 'destination', 'destination']) {
    await page.getByTestId(`add-${kind}`).click();
  }
  await expect.poll(async () => (await doc(page)).nodes.map((n) => n.id).sort()).toEqual(
    ['D1', 'D2', 'D3', 'S1', 'S2', 'S3', 'SW1', 'SW2'],
  );
  // Drag the switches into the middle.
  const before = await doc(page);
  await dragBy(page, 'SW1', 20, 120);
  await dragBy(page, 'SW2', 100, 40);
  await expect.poll(async () => (await doc(page)).nodes.find((n) => n.id === 'SW2')!.x).toBeGreaterThan(before.nodes.find((n) => n.id === 'SW2')!.x);
  await page.screenshot({ path: resolve(shots, 'editor-1-nodes.png') });

  // Links: each source to SW1, SW1 to SW2, SW2 to each destination.
  await page.getByTestId('tool-link').click();
  for (const [a, b] of [
    ['S1', 'SW1'],
    ['S2', 'SW1'],
    ['S3', 'SW1'],
    ['SW1', 'SW2'],
    ['SW2', 'D1'],
    ['SW2', 'D2'],
    ['SW2', 'D3'],
  ]) {
    await page.getByTestId(`ed-node-${a}`).click();
    await page.getByTestId(`ed-node-${b}`).click();
  }
  await expect.poll(async () => (await doc(page)).links.length).toBe(7);
  // A second link between the same nodes is refused with the rule.
  await page.getByTestId('ed-node-SW1').click();
  await page.getByTestId('ed-node-SW2').click();
  await expect(page.getByTestId('editor-message')).toHaveText('SW1 and SW2 are already linked');

  // Connections on the shortest path.
  await page.getByTestId('tool-flow').click();
  for (const i of [1, 2, 3]) {
    await page.getByTestId(`ed-node-S${i}`).click();
    await page.getByTestId(`ed-node-D${i}`).click();
  }
  await expect.poll(async () => (await doc(page)).connections.map((c) => `${c.id}:${c.from}>${c.to}`)).toEqual([
    'C1:S1>D1',
    'C2:S2>D2',
    'C3:S3>D3',
  ]);
  await expect(page.getByTestId('editor-message')).toContainText('the run restarted at t = 0');
  await page.screenshot({ path: resolve(shots, 'editor-2-network.png') });

  // Undo removes the last connection, redo brings it back (keyboard and buttons).
  await page.getByTestId('tool-select').click();
  await page.keyboard.press('Control+z');
  await expect.poll(async () => (await doc(page)).connections.length).toBe(2);
  await page.keyboard.press('Control+Shift+z');
  await expect.poll(async () => (await doc(page)).connections.length).toBe(3);
  await page.getByTestId('undo').click();
  await expect.poll(async () => (await doc(page)).connections.length).toBe(2);
  await page.getByTestId('redo').click();
  await expect.poll(async () => (await doc(page)).connections.length).toBe(3);

  // Delete a link: the connections it carried go with it; undo restores both.
  await page.getByTestId('ed-link-L5').click({ force: true });
  await page.getByTestId('delete').click();
  await expect.poll(async () => (await doc(page)).connections.map((c) => c.id)).toEqual(['C2', 'C3']);
  await expect(page.getByTestId('editor-message')).toContainText('L5 deleted with 1 connection');
  await page.getByTestId('undo').click();
  await expect.poll(async () => (await doc(page)).connections.length).toBe(3);

  // The bottleneck link: OC-12 from the presets, then 100 km (a WAN), then a bad capacity refused.
  await page.getByTestId('ed-link-L4').click({ force: true });
  await page.getByTestId('link-preset').selectOption('622.08');
  await expect.poll(async () => (await doc(page)).links.find((l) => l.id === 'L4')).toMatchObject({ rate_mbps: 622.08 });
  await page.getByTestId('link-length').fill('100');
  await page.getByTestId('link-length').press('Enter');
  await expect.poll(async () => (await doc(page)).links.find((l) => l.id === 'L4')).toMatchObject({ distance_km: 100 });
  await page.getByTestId('link-rate').fill('0');
  await page.getByTestId('link-rate').press('Enter');
  // The rule stands at the field, marked invalid and keeping what was typed to correct.
  const form = page.getByTestId('link-form');
  await expect(form.locator('.field-error')).toHaveText('rate_mbps = 0 is out of range: must be between 0.001 and 100000 Mbps');
  await expect(page.getByTestId('link-rate')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('link-rate')).toHaveValue('0');
  await page.screenshot({ path: resolve(shots, 'editor-2a-link-refused.png') });
  expect((await doc(page)).links.find((l) => l.id === 'L4')).toMatchObject({ rate_mbps: 622.08 });
  // A length too small to represent is refused as typed, not kept as the 0 it reads as.
  await page.getByTestId('link-length').fill('5e-400');
  await page.getByTestId('link-length').press('Enter');
  await expect(form.locator('.field-error').last()).toHaveText(
    'distance_km must be a representable number: 5e-400 is too small to represent (below about 4.9e-324), and is not read as 0',
  );
  expect((await doc(page)).links.find((l) => l.id === 'L4')).toMatchObject({ distance_km: 100 });
  await page.getByTestId('link-length').fill('100');
  await page.getByTestId('link-length').press('Enter');
  await page.getByTestId('link-rate').fill('155.52');
  await page.getByTestId('link-rate').press('Enter');
  await expect.poll(async () => (await doc(page)).links.find((l) => l.id === 'L4')).toMatchObject({ rate_mbps: 155.52 });
  await expect(form.locator('.field-error')).toHaveCount(0);
  await page.screenshot({ path: resolve(shots, 'editor-2b-link.png') });

  // Algorithms: SW2 runs ERICA+ (through the switch inspector).
  await page.getByTestId('tab-switches').click();
  await page.getByTestId('switch-picker').selectOption('SW2');
  await page.getByTestId('switch-algorithm').selectOption('erica_plus');
  await expect.poll(async () => (await doc(page)).nodes.find((n) => n.id === 'SW2')!.algorithm).toBe('erica_plus');

  // Run it and see the charts.
  await page.getByTestId('view-charts').click();
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('play').click();
  await waitForMode(page, 'done');
  await expect(page.getByTestId('chart-rate')).toHaveAttribute('data-lines', '9');
  await page.getByTestId('tab-result').click();
  await expect(page.getByTestId('summary')).toContainText("Jain's index");
  await expect.poll(() => page.evaluate(() => window.__abrlab!.digest())).not.toBeNull();
  const digest = await page.evaluate(() => window.__abrlab!.digest());
  await page.screenshot({ path: resolve(shots, 'editor-3-run.png') });

  // Share the drawn network; a new page replays the same run.
  await page.getByTestId('share').click();
  const link = await page.getByTestId('share-link').inputValue();
  const other = await context.newPage();
  await openLab(other, link);
  await expect.poll(() => other.evaluate(() => window.__abrlab!.origin())).toBe('shared link');
  expect(await doc(other)).toEqual(await doc(page));
  await other.getByTestId('speed').selectOption('max');
  await other.getByTestId('play').click();
  await waitForMode(other, 'done');
  await expect.poll(() => other.evaluate(() => window.__abrlab!.digest())).toBe(digest);
  expect(errors).toEqual([]);
});

test('editing a library scenario: delete a source, the run restarts and the charts follow', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=three-sources');
  await page.getByTestId('step-ms').fill('20');
  await page.getByTestId('step').click();
  await expect.poll(() => page.evaluate(() => (window.__abrlab!.status() as { nowMs: number } | null)?.nowMs)).toBe(20);
  await page.getByTestId('view-editor').click();
  await page.getByTestId('ed-node-S3').click();
  await page.keyboard.press('Delete');
  await expect.poll(async () => (await doc(page)).connections.map((c) => c.id)).toEqual(['C1', 'C2']);
  await expect(page.getByTestId('editor-message')).toHaveText('S3 deleted with 1 connection it carried: the run restarted at t = 0.');
  await expect.poll(() => page.evaluate(() => (window.__abrlab!.status() as { nowMs: number } | null)?.nowMs)).toBe(0);
  // The edited scenario is the user's own now: listed under My scenarios, named in the address.
  await expect(page.getByTestId('scenario-picker')).toHaveValue(/^mine:/);
  await expect(page).toHaveURL(/\?mine=/);
  expect(await page.evaluate(() => window.__abrlab!.origin())).toBe('three-sources (edited)');
  // Picking another library scenario starts a new editing history.
  await page.getByTestId('scenario-picker').selectOption('two-sources');
  await expect(page.getByTestId('ed-node-S3')).toHaveCount(0);
  await expect(page.getByTestId('undo')).toBeDisabled();
  expect(errors).toEqual([]);
});

test('moving a node during a run only redraws: the run goes on, and undo moves it back', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=three-sources');
  const nowMs = () => page.evaluate(() => (window.__abrlab!.status() as { nowMs: number } | null)?.nowMs);
  await page.getByTestId('step-ms').fill('20');
  await page.getByTestId('step').click();
  await expect.poll(nowMs).toBe(20);
  await page.getByTestId('view-editor').click();
  const x0 = (await doc(page)).nodes.find((n) => n.id === 'S3')!.x!;
  await dragBy(page, 'S3', 60, 30);
  await expect(page.getByTestId('editor-message')).toHaveText('S3 moved: only the drawing changed, the run goes on.');
  await expect.poll(async () => (await doc(page)).nodes.find((n) => n.id === 'S3')!.x).toBeGreaterThan(x0 + 30);
  expect(await nowMs()).toBe(20);
  await page.getByTestId('undo').click();
  await expect(page.getByTestId('editor-message')).toHaveText('Undone: only the drawing changed, the run goes on.');
  await expect.poll(async () => (await doc(page)).nodes.find((n) => n.id === 'S3')!.x).toBe(x0);
  expect(await nowMs()).toBe(20);
  expect(errors).toEqual([]);
});

test('the 30-source network (62 nodes) stays smooth to drag; wheel zooms, the background pans, Fit shows it all', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=one-at-a-time');
  await page.getByTestId('view-editor').click();
  const canvas = page.getByTestId('editor-canvas');
  // React Flow's view: [x, y, zoom] (screen pixels, and pixels per canvas unit).
  const view = () => canvas.getAttribute('data-viewport').then((v) => v!.split(' ').map(Number));
  await expect(canvas).toHaveAttribute('data-viewport', /./);

  // Dragging an end system among 60: every pointer move redraws the canvas.
  const c = await centre(page, 'ed-node-S5');
  await page.mouse.move(c.x, c.y);
  await page.mouse.down();
  const t0 = Date.now();
  for (let i = 1; i <= 40; i++) await page.mouse.move(c.x + i * 2, c.y + i);
  const perMove = (Date.now() - t0) / 40;
  await page.mouse.up();
  expect(perMove, `ms per pointer move with 62 nodes`).toBeLessThan(100);
  await expect.poll(async () => (await doc(page)).nodes.find((n) => n.id === 'S5')!.x).toBeGreaterThan(
    (await doc(page)).nodes.find((n) => n.id === 'S6')!.x,
  );
  await expect(page.getByTestId('zoom-fit')).toBeDisabled();
  const fit = await view();

  // Zoom in with the wheel over the canvas: a larger scale.
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.5);
  await page.mouse.wheel(0, -300);
  await expect.poll(async () => (await view())[2]).toBeGreaterThan(fit[2]);
  await expect.poll(view).toEqual(await view()); // the wheel's zoom has settled
  const zoomed = await view();
  // Pan by dragging the background (the empty bottom-left corner) to the right: the network
  // goes right too.
  await page.mouse.move(box.x + 20, box.y + box.height - 20);
  await page.mouse.down();
  await page.mouse.move(box.x + 120, box.y + box.height - 60, { steps: 5 });
  await page.mouse.up();
  const panned = await view();
  expect(panned[0]).toBeGreaterThan(zoomed[0]);
  expect(panned[2]).toBe(zoomed[2]);
  await page.screenshot({ path: resolve(shots, 'editor-4-zoomed.png') });
  await page.getByTestId('zoom-fit').click();
  await expect.poll(view).toEqual(fit);
  expect(errors).toEqual([]);
});

test('Shift+drag selects a box of nodes: dragged together, moved by the arrow keys, deleted as one edit', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=three-sources');
  await page.getByTestId('view-editor').click();
  const before = await doc(page);
  const at = (d: Doc, id: string) => d.nodes.find((n) => n.id === id)!;
  // A box around the three sources (from above S1 to below S3, left of the switches).
  const s1 = await centre(page, 'ed-node-S1');
  const s3 = await centre(page, 'ed-node-S3');
  await page.keyboard.down('Shift');
  await page.mouse.move(s1.x - 40, s1.y - 40);
  await page.mouse.down();
  await page.mouse.move(s3.x + 40, s3.y + 40, { steps: 6 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  await expect(page.getByTestId('editor-message')).toHaveText('S1, S2, S3 selected: drag one or use the arrow keys to move them together, Delete removes them.');
  await expect(page.locator('.ed-node.selected')).toHaveCount(3);
  await page.screenshot({ path: resolve(shots, 'editor-5-box.png') });

  // Dragging one drags all three (one edit).
  await dragBy(page, 'S2', 0, 40);
  await expect.poll(async () => at(await doc(page), 'S1').y).toBeGreaterThan(at(before, 'S1').y + 10);
  const dragged = await doc(page);
  for (const id of ['S2', 'S3']) expect(at(dragged, id).y - at(before, id).y).toBe(at(dragged, 'S1').y - at(before, 'S1').y);
  expect(at(dragged, 'SW1')).toEqual(at(before, 'SW1'));

  // With one of them focused, an arrow key moves all three; Delete removes them and their connections.
  await page.getByTestId('rf__node-S1').focus(); // React Flow's focusable wrapper of the node
  await page.keyboard.press('ArrowRight');
  await expect.poll(async () => (await doc(page)).nodes.filter((n) => n.x === at(before, 'S1').x + 10).map((n) => n.id)).toEqual(['S1', 'S2', 'S3']);
  expect(at(await doc(page), 'S2').y).toBe(at(dragged, 'S2').y);
  await page.keyboard.press('Delete');
  await expect.poll(async () => (await doc(page)).nodes.map((n) => n.id)).toEqual(['SW1', 'SW2', 'D1', 'D2', 'D3']);
  await expect(page.getByTestId('editor-message')).toHaveText('S1, S2, S3 deleted with 3 connections they carried: the run restarted at t = 0.');
  await page.keyboard.press('Control+z');
  await expect.poll(async () => (await doc(page)).connections.length).toBe(3);
  expect(at(await doc(page), 'S3').x).toBe(at(before, 'S3').x + 10);
  expect(errors).toEqual([]);
});

/** Where the shown link labels overlap a node, or another label, on the page (as drawn, with
 *  the real font): "label on node" pairs. */
const labelClashes = (page: Page) =>
  page.evaluate(() => {
    const rect = (el: Element) => el.getBoundingClientRect();
    const hit = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const labels = [...document.querySelectorAll('[data-testid^="ed-link-label-"]')];
    const nodes = [...document.querySelectorAll('[data-testid^="ed-node-"]')];
    const name = (el: Element) => el.getAttribute('data-testid')!.replace(/^ed-(link-label|node)-/, '');
    return labels.flatMap((l) => [
      ...nodes.filter((n) => hit(rect(l), rect(n))).map((n) => `${name(l)} on ${name(n)}`),
      ...labels.filter((o) => o !== l && hit(rect(l), rect(o))).map((o) => `${name(l)} on label ${name(o)}`),
    ]);
  });

// QA: "+ Source" in two-sources put S3 20 units from S2, and every end system shrank to a dot
// without its name.
test('a node added from the palette lands clear of the others: every end system keeps its size and name', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('view-editor').click();
  const s1 = page.getByTestId('ed-node-S1');
  const before = (await s1.boundingBox())!;
  await expect(s1).toContainText('S1');
  for (const kind of ['source', 'switch', 'destination']) await page.getByTestId(`add-${kind}`).click();
  await expect(page.getByTestId('ed-node-S3')).toBeVisible();
  await expect(page.getByTestId('ed-node-D3')).toBeVisible();
  const after = (await s1.boundingBox())!;
  expect(after.width).toBeCloseTo(before.width, 0);
  for (const id of ['S1', 'S2', 'S3', 'D1', 'D2', 'D3']) await expect(page.getByTestId(`ed-node-${id}`)).toContainText(id);
  await page.getByTestId('editor-canvas').screenshot({ path: resolve(shots, 'editor-added-nodes.png') });
  // With the Connection tool from S1, the nodes it cannot pick stay named and readable.
  await page.getByTestId('tool-flow').click();
  await page.getByTestId('ed-node-S1').click();
  await expect(page.getByTestId('ed-node-SW1')).toHaveClass(/unpickable/);
  const [fg, bg] = await page.getByTestId('ed-node-SW1').evaluate((e) => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]);
  expect(fg, 'a dark name on a pale node').not.toBe('rgb(255, 255, 255)');
  expect(bg).not.toBe(fg);
  await page.getByTestId('editor-canvas').screenshot({ path: resolve(shots, 'editor-connection-tool.png') });
  expect(errors).toEqual([]);
});

test('link labels sit clear of the nodes and of each other: the full label where it fits, else the name', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('view-editor').click();
  await expect(page.locator('[data-testid^="ed-link-label-"]')).toHaveCount(5); // few links: all labelled
  await expect(page.getByTestId('ed-link-label-L1')).toHaveText('L1 · 155.52 Mbps · 1 km');
  await expect(page.getByTestId('ed-link-label-L3')).toHaveText('L3'); // SW1–SW2: too short for more
  expect(await labelClashes(page)).toEqual([]);
  await page.getByTestId('editor-canvas').screenshot({ path: resolve(shots, 'editor-labels-two-sources.png') });

  // Many links: only the selected one is labelled, clear of the crowd around it.
  for (const [id, links] of [
    ['parking-lot-5', ['L1', 'L6', 'L13']],
    ['gfc1', ['L5', 'L1', 'L24']],
  ] as const) {
    await openLab(page, `/?scenario=${id}`); // page errors still go to `errors`
    await page.getByTestId('view-editor').click();
    for (const l of links) {
      await page.getByTestId(`ed-link-${l}`).locator('.ed-link-hit').dispatchEvent('click');
      await expect(page.locator('[data-testid^="ed-link-label-"]')).toHaveCount(1);
      await expect(page.getByTestId(`ed-link-label-${l}`)).toBeVisible();
      expect(await labelClashes(page), `${id} ${l}`).toEqual([]);
      await page.getByTestId('editor-canvas').screenshot({ path: resolve(shots, `editor-labels-${id}-${l}.png`) });
    }
  }
  await expect(page.getByTestId('ed-link-label-L24')).toHaveText('L24 · 155.52 Mbps · 1 km');
  expect(errors).toEqual([]);
});

// QA: a student who drew a switch found nothing in the editor about its algorithm: it is chosen
// in the side panel's Switches tab, which nothing pointed to.
test("a switch selected in the editor says what it runs and opens its algorithm and parameters", async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('view-editor').click();
  await page.getByTestId('ed-node-SW2').click();
  await expect(page.getByTestId('editor-switch')).toContainText('SW2 runs ERICA.');
  // The status line says it too (a selection made from the keyboard is heard there).
  await expect(page.getByTestId('editor-message')).toHaveText('SW2 selected: it runs ERICA; its algorithm and parameters are a button below the drawing.');
  await page.getByTestId('editor-switch-settings').click();
  await expect(page.getByTestId('tab-switches')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('switch-picker')).toHaveValue('SW2');
  await expect(page.getByTestId('switch-algorithm')).toBeFocused();
  await page.getByTestId('switch-algorithm').selectOption('debra');
  await expect.poll(async () => (await doc(page)).nodes.find((n) => n.id === 'SW2')!.algorithm).toBe('debra');
  await expect(page.getByTestId('editor-switch')).toContainText('SW2 runs DEBRA.');
  // A source selected says nothing of the kind.
  await page.getByTestId('ed-node-S1').click();
  await expect(page.getByTestId('editor-switch')).toHaveCount(0);
  await expect(page.getByTestId('editor-message')).toHaveText('S1 selected: the arrow keys move it, Delete removes it.');
  expect(errors).toEqual([]);
});

test("with the switch settings hidden by a teacher's link, the editor names a switch's algorithm but offers no way to them", async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources&hide=params');
  await page.getByTestId('view-editor').click();
  await page.getByTestId('ed-node-SW1').click();
  await expect(page.getByTestId('editor-switch')).toContainText('SW1 runs ERICA.');
  await expect(page.getByTestId('editor-switch-settings')).toHaveCount(0);
  await expect(page.getByTestId('editor-message')).toHaveText('SW1 selected: it runs ERICA.');
  expect(errors).toEqual([]);
});

// QA: the link capacity's 0.0000001 showed as .0000001, its first digit scrolled out of a
// fixed-width field. Every number field of the editor shows the whole of its value.
test('the editor number fields are wide enough for their values', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('view-editor').click();
  const whole = (id: string) => page.getByTestId(id).evaluate((el: HTMLInputElement) => el.scrollWidth <= el.clientWidth);
  await page.getByTestId('ed-link-L3').click({ force: true });
  await page.getByTestId('link-rate').fill('0.0000001');
  await page.getByTestId('link-length').fill('12345.678901');
  expect(await whole('link-rate')).toBe(true);
  expect(await whole('link-length')).toBe(true);
  await page.getByTestId('ed-node-S1').click();
  await page.getByTestId('conn-params').locator('summary').click();
  await page.getByTestId('conn-param-rif').fill('0.00030517578125');
  expect(await whole('conn-param-rif')).toBe(true);
  expect(errors).toEqual([]);
});
