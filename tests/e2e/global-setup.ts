// Builds web/ in its test mode (`vite build --mode e2e`: the only build with window.__abrlab
// and the worker's test message) and serves it with `vite preview` on a free port; the tests
// find it in ABR_BASE_URL. With ABR_BASE_URL already set (e.g. a running e2e-mode server),
// does nothing. Before that it builds the app as `npm run build` does, into a scratch
// directory, and fails if that bundle holds any of the test hooks.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** Strings only the test build may contain. */
const TEST_ONLY = ['__abrlab', 'e2e:panic', 'e2e:hang', 'answer_timeout_ms'];

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

export default async function globalSetup() {
  if (process.env.ABR_BASE_URL) return;
  const vite = await import('vite');
  const root = resolve(__dirname, '../../web');

  const prod = mkdtempSync(join(tmpdir(), 'abrlab-prod-'));
  try {
    await vite.build({ root, logLevel: 'warn', build: { outDir: prod, emptyOutDir: true } });
    for (const file of filesUnder(prod).filter((f) => /\.(js|html)$/.test(f))) {
      const text = readFileSync(file, 'utf8');
      const found = TEST_ONLY.filter((s) => text.includes(s));
      if (found.length) throw new Error(`the production build holds test code (${found.join(', ')}) in ${file}`);
    }
  } finally {
    rmSync(prod, { recursive: true, force: true });
  }

  await vite.build({ root, mode: 'e2e', logLevel: 'warn' });
  const server = await vite.preview({ root, mode: 'e2e', preview: { port: 0, strictPort: false, host: '127.0.0.1' } });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('vite preview did not report its URL');
  process.env.ABR_BASE_URL = url;
  return async () => {
    await server.close();
  };
}
