import type { IncomingMessage, ServerResponse } from 'node:http'
import { query } from '../../../src/db/client'
import { rateLimit } from './rate-limit'

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>

const routes: Record<string, Handler> = {
  'GET /api/products': async (_req, res) => {
    const rows = await query('select sku, name, price from products order by sku')
    send(res, 200, rows)
  },
}

/** Dispatch an /api request by method and path, after the per-client rate limit. */
export async function handleApi(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (!rateLimit(req)) {
    return send(res, 429, { error: { code: 'rate_limited', message: 'slow down' } })
  }
  const handler = routes[`${req.method} ${req.url?.split('?')[0]}`]
  if (!handler) return send(res, 404, { error: { code: 'not_found', message: 'no such route' } })
  await handler(req, res)
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status
  res.setHeader('Content-Type', 'application/json')
  res.end(JSON.stringify(body))
}
