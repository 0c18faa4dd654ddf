import { defineConfig } from 'vitest/config'

/** `npm run bench` (scripts/bench.mjs): the benchmark runs through vitest, kept out of `npm test`. */
export default defineConfig({
  test: {
    include: ['scripts/bench/**/*.bench-run.ts'],
    environment: 'node',
    // One long run in one worker: no parallel files, no retries, output straight through.
    fileParallelism: false,
    testTimeout: 3 * 3_600_000,
    hookTimeout: 60_000,
    disableConsoleIntercept: true,
    server: { deps: { inline: ['electron-store'] } },
  },
})
