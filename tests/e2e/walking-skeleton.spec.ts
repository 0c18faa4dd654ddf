/** The walking skeleton in real Chromium against real `serve` (issue 2). */
import { test, expect, startServe, isolatedEnv } from './fixtures'

test('lists the projects by their launch directory and shows MEMORY.md with its cutoff', async ({
  page,
  served,
  fixture,
}) => {
  await page.goto(served.url)
  const list = page.getByTestId('project-list')
  // Names come from transcript cwd values, never from decoding folder names.
  await expect(list.getByRole('option', { name: /acme-shop/ })).toBeVisible()
  await expect(list.getByRole('option', { name: /broken-app/ })).toBeVisible()
  // A folder without transcripts says its launch directory is unknown, never its encoded name
  // (issue 15 item 16); the folder is in its tooltip.
  const unknown = list.getByRole('option', { name: /Launch directory unknown/ })
  await expect(unknown).toBeVisible()
  await expect(unknown).not.toContainText('-tmp-no-transcripts')
  await expect(unknown).toHaveAttribute('title', /-tmp-no-transcripts/)
  await list.getByRole('option', { name: /acme-shop/ }).click()
  await expect(page.getByText(fixture.repo).first()).toBeVisible()
  const editor = page.getByTestId('memory-editor')
  await expect(editor.locator('.view-lines')).toContainText('# Project memory')
  // 230 entries + headings run past 200 lines: the gauge and the rule say so.
  await expect(page.getByTestId('cutoff-summary')).toContainText('Lines: 200 / 200')
  await page.getByTestId('go-cutoff').click()
  await expect(page.getByTestId('cutoff-rule')).toBeVisible()
  await expect(page.getByTestId('cutoff-rule')).toContainText('not loaded at session start')
  await page.screenshot({ path: 'test-results/screens/cutoff.png' })
  // The token was taken out of the address bar.
  expect(page.url()).not.toContain('token=')
})

test('shows a binary MEMORY.md and a malformed transcript as problems, and keeps going', async ({
  page,
  served,
}) => {
  await page.goto(served.url)
  await page
    .getByTestId('project-list')
    .getByRole('option', { name: /broken-app/ })
    .click()
  await expect(page.getByTestId('file-problem')).toContainText('binary')
  await expect(page.getByTestId('project-problems')).toContainText('malformed')
  await page
    .getByTestId('project-list')
    .getByRole('option', { name: /Launch directory unknown/ })
    .click()
  await expect(page.getByTestId('project-problems')).toContainText('no transcripts')
})

test('refuses requests without the token, with a foreign Host or Origin, and paths outside the roots', async ({
  served,
  request,
}) => {
  const base = served.origin
  const noToken = await fetch(`${base}/api/scan`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '[]',
  })
  expect(noToken.status).toBe(401)
  const wrongToken = await fetch(`${base}/api/scan`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-curator-token': 'nope' },
    body: '[]',
  })
  expect(wrongToken.status).toBe(401)
  const ok = await fetch(`${base}/api/scan`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-curator-token': served.token },
    body: '[]',
  })
  expect(ok.status).toBe(200)
  // DNS rebinding: a page on evil.example resolving to 127.0.0.1 sends its own Host.
  const http = await import('node:http')
  const port = Number(new URL(base).port)
  const foreignHost = await new Promise<number>((done) => {
    http.get(
      { host: '127.0.0.1', port, path: `/`, headers: { host: `evil.example:${port}` } },
      (r) => done(r.statusCode ?? 0),
    )
  })
  expect(foreignHost).toBe(403)
  const foreignOrigin = await fetch(`${base}/api/scan`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-curator-token': served.token,
      origin: 'http://evil.example',
    },
    body: '[]',
  })
  expect(foreignOrigin.status).toBe(403)
  // Path traversal, raw and encoded, against the static server.
  for (const path of [
    '/../../etc/passwd',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/..%2f..%2fetc%2fpasswd',
  ]) {
    const status = await new Promise<number>((done) => {
      http.get({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}` } }, (r) => {
        let body = ''
        r.on('data', (d: Buffer) => (body += d.toString()))
        r.on('end', () => {
          expect(body).not.toContain('root:')
          done(r.statusCode ?? 0)
        })
      })
    })
    expect([403, 404]).toContain(status)
  }
  // And through the API: a file outside the scanned roots is refused.
  for (const target of [
    '/etc/passwd',
    `${new URL(base).pathname}../../etc/passwd`,
    'relative/path',
  ]) {
    const r = await fetch(`${base}/api/readFile`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-curator-token': served.token },
      body: JSON.stringify([target]),
    })
    expect(r.status).toBe(403)
  }
  const nul = await request.post(`${base}/api/readFile`, {
    headers: { 'x-curator-token': served.token },
    data: ['/tmp/a\u0000b'],
  })
  expect(nul.status()).toBe(400)
})

test('opens the built-in demo with --demo and says so in the window', async ({ page, scratch }) => {
  const env = isolatedEnv(scratch)
  const served = await startServe(
    ['--demo', '--demo-dir', `${scratch}/demo`, '--state-dir', `${scratch}/state`],
    env,
  )
  try {
    await page.goto(served.url)
    await expect(page.getByTestId('demo-banner')).toContainText('Demo')
    await expect(page.getByTestId('project-list').getByRole('option').first()).toBeVisible()
    await expect(page.getByTestId('memory-editor').locator('.view-lines')).toBeVisible()
  } finally {
    await served.stop()
  }
})

test('opens the demo when no Claude folder exists', async ({ page, scratch }) => {
  const env = isolatedEnv(scratch)
  delete (env as Record<string, string>).CLAUDE_CONFIG_DIR
  const served = await startServe(
    ['--demo-dir', `${scratch}/demo`, '--state-dir', `${scratch}/state`],
    env,
  )
  try {
    await page.goto(served.url)
    await expect(page.getByTestId('demo-banner')).toContainText('no Claude folder')
  } finally {
    await served.stop()
  }
})
