// The network editor without a mouse (issue 12): from an empty canvas, three nodes added,
// linked and connected, one moved with the arrow keys, deleted, and brought back with undo — every
// step a key press (buttons reached by focus, nodes by Tab). And axe over the editor.
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { openLab, repoRoot, seriousViolations } from './helpers';

const shots = resolve(repoRoot, 'test-results/screens');
mkdirSync(shots, { recursive: true });

type Doc = {
  nodes: { id: string; kind: string; x: number; y: number }[];
  links: { id: string; from: string; to: string }[];
  connections: { id: string; from: string; to: string }[];
};
const doc = async (page: Page) => JSON.parse((await page.evaluate(() => window.__abrlab!.scenario()))!) as Doc;
const nodeAt = async (page: Page, id: string) => (await doc(page)).nodes.find((n) => n.id === id);

/** Presses a button as a keyboard user would: focus on it, Enter. */
async function press(page: Page, testId: string) {
  await page.getByTestId(testId).focus();
  await page.keyboard.press('Enter');
}

/** The id of the canvas node (or link) that has the focus, if any. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement?.closest('.react-flow__node, .react-flow__edge') as HTMLElement | null;
    return el ? `${el.classList.contains('react-flow__node') ? 'node' : 'link'}:${el.dataset.id}` : null;
  });

/** Tabs (forwards or backwards) until the given node or link has the focus. */
async function tabTo(page: Page, target: string, back = false) {
  for (let i = 0; i < 40; i++) {
    if ((await focused(page)) === target) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab never reached ${target} (at ${await focused(page)})`);
}

test('build a network from the keyboard alone: add, link, connect, move, delete, undo', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await press(page, 'view-editor');
  await expect(page.getByTestId('network-editor')).toBeVisible();
  await press(page, 'clear-network');
  await press(page, 'empty-atm');
  await expect.poll(async () => (await doc(page)).nodes.length).toBe(0);

  // Three nodes from the palette.
  await press(page, 'add-source');
  await press(page, 'add-switch');
  await press(page, 'add-destination');
  await expect.poll(async () => (await doc(page)).nodes.map((n) => n.id)).toEqual(['S1', 'SW1', 'D1']);

  // Tab into the canvas from the last button of the bar: the nodes take the focus in turn.
  await page.getByTestId('zoom-out').focus();
  await tabTo(page, 'node:S1');
  // Space on a focused node selects it and does not play the run.
  await page.keyboard.press('Space');
  await expect(page.locator('.ed-node.selected')).toHaveAttribute('data-testid', 'ed-node-S1');
  expect(await page.evaluate(() => (window.__abrlab!.status() as { mode: string } | null)?.mode)).not.toBe('playing');

  // L on S1 starts a link; Tab to the other end, Enter ends it (S1–D1 is refused with the rule).
  await page.keyboard.press('l');
  await expect(page.getByTestId('editor-message')).toHaveText('Link from S1: Tab to the other end and press Enter (Esc cancels).');
  await tabTo(page, 'node:D1');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('editor-message')).toHaveText('sources and destinations connect to switches');
  await tabTo(page, 'node:S1', true);
  await page.keyboard.press('l');
  await tabTo(page, 'node:SW1');
  await page.keyboard.press('Enter');
  await page.keyboard.press('l');
  await tabTo(page, 'node:D1');
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await doc(page)).links.map((l) => `${l.id}:${l.from}-${l.to}`)).toEqual(['L1:S1-SW1', 'L2:SW1-D1']);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('tool-select')).toHaveAttribute('aria-checked', 'true');

  // C on D1 is refused (a connection starts at a source); on S1 it starts one, Enter on D1 ends it.
  await page.keyboard.press('c');
  await expect(page.getByTestId('editor-message')).toHaveText('A connection starts at a source; D1 is a destination.');
  await tabTo(page, 'node:S1', true);
  await page.keyboard.press('c');
  await tabTo(page, 'node:D1');
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await doc(page)).connections.map((c) => `${c.id}:${c.from}>${c.to}`)).toEqual(['C1:S1>D1']);
  await page.keyboard.press('Escape');
  await page.screenshot({ path: resolve(shots, 'editor-keys-1-connected.png') });

  // Arrow keys move the focused node: 10 units a press, 50 with Shift. A run of presses is one
  // undo step, as a drag is; after a pause (over a second) the next press is a step of its own.
  await tabTo(page, 'node:SW1', true);
  const sw1 = (await nodeAt(page, 'SW1'))!;
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Shift+ArrowRight');
  await expect.poll(async () => (await nodeAt(page, 'SW1'))!).toMatchObject({ x: sw1.x + 50, y: sw1.y + 20 });
  await expect(page.getByTestId('editor-message')).toHaveText(`SW1 moved to (${sw1.x + 50}, ${sw1.y + 20}): only the drawing changed, the run goes on.`);
  expect(await focused(page)).toBe('node:SW1');
  await page.waitForTimeout(1300);
  await page.keyboard.press('ArrowUp');
  await expect.poll(async () => (await nodeAt(page, 'SW1'))!).toMatchObject({ x: sw1.x + 50, y: sw1.y + 10 });
  await page.keyboard.press('Control+z'); // the press after the pause
  await expect.poll(async () => (await nodeAt(page, 'SW1'))!).toMatchObject({ x: sw1.x + 50, y: sw1.y + 20 });
  await page.keyboard.press('Control+z'); // the three presses before it, at once
  await expect.poll(async () => (await nodeAt(page, 'SW1'))!).toMatchObject({ x: sw1.x, y: sw1.y });
  await page.screenshot({ path: resolve(shots, 'editor-keys-2-moved.png') });

  // Delete on the focused node removes it with its links and the connection; the focus stays in
  // the canvas; undo brings all of them back (and nothing more: the moves were undone above).
  await page.keyboard.press('Delete');
  await expect.poll(async () => (await doc(page)).nodes.map((n) => n.id)).toEqual(['S1', 'D1']);
  expect((await doc(page)).links).toEqual([]);
  expect((await doc(page)).connections).toEqual([]);
  await expect(page.getByTestId('editor-message')).toHaveText('SW1 deleted with 1 connection it carried: the run restarted at t = 0.');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('editor-canvas');
  await page.screenshot({ path: resolve(shots, 'editor-keys-3-deleted.png') });
  await page.keyboard.press('Control+z');
  await expect.poll(async () => (await doc(page)).nodes.map((n) => n.id)).toEqual(['S1', 'SW1', 'D1']);
  expect((await doc(page)).links.map((l) => l.id)).toEqual(['L1', 'L2']);
  expect((await doc(page)).connections.map((c) => c.id)).toEqual(['C1']);

  // A link is focusable too: Enter selects it (its form opens), Delete removes it.
  await page.getByTestId('zoom-out').focus();
  await tabTo(page, 'link:L2');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('link-rate')).toBeVisible();
  await page.screenshot({ path: resolve(shots, 'editor-keys-4-link.png') });
  await page.keyboard.press('Delete');
  await expect.poll(async () => (await doc(page)).links.map((l) => l.id)).toEqual(['L1']);
  await expect(page.getByTestId('editor-message')).toHaveText('L2 deleted with 1 connection it carried: the run restarted at t = 0.');
  expect(errors).toEqual([]);
});

test('Tab visits the nodes first (sources, switches, destinations), then the links, both ways', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('view-editor').click();
  await expect(page.getByTestId('editor-canvas').locator('.react-flow__edge')).toHaveCount(5);
  const order = ['node:S1', 'node:S2', 'node:SW1', 'node:SW2', 'node:D1', 'node:D2', 'link:L1', 'link:L2', 'link:L3', 'link:L4', 'link:L5'];

  // In from the editor bar's last button, through the canvas, and out again.
  await page.getByTestId('zoom-out').focus();
  const seen: (string | null)[] = [];
  for (let i = 0; i <= order.length; i++) {
    await page.keyboard.press('Tab');
    seen.push(await focused(page));
  }
  expect(seen.slice(0, order.length)).toEqual(order);
  expect(seen[order.length]).toBeNull(); // past the last link the focus has left the nodes and links
  const after = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 80));

  // And back: Shift+Tab from there comes in at the last link and leaves at the bar.
  const back: (string | null)[] = [];
  for (let i = 0; i <= order.length; i++) {
    await page.keyboard.press('Shift+Tab');
    back.push(await focused(page));
  }
  expect(back.slice(0, order.length), `Shift+Tab from ${after}`).toEqual([...order].reverse());
  expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('zoom-out');
  expect(errors).toEqual([]);
});

// QA: from a node, the toolbar's + Switch was about ten Tabs away (the other nodes, the links
// and React Flow's credit link came first). T on a focused node or link goes to the toolbar.
test('T on a focused node or link goes to the toolbar, one Tab from + Switch', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=three-sources');
  await press(page, 'view-editor');
  await expect(page.getByTestId('editor-canvas').locator('.react-flow__node')).toHaveCount(8);
  await page.getByTestId('zoom-out').focus();
  await tabTo(page, 'node:SW1');
  const before = await doc(page);
  await page.keyboard.press('t');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('add-source');
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('add-switch');
  expect(await doc(page)).toEqual(before); // nothing was moved or picked on the way
  // From a link too.
  await page.getByTestId('zoom-out').focus();
  const firstLink = `link:${before.links[0].id}`;
  await tabTo(page, firstLink);
  await page.keyboard.press('T');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('add-source');
  expect(errors).toEqual([]);
});

test('the editor has no serious or critical axe violations', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=three-sources');
  await page.getByTestId('view-editor').click();
  await expect(page.getByTestId('editor-canvas').locator('.react-flow__node')).toHaveCount(8);
  // A node selected, so that its connection's form is checked too.
  await page.getByTestId('ed-node-S1').click();
  await expect(page.getByTestId('conn-form')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  expect(errors).toEqual([]);
});
