/**
 * Playwright fixtures: each test gets its own HOME, Claude home and state folder, and a
 * real `serve` process (the built CLI) on a free loopback port (architecture.md habit 7).
 */
import { test as base } from '@playwright/test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createFixtureHome, type FixtureHome } from '../helpers/fixture-home'
import { isolatedEnv, startServe, type ServeHandle } from '../helpers/serve-process'

export { CLI, isolatedEnv, startServe, type ServeHandle } from '../helpers/serve-process'

export const test = base.extend<{ fixture: FixtureHome; served: ServeHandle; scratch: string }>({
  // eslint-disable-next-line no-empty-pattern
  scratch: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'mc-e2e-'))
    await use(dir)
    rmSync(dir, { recursive: true, force: true })
  },
  // eslint-disable-next-line no-empty-pattern
  fixture: async ({}, use) => {
    const f = createFixtureHome()
    await use(f)
    f.cleanup()
  },
  served: async ({ fixture }, use) => {
    const s = await startServe(
      [
        '--claude-home',
        fixture.claudeHome,
        '--codex-home',
        fixture.codexHome,
        '--managed-dir',
        fixture.managedDir,
        '--state-dir',
        fixture.stateDir,
      ],
      isolatedEnv(fixture.root),
    )
    await use(s)
    await s.stop()
  },
})

export { expect } from '@playwright/test'
