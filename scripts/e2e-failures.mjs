// Prints each failed test of a Playwright JSON report with the first lines of each attempt's
// error (colour codes removed): `node scripts/e2e-failures.mjs playwright-report/results.json`.
// Prints nothing when every test passed.
import { readFileSync } from 'node:fs';

const LINES = 8;
const plain = (s) => s.replace(/\u001b\[[0-9;]*m/g, '');

function* specs(suite, titles = []) {
  const here = suite.title ? [...titles, suite.title] : titles;
  for (const spec of suite.specs ?? []) yield { spec, titles: here };
  for (const child of suite.suites ?? []) yield* specs(child, here);
}

const report = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const failed = [];
for (const suite of report.suites ?? []) {
  for (const { spec, titles } of specs(suite)) {
    for (const test of spec.tests ?? []) {
      const errors = (test.results ?? []).filter((r) => r.status !== 'passed' && r.status !== 'skipped');
      if (test.status !== 'unexpected' && test.status !== 'flaky') continue;
      failed.push({ name: `${[...titles, spec.title].join(' › ')} (${spec.file}:${spec.line})`, status: test.status, errors });
    }
  }
}
if (failed.length) {
  console.log('\n===== e2e failures (first lines of each attempt) =====');
  for (const f of failed) {
    console.log(`${f.status === 'flaky' ? 'FLAKY' : 'FAILED'}  ${f.name}`);
    for (const r of f.errors) {
      const lines = plain(r.error?.message ?? r.errors?.[0]?.message ?? r.status).split('\n').filter((l) => l.trim());
      console.log(`  attempt ${r.retry + 1} (${r.status}, ${Math.round(r.duration / 1000)} s):`);
      for (const l of lines.slice(0, LINES)) console.log(`    ${l}`);
      if (r.error?.location) console.log(`    at ${r.error.location.file.split('/').slice(-2).join('/')}:${r.error.location.line}`);
    }
  }
}
