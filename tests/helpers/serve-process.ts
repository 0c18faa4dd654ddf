/**
 * A real `serve` process (the built CLI) on a free loopback port, for the Playwright
 * fixtures and the unit tests of the HTTP transport. Its first stdout line is the URL; the
 * token travels in its fragment (`#token=…`), which this helper requires.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import http from 'node:http'
import { join, resolve } from 'node:path'
import { TOKEN_FRAGMENT_KEY } from '../../src/shared/channels'

export const CLI = resolve('out/cli/index.js')

export interface ServeHandle {
  readonly url: string
  readonly origin: string
  readonly token: string
  readonly process: ChildProcess
  stderr(): string
  stop(): Promise<void>
}

/** The token of a URL `serve` printed: from the fragment only; '' when it is not there. */
export function tokenOf(url: string): string {
  return new URLSearchParams(new URL(url).hash.slice(1)).get(TOKEN_FRAGMENT_KEY) ?? ''
}

/** Start `serve` with the given arguments and environment; resolves with its URL line. */
export function startServe(
  args: string[],
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<ServeHandle> {
  const child = spawn(process.execPath, [...nodeArgs, CLI, 'serve', '--port', '0', ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let err = ''
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()))
  const stop = (): Promise<void> =>
    new Promise((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done()
      child.once('exit', () => done())
      child.kill('SIGTERM')
    })
  return new Promise((ok, fail) => {
    let out = ''
    const timer = setTimeout(() => {
      void stop()
      fail(new Error(`serve did not print its URL in 60 s; stderr: ${err}`))
    }, 60_000)
    child.on('exit', (code) => {
      clearTimeout(timer)
      fail(new Error(`serve exited with ${code}; stderr: ${err}`))
    })
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const nl = out.indexOf('\n')
      if (nl < 0) return
      clearTimeout(timer)
      const url = out.slice(0, nl).trim()
      const token = tokenOf(url)
      if (!token) {
        void stop()
        fail(new Error(`serve printed no #${TOKEN_FRAGMENT_KEY}= fragment in its URL: ${url}`))
        return
      }
      ok({ url, origin: new URL(url).origin, token, process: child, stderr: () => err, stop })
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

export interface Reply {
  readonly status: number
  readonly headers: http.IncomingHttpHeaders
  readonly body: string
}

/**
 * A raw request to 127.0.0.1:port, so paths and headers reach the server exactly as written
 * (no URL normalisation, no cookie jar). `host` defaults to 127.0.0.1:port. A connection
 * error is a reply with status 0.
 */
export function rawRequest(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Promise<Reply> {
  return new Promise((done, fail) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path, headers: { host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (d: Buffer) => chunks.push(d))
        res.on('end', () =>
          done({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        )
        res.on('error', fail)
      },
    )
    req.on('error', (e) => done({ status: 0, headers: {}, body: `connection error: ${e.message}` }))
    if (body !== undefined) req.end(body)
    else req.end()
  })
}

/** The name `serve` gave its token cookie before issue 11 (it set one on `/?token=`), for tests that it is refused. */
export function legacyCookieName(port: number): string {
  return `mc_token_${Buffer.from(`127.0.0.1:${port}`).toString('hex').slice(-12)}`
}
