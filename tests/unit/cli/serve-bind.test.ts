/**
 * `serve` binds loopback only (issue 11 item 7), through the real built CLI in a child process.
 * A preload (tests/helpers/bind-guard.mjs) records every listen and lookup and stops any bind
 * beyond loopback, so nothing here ever listens on, or sends to, a non-loopback address.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFixtureHome, type FixtureHome } from '../../helpers/fixture-home'
import { CLI, isolatedEnv, startServe } from '../../helpers/serve-process'
import { homeArgs as homeArgsOf } from '../../helpers/temp-homes'

const GUARD = resolve('tests/helpers/bind-guard.mjs')
const built = existsSync(CLI)

let f: FixtureHome
let scratch: string
let round = 0
beforeAll(() => {
  f = createFixtureHome()
  scratch = mkdtempSync(join(tmpdir(), 'mc-bind-'))
})
afterAll(() => {
  f?.cleanup()
  rmSync(scratch, { recursive: true, force: true })
})

/** A fresh guard log and the environment pointing at it. */
function guarded(): {
  env: Record<string, string>
  entries: () => { listen?: string | null; lookup?: string }[]
} {
  const log = join(scratch, `guard-${++round}.jsonl`)
  return {
    env: { ...isolatedEnv(f.root), BIND_GUARD_LOG: log },
    entries: () =>
      existsSync(log)
        ? readFileSync(log, 'utf8')
            .trim()
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l))
        : [],
  }
}

const homeArgs = (): string[] => homeArgsOf(f)

describe.skipIf(!built)(
  'serve --host (skipped when out/cli is not built: run `npm run build`)',
  () => {
    it.each(['0.0.0.0', '::', '192.168.1.20'])(
      'refuses --host %s before binding: exit 2, one line naming the flag and SSH forwarding',
      async (host) => {
        const g = guarded()
        const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
          (done) => {
            execFile(
              process.execPath,
              ['--import', GUARD, CLI, 'serve', '--port', '0', '--host', host, ...homeArgs()],
              { env: { PATH: process.env.PATH ?? '', ...g.env }, timeout: 60_000 },
              (err, stdout, stderr) =>
                done({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
            )
          },
        )
        expect(r.stderr).not.toContain('bind-guard')
        expect(r.code).toBe(2)
        expect(r.stdout).toBe('')
        const lines = r.stderr.split('\n').filter((l) => l !== '')
        expect(lines).toHaveLength(1)
        expect(lines[0]).toContain(`--host ${host}`)
        expect(lines[0]).toContain('loopback')
        expect(lines[0]).toContain('ssh -L 8765:127.0.0.1:8765')
        expect(g.entries().filter((e) => 'listen' in e)).toEqual([])
      },
    )

    it('binds localhost to 127.0.0.1 without asking the resolver, and prints that address', async () => {
      const g = guarded()
      const s = await startServe(['--host', 'localhost', ...homeArgs()], g.env, ['--import', GUARD])
      try {
        expect(new URL(s.url).host).toBe(`127.0.0.1:${new URL(s.url).port}`)
        const status = await new Promise<number>((done, fail) =>
          http
            .get(
              {
                host: '127.0.0.1',
                port: Number(new URL(s.url).port),
                path: '/',
                headers: { host: `localhost:${new URL(s.url).port}` },
              },
              (res) => {
                res.resume()
                done(res.statusCode ?? 0)
              },
            )
            .on('error', fail),
        )
        expect(status).toBe(200)
      } finally {
        await s.stop()
      }
      const entries = g.entries()
      // /etc/hosts or NSS may map localhost anywhere: serve must not take their word for it.
      expect(entries.filter((e) => e.lookup === 'localhost')).toEqual([])
      expect(entries.filter((e) => 'listen' in e)).toEqual([{ listen: '127.0.0.1' }])
    })

    it('listens on 127.0.0.1 by default', async () => {
      const g = guarded()
      const s = await startServe(homeArgs(), g.env, ['--import', GUARD])
      await s.stop()
      expect(new URL(s.url).hostname).toBe('127.0.0.1')
      expect(g.entries().filter((e) => 'listen' in e)).toEqual([{ listen: '127.0.0.1' }])
    })
  },
)
