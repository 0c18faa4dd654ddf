/**
 * Heavy work off the request path (issue 11, item 8; docs/reliability.md): a job that dies —
 * the old replay's doubling, a heap exhausted, an exception, process.exit, a hang — returns an
 * error to its caller, while cheap requests are answered meanwhile and the process lives on.
 */
import { createServer, get, type Server } from 'node:http'
import { existsSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createBackend, type Backend } from '../../../src/node/app/backend'
import {
  createIsolatedRunner,
  IsolatedJobError,
  type LaunchFn,
} from '../../../src/node/jobs/isolated'
import { fork } from 'node:child_process'

const IPC: ['ignore', 'ignore', 'ignore', 'ipc'] = ['ignore', 'ignore', 'ignore', 'ipc']
import { backendConfigFor } from '../../helpers/backend-config'
import { createFixtureHome, type FixtureHome } from '../../helpers/fixture-home'

const CRASHING = new URL('../../helpers/crashing-job.mjs', import.meta.url)

let server: Server
let port = 0
let answered = 0
beforeAll(async () => {
  // A cheap request: answered on this process's event loop, as `serve` answers the window.
  server = createServer((_req, res) => {
    answered++
    res.end('ok')
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  port = (server.address() as AddressInfo).port
})
afterAll(() => new Promise<void>((r) => server.close(() => r())))

const cheap = (): Promise<string> =>
  new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: '/' }, (res) => {
      let body = ''
      res.on('data', (d: Buffer) => (body += d.toString()))
      res.on('end', () => resolve(body))
    }).on('error', reject)
  })

/** The job's error reason, or a failure message if it did not fail. */
async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p
    return 'did not fail'
  } catch (err) {
    expect(err).toBeInstanceOf(IsolatedJobError)
    return (err as IsolatedJobError).reason
  }
}

describe('createIsolatedRunner', () => {
  it('a job that never ends leaves the event loop free: 20 requests answered while it runs', async () => {
    const runner = createIsolatedRunner({ script: CRASHING, hangMs: 60_000 })
    let settled = false
    const job = runner.run('hang', null)
    job.then(
      () => (settled = true),
      () => (settled = true),
    )
    const before = answered
    for (let i = 0; i < 20; i++) expect(await cheap()).toBe('ok')
    expect(answered - before).toBe(20)
    expect(settled).toBe(false)
    await runner.close()
    expect(await failure(job)).toBe('stopped: the back end is closing')
  })

  it('every fatal job returns an error to its caller; a concurrent job and the process live on', async () => {
    const runner = createIsolatedRunner({ script: CRASHING, maxHeapMb: 64, concurrency: 2 })
    const pid = process.pid
    const crashed =
      /^crashed \(SIG(ABRT|TRAP|SEGV|ILL)\): out of memory or a fatal V8 error \(heap limit 64 MB\)$/
    const cases: [string, RegExp][] = [
      ['replay-bomb', crashed],
      ['heap', crashed],
      ['throw', /^its process stopped \(exit code 1\) without an answer$/],
      ['exit', /^its process stopped \(exit code 7\) without an answer$/],
      ['no-such-job', /^unknown job no-such-job$/],
    ]
    for (const [job, reason] of cases) {
      // The fatal job and a cheap one side by side, plus a request to this process.
      const [bad, echo, page] = await Promise.all([
        failure(runner.run(job, null)),
        runner.run('echo', { job }),
        cheap(),
      ])
      expect(bad, job).toMatch(reason)
      expect(echo).toEqual({ job })
      expect(page).toBe('ok')
    }
    expect(runner.stats).toEqual({ started: 10, ok: 5, failed: 5 })
    expect(process.pid).toBe(pid)
    expect(await runner.run('echo', 'still here')).toBe('still here')
    await runner.close()
  })

  it('a hang limit stops a job and says so', async () => {
    const runner = createIsolatedRunner({ script: CRASHING, hangMs: 500 })
    expect(await failure(runner.run('hang', null))).toBe('still running after 1 s; stopped')
    await runner.close()
  })
})

describe('the back end runs provenance through the runner', () => {
  let f: FixtureHome
  let backend: Backend
  beforeAll(async () => {
    f = createFixtureHome()
    backend = await createBackend(
      // Its provenance job aborts its process, as the old replay bomb did to `serve`.
      backendConfigFor(f, { heavyWorker: CRASHING }),
    )
    await backend.scan()
  })
  afterAll(async () => {
    await backend?.dispose()
    f?.cleanup()
  })

  it('the job dies; the request gets a problem with the reason, other requests are answered', async () => {
    const [prov, scan, ctx] = await Promise.all([
      backend.provenance(f.memoryDir),
      backend.scan(),
      backend.getContext(),
    ])
    expect(prov.files).toEqual([])
    expect(prov.problems).toEqual([
      {
        path: f.memoryDir,
        reason: expect.stringMatching(
          /^history not read: provenance failed: crashed \(SIG[A-Z]+\)/,
        ),
      },
    ])
    expect(scan.projects.length).toBeGreaterThan(0)
    expect(ctx.version).toBe('test')
    // And again: the server is still there to be asked.
    expect((await backend.provenance(f.memoryDir)).problems).toHaveLength(1)
  })
})

const BUILT = resolve('out/cli/heavy-worker.js')
describe.skipIf(!existsSync(BUILT))(
  'the built job script (skipped when out/cli is not built: run `npm run build`)',
  () => {
    it('answers provenance exactly as the in-process call does', async () => {
      const f = createFixtureHome()
      const make = (heavyWorker: URL | null): Promise<Backend> =>
        createBackend(
          backendConfigFor(f, {
            stateDir: join(f.root, heavyWorker === null ? 'state-inline' : 'state-isolated'),
            heavyWorker,
          }),
        )
      const inline = await make(null)
      const isolated = await make(pathToFileURL(BUILT))
      try {
        await inline.scan()
        await isolated.scan()
        const a = await inline.provenance(f.memoryDir)
        const b = await isolated.provenance(f.memoryDir)
        expect(a.files.length).toBeGreaterThan(0)
        expect(b).toEqual(a)
      } finally {
        await inline.dispose()
        await isolated.dispose()
        f.cleanup()
      }
    })

    it('runs the job once more when its first process dies without an answer', async () => {
      const f = createFixtureHome()
      let starts = 0
      // The first process exits before it answers (as one lost to a loaded machine may).
      const launch: LaunchFn = (script, heapMb) =>
        ++starts === 1
          ? fork(script, [], { execArgv: ['-e', 'process.exit(3)'], stdio: IPC })
          : fork(script, [], {
              execArgv: [`--max-old-space-size=${heapMb}`],
              stdio: IPC,
              serialization: 'advanced',
            })
      const backend = await createBackend(
        backendConfigFor(f, { heavyWorker: pathToFileURL(BUILT), heavyLaunch: launch }),
      )
      try {
        await backend.scan()
        const r = await backend.provenance(f.memoryDir)
        expect(starts).toBe(2)
        expect(r.files.length).toBeGreaterThan(0)
        expect(r.problems).toEqual([])
      } finally {
        await backend.dispose()
        f.cleanup()
      }
    })
  },
)
