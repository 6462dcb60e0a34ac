// The connection inspector: pick a connection, refuse an out-of-range source parameter with its
// rule, make it TCP over UBR, and play it: the TCP charts appear.
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { openLab, repoRoot, waitForMode } from './helpers';

const shots = resolve(repoRoot, 'test-results/screens');
mkdirSync(shots, { recursive: true });

type Conn = { id: string; path?: string[]; params?: Record<string, number>; tcp?: Record<string, unknown>; start_ms?: number };
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
  await expect(page.getByTestId('conn-param-nrm-error')).toHaveText('nrm = 1000 is out of range: must be between 2 and 256 cells');
  await page.getByTestId('conn-param-nrm-error').scrollIntoViewIfNeeded();
  await page.screenshot({ path: resolve(shots, 'connection-refused.png') });
  expect((await conns(page))[1].params).toBeUndefined();
  await page.getByTestId('conn-param-nrm').fill('16');
  await page.getByTestId('conn-param-nrm').press('Enter');
  await expect.poll(async () => (await conns(page))[1].params).toEqual({ nrm: 16 });
  await expect(page.getByTestId('conn-param-nrm-error')).toHaveCount(0);
  await expect(page.getByTestId('editor-message')).toHaveText('C2 nrm changed: the run restarted at t = 0.');

  // TCP over UBR.
  await page.getByTestId('conn-kind').selectOption('tcp');
  await expect.poll(async () => (await conns(page))[1].tcp).toEqual({});
  await page.getByTestId('conn-service').selectOption('ubr');
  await expect.poll(async () => (await conns(page))[1].tcp).toEqual({ service: 'ubr' });
  await page.getByTestId('conn-field-mss_bytes').fill('10');
  await page.getByTestId('conn-field-mss_bytes').press('Enter');
  await expect(page.getByTestId('editor-message')).toHaveText('mss_bytes = 10 is out of range: must be between 64 and 65495 bytes');
  await expect(page.getByTestId('conn-field-mss_bytes-error')).toBeVisible();
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

// Issue 13: the web re-coded the engine's rules across fields; now the engine alone checks them,
// and its problem (with its path) is shown at the field.
test("the engine's rules across fields are shown at the connection's fields: stop after start, window at least the MSS", async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('view-editor').click();
  await page.getByTestId('ed-conn-C2').click();
  await page.getByTestId('conn-start_ms').fill('50');
  await page.getByTestId('conn-start_ms').press('Enter');
  await expect.poll(async () => (await conns(page))[1].start_ms).toBe(50);
  await page.getByTestId('conn-stop_ms').fill('20');
  await page.getByTestId('conn-stop_ms').press('Enter');
  await expect(page.getByTestId('conn-stop_ms-error')).toHaveText('stop_ms = 20 must be after start_ms = 50');
  await expect(page.getByTestId('editor-message')).toContainText('connections[1] (C2).stop_ms: stop_ms = 20 must be after start_ms = 50');
  // What was typed stays in the field, to be mended.
  await expect(page.getByTestId('conn-stop_ms')).toHaveValue('20');
  await page.screenshot({ path: resolve(shots, 'connection-engine-rule.png') });
  expect((await conns(page))[1]).not.toHaveProperty('stop_ms'); // refused: the loaded scenario stands

  await page.getByTestId('conn-kind').selectOption('tcp');
  await expect.poll(async () => (await conns(page))[1].tcp).toEqual({});
  await page.getByTestId('conn-field-mss_bytes').fill('9000');
  await page.getByTestId('conn-field-mss_bytes').press('Enter');
  await page.getByTestId('conn-field-window_bytes').fill('8000');
  await page.getByTestId('conn-field-window_bytes').press('Enter');
  await expect(page.getByTestId('conn-field-window_bytes-error')).toHaveText('window_bytes = 8000 must be at least mss_bytes = 9000');
  // A change the engine takes clears the rule.
  await page.getByTestId('conn-field-window_bytes').fill('18000');
  await page.getByTestId('conn-field-window_bytes').press('Enter');
  await expect.poll(async () => (await conns(page))[1].tcp).toEqual({ mss_bytes: 9000, window_bytes: 18000 });
  await expect(page.getByTestId('conn-field-window_bytes-error')).toHaveCount(0);
  // The study's TCP options, from the engine's catalogue: Reno recovery and a random delay.
  await expect(page.getByTestId('conn-recovery')).toHaveValue('newreno');
  await page.getByTestId('conn-recovery').selectOption('reno');
  await page.getByTestId('conn-field-random_delay_us').fill('500');
  await page.getByTestId('conn-field-random_delay_us').press('Enter');
  await expect
    .poll(async () => (await conns(page))[1].tcp)
    .toEqual({ mss_bytes: 9000, window_bytes: 18000, recovery: 'reno', random_delay_us: 500 });
  await page.getByTestId('conn-field-random_delay_us').fill('-5');
  await page.getByTestId('conn-field-random_delay_us').press('Enter');
  await expect(page.getByTestId('conn-field-random_delay_us-error')).toContainText('random_delay_us = -5 is out of range');
  await page.getByTestId('conn-form').screenshot({ path: resolve(shots, 'connection-tcp-options.png') });
  expect(errors).toEqual([]);
});

/** two-sources' C1 given PCR 10, below the ICR of 25 it takes from the defaults: refused. */
async function pcrBelowDefaultIcr(page: Page) {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('view-editor').click();
  await page.getByTestId('ed-conn-C1').click();
  await page.getByTestId('conn-params').locator('summary').click();
  await page.getByTestId('conn-param-pcr_mbps').fill('10');
  await page.getByTestId('conn-param-pcr_mbps').press('Enter');
  return errors;
}

// QA: a PCR below the default ICR emptied the field and was said only at the top of the editor,
// at defaults.source.icr_mbps.
test("a PCR below the ICR the connection takes from the defaults: the rule at the PCR typed, which stays", async ({ page }) => {
  const errors = await pcrBelowDefaultIcr(page);
  await expect(page.getByTestId('conn-param-pcr_mbps-error')).toContainText('icr_mbps = 25 must not exceed pcr_mbps = 10');
  await expect(page.getByTestId('conn-param-pcr_mbps')).toHaveValue('10');
  await expect(page.getByTestId('conn-param-icr_mbps-error')).toContainText('must not exceed pcr_mbps = 10');
  await expect(page.getByTestId('problems')).toContainText('was not applied');
  await page.getByTestId('conn-param-pcr_mbps-error').scrollIntoViewIfNeeded();
  await page.screenshot({ path: resolve(shots, 'connection-pcr-below-icr.png') });
  expect((await conns(page))[0].params).toBeUndefined();
  // Mended: taken, and the field shows the document again.
  await page.getByTestId('conn-param-pcr_mbps').fill('100');
  await page.getByTestId('conn-param-pcr_mbps').press('Enter');
  await expect.poll(async () => (await conns(page))[0].params).toEqual({ pcr_mbps: 100 });
  await expect(page.getByTestId('conn-param-pcr_mbps-error')).toHaveCount(0);
  await expect(page.getByTestId('conn-param-pcr_mbps')).toHaveValue('100');
  await expect(page.getByTestId('problems')).toHaveCount(0);
  expect(errors).toEqual([]);
});

// QA: mending the rule at the other field (ICR lowered under the refused PCR) applied the ICR
// and dropped the PCR the user had typed, with only "C1 icr_mbps changed" said.
test('a refused PCR is applied with the ICR that mends it', async ({ page }) => {
  const errors = await pcrBelowDefaultIcr(page);
  await expect(page.getByTestId('conn-param-pcr_mbps-error')).toContainText('must not exceed pcr_mbps = 10');
  await page.getByTestId('conn-param-icr_mbps').fill('5');
  await page.getByTestId('conn-param-icr_mbps').press('Enter');
  await expect.poll(async () => (await conns(page))[0].params).toEqual({ icr_mbps: 5, pcr_mbps: 10 });
  await expect(page.getByTestId('conn-param-pcr_mbps')).toHaveValue('10');
  await expect(page.getByTestId('conn-param-icr_mbps')).toHaveValue('5');
  await expect(page.getByTestId('conn-param-pcr_mbps-error')).toHaveCount(0);
  await expect(page.getByTestId('conn-param-icr_mbps-error')).toHaveCount(0);
  await expect(page.getByTestId('problems')).toHaveCount(0);
  await expect(page.getByTestId('editor-message')).toHaveText('C1 icr_mbps and pcr_mbps changed: the run restarted at t = 0.');
  expect(errors).toEqual([]);
});

test("at 1024 px the source parameters' meanings stay inside the connection form, under their fields", async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('view-editor').click();
  await page.getByTestId('ed-conn-C1').click();
  await page.getByTestId('conn-params').locator('summary').click();
  const form = (await page.getByTestId('conn-form').boundingBox())!;
  const meanings = await page.getByTestId('conn-params').locator('.conn-meaning').evaluateAll((els) =>
    els.map((e) => ({ right: e.getBoundingClientRect().right, width: e.getBoundingClientRect().width })),
  );
  expect(meanings.length).toBeGreaterThan(10);
  for (const m of meanings) {
    expect(m.right).toBeLessThanOrEqual(form.x + form.width);
    expect(m.width).toBeGreaterThan(250); // not a column a word wide (QA: about 80 px)
  }
  expect(errors).toEqual([]);
});

test('a connection proposed on the shortest path is routed on another one picked from the list', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('view-editor').click();
  await page.getByTestId('add-switch').click();
  // Drag SW3 below the SW1–SW2 link.
  const b = (await page.getByTestId('ed-node-SW3').boundingBox())!;
  const d2 = (await page.getByTestId('ed-node-SW2').boundingBox())!;
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
  await page.mouse.down();
  await page.mouse.move(d2.x - 40, d2.y + 220, { steps: 5 });
  await page.mouse.up();
  await page.getByTestId('tool-link').click();
  for (const [a, b] of [
    ['SW1', 'SW3'],
    ['SW3', 'SW2'],
  ]) {
    await page.getByTestId(`ed-node-${a}`).click();
    await page.getByTestId(`ed-node-${b}`).click();
  }
  // A new connection from S1 to D1: proposed on the shortest path, selected, the alternative listed.
  await page.getByTestId('tool-flow').click();
  await page.getByTestId('ed-node-S1').click();
  await page.getByTestId('ed-node-D1').click();
  await expect(page.getByTestId('conn-form')).toContainText('C3: S1 → D1');
  const picker = page.getByTestId('conn-path');
  await expect(picker).toHaveValue('S1 → SW1 → SW2 → D1');
  await expect(picker.locator('option')).toHaveText(['S1 → SW1 → SW2 → D1 (shortest)', 'S1 → SW1 → SW3 → SW2 → D1']);
  await picker.selectOption('S1 → SW1 → SW3 → SW2 → D1');
  await expect.poll(async () => (await conns(page))[2]).toMatchObject({ path: ['S1', 'SW1', 'SW3', 'SW2', 'D1'] });
  await expect(page.getByTestId('editor-message')).toHaveText('C3 routed S1 → SW1 → SW3 → SW2 → D1: the run restarted at t = 0.');
  await expect(page.locator('.ed-link.on-path')).toHaveCount(4);
  await page.getByTestId('tool-select').click();
  await page.screenshot({ path: resolve(shots, 'connection-path.png') });
  // It runs on that path: SW3's port carries traffic.
  await page.getByTestId('view-charts').click();
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('play').click();
  await waitForMode(page, 'done');
  // Its legend entry (the run's end now names it at once in the notes on the latest sample too).
  await expect(page.getByTestId('chart-queue').getByRole('button', { name: 'SW3->SW2' })).toBeVisible();
  expect(errors).toEqual([]);
});

// QA: undoing a parameter edit closed the connection form; it stays open on the connection,
// with the value the undo brought back — unless the undo took the connection itself away.
test('undo and redo of a connection parameter keep its form open, showing the restored value', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('view-editor').click();
  await page.getByTestId('ed-conn-C2').click();
  await page.getByTestId('conn-params').locator('summary').click();
  const nrm = page.getByTestId('conn-param-nrm');
  await nrm.fill('16');
  await nrm.press('Enter');
  await expect(page.getByTestId('editor-message')).toHaveText('C2 nrm changed: the run restarted at t = 0.');

  // The Undo button: the form stays on C2, its parameters still open, the field empty again.
  await page.getByTestId('undo').click();
  await expect.poll(async () => (await conns(page))[1].params).toBeUndefined();
  await expect(page.getByTestId('conn-form')).toContainText('C2: S2 → D2');
  await expect(nrm).toBeVisible();
  await expect(nrm).toHaveValue('');
  // Redo, then Ctrl+Z from outside the fields: the same.
  await page.getByTestId('redo').click();
  await expect.poll(async () => (await conns(page))[1].params).toEqual({ nrm: 16 });
  await expect(nrm).toHaveValue('16');
  await page.keyboard.press('Control+z');
  await expect.poll(async () => (await conns(page))[1].params).toBeUndefined();
  await expect(page.getByTestId('conn-form')).toContainText('C2: S2 → D2');
  await expect(nrm).toHaveValue('');

  // An undo that takes the connection away closes its form.
  await page.getByTestId('tool-flow').click();
  await page.getByTestId('ed-node-S1').click();
  await page.getByTestId('ed-node-D1').click();
  await expect(page.getByTestId('conn-form')).toContainText('C3: S1 → D1');
  await page.getByTestId('undo').click();
  await expect.poll(async () => (await conns(page)).length).toBe(2);
  await expect(page.getByTestId('conn-form')).toHaveCount(0);
  expect(errors).toEqual([]);
});

// The parameters every source takes (defaults.source) could be changed only in a file: two-sources
// runs RIF = 1 for both sources, and a student who wanted TM 4.0's 1/16 had to set it on each
// connection. The editor now has them in one form, read by every connection's fields.
test("every source's parameters (defaults.source) in one form: set, refused with the engine's rule, undone", async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('view-editor').click();
  const form = page.getByTestId('source-defaults');
  await expect(form.locator('summary')).toContainText('2 set here');
  await form.locator('summary').click();
  await expect(page.getByTestId('default-param-rif')).toHaveValue('1');
  await expect(page.getByTestId('default-param-icr_mbps')).toHaveValue('25');
  await expect(page.getByTestId('default-param-nrm')).toHaveAttribute('placeholder', '32');

  await page.getByTestId('default-param-rif').fill('0.0625');
  await page.getByTestId('default-param-rif').press('Enter');
  await expect(page.getByTestId('editor-message')).toHaveText('defaults.source.rif changed for every source: the run restarted at t = 0.');
  const doc = async () => JSON.parse((await page.evaluate(() => window.__abrlab!.scenario()))!) as { defaults?: { source?: Record<string, number> } };
  expect((await doc()).defaults?.source).toEqual({ icr_mbps: 25, rif: 0.0625 });
  // A connection's own field shows the value it now takes, greyed.
  await page.getByTestId('ed-conn-C1').click();
  await page.getByTestId('conn-params').locator('summary').click();
  await expect(page.getByTestId('conn-param-rif')).toHaveAttribute('placeholder', '0.0625');

  // An ICR above the sources' PCR: the engine's rule, for each connection, at the field; nothing changes.
  await page.getByTestId('default-param-icr_mbps').fill('200');
  await page.getByTestId('default-param-icr_mbps').press('Enter');
  await expect(page.getByTestId('default-param-icr_mbps-error')).toContainText('C1: icr_mbps = 200 must not exceed pcr_mbps = 155.52');
  await expect(page.getByTestId('default-param-icr_mbps-error')).toContainText('C2: icr_mbps = 200');
  await expect(page.getByTestId('default-param-icr_mbps')).toHaveValue('200');
  expect((await doc()).defaults?.source).toEqual({ icr_mbps: 25, rif: 0.0625 });
  await page.getByTestId('default-param-icr_mbps').fill('10');
  await page.getByTestId('default-param-icr_mbps').press('Enter');
  await expect(page.getByTestId('default-param-icr_mbps-error')).toHaveCount(0);
  await expect.poll(async () => (await doc()).defaults?.source).toEqual({ icr_mbps: 10, rif: 0.0625 });
  await page.getByTestId('default-param-icr_mbps').scrollIntoViewIfNeeded();
  await page.screenshot({ path: resolve(shots, 'source-defaults.png') });

  // Undo takes the edits back one at a time.
  await page.getByTestId('undo').click();
  await expect.poll(async () => (await doc()).defaults?.source).toEqual({ icr_mbps: 25, rif: 0.0625 });
  await expect(page.getByTestId('default-param-icr_mbps')).toHaveValue('25');
  await page.getByTestId('undo').click();
  await expect.poll(async () => (await doc()).defaults?.source).toEqual({ icr_mbps: 25, rif: 1 });
  expect(errors).toEqual([]);
});
