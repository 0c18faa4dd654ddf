/**
 * The transport shim `serve` uses in place of the preload: the same CuratorClient,
 * over HTTP to the server that served this page. The token arrives once in the URL
 * fragment (never sent to any server), is kept in this tab's sessionStorage (bound to
 * this origin, port included, unlike a cookie) and leaves the address bar at once; every
 * call, the event stream included, carries it in a header.
 */
import type { ApiErrorBody, ChangeEvent, CuratorApi, CuratorClient } from '../../shared/api'
import {
  API_METHOD_NAMES,
  API_PREFIX,
  TOKEN_FRAGMENT_KEY,
  TOKEN_HEADER,
} from '../../shared/channels'
import { takeEvents } from '../state/event-stream'

const TOKEN_KEY = 'memory-curator-token'
/** Wait before reconnecting a dropped event stream (EventSource's own default is about 3 s). */
const RECONNECT_MS = 3000

function takeToken(): string {
  const url = new URL(window.location.href)
  const fragment = new URLSearchParams(url.hash.slice(1))
  const fromUrl = fragment.get(TOKEN_FRAGMENT_KEY)
  if (fromUrl) {
    sessionStorage.setItem(TOKEN_KEY, fromUrl)
    fragment.delete(TOKEN_FRAGMENT_KEY)
    const rest = fragment.toString()
    window.history.replaceState(null, '', url.pathname + url.search + (rest ? `#${rest}` : ''))
    return fromUrl
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? ''
}

/** Read the event stream with `fetch`, which can send the header (EventSource cannot); reconnects until stopped. */
async function followEvents(
  token: string,
  signal: AbortSignal,
  listener: (e: ChangeEvent) => void,
): Promise<void> {
  while (!signal.aborted) {
    try {
      const res = await fetch(`${API_PREFIX}events`, { headers: { [TOKEN_HEADER]: token }, signal })
      // A refused token will not become right by retrying.
      if (res.status >= 400 && res.status < 500) return
      if (res.ok && res.body) {
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
        let buffer = ''
        for (;;) {
          const { value, done } = await reader.read()
          if (done) break
          const { data, rest } = takeEvents(buffer + value)
          buffer = rest
          for (const d of data) listener(JSON.parse(d) as ChangeEvent)
        }
      }
    } catch {
      // dropped or aborted: fall through to the reconnect check
    }
    if (signal.aborted) return
    await new Promise((ok) => setTimeout(ok, RECONNECT_MS))
  }
}

export function createHttpClient(): CuratorClient {
  const token = takeToken()
  const call =
    (method: string) =>
    async (...args: unknown[]): Promise<never> => {
      if (!token)
        throw new Error(
          `no access token in this tab: open the URL serve printed (it ends in #${TOKEN_FRAGMENT_KEY}=…)`,
        )
      const res = await fetch(API_PREFIX + method, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token },
        body: JSON.stringify(args),
      })
      const body = (await res
        .json()
        .catch(() => ({ error: `HTTP ${res.status}`, code: 'internal' }))) as
        { result: never } | ApiErrorBody
      if (!res.ok || 'error' in body)
        throw new Error('error' in body ? body.error : `HTTP ${res.status}`)
      return body.result
    }
  const methods = Object.fromEntries(
    API_METHOD_NAMES.map((m) => [m, call(m)]),
  ) as unknown as CuratorApi
  // One event stream for every listener: a browser keeps at most six connections to a host, and
  // each open stream holds one, so a stream per view would leave none for the calls (issue 18).
  const listeners = new Set<(e: ChangeEvent) => void>()
  let stream: AbortController | null = null
  return {
    ...methods,
    onDidChange(listener) {
      listeners.add(listener)
      if (!stream) {
        stream = new AbortController()
        void followEvents(token, stream.signal, (e) => {
          for (const l of [...listeners]) l(e)
        })
      }
      return () => {
        listeners.delete(listener)
        if (listeners.size === 0) {
          stream?.abort()
          stream = null
        }
      }
    },
  }
}
