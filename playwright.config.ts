// End-to-end tests on Debian's Chromium (Playwright never downloads a browser of its own here). The global setup builds
// the web app and serves it with `vite preview` on a free port.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  // The list as it runs, and a JSON record from which `npm test` repeats each failure's first
  // lines after its summary (CI keeps only the end of the output).
  reporter: [['list'], ['json', { outputFile: 'playwright-report/results.json' }]],
  globalSetup: './tests/e2e/global-setup.ts',
  use: {
    viewport: { width: 1440, height: 1000 },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
