/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  plugins: [react()],
  // Static assets (favicon) sit at the repository root, as design.md lays out the folders.
  publicDir: fileURLToPath(new URL('../public', import.meta.url)),
  // The wasm-pack output lives in web/wasm-pkg (not node_modules) and is loaded by URL.
  optimizeDeps: { exclude: ['abr_wasm'] },
  worker: { format: 'es' },
  server: {
    port: 5173,
    strictPort: true,
    // The scenario library is read from ../scenarios.
    fs: { allow: [repoRoot] },
  },
  preview: { port: 4173, strictPort: true },
  build: { target: 'es2022', chunkSizeWarningLimit: 1024 },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
  },
});
