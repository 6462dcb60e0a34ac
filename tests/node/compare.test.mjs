// A compare link's variants, built by the web's own pure code (web/src/lab/compare.ts, bundled
// here with rolldown), run through the wasm engine as the browser's pool runs them, give the
// digests the native CLI gives for the same scenario file with the same `--set` overrides (or
// for the library file a variant starts from). So what the Compare view shows and links is what
// `abrsim run` reproduces.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'rolldown';
import { loadWasmEngine, repoRoot, runToEnd } from './wasm-engine.mjs';

const abrsim = resolve(repoRoot, 'engine/target/release/abrsim');
const scenarioFile = (id) => resolve(repoRoot, 'scenarios', `${id}.json`);
const pkg = await loadWasmEngine();

/** web/src/lab/compare.ts as an ES module (the TypeScript compiled and bundled, fflate with it). */
async function loadCompare() {
  const { output } = await build({ input: resolve(repoRoot, 'web/src/lab/compare.ts'), output: { format: 'esm' }, write: false, logLevel: 'silent' });
  const file = resolve(mkdtempSync(resolve(tmpdir(), 'abr-compare-')), 'compare.mjs');
  writeFileSync(file, output[0].code);
  return import(pathToFileURL(file).href);
}
const compare = await loadCompare();

const library = readdirSync(resolve(repoRoot, 'scenarios'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({ id: f.slice(0, -5), text: readFileSync(resolve(repoRoot, 'scenarios', f), 'utf8') }));
const lookup = (id) => library.find((e) => e.id === id)?.text;
const textLibrary = new Map(library.map((e) => [e.id, JSON.parse(e.text)]));

/** The digest of a planned run as a batch worker computes it: its overrides applied by the wasm engine, run to its end. */
function wasmDigest(run) {
  // applyVariant answers {scenario: its JSON text, notes: what the overrides also dropped}.
  const json = run.sets.length ? JSON.parse(pkg.applyVariant(run.json, JSON.stringify(run.sets))).scenario : run.json;
  const { sim } = runToEnd(pkg, json);
  try {
    return sim.digest();
  } finally {
    sim.free();
  }
}

/** The digest `abrsim run FILE --set …` prints. */
function cliDigest(file, sets) {
  assert.ok(existsSync(abrsim), `native CLI not built: ${abrsim} (cargo build --release)`);
  const args = ['run', file, ...sets.flatMap((s) => ['--set', s])];
  return JSON.parse(execFileSync(abrsim, args, { encoding: 'utf8', maxBuffer: 64 << 20 })).digest;
}

/**
 * Makes the compare link of `current` with the variants the view's form holds, opens it again,
 * and checks every replayed run: the wasm digest equals the link's and the CLI's.
 */
function checkAgainstCli(currentId, drafts) {
  const current = lookup(currentId);
  const variants = drafts.map((d) => compare.specOfDraft({ from: '', algorithms: {}, sets: '', ...d }));
  const planned = compare.planCompare(current, variants, lookup);
  assert.ok(planned.ok, JSON.stringify(planned.problems));
  const digests = planned.runs.map((r) => wasmDigest(r));
  const hash = compare.compareHash(JSON.parse(current), { variants, digests }, textLibrary);
  assert.match(hash, /^#c=2\./);

  // The replay: what a browser opening the link plans and runs.
  const decoded = compare.decodeCompare(compare.comparePayloadOf(hash), textLibrary);
  assert.ok(decoded.ok, decoded.error);
  assert.deepEqual(decoded.data.variants, variants);
  const replay = compare.planCompare(decoded.json, decoded.data.variants, lookup);
  assert.ok(replay.ok, JSON.stringify(replay.problems));
  assert.equal(replay.runs.length, variants.length + 1);
  replay.runs.forEach((run, i) => {
    const spec = i === 0 ? { sets: [] } : decoded.data.variants[i - 1];
    const native = cliDigest(scenarioFile(spec.from || currentId), spec.sets);
    assert.match(native, /^[0-9a-f]{16}$/);
    assert.equal(wasmDigest(run), decoded.data.digests[i], `run ${i} (${run.label}): replayed digest against the link's`);
    assert.equal(decoded.data.digests[i], native, `run ${i} (${run.label}): web digest against abrsim run --set ${spec.sets.join(' --set ')}`);
  });
  return digests;
}

test('two-sources: SW1 ERICA against ERICA+, and a target utilisation override; each digest as abrsim run --set gives it', () => {
  const digests = checkAgainstCli('two-sources', [
    { algorithms: { SW1: 'erica_plus' } },
    { algorithms: { SW1: 'erica' }, sets: 'nodes.SW1.params.target_utilization=0.8' },
  ]);
  // The variants are different runs (else the test would not tell them apart).
  assert.equal(new Set(digests).size, 3);
});

test('vpc-abr against vpc-ubr (a library scenario of the same topology) and a parameter of its UT switch', () => {
  const digests = checkAgainstCli('vpc-abr', [{ from: 'vpc-ubr' }, { sets: 'nodes.C1.params.target_utilization=0.7' }]);
  assert.equal(new Set(digests).size, 3);
});

test('gfc1: every switch ERICA instead of ERICA+ (ERICA+’s queue target dropped, as --set drops it)', () => {
  const digests = checkAgainstCli('gfc1', [{ sets: 'nodes.*.algorithm=erica' }]);
  assert.equal(new Set(digests).size, 2);
});
