/**
 * The transport shim `serve` uses in place of the preload: the same CuratorClient,
 * over HTTP to the server that served this page. The token arrives once in the URL,
 * is kept for this tab only, and is removed from the address bar.
 */
import type { ApiErrorBody, ChangeEvent, CuratorApi, CuratorClient } from '../shared/api'
import { API_METHOD_NAMES, API_PREFIX, TOKEN_HEADER } from '../shared/channels'

const TOKEN_KEY = 'memory-curator-token'

function takeToken(): string {
  const url = new URL(window.location.href)
  const fromUrl = url.searchParams.get('token')
  if (fromUrl) {
    sessionStorage.setItem(TOKEN_KEY, fromUrl)
    url.searchParams.delete('token')
    window.history.replaceState(null, '', url.pathname + url.search + url.hash)
    return fromUrl
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? ''
}

export function createHttpClient(): CuratorClient {
  const token = takeToken()
  const call =
    (method: string) =>
    async (...args: unknown[]): Promise<never> => {
      const res = await fetch(API_PREFIX + method, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token },
        body: JSON.stringify(args),
      })
      const body = (await res.json().catch(() => ({ error: `HTTP ${res.status}`, code: 'internal' }))) as
        | { result: never }
        | ApiErrorBody
      if (!res.ok || 'error' in body) throw new Error('error' in body ? body.error : `HTTP ${res.status}`)
      return body.result
    }
  const methods = Object.fromEntries(API_METHOD_NAMES.map((m) => [m, call(m)])) as unknown as CuratorApi
  return {
    ...methods,
    onDidChange(listener) {
      // EventSource cannot send headers; the HttpOnly cookie set with the page authorises it.
      const source = new EventSource(`${API_PREFIX}events`)
      source.onmessage = (m) => listener(JSON.parse(m.data as string) as ChangeEvent)
      return () => source.close()
    },
  }
}
