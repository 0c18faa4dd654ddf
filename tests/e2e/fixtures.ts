/**
 * Playwright fixtures: each test gets its own HOME, Claude home and state folder, and a
 * real `serve` process (the built CLI) on a free loopback port (docs/architecture.md §4.7).
 */
import { test as base, type Page } from '@playwright/test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createAuditFixture, type AuditFixture } from '../helpers/audit-fixture'
import { createFixtureHome, type FixtureHome } from '../helpers/fixture-home'
import { memoryWorkspace } from '../helpers/memory-workspace-page'
import { isolatedEnv, startServe, type ServeHandle } from '../helpers/serve-process'

export { CLI, isolatedEnv, startServe, type ServeHandle } from '../helpers/serve-process'

/** A fixture home's folders as `serve` and the Electron main process take them. */
export function homeArgs(f: FixtureHome): string[] {
  return ['--claude-home', f.claudeHome, '--codex-home', f.codexHome, '--managed-dir', f.managedDir]
}

/** A `serve` process on a fixture home, with the home's own state folder. */
export function serveFixture(f: FixtureHome): Promise<ServeHandle> {
  return startServe([...homeArgs(f), '--state-dir', f.stateDir], isolatedEnv(f.root))
}

/** The memory workspace's page object. */
export type Workspace = ReturnType<typeof memoryWorkspace>

/** Open the app at `url` with a project (acme-shop unless named) selected: its memory workspace. */
export async function openProject(
  page: Page,
  url: string,
  name: RegExp = /acme-shop/,
): Promise<Workspace> {
  const ws = memoryWorkspace(page)
  await page.goto(url)
  await ws.selectProject(name)
  return ws
}

export const test = base.extend<{
  fixture: FixtureHome
  served: ServeHandle
  scratch: string
  /** The fixture project's MEMORY.md. */
  memoryIndex: string
  /** The app on `served`, the fixture project open in its memory workspace. */
  workspace: Workspace
}>({
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
    const s = await serveFixture(fixture)
    await use(s)
    await s.stop()
  },
  memoryIndex: async ({ fixture }, use) => {
    await use(join(fixture.memoryDir, 'MEMORY.md'))
  },
  workspace: async ({ page, served }, use) => {
    await use(await openProject(page, served.url))
  },
})

/** Tests on a home whose repository has a scripted history (notes, verdicts, the review queue). */
export const auditTest = test.extend<{ fx: AuditFixture; server: ServeHandle }>({
  // eslint-disable-next-line no-empty-pattern
  fx: async ({}, use) => {
    const f = createAuditFixture()
    await use(f)
    f.cleanup()
  },
  server: async ({ fx }, use) => {
    const s = await startServe(fx.serveArgs(), isolatedEnv(fx.root))
    await use(s)
    await s.stop()
  },
})

export { expect } from '@playwright/test'
