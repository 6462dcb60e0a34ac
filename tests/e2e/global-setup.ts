// Builds web/ (vite build) and serves web/dist with `vite preview` on a free port; the tests
// find it in ABR_BASE_URL. With ABR_BASE_URL already set (e.g. a running `npm start`), does
// nothing.
import { resolve } from 'node:path';

export default async function globalSetup() {
  if (process.env.ABR_BASE_URL) return;
  const vite = await import('vite');
  const root = resolve(__dirname, '../../web');
  await vite.build({ root, logLevel: 'warn' });
  const server = await vite.preview({ root, preview: { port: 0, strictPort: false, host: '127.0.0.1' } });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('vite preview did not report its URL');
  process.env.ABR_BASE_URL = url;
  return async () => {
    await server.close();
  };
}
