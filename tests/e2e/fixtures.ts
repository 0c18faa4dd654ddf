/**
 * Playwright fixtures: each test gets its own HOME, Claude home and state folder, and a
 * real `serve` process (the built CLI) on a free loopback port (architecture.md habit 7).
 */
import { test as base } from '@playwright/test'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createFixtureHome, type FixtureHome } from '../helpers/fixture-home'

export const CLI = resolve('out/cli/index.js')

export interface ServeHandle {
  readonly url: string
  readonly origin: string
  readonly token: string
  readonly process: ChildProcess
  stderr(): string
  stop(): Promise<void>
}

/** Start `serve` with the given arguments and environment; resolves with its URL line. */
export function startServe(args: string[], env: Record<string, string>): Promise<ServeHandle> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let err = ''
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()))
  return new Promise((ok, fail) => {
    let out = ''
    const timer = setTimeout(() => fail(new Error(`serve did not print its URL in 30 s; stderr: ${err}`)), 30_000)
    child.on('exit', (code) => fail(new Error(`serve exited with ${code}; stderr: ${err}`)))
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const nl = out.indexOf('\n')
      if (nl < 0) return
      clearTimeout(timer)
      const url = out.slice(0, nl).trim()
      const u = new URL(url)
      ok({
        url,
        origin: u.origin,
        token: u.searchParams.get('token') ?? '',
        process: child,
        stderr: () => err,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done()
            child.once('exit', () => done())
            child.kill('SIGTERM')
          }),
      })
    })
  })
}

export function isolatedEnv(root: string): Record<string, string> {
  return {
    HOME: join(root, 'home'),
    XDG_CACHE_HOME: join(root, 'cache'),
    XDG_STATE_HOME: join(root, 'state-home'),
    XDG_DATA_HOME: join(root, 'data'),
    CLAUDE_CONFIG_DIR: join(root, 'claude'),
    CODEX_HOME: join(root, 'codex'),
  }
}

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
      ['--claude-home', fixture.claudeHome, '--codex-home', fixture.codexHome, '--managed-dir', fixture.managedDir, '--state-dir', fixture.stateDir],
      isolatedEnv(fixture.root),
    )
    await use(s)
    await s.stop()
  },
})

export { expect } from '@playwright/test'
