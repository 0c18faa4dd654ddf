/**
 * The `serve` transport: the built renderer and the API over HTTP on loopback.
 * Defences: a random per-run token, accepted only in the `x-curator-token` header on
 * every API call and on the event stream — never as a cookie (cookies ignore the port,
 * so one would reach every other server on 127.0.0.1; issue 11 item 2) nor as a query
 * parameter (request lines end up in logs and history). The page gets the token in the
 * URL fragment. Static files are the built renderer, hold no secret and no data, and are
 * served without it. Host and Origin checks against DNS rebinding, JSON-only POSTs,
 * size limits, and the back end's path guard.
 */
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname, normalize, resolve, sep } from 'node:path'
import { timingSafeEqual } from 'node:crypto'
import { API_PREFIX, TOKEN_HEADER, type CuratorApi, type ChangeEvent } from '../shared/api'
import { dispatch, DispatchError } from '../shared/dispatch'
import { BackendError } from '../node/app/errors'
import { CONTENT_TYPES } from '../node/app/content-types'

export interface HttpTransportOptions {
  readonly api: CuratorApi
  readonly onDidChange: (listener: (e: ChangeEvent) => void) => () => void
  readonly token: string
  readonly rendererDir: string
  /** Host header values accepted, e.g. `127.0.0.1:5173`, `localhost:5173`. */
  readonly allowedHosts: readonly string[]
  readonly maxBodyBytes?: number
}

/** The Content-Security-Policy of every page we serve: no inline script, no eval. */
export const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

const TYPES = CONTENT_TYPES
/** Largest read of a served file (Monaco's chunk, ~4 MB, is the largest in the renderer). */
const STATIC_CHUNK_MAX = 4 * 1024 * 1024

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...headers,
  })
  res.end(text)
}

/** Build the request handler of `serve`. */
export function createHttpHandler(
  options: HttpTransportOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  const { api, token, rendererDir, allowedHosts } = options
  const maxBody = options.maxBodyBytes ?? 1024 * 1024
  const rendererRoot = resolve(rendererDir)
  const allowedOrigins = new Set(allowedHosts.map((h) => `http://${h}`))

  /** The header alone: a cookie or a query parameter carrying the token authorises nothing. */
  function authorised(req: IncomingMessage): boolean {
    const header = req.headers[TOKEN_HEADER]
    return typeof header === 'string' && sameSecret(header, token)
  }

  async function serveStatic(res: ServerResponse, pathname: string): Promise<void> {
    let decoded: string
    try {
      decoded = decodeURIComponent(pathname)
    } catch {
      return send(res, 400, { error: 'malformed path', code: 'bad-request' })
    }
    if (decoded.includes('\0')) return send(res, 400, { error: 'NUL in path', code: 'bad-request' })
    const rel = decoded === '/' ? 'index.html' : normalize(decoded).replace(/^([/\\])+/, '')
    const file = resolve(rendererRoot, rel)
    if (file !== rendererRoot && !file.startsWith(rendererRoot + sep)) {
      return send(res, 403, { error: 'path outside the served folder', code: 'forbidden' })
    }
    let size: number
    try {
      const st = await stat(file)
      if (!st.isFile()) throw new Error('not a file')
      size = st.size
    } catch {
      return send(res, 404, { error: `not found: ${decoded.slice(0, 200)}`, code: 'not-found' })
    }
    const headers: Record<string, string> = {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': String(size),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    }
    if (extname(file) === '.html') {
      headers['content-security-policy'] = CSP
      headers['x-frame-options'] = 'DENY'
    }
    res.writeHead(200, headers)
    // In one read up to STATIC_CHUNK_MAX (64 KiB by default): each chunk waits for a turn of the
    // one thread, which the startup scan shares a slice at a time with the page's files.
    const highWaterMark = Math.min(Math.max(size, 64 * 1024), STATIC_CHUNK_MAX)
    createReadStream(file, { highWaterMark }).pipe(res)
  }

  function readBody(req: IncomingMessage): Promise<string | null> {
    return new Promise((resolveBody) => {
      const chunks: Buffer[] = []
      let size = 0
      let over = false
      req.on('data', (c: Buffer) => {
        size += c.length
        if (size > maxBody) {
          over = true
          chunks.length = 0
        } else if (!over) chunks.push(c)
      })
      req.on('end', () => resolveBody(over ? null : Buffer.concat(chunks).toString('utf8')))
      req.on('error', () => resolveBody(null))
    })
  }

  async function handleApi(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
  ): Promise<void> {
    if (req.method !== 'POST')
      return send(res, 405, { error: 'use POST', code: 'bad-request' }, { allow: 'POST' })
    const type = req.headers['content-type'] ?? ''
    if (!type.startsWith('application/json'))
      return send(res, 415, { error: 'content-type must be application/json', code: 'bad-request' })
    const body = await readBody(req)
    if (body === null)
      return send(res, 413, { error: `request body over ${maxBody} bytes`, code: 'bad-request' })
    let args: unknown
    try {
      args = body === '' ? [] : JSON.parse(body)
    } catch {
      return send(res, 400, { error: 'request body is not JSON', code: 'bad-request' })
    }
    try {
      const result = await dispatch(api, method, args)
      send(res, 200, { result })
    } catch (err) {
      if (err instanceof DispatchError)
        return send(res, err.code === 'not-found' ? 404 : 400, {
          error: err.message,
          code: err.code,
        })
      if (err instanceof BackendError) {
        const status = err.code === 'forbidden' ? 403 : err.code === 'not-found' ? 404 : 400
        return send(res, status, { error: err.message, code: err.code })
      }
      process.stderr.write(`serve: ${method} failed: ${(err as Error).stack ?? String(err)}\n`)
      send(res, 500, { error: `${method} failed: ${(err as Error).message}`, code: 'internal' })
    }
  }

  /** Server-sent events, read by the page with `fetch` (EventSource cannot send the header). */
  function handleEvents(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET')
      return send(res, 405, { error: 'use GET', code: 'bad-request' }, { allow: 'GET' })
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    })
    res.write(': connected\n\n')
    const off = options.onDidChange((e) => res.write(`data: ${JSON.stringify(e)}\n\n`))
    const ping = setInterval(() => res.write(': ping\n\n'), 15_000)
    req.on('close', () => {
      clearInterval(ping)
      off()
    })
  }

  return (req, res) => {
    const host = req.headers.host ?? ''
    if (!allowedHosts.includes(host)) {
      return send(res, 403, {
        error: `foreign Host header: ${host.slice(0, 100)}`,
        code: 'forbidden',
      })
    }
    const origin = req.headers.origin
    if (origin !== undefined && !allowedOrigins.has(origin)) {
      return send(res, 403, { error: `foreign Origin: ${origin.slice(0, 100)}`, code: 'forbidden' })
    }
    const raw = (req.url ?? '/').split('?')[0] ?? '/'
    if (raw.startsWith(API_PREFIX)) {
      if (!authorised(req)) {
        return send(res, 401, {
          error: `missing or wrong access token (send it in the ${TOKEN_HEADER} header)`,
          code: 'forbidden',
        })
      }
      const method = raw.slice(API_PREFIX.length)
      if (method === 'events') return handleEvents(req, res)
      void handleApi(req, res, method)
      return
    }
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return send(res, 405, { error: 'use GET', code: 'bad-request' })
    void serveStatic(res, raw)
  }
}
