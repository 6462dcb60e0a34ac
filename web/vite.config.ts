/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  plugins: [
    react(),
    // Installs as an app and works offline after the first visit (classroom networks fail): the
    // service worker precaches the whole build, the wasm engine and the workers included; the
    // library and its lessons are bundled into the app's JavaScript. Built only by `vite build`
    // (never in the dev server), registered by main.tsx; a new build replaces the old one at
    // the next load (skipWaiting, clientsClaim, outdated caches removed).
    VitePWA({
      injectRegister: null,
      registerType: 'autoUpdate',
      manifest: {
        name: 'ABR Lab',
        short_name: 'ABR Lab',
        description: 'An interactive simulation lab for explicit-rate congestion control (ATM ABR, 802.1Qau)',
        start_url: '.',
        display: 'standalone',
        background_color: '#f4f6f9',
        theme_color: '#1f3a5f',
        icons: [{ src: 'favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,wasm,webmanifest}'],
        // The engine is ~0.8 MB, the app's bundle with the library a few MB.
        maximumFileSizeToCacheInBytes: 16 * 1024 * 1024,
        navigateFallback: 'index.html',
        cleanupOutdatedCaches: true,
        skipWaiting: true,
        clientsClaim: true,
      },
      devOptions: { enabled: false },
    }),
  ],
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
