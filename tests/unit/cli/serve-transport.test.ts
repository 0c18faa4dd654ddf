/**
 * The `serve` transport's token (issue 11 item 2), over real HTTP against the built CLI in a
 * child process on a fixture home: no response sets a cookie, the API and the event stream
 * take the token from the `x-curator-token` header only (never a cookie, never a query
 * parameter), the printed URL carries it in the fragment, and the static files are served
 * without it and hold none of it.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs'
import http from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFixtureHome, type FixtureHome } from '../../helpers/fixture-home'
import {
  CLI,
  isolatedEnv,
  legacyCookieName,
  rawRequest,
  startServe,
  type Reply,
  type ServeHandle,
} from '../../helpers/serve-process'
import { homeArgs } from '../../helpers/temp-homes'

const built = existsSync(CLI)

let f: FixtureHome
let served: ServeHandle
let port: number
const json = { 'content-type': 'application/json' }

/** POST `body` to `path` of the served app with the token header, as the page does. */
const postWithToken = (path: string, body: string): Promise<Reply> =>
  rawRequest(port, 'POST', path, { ...json, 'x-curator-token': served.token }, body)

beforeAll(async () => {
  if (!built) return
  f = createFixtureHome()
  served = await startServe(homeArgs(f), isolatedEnv(f.root))
  port = Number(new URL(served.url).port)
}, 60_000)
afterAll(async () => {
  await served?.stop()
  f?.cleanup()
})

interface EventStream {
  readonly status: number
  readonly headers: http.IncomingHttpHeaders
  /** Resolves with everything received once `needle` has arrived (60 s hang limit). */
  until(needle: string): Promise<string>
  close(): void
}

/** Open `/api/events` with the given headers and path and keep reading it. */
function openEvents(headers: Record<string, string>, path = '/api/events'): Promise<EventStream> {
  return new Promise((ready, fail) => {
    const req = http.get(
      { host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let text = ''
        res.on('error', () => undefined) // close() ends it on purpose
        const waiters: (() => void)[] = []
        res.on('data', (d: Buffer) => {
          text += d.toString()
          for (const w of waiters.splice(0)) w()
        })
        ready({
          status: res.statusCode ?? 0,
          headers: res.headers,
          until: (needle) =>
            new Promise((done, give) => {
              const timer = setTimeout(
                () =>
                  give(
                    new Error(
                      `no ${needle} on the event stream in 60 s; got: ${text.slice(0, 500)}`,
                    ),
                  ),
                60_000,
              )
              const check = (): void => {
                if (text.includes(needle)) {
                  clearTimeout(timer)
                  done(text)
                } else waiters.push(check)
              }
              check()
            }),
          close: () => req.destroy(),
        })
      },
    )
    req.on('error', fail)
  })
}

describe.skipIf(!built)(
  'serve token transport (skipped when out/cli is not built: run `npm run build`)',
  () => {
    it('prints the URL with the token in its fragment, not in its query', () => {
      const url = new URL(served.url)
      expect(url.hostname).toBe('127.0.0.1')
      expect(url.search).toBe('')
      expect(url.hash).toBe(`#token=${served.token}`)
      expect(served.token).toMatch(/^[A-Za-z0-9_-]{32}$/)
    })

    it('sets no cookie in any response, whatever the request', async () => {
      // The page's script, named from the built page on disk (serve serves out/renderer).
      const asset = /src="\.(\/assets\/[^"]+\.js)"/.exec(
        readFileSync(join(CLI, '..', '..', 'renderer', 'index.html'), 'utf8'),
      )?.[1]
      expect(asset).toBeDefined()
      const replies: [string, Reply][] = [
        ['GET /', await rawRequest(port, 'GET', '/')],
        ['GET /index.html', await rawRequest(port, 'GET', '/index.html')],
        ['HEAD /', await rawRequest(port, 'HEAD', '/')],
        [`GET ${asset}`, await rawRequest(port, 'GET', asset!)],
        ['GET the old URL form', await rawRequest(port, 'GET', `/?token=${served.token}`)],
        ['GET a missing file', await rawRequest(port, 'GET', '/nope.js')],
        [
          'GET / with the token header',
          await rawRequest(port, 'GET', '/', { 'x-curator-token': served.token }),
        ],
        ['POST /api/scan with the header', await postWithToken('/api/scan', '[]')],
        ['POST /api/scan without a token', await rawRequest(port, 'POST', '/api/scan', json, '[]')],
        ['POST /api/nope with the header', await postWithToken('/api/nope', '[]')],
        [
          'POST /api/readFile outside the roots',
          await postWithToken('/api/readFile', '["/etc/hostname"]'),
        ],
        [
          'GET / from a foreign Host',
          await rawRequest(port, 'GET', '/', { host: `evil.example:${port}` }),
        ],
      ]
      const events = await openEvents({ 'x-curator-token': served.token })
      events.close()
      const withCookie = [
        ...replies.map(([what, r]) => [what, r.headers] as const),
        ['GET /api/events', events.headers] as const,
      ].filter(([, headers]) => headers['set-cookie'] !== undefined)
      expect(withCookie.map(([what]) => what)).toEqual([])
      const statuses = Object.fromEntries(replies.map(([what, r]) => [what, r.status]))
      expect(statuses).toMatchObject({
        'GET /': 200,
        'GET the old URL form': 200,
        'POST /api/scan with the header': 200,
        'POST /api/scan without a token': 401,
      })
      expect(events.status).toBe(200)
    })

    it('serves the page and its assets without the token; none of them holds it', async () => {
      const index = await rawRequest(port, 'GET', '/')
      expect(index.status).toBe(200)
      expect(index.headers['content-type']).toContain('text/html')
      const assets = [...index.body.matchAll(/(?:src|href)="\.(\/assets\/[^"]+)"/g)].map(
        (m) => m[1]!,
      )
      expect(assets.length).toBeGreaterThan(0)
      for (const a of assets) {
        const r = await rawRequest(port, 'GET', a)
        expect(r.status, a).toBe(200)
        expect(r.body.includes(served.token), a).toBe(false)
        // Whole and unchanged, the page's script (~400 KB) included, read in one chunk.
        expect(r.body, a).toBe(readFileSync(join(CLI, '..', '..', 'renderer', a), 'utf8'))
      }
      expect(index.body.includes(served.token)).toBe(false)
    })

    it('refuses the API when the token comes only as a cookie or a query parameter', async () => {
      const t = served.token
      const attempts: [string, string, Record<string, string>][] = [
        ['the cookie serve once set', '/api/scan', { cookie: `${legacyCookieName(port)}=${t}` }],
        ['a cookie named token', '/api/scan', { cookie: `token=${t}` }],
        ['a cookie named like the header', '/api/scan', { cookie: `x-curator-token=${t}` }],
        ['the query', `/api/scan?token=${t}`, {}],
        ['the query under the header name', `/api/scan?x-curator-token=${t}`, {}],
        [
          'cookie and query together',
          `/api/scan?token=${t}`,
          { cookie: `${legacyCookieName(port)}=${t}` },
        ],
        [
          'an empty header beside the cookie',
          '/api/scan',
          { 'x-curator-token': '', cookie: `${legacyCookieName(port)}=${t}` },
        ],
        ['the header in Authorization instead', '/api/scan', { authorization: `Bearer ${t}` }],
      ]
      const refused: string[] = []
      for (const [what, path, headers] of attempts) {
        const r = await rawRequest(port, 'POST', path, { ...json, ...headers }, '[]')
        if (r.status === 401) refused.push(what)
        expect(r.body.includes('"projects"'), what).toBe(false)
      }
      expect(refused).toEqual(attempts.map(([what]) => what))
      // The event stream too: it streams nothing without the header.
      for (const [what, path, headers] of [
        ['events with the old cookie', '/api/events', { cookie: `${legacyCookieName(port)}=${t}` }],
        ['events with the query', `/api/events?token=${t}`, {}],
      ] as const) {
        const r = await rawRequest(port, 'GET', path, headers)
        expect(r.status, what).toBe(401)
      }
      // And the header alone is enough.
      expect(
        (await rawRequest(port, 'POST', '/api/scan', { ...json, 'x-curator-token': t }, '[]'))
          .status,
      ).toBe(200)
    })

    it('streams change events to a reader that sends the header (no cookie, no query)', async () => {
      const events = await openEvents({ 'x-curator-token': served.token })
      try {
        expect(events.status).toBe(200)
        expect(events.headers['content-type']).toContain('text/event-stream')
        await events.until(': connected')
        // The watcher watches what the window has scanned.
        expect((await postWithToken('/api/scan', '[]')).status).toBe(200)
        const index = join(f.memoryDir, 'MEMORY.md')
        appendFileSync(index, '- [Streamed](streamed.md) — appended while the stream is open\n')
        const text = await events.until(JSON.stringify(index).slice(1, -1))
        expect(text).toMatch(/^data: \{"kind":"changed"/m)
      } finally {
        events.close()
      }
    })
  },
)
