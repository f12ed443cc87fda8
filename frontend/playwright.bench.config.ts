/**
 * Browser timings for `bench/investigation_views.py --browser`: the same Chromium as the e2e tests,
 * against a console the bench script starts on its big incident. Not part of the test suite.
 */
import { defineConfig } from '@playwright/test';
import base from './playwright.config';

export default defineConfig({
  ...base,
  testDir: './bench',
  testMatch: '*.bench.ts',
  timeout: 600_000,
  expect: { timeout: 120_000 },
  outputDir: './bench-results',
});
