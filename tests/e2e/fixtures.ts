/**
 * Playwright fixtures: each test gets its own HOME, Claude home and state folder, and a
 * real `serve` process (the built CLI) on a free loopback port (docs/architecture.md §4.7).
 * Every test fails on any console error or page error (`consoleGuard`, issue 15 item 5).
 */
import { test as base, type BrowserContext, type Page } from '@playwright/test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createAuditFixture, type AuditFixture } from '../helpers/audit-fixture'
import { createFixtureHome, type FixtureHome } from '../helpers/fixture-home'
import { memoryWorkspace } from '../helpers/memory-workspace-page'
import {
  isolatedEnv,
  startServe as startServeProcess,
  type ServeHandle,
} from '../helpers/serve-process'

export { CLI, isolatedEnv, type ServeHandle } from '../helpers/serve-process'

/**
 * Origins of `serve` processes the test stopped: a request the page had in flight, or made,
 * after its server was stopped fails at the network level, which is the end of the test and
 * not an error of the app (the guard below skips those, and only those).
 */
const stoppedOrigins = new Set<string>()

/** `startServe` of the helpers, remembering when its server is stopped (for the console guard). */
export async function startServe(
  ...args: Parameters<typeof startServeProcess>
): Promise<ServeHandle> {
  const s = await startServeProcess(...args)
  stoppedOrigins.delete(s.origin)
  return {
    url: s.url,
    origin: s.origin,
    token: s.token,
    process: s.process,
    stderr: () => s.stderr(),
    stop: async () => {
      stoppedOrigins.add(s.origin)
      await s.stop()
    },
  }
}

/** A network-level failure of a request to a server the test already stopped. */
function afterStop(text: string, url: string): boolean {
  if (!/net::ERR_/.test(text) || !url) return false
  try {
    return stoppedOrigins.has(new URL(url).origin)
  } catch {
    return false
  }
}

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

/** Messages a test expects the page to log as errors (e.g. a request it makes the server refuse). */
export type AllowedConsoleErrors = readonly RegExp[]

/**
 * Every page of the test's browser context, watched for console errors and uncaught page errors:
 * any one fails the test (issue 15 item 5), unless it matches `allowedConsoleErrors`.
 */
export function watchConsole(
  context: BrowserContext,
  allowed: AllowedConsoleErrors,
): { readonly problems: readonly string[] } {
  const problems: string[] = []
  const ok = (text: string): boolean => allowed.some((r) => r.test(text))
  const watch = (page: Page): void => {
    page.on('console', (m) => {
      const at = m.location().url
      if (m.type() !== 'error' || ok(m.text()) || afterStop(m.text(), at)) return
      problems.push(`console error: ${m.text()}${at ? ` (${at})` : ''}`)
    })
    page.on('pageerror', (e) => {
      // A chunk the page still wanted from a server the test stopped.
      const url = /https?:\/\/[^\s]+/.exec(e.message)?.[0] ?? ''
      if (/dynamically imported module/.test(e.message) && afterStop('net::ERR_', url)) return
      // A load that failed (a worker or script) rejects with a bare Event: after its server stopped.
      if (e.message === 'Event' && afterStop('net::ERR_', page.url())) return
      if (!ok(e.message)) problems.push(`page error: ${e.stack ?? e.message}`)
    })
  }
  context.pages().forEach(watch)
  context.on('page', watch)
  return { problems }
}

export const test = base.extend<{
  allowedConsoleErrors: AllowedConsoleErrors
  consoleGuard: void
  fixture: FixtureHome
  served: ServeHandle
  scratch: string
  /** The fixture project's MEMORY.md. */
  memoryIndex: string
  /** The app on `served`, the fixture project open in its memory workspace. */
  workspace: Workspace
}>({
  allowedConsoleErrors: [[], { option: true }],
  consoleGuard: [
    async ({ context, allowedConsoleErrors }, use) => {
      const guard = watchConsole(context, allowedConsoleErrors)
      await use()
      if (guard.problems.length > 0)
        throw new Error(
          `The page logged ${guard.problems.length} error(s):\n${guard.problems.join('\n')}`,
        )
    },
    { auto: true },
  ],
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
