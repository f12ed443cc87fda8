/**
 * End-to-end tests against a running console (back end serving the built front end). The test
 * script starts the console; Playwright only drives a browser. Uses the system Chromium, so no
 * browser download is needed.
 */
import { defineConfig } from '@playwright/test';
import { ADMIN_STATE } from './e2e/session';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: './e2e',
  globalSetup: './e2e/global-setup.ts',
  outputDir: './test-results',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  // Under CI a failed test runs once more: one that then passes is reported as flaky (the test command
  // prints those again at its end), so a timing flake is seen without failing everything else.
  retries: process.env.CI === 'true' ? 1 : 0,
  reporter: [['list']],
  use: {
    baseURL: process.env.STALLSCOPE_URL ?? 'http://127.0.0.1:8000',
    storageState: ADMIN_STATE,
    browserName: 'chromium',
    viewport: { width: 1600, height: 1000 },
    colorScheme: 'dark',
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
