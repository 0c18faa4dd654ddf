/**
 * The serve token reaches no other server on 127.0.0.1 (issue 11 item 2). Cookies ignore the
 * port, so a token cookie would go to every local server the browser visits. After the window
 * is used (load, clicks, API calls, the event stream delivering a change), the page goes to a
 * second server on another loopback port, by a link-style navigation, a typed one and a
 * credentialed fetch from there: that server must see no Cookie and the token nowhere.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { appendFileSync } from 'node:fs'
import { join } from 'node:path'
import { memoryWorkspace } from '../helpers/memory-workspace-page'
import { test, expect } from './fixtures'

interface Seen {
  readonly requestLine: string
  readonly headers: readonly (readonly [string, string])[]
}

/** A plain local server (a dev server, anything) that records every request it gets. */
async function recordingServer(): Promise<{
  origin: string
  seen: Seen[]
  close(): Promise<void>
}> {
  const seen: Seen[] = []
  const server = http.createServer((req, res) => {
    const pairs: [string, string][] = []
    for (let i = 0; i < req.rawHeaders.length; i += 2)
      pairs.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!])
    seen.push({ requestLine: `${req.method} ${req.url} HTTP/${req.httpVersion}`, headers: pairs })
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end('<!doctype html><title>another local server</title><p>another local server</p>')
  })
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections()
        server.close(() => ok())
      }),
  }
}

test('after the window is used, another server on 127.0.0.1 receives no cookie and no token', async ({
  page,
  context,
  served,
  fixture,
}) => {
  test.setTimeout(120_000)
  const other = await recordingServer()
  try {
    const ws = memoryWorkspace(page)
    const eventStream = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/events')
    await page.goto(served.url)
    await eventStream
    // The token left the address bar at once.
    expect(page.url()).not.toContain(served.token)
    await ws.selectProject(/acme-shop/)
    await expect(ws.editor.locator('.view-lines')).toContainText('# Project memory')
    // The event stream works without a cookie: a line appended on disk shows up.
    appendFileSync(
      join(fixture.memoryDir, 'MEMORY.md'),
      '- [Leak check](leak-check.md) — appended during the token test\n',
    )
    await expect(page.getByTestId('unloaded-entry').first()).toContainText('Leak check')
    for (const tab of ['notes', 'queue', 'history', 'instructions', 'memory'])
      await page.getByTestId(`tab-${tab}`).click()
    await expect(ws.editor.locator('.view-lines')).toContainText('# Project memory')

    // Leave for the other server the way a link would, then fetch from there with credentials.
    await page.evaluate(
      (to) =>
        (globalThis as unknown as { location: { assign(u: string): void } }).location.assign(to),
      `${other.origin}/followed-a-link`,
    )
    await page.waitForURL(`${other.origin}/followed-a-link`)
    const fetched = await page.evaluate(
      async () => (await fetch('/fetched', { credentials: 'include' })).status,
    )
    expect(fetched).toBe(200)
    // And the way a person would, typing its address (SameSite=Strict cookies go along).
    await page.goto(`${other.origin}/typed`)

    // Back in the same tab, without the fragment: the tab's sessionStorage still holds the token.
    await page.goto(`${served.origin}/`)
    await ws.selectProject(/acme-shop/)
    await expect(page.getByTestId('unloaded-entry').first()).toContainText('Leak check')
  } finally {
    await other.close()
  }

  const paths = other.seen.map((s) => s.requestLine.split(' ')[1])
  expect(paths).toEqual(expect.arrayContaining(['/followed-a-link', '/fetched', '/typed']))
  const leaks = other.seen.flatMap((s) => [
    ...s.headers
      .filter(([name]) => name.toLowerCase() === 'cookie')
      .map(([, v]) => `${s.requestLine}: Cookie: ${v}`),
    ...[s.requestLine, ...s.headers.map(([n, v]) => `${n}: ${v}`)]
      .filter((text) => text.includes(served.token))
      .map((text) => `${s.requestLine}: ${text}`),
  ])
  process.stderr.write(
    `token leak check: ${other.seen.length} requests reached another server on 127.0.0.1, ${leaks.length} carried the token or a cookie\n`,
  )
  expect(leaks).toEqual([])
  expect(await context.cookies()).toEqual([])
})
