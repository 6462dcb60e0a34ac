// The sweep view: fecn-n0-sweep runs in the pool of workers and its table and CSV carry the very
// numbers `abrsim sweep` prints; a row opens its run; bad sweeps are refused with the field.
import { expect, test, type Page } from '@playwright/test';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { abrsimPath, downloadText, expectBoxEndsBetweenRows, openLab, repoRoot } from './helpers';

const shots = resolve(repoRoot, 'test-results/screens');
mkdirSync(shots, { recursive: true });
const FILE = resolve(repoRoot, 'scenarios/fecn-n0-sweep.json');

/** The CSV abrsim sweep prints for the file, or (no CLI built) the same made from the wasm
 *  engine under Node: header, then per run the values, the seed and the row. */
async function expectedCsv(json: string): Promise<string> {
  const cli = abrsimPath();
  if (cli) return execFileSync(cli, ['sweep', FILE], { encoding: 'utf8' });
  const { loadWasmEngine, runToEnd } = await import('../node/wasm-engine.mjs');
  const pkg = await loadWasmEngine();
  const { plan } = JSON.parse(pkg.sweepPlan(json));
  const lines = [plan.header.join(',')];
  for (let i = 0; i < plan.runs; i++) {
    const { sim } = runToEnd(pkg, pkg.sweepScenario(json, i));
    // The row's values as written (1.0 stays 1.0), as the CLI prints them.
    const raw = [...sim.summaryRow().matchAll(/\["[^"]*",(null|"[^"]*"|[^\]]*)\]/g)].map((m) => (m[1] === 'null' ? '' : m[1].replace(/^"|"$/g, '')));
    lines.push([plan.params[0].values[i], 1, ...raw].join(','));
    sim.free();
  }
  return lines.join('\n') + '\n';
}

async function runSweep(page: Page) {
  await page.getByTestId('view-sweep').click();
  await page.getByTestId('sweep-run').click();
  await expect(page.getByTestId('sweep')).toHaveAttribute('data-phase', 'done', { timeout: 60_000 });
}

test('fecn-n0-sweep runs in the browser: its table and CSV hold the numbers abrsim sweep prints', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=fecn-n0-sweep');
  await runSweep(page);
  await expect(page.getByTestId('sweep-plan')).toHaveText('3 runs: n0 ∈ {1, 10, 200}');
  await expect(page.getByTestId('sweep-status')).toContainText('3 runs in');
  // The form starts from the file's sweep, to change from.
  await expect(page.getByTestId('param-sweep-path')).toHaveValue('nodes.SW1.params.n0');
  await expect(page.getByTestId('param-sweep-values')).toHaveValue('1, 10, 200');
  await page.screenshot({ path: resolve(shots, 'sweep-n0.png') });

  const csv = await downloadText(page, () => page.getByTestId('sweep-csv').click());
  expect(csv.name).toBe('fecn-n0-sweep-sweep.csv');
  const expected = await expectedCsv(readFileSync(FILE, 'utf8'));
  expect(csv.text).toBe(expected);

  // The table: one row per N0, each metric's value the CLI's.
  const [header, ...runs] = expected.trimEnd().split('\n').map((l) => l.split(','));
  const rows = page.getByTestId('sweep-row');
  await expect(rows).toHaveCount(3);
  for (const metric of ['dropped_cells', 'link.L4.throughput_mbps', 'max_queue_cells', 'jain_index']) {
    const col = header.indexOf(metric);
    expect(col).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) {
      const cell = rows.nth(i).locator(`td[data-metric="${metric}"]`);
      expect(Number(await cell.getAttribute('data-value'))).toBe(Number(runs[i][col]));
    }
  }
  // The N0 = 1 row drops frames; the others none (the study's finding).
  expect(Number(runs[0][header.indexOf('dropped_cells')])).toBeGreaterThan(0);
  await expect(page.getByTestId('sweep-plot-dropped_cells').locator('circle')).toHaveCount(3);
  // Named in words, in frames (an Ethernet network: the engine's *_cells count frames).
  await expect(page.getByTestId('sweep-plot-dropped_cells').locator('figcaption')).toHaveText('frames dropped');

  // A row opens its run in the charts: the scenario with N0 = 200.
  await rows.nth(2).click();
  await expect(page.getByTestId('chart-rate')).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.__abrlab!.origin())).toBe('fecn-n0-sweep · sweep run 3: n0 = 200, seed 1');
  const opened = JSON.parse((await page.evaluate(() => window.__abrlab!.scenario()))!);
  expect(opened.nodes.find((n: { id: string }) => n.id === 'SW1').params.n0).toBe(200);
  // The results stay for when the user comes back.
  await page.getByTestId('view-sweep').click();
  await expect(page.getByTestId('sweep-row')).toHaveCount(3);
  // Said to be the sweep's, with its run open now (QA: it read as the run's own, and the
  // algorithm sweep offered there was headed as fecn-n0-sweep's).
  await expect(page.getByTestId('sweep-other')).toContainText(
    'the results of the last sweep, of fecn-n0-sweep; the scenario open now is fecn-n0-sweep · sweep run 3: n0 = 200, seed 1',
  );
  await expect(page.getByTestId('sweep').locator('h2')).toHaveText('Sweep of fecn-n0-sweep');
  // Back returns to the swept scenario (the row's run was a new history entry).
  await page.goBack();
  await expect.poll(() => page.evaluate(() => window.__abrlab!.origin())).toBe('fecn-n0-sweep');
  await expect(page).toHaveURL(/\?scenario=fecn-n0-sweep$/);
  await expect(page.getByTestId('sweep-other')).toHaveCount(0);
  // Another scenario opened: the results stay, said to be the last sweep's, not the open one's.
  await page.getByTestId('scenario-picker').selectOption('two-sources');
  await expect.poll(() => page.evaluate(() => window.__abrlab!.scenarioId())).toBe('two-sources');
  await page.getByTestId('view-sweep').click();
  await expect(page.getByTestId('sweep-row')).toHaveCount(3);
  await expect(page.getByTestId('sweep-other')).toContainText('the results of the last sweep, of fecn-n0-sweep; the scenario open now is Two sources');
  await expect(page.getByTestId('sweep-algorithms')).toBeVisible();
  await page.getByTestId('sweep').screenshot({ path: resolve(shots, 'sweep-of-another-scenario.png') });
  expect(errors).toEqual([]);
});

// QA: a kept sweep whose tab died read as running for ever. While its tab runs it, another tab
// says so; once that tab is closed, the sweep reads as cut short and finishes where it stopped,
// in its own record.
test('a sweep whose tab is closed reads as cut short in another tab, and finishes there as the same sweep', async ({ page, context }) => {
  const errors = await openLab(page, '/?scenario=fecn-n0-sweep');
  await page.getByTestId('view-sweep').click();
  // 200 values (the form's most) and 2 seeds: long enough to close its tab midway.
  const runs = 400;
  await page.getByTestId('param-sweep-values').fill(Array.from({ length: runs / 2 }, (_, i) => i + 1).join(', '));
  await page.getByTestId('param-sweep-seeds').fill('2');
  await page.getByTestId('param-sweep-run').click();
  // Some runs kept (a write a second while it runs).
  await expect(page.getByTestId('sweep-status')).toContainText(` of ${runs} runs`);
  await expect.poll(async () => Number((await page.getByTestId('sweep-status').textContent())!.split(' ')[0]), { timeout: 30_000 }).toBeGreaterThan(5);
  await page.waitForTimeout(1500);

  const other = await context.newPage();
  const otherErrors = await openLab(other, '/?scenario=fecn-n0-sweep');
  await other.getByTestId('view-sweep').click();
  await expect(other.getByTestId('sweep-status')).toHaveText(new RegExp(`^still running in another tab: \\d+ of ${runs} runs kept so far$`));
  await expect(other.getByTestId('sweep-finish')).toHaveCount(0);

  await page.close();
  await other.reload();
  await other.getByTestId('view-sweep').click();
  const status = other.getByTestId('sweep-status');
  await expect(status).toHaveText(new RegExp(`^cut short when its page closed or reloaded: \\d+ of ${runs} runs kept$`));
  const kept = Number((await status.textContent())!.match(/: (\d+) of/)![1]);
  expect(kept).toBeLessThan(runs);
  await expect(other.getByTestId('sweep-finish')).toHaveText(`Finish it (${runs - kept} run${runs - kept === 1 ? '' : 's'} left)`);
  await other.screenshot({ path: resolve(shots, 'sweep-cut-short.png') });
  await other.getByTestId('sweep-finish').click();
  await expect(other.getByTestId('sweep')).toHaveAttribute('data-phase', 'done', { timeout: 120_000 });
  await expect(status).toContainText(`${runs} runs in`);
  // Kept as one sweep: a reload shows it whole, and offers no other.
  await other.reload();
  await other.getByTestId('view-sweep').click();
  await expect(other.getByTestId('sweep')).toHaveAttribute('data-phase', 'done');
  await expect(other.getByTestId('sweep-row')).toHaveCount(runs / 2);
  await expect(other.getByTestId('sweep-row').filter({ hasNotText: '2/2' })).toHaveCount(0);
  await expect(other.getByTestId('sweep-kept-choice')).toHaveCount(0);
  expect(errors).toEqual([]);
  expect(otherErrors).toEqual([]);
});

// Nothing a user made is lost: a sweep's results outlive the page (kept in IndexedDB).
test('a sweep\'s results outlive a reload: the same rows, the same CSV, said to be kept from before', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=fecn-n0-sweep');
  await runSweep(page);
  const rows = page.getByTestId('sweep-row');
  await expect(rows).toHaveCount(3);
  const cells = () => rows.locator('td').evaluateAll((tds) => tds.map((td) => `${td.textContent}|${td.getAttribute('data-value') ?? ''}`));
  const before = await cells();
  const csv = await downloadText(page, () => page.getByTestId('sweep-csv').click());
  const status = await page.getByTestId('sweep-status').textContent();
  await expect(page.getByTestId('sweep-kept')).toHaveCount(0);

  await page.reload();
  await page.getByTestId('view-sweep').click();
  await expect(page.getByTestId('sweep-kept')).toContainText('Results of the sweep run on');
  await expect(page.getByTestId('sweep')).toHaveAttribute('data-phase', 'done');
  await expect(rows).toHaveCount(3);
  expect(await cells()).toEqual(before);
  await expect(page.getByTestId('sweep-status')).toHaveText(status!);
  await expect(page.getByTestId('sweep-plot-dropped_cells').locator('circle')).toHaveCount(3);
  const again = await downloadText(page, () => page.getByTestId('sweep-csv').click());
  expect(again).toEqual(csv);
  await expect(page.getByTestId('sweep-run')).toHaveText('Run it again');
  await expect(page.getByTestId('sweep-other')).toHaveCount(0);
  // Another scenario opened: the kept results stay, said to be the last sweep's.
  await page.getByTestId('scenario-picker').selectOption('two-sources');
  await expect.poll(() => page.evaluate(() => window.__abrlab!.scenarioId())).toBe('two-sources');
  await page.getByTestId('view-sweep').click();
  await expect(page.getByTestId('sweep-other')).toContainText('the results of the last sweep, of fecn-n0-sweep; the scenario open now is Two sources');
  // A row opens its run, as before the reload.
  await rows.nth(2).click();
  await expect.poll(() => page.evaluate(() => window.__abrlab!.origin())).toBe('fecn-n0-sweep · sweep run 3: n0 = 200, seed 1');
  expect(errors).toEqual([]);
});

// QA: from a run of fecn-n0-sweep opened, "Sweep the switch algorithms" swept that run's
// scenario but was headed "Sweep of fecn-n0-sweep" with the n0 results' note gone.
// A newer lab opened in another tab (after a deploy) upgrades the lab's databases: this tab lets
// them go at once instead of blocking that tab for ever, and says quietly why what it runs next
// cannot be kept.
test('another tab upgrading the databases is not blocked by this one, which says why its sweep is not kept', async ({ page, context }) => {
  const errors = await openLab(page, '/?scenario=fecn-n0-sweep');
  await runSweep(page);
  const other = await context.newPage();
  // A page of the same origin (any: only its IndexedDB is used).
  await other.goto(new URL('robots.txt', page.url()).href).catch(() => undefined);
  const upgraded = await other.evaluate(() =>
    Promise.all(
      ['abrlab', 'abrlab-sweeps'].map(
        (name) =>
          new Promise<string>((resolve) => {
            const open = indexedDB.open(name, 50);
            const t = setTimeout(() => resolve('blocked'), 3000);
            open.onsuccess = () => (clearTimeout(t), open.result.close(), resolve('upgraded'));
            open.onerror = () => (clearTimeout(t), resolve(String(open.error)));
          }),
      ),
    ),
  );
  expect(upgraded).toEqual(['upgraded', 'upgraded']);
  await page.getByTestId('sweep-run').click();
  await expect(page.getByTestId('sweep')).toHaveAttribute('data-phase', 'done', { timeout: 60_000 });
  await expect(page.getByTestId('sweep-unkept')).toContainText('a newer version of the lab, open in another tab, has upgraded the browser’s storage: reload this tab');
  expect(errors).toEqual([]);
});

// QA: one sweep was kept per scenario id, so a parameter sweep and the algorithm sweep of one
// scenario replaced each other: each is kept now, and the other is a click away after a reload.
test('an algorithm sweep and a parameter sweep of one scenario are both kept: after a reload either shows', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('view-sweep').click();
  await page.getByTestId('sweep-algorithms').click();
  await expect(page.getByTestId('sweep')).toHaveAttribute('data-phase', 'done', { timeout: 60_000 });
  const rows = page.getByTestId('sweep-row');
  await expect(rows).toHaveCount(7);
  await page.getByTestId('param-sweep-values').fill('0.8, 0.9');
  await page.getByTestId('param-sweep-run').click();
  await expect(page.getByTestId('sweep')).toHaveAttribute('data-phase', 'done', { timeout: 60_000 });
  await expect(rows).toHaveCount(2);
  await page.reload();
  await page.getByTestId('view-sweep').click();
  // The last kept shows, the other is offered.
  await expect(page.getByTestId('sweep-kept')).toContainText('Results of the sweep run on');
  await expect(rows).toHaveCount(2);
  const choices = page.getByTestId('sweep-kept-choice');
  await expect(choices).toHaveCount(1);
  await expect(choices).toContainText('algorithm · ');
  await choices.click();
  await expect(rows).toHaveCount(7);
  await expect(page.getByTestId('sweep-plan')).toContainText('7 runs: algorithm ∈');
  await expect(choices).toHaveCount(1);
  await expect(choices).toContainText('nodes.*.params.target_utilization · ');
  // Forgotten, the algorithm sweep stays on the page, said to be kept no more; a reload shows
  // the other, and offers nothing else.
  await page.getByTestId('sweep-forget').click();
  await expect(page.getByTestId('sweep-unkept')).toContainText('no longer kept in this browser');
  await expect(rows).toHaveCount(7);
  await page.reload();
  await page.getByTestId('view-sweep').click();
  await expect(rows).toHaveCount(2);
  await expect(page.getByTestId('sweep-kept-choice')).toHaveCount(0);
  expect(errors).toEqual([]);
});

// Issue: two tabs sweeping the same thing kept one sweep between them (the second deleted the
// first's rows as it began): each is kept, the newest shows, the other is offered.
test('the same sweep run in two tabs is kept twice: a new page shows the newest and offers the other', async ({ page, context }) => {
  const errors = await openLab(page, '/?scenario=fecn-n0-sweep');
  await runSweep(page);
  const other = await context.newPage();
  const otherErrors = await openLab(other, '/?scenario=fecn-n0-sweep');
  await other.getByTestId('view-sweep').click();
  // The other tab shows the first's results (kept), and runs the same sweep again.
  await expect(other.getByTestId('sweep-kept')).toBeVisible();
  await other.getByTestId('sweep-run').click();
  await expect(other.getByTestId('sweep')).toHaveAttribute('data-phase', 'done', { timeout: 60_000 });
  await other.close();
  await page.reload();
  await page.getByTestId('view-sweep').click();
  await expect(page.getByTestId('sweep-kept')).toContainText('Results of the sweep run on');
  await expect(page.getByTestId('sweep-row')).toHaveCount(3);
  const choices = page.getByTestId('sweep-kept-choice');
  await expect(choices).toHaveCount(1);
  await expect(choices).toContainText('n0 · ');
  await choices.click();
  await expect(page.getByTestId('sweep-row')).toHaveCount(3);
  await expect(page.getByTestId('sweep-status')).toContainText('3 runs in');
  expect(errors).toEqual([]);
  expect(otherErrors).toEqual([]);
});

// Issue: with no sweep block, a new page showed the scenario's latest kept sweep, not the one of
// what its form (kept across the reload) is set to run.
test('a new page shows the kept sweep of what the form is set to run; none kept of it, the latest, said to differ', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('view-sweep').click();
  const phase = page.getByTestId('sweep');
  const plan = page.getByTestId('sweep-plan');
  const TU = 'nodes.*.params.target_utilization';
  const RATE = 'links.L1.rate_mbps';
  await page.getByTestId('param-sweep-values').fill('0.8, 0.9');
  await page.getByTestId('param-sweep-run').click();
  await expect(phase).toHaveAttribute('data-phase', 'done', { timeout: 60_000 });
  await page.getByTestId('param-sweep-path').selectOption(RATE);
  await page.getByTestId('param-sweep-values').fill('100, 150');
  await page.getByTestId('param-sweep-run').click();
  await expect(phase).toHaveAttribute('data-phase', 'done', { timeout: 60_000 });
  await expect(plan).toContainText(`2 runs: ${RATE}`);
  // The form back on the first parameter (its values as written), then a reload: its sweep
  // shows, though the other is newer, and nothing says it differs.
  await page.getByTestId('param-sweep-path').selectOption(TU);
  await expect(page.getByTestId('param-sweep-values')).toHaveValue('0.8, 0.9');
  await page.reload();
  await page.getByTestId('view-sweep').click();
  await expect(page.getByTestId('sweep-kept')).toContainText('Results of the sweep run on');
  await expect(plan).toContainText(`2 runs: ${TU}`);
  await expect(page.getByTestId('sweep-kept-choice')).toContainText(`${RATE} · `);
  await expect(page.getByTestId('sweep-kept-differs')).toHaveCount(0);
  // The form on a parameter never swept: the latest shows, said to differ from the form.
  await page.getByTestId('param-sweep-path').selectOption('links.L2.delay_us');
  await page.reload();
  await page.getByTestId('view-sweep').click();
  await expect(plan).toContainText(`2 runs: ${RATE}`);
  await expect(page.getByTestId('sweep-kept-differs')).toHaveText(`Kept from an earlier sweep of ${RATE} (the form now varies links.L2.delay_us).`);
  expect(errors).toEqual([]);
});

test("an algorithm sweep started from a sweep's run opened is headed as that run's", async ({ page }) => {
  const errors = await openLab(page, '/?scenario=fecn-n0-sweep');
  await runSweep(page);
  await page.getByTestId('sweep-row').nth(2).click();
  await expect.poll(() => page.evaluate(() => window.__abrlab!.origin())).toBe('fecn-n0-sweep · sweep run 3: n0 = 200, seed 1');
  await page.getByTestId('view-sweep').click();
  await expect(page.getByTestId('sweep-other')).toContainText('of fecn-n0-sweep; the scenario open now is fecn-n0-sweep · sweep run 3: n0 = 200, seed 1.');
  await page.getByTestId('sweep-algorithms').click();
  await expect(page.getByTestId('sweep')).toHaveAttribute('data-phase', 'done', { timeout: 60_000 });
  await expect(page.getByTestId('sweep').locator('h2')).toHaveText('Sweep of fecn-n0-sweep · sweep run 3: n0 = 200, seed 1');
  await expect(page.getByTestId('sweep-plan')).toHaveText('3 runs: algorithm ∈ {fecn, qcn, none}');
  // These are the open scenario's own results now.
  await expect(page.getByTestId('sweep-other')).toHaveCount(0);
  expect(errors).toEqual([]);
});

// The swept scenario is told by what it runs, not its id and origin: a file changed and opened
// again (an edit made twice, a change recorded during a run) keeps both; a node moved does not
// make it another.
test('the last sweep\'s results, with its file opened again changed, are said to be of the file as it was', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=fecn-n0-sweep');
  const text = readFileSync(FILE, 'utf8');
  const open = async (json: string) => {
    await page.evaluate((j) => window.__abrlab!.load(j, 'n0.json'), json);
    await expect.poll(() => page.evaluate(() => window.__abrlab!.scenario())).toBe(json);
  };
  await open(text);
  await runSweep(page);
  await expect(page.getByTestId('sweep-other')).toHaveCount(0);
  // A node moved and the description reworded: the same runs, so the results stay its own.
  const moved = JSON.parse(text);
  moved.nodes[0].x += 40;
  moved.description = `${moved.description} (redrawn)`;
  await open(JSON.stringify(moved, null, 2));
  await page.getByTestId('view-sweep').click();
  await expect(page.getByTestId('sweep-row')).toHaveCount(3);
  await expect(page.getByTestId('sweep-other')).toHaveCount(0);
  await expect(page.getByTestId('sweep-run')).toHaveText('Run it again');
  const changed = JSON.parse(text);
  changed.sweep.vary[0].values = [1, 10, 400];
  await open(JSON.stringify(changed, null, 2));
  await page.getByTestId('view-sweep').click();
  await expect(page.getByTestId('sweep-row')).toHaveCount(3);
  await expect(page.getByTestId('sweep-other')).toContainText(
    'These are the results of the last sweep, of n0.json; the scenario open now is n0.json, changed since. Running a sweep of it replaces them.',
  );
  await expect(page.getByTestId('sweep-run')).toHaveText('Run the sweep');
  await expect(page.getByTestId('sweep-plan')).toHaveText('3 runs: n0 ∈ {1, 10, 200}');
  // The file as it was swept: its results again, to run again.
  await open(text);
  await expect(page.getByTestId('sweep-other')).toHaveCount(0);
  await expect(page.getByTestId('sweep-run')).toHaveText('Run it again');
  expect(errors).toEqual([]);
});

test('a bad sweep is refused naming the field; one too big for the browser gives the abrsim sweep command', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=fecn-n0-sweep');
  const load = async (edit: (doc: { sweep: { vary: { values: unknown[] }[]; seeds?: number } }) => void) => {
    const doc = JSON.parse(readFileSync(FILE, 'utf8'));
    edit(doc);
    doc.id = `bad-sweep-${Math.random().toString(36).slice(2, 7)}`;
    await page.evaluate((json) => window.__abrlab!.load(json, 'bad-sweep.json'), JSON.stringify(doc));
    await expect.poll(() => page.evaluate(() => window.__abrlab!.scenarioId())).toBe(doc.id);
  };
  await load((doc) => (doc.sweep.vary[0].values = [1, 0]));
  await page.getByTestId('view-sweep').click();
  await page.getByTestId('sweep-run').click();
  await expect(page.getByTestId('sweep')).toHaveAttribute('data-phase', 'refused');
  const refused = page.getByTestId('sweep-refused');
  await expect(refused).toContainText('sweep.vary[0].values[1]');
  await expect(refused).toContainText('n0');

  await load((doc) => {
    doc.sweep.vary[0].values = Array.from({ length: 101 }, (_, i) => i + 1);
    doc.sweep.seeds = 100;
  });
  await page.getByTestId('sweep-run').click();
  await expect(refused).toContainText('10,100 runs');
  await expect(refused).toContainText(/abrsim sweep bad-sweep-\w+\.json > bad-sweep-\w+\.csv/);
  // The refusal was of that file: with the library's fecn-n0-sweep open again, the view is its.
  await page.getByTestId('scenario-picker').selectOption('fecn-n0-sweep');
  await expect.poll(() => page.evaluate(() => window.__abrlab!.scenarioId())).toBe('fecn-n0-sweep');
  await expect(refused).toHaveCount(0);
  await expect(page.getByTestId('sweep').locator('h2')).toHaveText('Sweep of fecn-n0-sweep');
  await expect(page.getByTestId('sweep').locator('.sweep-plan')).toHaveText('n0 ∈ {1, 10, 200}');
  await expect(page.getByTestId('sweep-run')).toHaveText('Run the sweep');
  expect(errors).toEqual([]);
});

// The seeds of a sweep block follow one rule, the engine's (`sweep.seeds`, 1 to 10,000): a file
// past it is named as it loads, in abrsim validate's words; one within it runs as it is. The
// form, which offers 1 to 100, starts from the block's seeds only where it takes them (QA: it
// showed the block's 20,000 in its field, unchecked).
test("a sweep block's seeds past the engine's limit are named as the file loads, as abrsim validate names them; within it the block runs", async ({ page }) => {
  const errors = await openLab(page, '/?scenario=fecn-n0-sweep');
  const open = async (seeds: number) => {
    const doc = JSON.parse(readFileSync(FILE, 'utf8'));
    doc.id = `seeds-${seeds}`;
    doc.sweep.seeds = seeds;
    doc.run.duration_ms = 2;
    doc.run.steady_from_ms = 1;
    const text = JSON.stringify(doc);
    await page.getByTestId('scenario-file').setInputFiles({ name: `${doc.id}.json`, mimeType: 'application/json', buffer: Buffer.from(text) });
    await expect.poll(() => page.evaluate(() => window.__abrlab!.scenarioId())).toBe(doc.id);
    return text;
  };
  const rule = 'seeds = 20000 must be between 1 and 10000';
  const text = await open(20_000);
  await expect(page.getByTestId('notice-problems')).toContainText('sweep.seeds');
  await expect(page.getByTestId('notice-problems')).toContainText(rule);
  const cli = abrsimPath();
  if (cli) {
    const file = resolve(repoRoot, 'test-results/seeds-20000.json');
    writeFileSync(file, text);
    const validated = spawnSync(cli, ['validate', file], { encoding: 'utf8' });
    expect(validated.status).toBe(2);
    expect(validated.stderr).toContain(`sweep.seeds: ${rule}`);
  }
  await page.getByTestId('view-sweep').click();
  await expect(page.getByTestId('sweep-block-problems')).toContainText(rule);
  await expect(page.getByTestId('param-sweep-seeds')).toHaveValue('1');
  // 500 seeds: nothing to say; the block runs them (and the form starts from one seed).
  await open(500);
  await expect(page.getByTestId('sweep-block-problems')).toHaveCount(0);
  await expect(page.getByTestId('param-sweep-seeds')).toHaveValue('1');
  await page.getByTestId('sweep-run').click();
  await expect(page.getByTestId('sweep-plan')).toContainText('1500 runs: n0 ∈ {1, 10, 200}, 500 seeds each');
  expect(errors).toEqual([]);
});

test('a scenario without a sweep block sweeps its switch algorithms: one row per ATM algorithm, as abrsim sweep --vary prints them', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('view-sweep').click();
  await page.getByTestId('sweep-algorithms').click();
  await expect(page.getByTestId('sweep')).toHaveAttribute('data-phase', 'done', { timeout: 60_000 });
  await expect(page.getByTestId('sweep-plan')).toContainText('7 runs: algorithm ∈ {erica, erica_plus, debra, series_d, ut, eprca, efci}');
  const rows = page.getByTestId('sweep-row');
  await expect(rows).toHaveCount(7);
  await page.screenshot({ path: resolve(shots, 'sweep-algorithms.png') });
  // Algorithms are categories: points under their names, not a line through them.
  const jain = page.getByTestId('sweep-plot-jain_index');
  await expect(jain.locator('circle')).toHaveCount(7);
  await expect(jain.locator('polyline')).toHaveCount(0);
  await expect(jain.locator('svg text')).toContainText(['ERICA', 'ERICA+', 'DEBRA', 'Series-D', 'Uniform Tracking', 'EPRCA', 'EFCI marking']);
  await expect(jain.locator('g[data-value="erica_plus"] title')).toHaveText('erica_plus');
  // QA: the table wrote the ids (erica_plus, ut) where its plots name them (the CSV keeps ids).
  await expect(rows.nth(1).locator('td').first()).toHaveText('ERICA+');
  await expect(rows.nth(4).locator('td').first()).toHaveText('Uniform Tracking');
  // Jain's index per algorithm is the CLI's for the same override.
  const cli = abrsimPath();
  if (cli) {
    const csv = execFileSync(cli, ['sweep', resolve(repoRoot, 'scenarios/two-sources.json'), '--vary', 'nodes.*.algorithm=erica,erica_plus,debra,series_d,ut,eprca,efci'], { encoding: 'utf8' });
    const [header, ...runs] = csv.trimEnd().split('\n').map((l) => l.split(','));
    const col = header.indexOf('jain_index');
    for (let i = 0; i < 7; i++) {
      const cell = rows.nth(i).locator('td[data-metric="jain_index"]');
      expect(Number(await cell.getAttribute('data-value'))).toBe(Number(runs[i][col]));
    }
  }
  expect(errors).toEqual([]);
});

// QA: a scenario without a sweep block could only sweep its algorithms: a student asking "what if
// target_utilization were 1.0?" over a range had to write a sweep block in a file.
test('the Sweep tab sweeps one parameter picked from the list: rows as abrsim sweep --vary prints them, bad values named, the form kept', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('view-sweep').click();
  const form = page.getByTestId('param-sweep');
  // It starts at every switch's first parameter, with values around the one it has now.
  await expect(page.getByTestId('param-sweep-path')).toHaveValue('nodes.*.params.target_utilization');
  await expect(page.getByTestId('param-sweep-values')).toHaveValue('0.5, 0.6, 0.7, 0.8, 0.9, 1');
  await expect(page.getByTestId('param-sweep-about')).toContainText('Every switch (ERICA)');
  await expect(page.getByTestId('param-sweep-about')).toContainText('now 0.9');
  // A word that is no number is said at the field, and nothing runs.
  await page.getByTestId('param-sweep-values').fill('0.8, x');
  await page.getByTestId('param-sweep-run').click();
  await expect(form.getByRole('alert')).toHaveText("values: 'x' is not a number");
  await expect(page.getByTestId('sweep')).toHaveAttribute('data-phase', 'idle');
  // A value out of the parameter's range: said at the field with the catalogue's range.
  await page.getByTestId('param-sweep-path').selectOption('nodes.SW1.params.target_utilization');
  await page.getByTestId('param-sweep-values').fill('0.9, 1.5');
  await page.getByTestId('param-sweep-run').click();
  await expect(form.getByRole('alert')).toHaveText('values: 1.5 is out of range: target_utilization is from 0.1 to 1');
  await expect(page.getByTestId('sweep')).toHaveAttribute('data-phase', 'idle');
  // A range, with two seeds each.
  await page.getByTestId('param-sweep-values').fill('0.8:0.1:1');
  await page.getByTestId('param-sweep-seeds').fill('2');
  const command = 'abrsim sweep scenarios/two-sources.json --vary nodes.SW1.params.target_utilization=0.8:0.1:1 --seeds 2';
  await expect(page.getByTestId('param-sweep-command')).toHaveText(command);
  await page.getByTestId('param-sweep-run').click();
  await expect(page.getByTestId('sweep')).toHaveAttribute('data-phase', 'done', { timeout: 60_000 });
  await expect(page.getByTestId('sweep-plan')).toContainText('6 runs: nodes.SW1.params.target_utilization ∈ {0.8, 0.9, 1}, 2 seeds each');
  const rows = page.getByTestId('sweep-row');
  await expect(rows).toHaveCount(3);
  await page.getByTestId('sweep').screenshot({ path: resolve(shots, 'sweep-parameter.png') });
  const cli = abrsimPath();
  if (cli) {
    // The command the form shows, as it shows it.
    const csv = execFileSync(cli, ['sweep', resolve(repoRoot, 'scenarios/two-sources.json'), '--vary', 'nodes.SW1.params.target_utilization=0.8:0.1:1', '--seeds', '2'], { encoding: 'utf8' });
    const [header, ...runs] = csv.trimEnd().split('\n').map((l) => l.split(','));
    const col = header.indexOf('max_queue_cells');
    for (let i = 0; i < 3; i++) {
      const cell = rows.nth(i).locator('td[data-metric="max_queue_cells"]');
      // Deterministic sources: both seeds give the run's value, the mean is it.
      expect(Number(await cell.getAttribute('data-value'))).toBe(Number(runs[2 * i][col]));
    }
  }
  // The form is kept with the scenario: a reload finds it as it was left.
  await page.reload();
  await page.getByTestId('view-sweep').click();
  await expect(page.getByTestId('param-sweep-path')).toHaveValue('nodes.SW1.params.target_utilization');
  await expect(page.getByTestId('param-sweep-values')).toHaveValue('0.8:0.1:1');
  await expect(page.getByTestId('param-sweep-seeds')).toHaveValue('2');
  // A second parameter makes a grid: a parameter that sets what the first sets is refused at its
  // field; a link's delay runs with it, every combination, as two --vary.
  await page.getByTestId('param-sweep-add').click();
  const second = page.getByTestId('param-sweep-2');
  await second.getByTestId('param-sweep-path').selectOption('nodes.*.params.target_utilization');
  await page.getByTestId('param-sweep-run').click();
  await expect(second.getByRole('alert')).toHaveText('parameter 2: values: it sets what parameter 1 sets (nodes.SW1.params.target_utilization): pick another');
  await second.getByTestId('param-sweep-path').selectOption('links.L3.delay_us');
  await second.getByTestId('param-sweep-values').fill('5, 500');
  await page.getByTestId('param-sweep-seeds').fill('1');
  await expect(page.getByTestId('param-sweep-command')).toHaveText(
    'abrsim sweep scenarios/two-sources.json --vary nodes.SW1.params.target_utilization=0.8:0.1:1 --vary links.L3.delay_us=5,500',
  );
  await expect(page.getByTestId('param-sweep-run')).toHaveText('Sweep them (6 runs)');
  await page.getByTestId('param-sweep-run').click();
  await expect(page.getByTestId('sweep')).toHaveAttribute('data-phase', 'done', { timeout: 60_000 });
  await expect(page.getByTestId('sweep-plan')).toContainText('6 runs: nodes.SW1.params.target_utilization ∈ {0.8, 0.9, 1} × links.L3.delay_us ∈ {5, 500}');
  await expect(rows).toHaveCount(6);
  // The link was given in km: the sweep says the distance is taken away, once.
  await expect(page.getByTestId('sweep-notes')).toContainText('with every value of links.L3.delay_us: links.L3.distance_km (1 km) is taken away');
  await page.getByTestId('sweep').screenshot({ path: resolve(shots, 'sweep-grid.png') });
  // Removing it leaves the first as it was.
  await second.getByTestId('param-sweep-remove').click();
  await expect(page.getByTestId('param-sweep-2')).toHaveCount(0);
  await expect(page.getByTestId('param-sweep-values')).toHaveValue('0.8:0.1:1');
  // Kept in the scenario: it becomes the scenario's sweep block (the user's copy, under Mine),
  // which the tab then runs as a file's, and Undo takes it back.
  await page.getByTestId('param-sweep-keep').click();
  await expect.poll(() => page.evaluate(() => JSON.parse(window.__abrlab!.scenario() ?? '{}').sweep)).toEqual({
    vary: [{ paths: ['nodes.SW1.params.target_utilization'], values: [0.8, 0.9, 1] }],
  });
  await expect.poll(() => page.evaluate(() => window.__abrlab!.myScenarios().length)).toBe(1);
  await expect(page.getByTestId('sweep-run')).toBeVisible();
  await page.getByTestId('sweep-run').click();
  await expect(page.getByTestId('sweep')).toHaveAttribute('data-phase', 'done', { timeout: 60_000 });
  await expect(rows).toHaveCount(3);
  await page.keyboard.press('Control+z');
  await expect.poll(() => page.evaluate(() => JSON.parse(window.__abrlab!.scenario() ?? '{}').sweep ?? null)).toBeNull();
  expect(errors).toEqual([]);
});

// QA of the form: the seeds field put 1 back the moment it was emptied (so "20" typed read 12) and
// clamped 0 and 101 without a word; a value out of the parameter's range was left to the engine's
// refusal (named sweep.vary[0].values[0], once per switch); a list holding a range was refused;
// a parameter added or removed by keyboard left the focus on nothing; Keep dropped the block's
// metrics and its column's name.
test("the Sweep tab's form names bad seeds and values out of range at their fields, keeps the keyboard's place, and Keep keeps the block's metrics", async ({ page }) => {
  const errors = await openLab(page, '/?scenario=fecn-n0-sweep');
  await page.getByTestId('view-sweep').click();
  const form = page.getByTestId('param-sweep');
  const seeds = page.getByTestId('param-sweep-seeds');
  await seeds.click();
  await seeds.press('Control+a');
  await seeds.press('Backspace');
  await expect(seeds).toHaveValue('');
  await seeds.pressSequentially('20');
  await expect(seeds).toHaveValue('20');
  await expect(page.getByTestId('param-sweep-run')).toHaveText('Sweep n0 (60 runs)');
  await seeds.fill('0');
  await page.getByTestId('param-sweep-values').press('Enter');
  await expect(form.getByRole('alert')).toHaveText("seeds: a whole number from 1 to 100, not '0'");
  await expect(page.getByTestId('sweep')).toHaveAttribute('data-phase', 'idle');
  await seeds.fill('2');
  // Out of range, said at the field with the parameter's range; nothing runs.
  await page.getByTestId('param-sweep-values').fill('0, 10');
  await page.getByTestId('param-sweep-values').press('Enter');
  await expect(form.getByRole('alert')).toHaveText('values: 0 is out of range: n0 is from 1 to 100,000');
  await expect(page.getByTestId('sweep')).toHaveAttribute('data-phase', 'idle');
  // A list with a range in it, as --vary takes it.
  await page.getByTestId('param-sweep-values').fill('1, 10:90:200');
  await expect(page.getByTestId('param-sweep-command')).toHaveText('abrsim sweep scenarios/fecn-n0-sweep.json --vary nodes.SW1.params.n0=1,10:90:200 --seeds 2');
  // Another parameter looked at (by arrows, each a change) and this one picked again: its values
  // as written come back, not the suggestions (QA: they were lost).
  await page.getByTestId('param-sweep-path').selectOption('nodes.SW1.params.interval_us');
  await expect(page.getByTestId('param-sweep-values')).toHaveValue('500, 750, 1000, 1250, 1500');
  await page.getByTestId('param-sweep-path').selectOption('nodes.SW1.params.n0');
  await expect(page.getByTestId('param-sweep-values')).toHaveValue('1, 10:90:200');
  // Keyboard: a parameter added takes the focus at its list; removed, the one before it has it.
  await page.getByTestId('param-sweep-add').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('param-sweep-2').getByTestId('param-sweep-path')).toBeFocused();
  await page.getByTestId('param-sweep-2').getByTestId('param-sweep-remove').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('param-sweep-path')).toBeFocused();
  // Kept in the scenario: the block's metrics and the column's name stay.
  await page.getByTestId('param-sweep-keep').click();
  await expect.poll(() => page.evaluate(() => JSON.parse(window.__abrlab!.scenario() ?? '{}').sweep)).toEqual({
    vary: [{ name: 'n0', paths: ['nodes.SW1.params.n0'], values: [1, 10, 100, 190] }],
    seeds: 2,
    metrics: ['dropped_cells', 'link.L4.throughput_mbps', 'max_queue_cells', 'jain_index'],
  });
  expect(errors).toEqual([]);
});

// QA: a grid of 40,000 runs made in the form was refused with `abrsim sweep scenarios/gfc1.json`,
// a command without its --vary (gfc1 has no sweep block); and a sweep of 200 values wrote every
// one of them in the tab's heading, a wall of numbers above the form.
test('the sweep table\'s scroll box ends between two rows, and still scrolls', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('view-sweep').click();
  await page.getByTestId('param-sweep-path').selectOption('nodes.SW1.params.target_utilization');
  await page.getByTestId('param-sweep-values').fill('0.2:0.05:1');
  await page.getByTestId('param-sweep-run').click();
  await expect(page.getByTestId('sweep')).toHaveAttribute('data-phase', 'done', { timeout: 120_000 });
  await expect(page.getByTestId('sweep-row')).toHaveCount(17);
  await expectBoxEndsBetweenRows(page.getByTestId('sweep-table-box'));
  expect(errors).toEqual([]);
});

test('a sweep made in the form too big for the browser is refused at the form, pointing to its command; a long list of values is cut short in the heading', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('view-sweep').click();
  const form = page.getByTestId('param-sweep');
  await page.getByTestId('param-sweep-path').selectOption('nodes.SW1.buffer_cells');
  await page.getByTestId('param-sweep-values').fill('100:100:20000');
  await page.getByTestId('param-sweep-add').click();
  await page.getByTestId('param-sweep-2').getByTestId('param-sweep-path').selectOption('nodes.SW2.buffer_cells');
  await page.getByTestId('param-sweep-2').getByTestId('param-sweep-values').fill('100:100:20000');
  await expect(page.getByTestId('param-sweep-run')).toHaveText('Sweep them (40,000 runs)');
  await page.getByTestId('param-sweep-run').click();
  await expect(form.getByRole('alert')).toHaveText(
    'runs: this sweep has 40,000 runs; the browser runs at most 10,000: run the command below on all cores (--shard I/N splits it over machines), or take fewer values',
  );
  await expect(page.getByTestId('sweep')).toHaveAttribute('data-phase', 'idle');
  await expect(page.getByTestId('param-sweep-command')).toContainText('--vary nodes.SW1.buffer_cells=100:100:20000 --vary nodes.SW2.buffer_cells=100:100:20000');
  // One parameter, 200 values: it runs; the heading gives the first and last few and the count.
  await page.getByTestId('param-sweep-2').getByTestId('param-sweep-remove').click();
  await page.getByTestId('param-sweep-run').click();
  await expect(page.getByTestId('sweep-plan')).toHaveText('200 runs: nodes.SW1.buffer_cells ∈ {100, 200, 300, …, 19900, 20000} (200 values)');
  await page.getByTestId('sweep-cancel').click();
  expect(errors).toEqual([]);
});

// QA: on fecn-delay-sweep the form showed the block's qeq_bytes alone; its sweep, and Keep, went
// without the block's loop delay (five links' delays at once, scaled) without a word.
test("the Sweep tab's form says what the scenario's sweep block varies that it cannot write", async ({ page }) => {
  const errors = await openLab(page, '/?scenario=fecn-delay-sweep');
  await page.getByTestId('view-sweep').click();
  await expect(page.getByTestId('param-sweep-path')).toHaveValue('nodes.SW1.params.qeq_bytes');
  await expect(page.getByTestId('param-sweep-left-out')).toContainText('also varies loop_delay_us, which this form cannot write');
  await page.getByTestId('scenario-picker').selectOption('fecn-n0-sweep');
  await expect(page.getByTestId('param-sweep-path')).toHaveValue('nodes.SW1.params.n0');
  await expect(page.getByTestId('param-sweep-left-out')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test("a sweep whose values drop a scenario's recorded changes says which, above its table", async ({ page }) => {
  // Recorded live changes of ERICA's delta: under an algorithm without delta they cannot apply
  // (they would make the run refused), so each such point runs without them and says so.
  const errors = await openLab(page, '/?scenario=two-sources');
  const doc = JSON.parse(readFileSync(resolve(repoRoot, 'scenarios/two-sources.json'), 'utf8'));
  doc.id = 'two-sources-recorded';
  doc.changes = [{ at_ms: 10, node: 'SW1', param: 'delta', value: 0.2 }];
  await page.evaluate((json) => window.__abrlab!.load(json, 'recorded.json'), JSON.stringify(doc));
  await expect.poll(() => page.evaluate(() => window.__abrlab!.scenarioId())).toBe(doc.id);
  await page.getByTestId('view-sweep').click();
  await page.getByTestId('sweep-algorithms').click();
  await expect(page.getByTestId('sweep')).toHaveAttribute('data-phase', 'done', { timeout: 60_000 });
  await expect(page.getByTestId('sweep-row')).toHaveCount(7);
  const notes = page.getByTestId('sweep-notes');
  await expect(notes).toContainText('with algorithm = efci: SW1 now runs EFCI marking: its recorded change of delta at 10 ms is dropped');
  // ERICA keeps its own change: no note for it.
  await expect(notes).not.toContainText('algorithm = erica:');
  await page.getByTestId('sweep').screenshot({ path: resolve(shots, 'sweep-notes.png') });
  expect(errors).toEqual([]);
});

// Each value alone is valid; together, EPRCA has no ERICA target_utilization. Varied after the
// algorithm the point is refused by name; varied before it, its EPRCA rows say it is not applied.
test('a sweep checks every point with all its values: a pair that does not go together is refused, a value taken away is said', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  const load = async (vary: unknown[]) => {
    const doc = JSON.parse(readFileSync(resolve(repoRoot, 'scenarios/two-sources.json'), 'utf8'));
    doc.id = `grid-${Math.random().toString(36).slice(2, 7)}`;
    doc.run.duration_ms = 20;
    doc.sweep = { vary, seeds: 1 };
    await page.evaluate((json) => window.__abrlab!.load(json, 'grid.json'), JSON.stringify(doc));
    await expect.poll(() => page.evaluate(() => window.__abrlab!.scenarioId())).toBe(doc.id);
  };
  const alg = { paths: ['nodes.SW1.algorithm'], values: ['erica', 'eprca'] };
  const tu = { paths: ['nodes.SW1.params.target_utilization'], values: [0.8, 0.95] };
  await load([alg, tu]);
  await page.getByTestId('view-sweep').click();
  await page.getByTestId('sweep-run').click();
  await expect(page.getByTestId('sweep')).toHaveAttribute('data-phase', 'refused');
  const refused = page.getByTestId('sweep-refused');
  await expect(refused).toContainText('the point nodes.SW1.algorithm = eprca, nodes.SW1.params.target_utilization = 0.8 makes the scenario invalid');
  await expect(refused).toContainText('vary the algorithm after the parameters');
  await refused.screenshot({ path: resolve(shots, 'sweep-point-refused.png') });

  await load([tu, alg]);
  await page.getByTestId('sweep-run').click();
  await expect(page.getByTestId('sweep')).toHaveAttribute('data-phase', 'done', { timeout: 60_000 });
  await expect(page.getByTestId('sweep-row')).toHaveCount(4);
  await expect(page.getByTestId('sweep-notes')).toContainText(
    'with nodes.SW1.algorithm = eprca, nodes.SW1.params.target_utilization is not applied: SW1 now runs EPRCA, which has no target_utilization',
  );
  expect(errors).toEqual([]);
});

// QA: presenting, the sweep's plots kept their 11 px ticks and 2 px lines, unreadable from the
// back of a room where the charts and Compare are at 18 px and 3 px or more.
test('in presentation mode the sweep plots are drawn large: text of at least 18 px, lines of at least 3 px', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=fecn-n0-sweep&present=1');
  await runSweep(page);
  const plot = page.getByTestId('sweep-plot-dropped_cells');
  const sizes = await plot.locator('svg text').evaluateAll((els) => els.map((e) => parseFloat(getComputedStyle(e).fontSize)));
  expect(sizes.length).toBeGreaterThan(3);
  expect(Math.min(...sizes)).toBeGreaterThanOrEqual(18);
  expect(Number(await plot.locator('polyline').getAttribute('stroke-width'))).toBeGreaterThanOrEqual(3);
  expect(parseFloat(await plot.locator('figcaption').evaluate((e) => getComputedStyle(e).fontSize))).toBeGreaterThanOrEqual(18);
  expect(parseFloat(await page.getByTestId('sweep-table').evaluate((e) => getComputedStyle(e).fontSize))).toBeGreaterThanOrEqual(18);
  // The tick labels stay inside the plot's drawing.
  const box = (await plot.locator('svg').boundingBox())!;
  for (const t of await plot.locator('svg text').all()) {
    const b = (await t.boundingBox())!;
    expect(b.x).toBeGreaterThanOrEqual(box.x - 1);
    expect(b.x + b.width).toBeLessThanOrEqual(box.x + box.width + 1);
  }
  await page.getByTestId('sweep').screenshot({ path: resolve(shots, 'sweep-presenting.png') });
  // As usual again: the everyday size.
  await page.keyboard.press('p');
  await expect.poll(() => plot.locator('svg text').first().evaluate((e) => parseFloat(getComputedStyle(e).fontSize))).toBeLessThan(18);
  expect(errors).toEqual([]);
});

// QA: with seeds, the plots drew a bar through each point and said nowhere what it was.
test('a sweep with seeds says what its plots draw: the mean over the seeds, with its 95 % interval', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=fecn-n0-sweep');
  const doc = JSON.parse(readFileSync(FILE, 'utf8'));
  doc.id = 'n0-seeds';
  doc.sweep.seeds = 3;
  await page.evaluate((json) => window.__abrlab!.load(json, 'n0-seeds.json'), JSON.stringify(doc));
  await expect.poll(() => page.evaluate(() => window.__abrlab!.scenarioId())).toBe('n0-seeds');
  await runSweep(page);
  await expect(page.getByTestId('sweep-plot-note')).toHaveText('Each point is the mean over its 3 seeds; its bar, the 95 % confidence interval of that mean.');
  // One seed: nothing to say.
  await page.getByTestId('scenario-picker').selectOption('fecn-n0-sweep');
  await expect.poll(() => page.evaluate(() => window.__abrlab!.scenarioId())).toBe('fecn-n0-sweep');
  await runSweep(page);
  await expect(page.getByTestId('sweep-plot-note')).toHaveCount(0);
  expect(errors).toEqual([]);
});

// QA: after L3 was set to 100 Mbps in two-sources, the form's command read `abrsim sweep
// two-sources.json …` with nothing to say that file was not the library's: run from the
// repository, it swept the library's two-sources, other runs than the form's.
test("the form's command on an edited library scenario names the file Export saves, to be saved first, and makes the form's runs", async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('view-sweep').click();
  // As the library has it: the library's file, from the repository.
  await page.getByTestId('param-sweep-path').selectOption('links.L1.delay_us');
  await page.getByTestId('param-sweep-values').fill('5, 500');
  await expect(page.getByTestId('param-sweep-command')).toHaveText('abrsim sweep scenarios/two-sources.json --vary links.L1.delay_us=5,500');
  await expect(page.getByTestId('param-sweep-command-note')).not.toContainText('Export');
  // L3 at 100 Mbps: the exported file, saved first.
  await page.getByTestId('view-editor').click();
  await page.getByTestId('ed-link-L3').click({ force: true });
  await page.getByTestId('link-rate').fill('100');
  await page.getByTestId('link-rate').press('Enter');
  await expect.poll(() => page.evaluate(() => JSON.parse(window.__abrlab!.scenario()!).links[2].rate_mbps)).toBe(100);
  await page.getByTestId('view-sweep').click();
  const command = 'abrsim sweep two-sources-edited.json --vary links.L1.delay_us=5,500';
  await expect(page.getByTestId('param-sweep-command')).toHaveText(command);
  await expect(page.getByTestId('param-sweep-command-note')).toContainText('as it is here, not scenarios/two-sources.json');
  await expect(page.getByTestId('param-sweep-command-note')).toContainText('save it first with Export (as two-sources-edited.json)');
  const exported = await downloadText(page, () => page.getByTestId('export').click());
  // Not the library file's name: the file Export saves is the one the command names.
  expect(exported.name).toBe('two-sources-edited.json');
  expect(JSON.parse(exported.text).links[2].rate_mbps).toBe(100);
  await page.getByTestId('param-sweep-run').click();
  await expect(page.getByTestId('sweep')).toHaveAttribute('data-phase', 'done', { timeout: 60_000 });
  const rows = page.getByTestId('sweep-row');
  await expect(rows).toHaveCount(2);
  const cli = abrsimPath();
  if (cli) {
    // The command as shown, in a folder holding the exported file: the form's numbers.
    const dir = resolve(repoRoot, 'test-results/sweep-exported');
    mkdirSync(dir, { recursive: true });
    writeFileSync(resolve(dir, exported.name), exported.text);
    const csv = execFileSync(cli, command.split(' ').slice(1), { encoding: 'utf8', cwd: dir });
    const [header, ...runs] = csv.trimEnd().split('\n').map((l) => l.split(','));
    const col = header.indexOf('max_queue_cells');
    for (let i = 0; i < 2; i++) {
      const cell = rows.nth(i).locator('td[data-metric="max_queue_cells"]');
      expect(Number(await cell.getAttribute('data-value'))).toBe(Number(runs[i][col]));
    }
  }
  expect(errors).toEqual([]);
});
