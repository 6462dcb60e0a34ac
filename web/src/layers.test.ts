// The web app's layers (docs/implementation-notes.md, design.md "Layout"): each imports only
// layers below it, files import each other without cycles, nothing under src/test/ ships, and
// the end-to-end hooks (src/e2e/) are reachable only from the test build. Reads the sources:
// no build needed.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = dirname(fileURLToPath(import.meta.url));

/** Lowest first. main.tsx (the entry) may import every layer. */
const LAYERS = ['contract', 'engine', 'scenario', 'lab', 'charts', 'ui'] as const;
const ENTRY = 'main.tsx';
/** The only condition under which product code may load src/e2e/. */
const E2E_GATE = "import.meta.env.MODE === 'e2e'";

const isTest = (f: string) => /\.test\.tsx?$/.test(f);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : /\.tsx?$/.test(f) ? [relative(SRC, p)] : [];
  });
}

interface Import {
  target: string;
  dynamic: boolean;
  typeOnly: boolean;
  /** The source line, for the failure message. */
  line: string;
}

const STATIC = /^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+['"](\.[^'"]+)['"]/gm;
const SIDE_EFFECT = /^\s*import\s+['"](\.[^'"]+)['"]/gm;
const DYNAMIC = /import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function resolveImport(from: string, spec: string, files: Set<string>): string {
  const base = relative(SRC, resolve(SRC, dirname(from), spec));
  for (const c of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) if (files.has(c)) return c;
  return base; // a non-TS asset (css) or a file outside src
}

function importsOf(file: string, files: Set<string>): Import[] {
  const text = readFileSync(join(SRC, file), 'utf8');
  const out: Import[] = [];
  const lineAt = (i: number) => text.slice(text.lastIndexOf('\n', i) + 1, text.indexOf('\n', i)).trim();
  for (const m of text.matchAll(STATIC)) {
    out.push({ target: resolveImport(file, m[3], files), dynamic: false, typeOnly: !!m[2], line: lineAt(m.index!) });
  }
  for (const m of text.matchAll(SIDE_EFFECT)) {
    out.push({ target: resolveImport(file, m[1], files), dynamic: false, typeOnly: false, line: lineAt(m.index!) });
  }
  for (const m of text.matchAll(DYNAMIC)) {
    out.push({ target: resolveImport(file, m[1], files), dynamic: true, typeOnly: false, line: lineAt(m.index!) });
  }
  return out;
}

/** The layer of a product file: its rank, or 'e2e' / 'test' / 'entry'; null when it is in no known place. */
function placeOf(file: string): number | 'e2e' | 'test' | 'entry' | null {
  if (file === ENTRY) return 'entry';
  const top = file.split('/')[0];
  if (top === 'test') return 'test';
  if (top === 'e2e') return 'e2e';
  const rank = (LAYERS as readonly string[]).indexOf(top);
  return rank >= 0 ? rank : null;
}

/** Whether an import from `from` to `to` goes upward (or sideways into a top place). */
function upward(from: string, to: string): boolean {
  const a = placeOf(from);
  const b = placeOf(to);
  return typeof a === 'number' && typeof b === 'number' && b > a;
}

/** The import cycles of a graph (file -> the files it imports), each as a -> b -> a. */
function cyclesOf(graph: Map<string, string[]>): string[] {
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (f: string) => {
    state.set(f, 'open');
    stack.push(f);
    for (const g of graph.get(f) ?? []) {
      if (state.get(g) === 'open') cycles.push([...stack.slice(stack.indexOf(g)), g].join(' -> '));
      else if (!state.has(g)) visit(g);
    }
    stack.pop();
    state.set(f, 'done');
  };
  for (const f of graph.keys()) if (!state.has(f)) visit(f);
  return cycles;
}

const all = walk(SRC);
const files = new Set(all);
const product = all.filter((f) => !isTest(f) && placeOf(f) !== 'test');

describe('web layers', () => {
  it('every source file sits in a known layer', () => {
    expect(all.filter((f) => !isTest(f) && placeOf(f) === null)).toEqual([]);
  });

  it('each layer imports only the layers below it (contract < engine < scenario < lab < charts < ui)', () => {
    const wrong: string[] = [];
    for (const file of product) {
      const from = placeOf(file);
      if (from === 'e2e' || from === 'entry') continue; // the top: may import every layer
      for (const imp of importsOf(file, files)) {
        if (!files.has(imp.target)) continue;
        if (upward(file, imp.target)) wrong.push(`${file} imports ${imp.target}: ${imp.line}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('no product file imports src/test/ (test fakes never ship)', () => {
    const wrong = product.flatMap((file) =>
      importsOf(file, files)
        .filter((imp) => placeOf(imp.target) === 'test')
        .map((imp) => `${file}: ${imp.line}`),
    );
    expect(wrong).toEqual([]);
  });

  it('src/e2e/ is reached only by a dynamic import behind the test-build gate', () => {
    const wrong: string[] = [];
    for (const file of product) {
      if (placeOf(file) === 'e2e') continue;
      const text = readFileSync(join(SRC, file), 'utf8');
      for (const imp of importsOf(file, files)) {
        if (placeOf(imp.target) !== 'e2e') continue;
        // A dynamic import whose statement is guarded by the MODE check (the same line, or an
        // if-block opened by it a few lines above).
        const at = text.indexOf(imp.line);
        const before = text.slice(Math.max(0, at - 200), at + imp.line.length);
        if (!imp.dynamic || !before.includes(E2E_GATE)) wrong.push(`${file}: ${imp.line}`);
      }
    }
    expect(wrong).toEqual([]);
    // And the gate is there at all: main.tsx and the worker load the hooks this way.
    expect(readFileSync(join(SRC, ENTRY), 'utf8')).toContain(E2E_GATE);
    expect(readFileSync(join(SRC, 'engine/worker.ts'), 'utf8')).toContain(E2E_GATE);
  });

  it('no import cycle between files', () => {
    const graph = new Map(
      all.filter((f) => !isTest(f)).map((f) => [f, importsOf(f, files).filter((i) => files.has(i.target)).map((i) => i.target)]),
    );
    expect(cyclesOf(graph)).toEqual([]);
  });

  it('the checks can fail: an upward import and a cycle are found', () => {
    expect(upward('lab/lab.ts', 'ui/App.tsx')).toBe(true);
    expect(upward('lab/lab.ts', 'charts/sampleStore.ts')).toBe(true);
    expect(upward('ui/App.tsx', 'lab/lab.ts')).toBe(false);
    expect(upward('charts/specs.ts', 'scenario/library.ts')).toBe(false);
    expect(cyclesOf(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']]]))).toEqual(['a -> b -> c -> a']);
    // The import reader sees this file's own imports.
    expect(importsOf('lab/lab.ts', files).some((i) => i.target === 'engine/client.ts')).toBe(true);
  });
});
