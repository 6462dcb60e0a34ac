// A scenario's notes (validate::notes: what to know before running it) cross the wasm boundary
// as the native CLI says them: `Simulation.notes()` on a freshly built run, which the worker
// sends with its `loaded` answer, lists the very notes `abrsim validate` prints, in its order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { loadWasmEngine, repoRoot } from './wasm-engine.mjs';

const abrsim = resolve(repoRoot, 'engine/target/release/abrsim');
const library = (id) => JSON.parse(readFileSync(resolve(repoRoot, 'scenarios', `${id}.json`), 'utf8'));
const pkg = await loadWasmEngine();

/** The notes `abrsim validate FILE` prints on stderr (`note: FILE: …`), without the prefix. */
function cliNotes(doc) {
  assert.ok(existsSync(abrsim), `native CLI not built: ${abrsim} (cargo build --release)`);
  const file = resolve(mkdtempSync(resolve(tmpdir(), 'abr-notes-')), `${doc.id}.json`);
  writeFileSync(file, JSON.stringify(doc));
  const out = spawnSync(abrsim, ['validate', file], { encoding: 'utf8' });
  assert.equal(out.status, 0, out.stderr);
  const prefix = `note: ${file}: `;
  return out.stderr.split('\n').filter((l) => l.startsWith(prefix)).map((l) => l.slice(prefix.length));
}

function wasmNotes(doc) {
  const sim = new pkg.Simulation(JSON.stringify(doc));
  try {
    return JSON.parse(sim.notes());
  } finally {
    sim.free();
  }
}

test('a dead tag_interval_us and binary feedback over a large RIF: the wasm Simulation gives the notes abrsim validate prints', () => {
  const qcn = library('qcn-hotspot');
  qcn.defaults = { ...qcn.defaults, source: { ...qcn.defaults?.source, tag_interval_us: 500 } };
  qcn.connections[1].params = { ...qcn.connections[1].params, tag_interval_us: 250 };
  const efci = library('two-sources');
  efci.nodes.find((n) => n.id === 'SW1').algorithm = 'efci';
  efci.nodes.find((n) => n.id === 'SW1').params = {};
  for (const [doc, expected] of [
    [qcn, [/^defaults\.source\.tag_interval_us: changes nothing/, /^connections\[1\] \(\w+\)\.params\.tag_interval_us: changes nothing/]],
    [efci, [/^binary feedback at SW1 with RIF = 1: /]],
  ]) {
    const notes = wasmNotes(doc);
    assert.equal(notes.length, expected.length, JSON.stringify(notes));
    notes.forEach((n, i) => assert.match(n, expected[i]));
    assert.deepEqual(notes, cliNotes(doc));
  }
});

test('a scenario with nothing to note gives an empty list', () => {
  assert.deepEqual(wasmNotes(library('qcn-hotspot')), []);
  assert.deepEqual(wasmNotes(library('two-sources')), []);
});
