// Issue 6's metrics in the run summary: TCP goodput, timeouts and host queues; per-VPC goodput,
// fairness within each VPC and among them; per-VC queues at virtual sources. The engine's notes
// on a scenario (what to know before running it) as soon as it loads, and with the result.
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { openLab, repoRoot, seriousViolations, status, waitForMode } from './helpers';

test('a virtual-path run summarises TCP goodput and timeouts and the VPCs with their fairness', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=vpc-abr-rtt25');
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('play').click();
  await waitForMode(page, 'done');
  await page.getByTestId('tab-result').click(); // the lesson stays; the result is a click away
  const tcp = page.getByTestId('summary-tcp');
  await expect(tcp).toBeVisible();
  await expect(tcp.locator('tbody tr')).toHaveCount(20);
  const vp = page.getByTestId('summary-vp');
  await expect(vp.locator('tbody tr')).toHaveCount(5);
  await expect(vp).toContainText("Jain's index among the VPCs: 1.000");
  // Each ABR VPC carries a fifth of UT's 90 % target: about 22 Mb/s of goodput.
  const goodput = Number(await vp.locator('tbody tr').first().locator('td').nth(1).innerText());
  expect(goodput).toBeGreaterThan(18);
  expect(goodput).toBeLessThan(25);
  await page.screenshot({ path: 'test-results/summary-vpc.png' });
  expect(errors).toEqual([]);
});

test('a VS/VD run reports the largest per-VC queue at a virtual source', async ({ page }) => {
  await openLab(page, '/?scenario=vsvd-1');
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('play').click();
  await waitForMode(page, 'done', 90_000);
  await page.getByTestId('tab-result').click();
  await expect(page.getByTestId('summary-vsvd')).toContainText('Largest per-VC queue at a virtual source');
  // And the switch buffer the VS/VD study measures: switch 1's port and its per-VC queues.
  await expect(page.getByTestId('summary-vsvd')).toContainText(/largest switch buffer .*: \d+ cells at SW1->SW2/);
  await page.getByTestId('summary-vsvd').screenshot({ path: 'test-results/summary-vsvd.png' });
});

// QA: vbr-background said "Converged at: not within 10 %" while ERICA tracked the background's
// moves; honest-one-low too, judging a source by an ACR it ignores.
test('a run whose target keeps moving says how much of the steady window its rates were on target', async ({ page }) => {
  await openLab(page, '/?scenario=vbr-background');
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('play').click();
  await waitForMode(page, 'done');
  await page.getByTestId('tab-result').click();
  const converged = page.getByTestId('summary-converged');
  await expect(page.getByTestId('summary-converged-label')).toHaveText('Did not converge');
  await expect(converged).toHaveText(/^within 10 % for (8\d|9\d) % of the steady window$/);
  await expect(converged).toHaveAttribute('title', /round trip late/);
  await page.getByTestId('summary').screenshot({ path: 'test-results/summary-on-target.png' });

  await openLab(page, '/?scenario=honest-one-low');
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('play').click();
  await waitForMode(page, 'done');
  await page.getByTestId('tab-result').click();
  await expect(page.getByTestId('summary-converged-label')).toHaveText('Converged at');
  await expect(page.getByTestId('summary-converged')).toHaveText(/^1\d\d\.\d ms$/);
});

// The engine's notes were said only with the result: a user who imported a scenario with a
// tag_interval_us no switch reads learnt it at the end of the run. Now the side panel says them
// as the scenario loads, the editor's change that ends one ends it, and after the run the Result
// tab says them with its figures (not twice on one screen).
test("a tag_interval_us that changes nothing is said as the scenario loads, before Play, and goes when the editor takes it away", async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  const doc = JSON.parse(readFileSync(resolve(repoRoot, 'scenarios/qcn-hotspot.json'), 'utf8'));
  doc.defaults = { ...doc.defaults, source: { ...doc.defaults?.source, tag_interval_us: 500 } };
  doc.connections[1].params = { ...doc.connections[1].params, tag_interval_us: 250 };
  await page.evaluate((json) => window.__abrlab!.load(json, 'dead-tag.json'), JSON.stringify(doc));
  await expect.poll(() => page.evaluate(() => window.__abrlab!.scenarioId())).toBe('qcn-hotspot');
  const box = page.getByTestId('scenario-notes');
  const notes = page.getByTestId('scenario-note');
  await expect(notes).toHaveText([
    /^defaults\.source\.tag_interval_us: changes nothing, as no flow sends tags/,
    /^connections\[1\] \(F1\)\.params\.tag_interval_us: changes nothing, as F1 sends no tags/,
  ]);
  await expect(box.locator('summary')).toHaveText('2 notes on this scenario');
  expect(await status(page)).toMatchObject({ mode: 'paused', nowMs: 0 });
  expect(await page.evaluate(() => window.__abrlab!.problems())).toBeNull();
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: 'test-results/scenario-notes.png' });

  // Folded away by the reader, it stays folded while the notes are the same.
  await box.locator('summary').click();
  await expect(notes.first()).toBeHidden();

  // The note on F1's field opens F1 in the editor, its source parameters unfolded; taking F1's
  // own value away ends its note, and the defaults' stays (shown again).
  await box.locator('summary').click();
  await page.getByTestId('scenario-note-edit-F1').click();
  await expect(page.getByTestId('conn-form')).toBeVisible();
  await expect(page.getByTestId('conn-param-tag_interval_us')).toHaveValue('250');
  await expect(page.getByTestId('conn-param-tag_interval_us')).toBeVisible();
  await page.getByTestId('conn-param-tag_interval_us').fill('');
  await page.getByTestId('conn-param-tag_interval_us').press('Enter');
  await expect(notes).toHaveText([/^defaults\.source\.tag_interval_us: changes nothing/]);
  await expect(box.locator('summary')).toHaveText('A note on this scenario');
  await expect(page.getByTestId('conn-param-tag_interval_us')).toHaveValue('');
  await page.screenshot({ path: 'test-results/scenario-notes-editor.png' });

  // After the run the Result tab says it with the figures, and the panel's box is not there too.
  await page.getByTestId('view-charts').click();
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('play').click();
  await waitForMode(page, 'done');
  await page.getByTestId('tab-result').click();
  await expect(page.getByTestId('summary-note')).toHaveText([/^defaults\.source\.tag_interval_us: changes nothing/]);
  await expect(box).toHaveCount(0);

  // The note on the defaults' field opens the parameters every source takes; taking the value
  // away there ends it (and the run starts again).
  await page.getByTestId('tab-lesson').click();
  await expect(notes).toHaveCount(1);
  await page.getByTestId('scenario-note-edit-defaults').click();
  await expect(page.getByTestId('default-param-tag_interval_us')).toBeVisible();
  await expect(page.getByTestId('default-param-tag_interval_us')).toHaveValue('500');
  await page.getByTestId('default-param-tag_interval_us').fill('');
  await page.getByTestId('default-param-tag_interval_us').press('Enter');
  await expect(box).toHaveCount(0);
  await expect(page.getByTestId('scenario-notes-announcer')).toHaveText('');
  expect(errors).toEqual([]);
});

// Embedded (or with the side panel hidden) there was no side panel to say the notes: an embedded
// scenario with a dead tag_interval_us ran without a word. Now the charts carry them, folded.
test('embedded, the notes are over the charts, folded, and said to a screen reader', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources&embed=1');
  await expect(page.getByTestId('scenario-notes')).toHaveCount(0);
  const doc = JSON.parse(readFileSync(resolve(repoRoot, 'scenarios/qcn-hotspot.json'), 'utf8'));
  doc.connections[1].params = { ...doc.connections[1].params, tag_interval_us: 250 };
  await page.evaluate((json) => window.__abrlab!.load(json, 'dead-tag.json'), JSON.stringify(doc));
  const box = page.getByTestId('scenario-notes');
  await expect(box.locator('summary')).toHaveText('A note on this scenario');
  await expect(page.getByTestId('scenario-note')).toBeHidden();
  await expect(page.getByTestId('scenario-notes-announcer')).toContainText('connections[1] (F1).params.tag_interval_us: changes nothing');
  // No editor embedded: no Edit button.
  await box.locator('summary').click();
  await expect(page.getByTestId('scenario-note')).toHaveText([/^connections\[1\] \(F1\)\.params\.tag_interval_us: changes nothing/]);
  await expect(page.getByTestId('scenario-note-edit-F1')).toHaveCount(0);
  await expect(page.getByTestId('chart-rate')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: 'test-results/scenario-notes-embed.png' });
  expect(errors).toEqual([]);
});
