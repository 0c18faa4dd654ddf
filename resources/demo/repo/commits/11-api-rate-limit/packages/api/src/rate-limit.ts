import type { IncomingMessage } from 'node:http'

/** Requests allowed per client address per window. */
export const RATE_LIMIT_PER_MINUTE = 120

const windows = new Map<string, { start: number; count: number }>()

/** Fixed-window limiter keyed by client address; true when the request may proceed. */
export function rateLimit(req: IncomingMessage, now = Date.now()): boolean {
  const key = req.socket.remoteAddress ?? 'unknown'
  const w = windows.get(key)
  if (!w || now - w.start >= 60_000) {
    windows.set(key, { start: now, count: 1 })
    return true
  }
  w.count++
  return w.count <= RATE_LIMIT_PER_MINUTE
}
