// Whole-run exports: every series as one CSV (the columns and numbers of `abrsim run
// --series-csv`) and the summary as JSON (what `abrsim run` prints), from the Result tab.
import { expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { abrsimPath, downloadText, openLab, repoRoot, waitForMode } from './helpers';

test('the Result tab exports every series as abrsim run --series-csv does, and the summary as JSON', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('play').click();
  await waitForMode(page, 'done');
  // The lesson stays where it was when the run ends; the result is one click away.
  await expect(page.getByTestId('tab-lesson')).toHaveAttribute('aria-selected', 'true');
  await page.getByTestId('lesson-to-result').click();
  await expect(page.getByTestId('tab-result')).toHaveAttribute('aria-selected', 'true');

  // Named as the charts' files are, with the seed (QA: two seeds' downloads took one name).
  const csv = await downloadText(page, () => page.getByTestId('export-series-csv').click());
  expect(csv.name).toBe('two-sources-seed1-series.csv');
  const json = await downloadText(page, () => page.getByTestId('export-summary-json').click());
  expect(json.name).toBe('two-sources-seed1-summary.json');

  // The columns: time, then every series of the run with its unit (a ratio's bare), as the
  // store holds them.
  const meta = await page.evaluate(() => window.__abrlab!.meta());
  const lines = csv.text.trimEnd().split('\n');
  expect(lines[0]).toBe(['time_ms', ...meta.map((m) => (m.unit ? `${m.id} (${m.unit})` : m.id))].join(','));
  expect(lines[0]).toContain(',loss_ratio:C1,');
  expect(lines.length - 1).toBe(await page.evaluate(() => window.__abrlab!.rows()));
  const summary = JSON.parse(json.text);
  expect(summary).toEqual(await page.evaluate(() => window.__abrlab!.summary()));

  const file = resolve(repoRoot, 'scenarios/two-sources.json');
  const cli = abrsimPath();
  if (cli) {
    // The same file from the CLI: the very same text, and the same summary but for its wall time.
    const out = resolve(mkdtempSync(resolve(tmpdir(), 'abr-export-')), 'series.csv');
    const text = execFileSync(cli, ['run', file, '--series-csv', out], { encoding: 'utf8' });
    const printed = JSON.parse(text);
    expect(csv.text).toBe(readFileSync(out, 'utf8'));
    expect({ ...summary, wall_ms: 0 }).toEqual({ ...printed, wall_ms: 0 });
    // The very text, but for the wall time (QA: the lab's read "sim_ms": 400 for the CLI's 400.0).
    const noWall = (t: string) => t.replace(/"wall_ms": [^,\n]*/, '"wall_ms": 0');
    expect(noWall(json.text)).toBe(noWall(text));
  } else {
    // No CLI built: the wasm engine under Node gives the rows and the summary to compare with.
    const { loadWasmEngine } = await import('../node/wasm-engine.mjs');
    const pkg = await loadWasmEngine();
    const sim = new pkg.Simulation(readFileSync(file, 'utf8'));
    const width = JSON.parse(sim.seriesMeta()).length + 1;
    const rows: number[] = [];
    while (!sim.done()) {
      sim.advance(sim.endMs(), 100_000);
      rows.push(...sim.takeSamples());
    }
    const values = lines.slice(1).flatMap((l) => l.split(',').map((v) => (v === '' ? NaN : Number(v))));
    expect(values).toEqual(rows);
    expect(width).toBe(meta.length + 1);
    expect({ ...summary, wall_ms: 0 }).toEqual({ ...JSON.parse(sim.summary()), wall_ms: 0 });
    sim.free();
  }
  expect(errors).toEqual([]);
});
