// The page under a frame-rate benchmark: the production build served by `vite preview` and opened
// in the system Chromium at 1440 × 1000; `withPage(fn)` gives fn the page and the server's URL
// and tears everything down after (bench-compare.mjs, bench-network.mjs).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { repoRoot } from '../tests/node/wasm-engine.mjs';

/** The system Chromium as every benchmark launches it (Playwright never downloads one here). */
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

export async function withPage(fn) {
  const vite = await import('vite');
  const root = resolve(repoRoot, 'web');
  const outDir = mkdtempSync(join(tmpdir(), 'abrlab-bench-'));
  await vite.build({ root, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  const server = await vite.preview({ root, logLevel: 'warn', build: { outDir }, preview: { port: 0, strictPort: false, host: '127.0.0.1' } });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    return await fn(page, (path) => new URL(path, server.resolvedUrls.local[0]).toString());
  } finally {
    await browser.close();
    await server.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}
