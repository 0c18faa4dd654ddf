import { defineConfig } from '@playwright/test'
import { CHROMIUM_ARGS } from './scripts/chromium-args'

/** Debian's Chromium, never a downloaded browser (docs/stack.md §3). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  // One worker in CI: the machine has 2 cores and each test runs its own serve and Chromium.
  workers: process.env.CI ? 1 : 2,
  fullyParallel: true,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  outputDir: 'test-results/playwright',
  use: {
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
    },
    screenshot: 'off',
    trace: 'off',
  },
})
