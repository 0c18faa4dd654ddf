/**
 * Attacks on `serve` (issue 8): every API method fuzzed over HTTP, the static file server with
 * traversal variants and encodings, oversized and malformed bodies; canaries outside the roots
 * must never be read, written or echoed. And markdown shown in the window cannot run script.
 */
import { appendFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { API_METHOD_NAMES } from '../../src/shared/channels'
import { apiAttacks } from '../helpers/bad-inputs/api-attacks'
import { plantCanaries } from '../helpers/bad-inputs/snapshots'
import { legacyCookieName, rawRequest, type Reply } from '../helpers/serve-process'
import { test, expect } from './fixtures'

test('fuzzes every API method and the static server over HTTP; nothing outside the roots is touched', async ({
  served,
  fixture,
  scratch,
}) => {
  test.setTimeout(240_000)
  const port = Number(new URL(served.origin).port)
  const canaries = plantCanaries(join(scratch, 'canary'), ['secret.md', 'MEMORY.md', 'sub/deep.md'])
  const sibling = plantCanaries(`${fixture.claudeHome}-evil`, ['secret.md'])
  const escapeLink = join(fixture.memoryDir, 'escape.md')
  const escapeDirLink = join(fixture.memoryDir, 'escape-dir')
  symlinkSync(join(scratch, 'canary', 'secret.md'), escapeLink)
  symlinkSync(join(scratch, 'canary'), escapeDirLink)
  const auth = { 'x-curator-token': served.token, 'content-type': 'application/json' }
  // Let the window's first scan happen, as in real use.
  expect((await rawRequest(port, 'POST', '/api/scan', auth, '[]')).status).toBe(200)
  canaries.rearm()
  sibling.rearm()

  const attacks = apiAttacks(
    {
      claudeHome: fixture.claudeHome,
      memoryDir: fixture.memoryDir,
      repo: fixture.repo,
      canaryFile: join(scratch, 'canary', 'secret.md'),
      canaryDir: join(scratch, 'canary'),
      prefixSibling: join(`${fixture.claudeHome}-evil`, 'secret.md'),
      escapeLink,
      escapeDirLink,
    },
    API_METHOD_NAMES,
  )
  const requests: { what: string; reply: Reply }[] = []
  for (const a of attacks) {
    const body = JSON.stringify(a.args) ?? 'null'
    const reply = await rawRequest(port, 'POST', `/api/${encodeURIComponent(a.method)}`, auth, body)
    requests.push({ what: `${a.method} (${a.note})`, reply })
  }
  // Transport-level attacks: bodies, types, verbs, method names in the path.
  const transport: [string, string, string, Record<string, string>, string | Buffer | undefined][] =
    [
      ['2 MB body', 'POST', '/api/readFile', auth, JSON.stringify(['x'.repeat(2 * 1024 * 1024)])],
      [
        '100,000-deep JSON',
        'POST',
        '/api/readFile',
        auth,
        '['.repeat(100_000) + ']'.repeat(100_000),
      ],
      ['not JSON', 'POST', '/api/readFile', auth, '{"a":'],
      ['NUL in body', 'POST', '/api/readFile', auth, '["/tmp/\u0000"]'],
      [
        'invalid UTF-8 body',
        'POST',
        '/api/readFile',
        auth,
        Buffer.from([0x5b, 0x22, 0xff, 0xfe, 0x22, 0x5d]),
      ],
      [
        'form content type',
        'POST',
        '/api/readFile',
        { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
        'a=1',
      ],
      [
        'text/plain (CSRF simple request)',
        'POST',
        '/api/scan',
        { ...auth, 'content-type': 'text/plain' },
        '[]',
      ],
      ['GET on the API', 'GET', '/api/scan', auth, undefined],
      ['PUT on the API', 'PUT', '/api/writeFile', auth, '[]'],
      ['method path traversal', 'POST', '/api/../../etc/passwd', auth, '[]'],
      ['encoded method path traversal', 'POST', '/api/%2e%2e%2f%2e%2e%2fetc%2fpasswd', auth, '[]'],
      ['method __proto__', 'POST', '/api/__proto__', auth, '[]'],
      ['method constructor', 'POST', '/api/constructor', auth, '[]'],
      ['method with NUL', 'POST', '/api/scan%00', auth, '[]'],
      [
        'no token',
        'POST',
        '/api/readFile',
        { 'content-type': 'application/json' },
        JSON.stringify([join(fixture.memoryDir, 'MEMORY.md')]),
      ],
      [
        'token in a cookie of another name',
        'POST',
        '/api/scan',
        { 'content-type': 'application/json', cookie: `mc_token=${served.token}` },
        '[]',
      ],
      // The cookie the server once set itself, and the query form of the old URL (issue 11 item 2).
      [
        'token only in the cookie serve once set',
        'POST',
        '/api/scan',
        { 'content-type': 'application/json', cookie: `${legacyCookieName(port)}=${served.token}` },
        '[]',
      ],
      [
        'token only as a query parameter',
        'POST',
        `/api/scan?token=${served.token}`,
        { 'content-type': 'application/json' },
        '[]',
      ],
      ['foreign origin', 'POST', '/api/scan', { ...auth, origin: 'http://evil.example' }, '[]'],
      ['null origin (sandboxed frame)', 'POST', '/api/scan', { ...auth, origin: 'null' }, '[]'],
      ['foreign host', 'POST', '/api/scan', { ...auth, host: 'evil.example' }, '[]'],
    ]
  for (const [what, method, path, headers, body] of transport) {
    requests.push({ what, reply: await rawRequest(port, method, path, headers, body) })
  }
  // The static server: traversal, encodings, NUL, absolute paths, symlinked roots.
  const canaryRel = join(scratch, 'canary', 'secret.md').replace(/^\//, '')
  const staticPaths = [
    '/../../../../etc/passwd',
    '/..%2f..%2f..%2f..%2fetc%2fpasswd',
    '/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
    '/%252e%252e/%252e%252e/etc/passwd',
    '/..%5c..%5c..%5cetc%5cpasswd',
    '/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd',
    '/.%2e/.%2e/.%2e/.%2e/etc/passwd',
    '//etc/passwd',
    '/%2fetc%2fpasswd',
    `/${'../'.repeat(20)}${canaryRel}`,
    `/${'%2e%2e%2f'.repeat(20)}${encodeURIComponent(canaryRel)}`,
    `/%2f${encodeURIComponent(canaryRel)}`,
    '/index.html%00.png',
    '/index.html/../../../../etc/passwd',
    '/assets/../../../../../etc/passwd',
    '/%',
    '/%zz',
    `/${'a'.repeat(10_000)}`,
    '/proc/self/environ',
    '/dev/zero',
  ]
  for (const p of staticPaths) {
    requests.push({
      what: `GET ${p.slice(0, 80)}`,
      reply: await rawRequest(port, 'GET', p, {}),
    })
  }

  const problems: string[] = []
  for (const r of requests) {
    if (
      r.reply.body.includes(canaries.marker) ||
      r.reply.body.includes(sibling.marker) ||
      /root:x:0:0:/.test(r.reply.body)
    ) {
      problems.push(`${r.what}: the reply holds a file outside the roots`)
    }
    if (r.reply.status >= 500 || r.reply.status === 0)
      problems.push(`${r.what}: ${r.reply.status} ${r.reply.body.slice(0, 200)}`)
  }
  const touched = [...canaries.touched(), ...sibling.touched()]
  const refused = requests.filter((r) => r.reply.status >= 400 && r.reply.status < 500).length
  const line = `${requests.length} attack requests over HTTP: ${refused} refused (4xx), ${requests.length - refused} answered inside the roots; ${touched.length} files outside the roots touched`
  mkdirSync('test-results', { recursive: true })
  writeFileSync(
    'test-results/reliability-attacks-http.json',
    JSON.stringify(
      { line, problems, touched, statuses: requests.map((r) => `${r.reply.status} ${r.what}`) },
      null,
      2,
    ),
  )
  process.stderr.write(`${line}\n`)
  expect(problems).toEqual([])
  expect(touched).toEqual([])
  // The transport-level refusals, by status.
  const status = (what: string): number => requests.find((r) => r.what === what)!.reply.status
  expect(status('2 MB body')).toBe(413)
  expect(status('form content type')).toBe(415)
  expect(status('text/plain (CSRF simple request)')).toBe(415)
  expect(status('no token')).toBe(401)
  expect(status('token only in the cookie serve once set')).toBe(401)
  expect(status('token only as a query parameter')).toBe(401)
  expect(status('foreign origin')).toBe(403)
  expect(status('foreign host')).toBe(403)
  expect(status('method __proto__')).toBe(404)
  for (const p of staticPaths) expect([400, 403, 404]).toContain(status(`GET ${p.slice(0, 80)}`))
})

const HOSTILE = [
  '<script>window.__pwned = 1</script>',
  '<img src=x onerror="window.__pwned = 2">',
  '<svg onload="window.__pwned = 3"></svg>',
  '[click me](javascript:window.__pwned=4)',
  '<a href="javascript:window.__pwned=5">link</a>',
  '<iframe srcdoc="<script>parent.__pwned=6</script>"></iframe>',
  '`<script>window.__pwned=7</script>`',
].join('\n')

test('markdown with script, event handlers and javascript: links never runs, in any view', async ({
  page,
  fixture,
  served,
}) => {
  test.setTimeout(120_000)
  const dialogs: string[] = []
  const errors: string[] = []
  page.on('dialog', (d) => {
    dialogs.push(d.message())
    void d.dismiss()
  })
  page.on('pageerror', (e) => {
    // Known and benign: @monaco-editor/react 4.7 disposes a DiffEditor's models before the widget
    // when the History tab unmounts (suren-atoyan/monaco-react#647); it runs no script of ours.
    if (!e.message.includes('TextModel got disposed before DiffEditorWidget model got reset'))
      errors.push(e.message)
  })
  // In the index (an entry title and free text), in a topic file, and in a session's write.
  const index = join(fixture.memoryDir, 'MEMORY.md')
  const text = readFileSync(index, 'utf8').replace(
    '# Project memory\n',
    `# Project memory\n\n- [<img src=x onerror="window.__pwned=8">](note-1.md) — <script>window.__pwned=9</script>\n${HOSTILE}\n`,
  )
  writeFileSync(index, text)
  appendFileSync(join(fixture.memoryDir, 'note-1.md'), `\n${HOSTILE}\n`)
  const session = '11111111-1111-4111-8111-111111111111'
  appendFileSync(
    join(fixture.projectDir, `${session}.jsonl`),
    [
      JSON.stringify({
        type: 'assistant',
        sessionId: session,
        cwd: fixture.repo,
        gitBranch: 'main',
        uuid: 'xss-a',
        timestamp: '2026-03-02T10:00:00.000Z',
        message: {
          id: 'xss-m',
          role: 'assistant',
          content: [
            {
              type: 'tool_use',
              id: 'xss-tu',
              name: 'Write',
              input: { file_path: join(fixture.memoryDir, 'xss.md'), content: HOSTILE },
            },
          ],
        },
      }),
      JSON.stringify({
        type: 'user',
        sessionId: session,
        cwd: fixture.repo,
        uuid: 'xss-u',
        timestamp: '2026-03-02T10:00:01.000Z',
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'xss-tu', content: 'ok' }],
        },
        toolUseResult: {
          type: 'create',
          filePath: join(fixture.memoryDir, 'xss.md'),
          content: HOSTILE,
        },
      }),
    ].join('\n') + '\n',
  )
  writeFileSync(join(fixture.memoryDir, 'xss.md'), HOSTILE + '\n')
  const pwned = () => page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)

  await page.goto(served.url)
  await page
    .getByTestId('project-list')
    .getByRole('option', { name: /acme-shop/ })
    .click()
  // Memory tab: the index, then each topic file holding the payload.
  await expect(page.getByTestId('memory-editor').locator('.view-lines')).toContainText(
    'window.__pwned',
  )
  for (const name of ['note-1.md', 'xss.md']) {
    await page
      .getByRole('button', { name: new RegExp(`^${name.replace('.', '\\.')}`) })
      .first()
      .click()
    await expect(page.getByTestId('memory-editor').locator('.view-lines')).toContainText('__pwned')
  }
  await page.screenshot({ path: 'test-results/screens/xss-memory.png' })
  expect(await pwned()).toBeUndefined()
  // Notes tab: titles and note text come from the same markdown.
  await page.getByTestId('tab-notes').click()
  await expect(page.getByTestId('notes-tab')).toBeVisible()
  await expect(page.getByTestId('notes-tab')).toContainText('__pwned', { timeout: 30_000 })
  const firstNote = page
    .getByTestId('notes-tab')
    .getByText(/__pwned|img src/)
    .first()
  await firstNote.click()
  await page.screenshot({ path: 'test-results/screens/xss-notes.png' })
  expect(await pwned()).toBeUndefined()
  // History tab: the session's write of the payload.
  await page.getByTestId('tab-history').click()
  await expect(page.getByTestId('history-tab')).toBeVisible({ timeout: 30_000 })
  const xssFile = page.getByTestId('history-file').filter({ hasText: 'xss.md' }).first()
  if (await xssFile.count()) await xssFile.click()
  await expect(page.getByTestId('history-tab')).toContainText('xss.md')
  await page.screenshot({ path: 'test-results/screens/xss-history.png' })
  // Review queue and instructions for good measure.
  await page.getByTestId('tab-queue').click()
  await page.getByTestId('tab-instructions').click()
  await page.waitForTimeout(500)
  expect(await pwned()).toBeUndefined()
  expect(dialogs).toEqual([])
  expect(errors).toEqual([])
  // No element the page built carries an inline handler or a javascript: URL.
  const live = await page.evaluate(() => {
    interface El {
      readonly attributes: ArrayLike<{ readonly name: string; readonly value: string }>
      readonly outerHTML: string
    }
    const doc = (
      globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<El> } }
    ).document
    return Array.from(doc.querySelectorAll('*'))
      .filter((el) =>
        Array.from(el.attributes).some(
          (a) => /^on/i.test(a.name) || /^\s*javascript:/i.test(a.value),
        ),
      )
      .map((el) => el.outerHTML.slice(0, 120))
  })
  expect(live).toEqual([])
})
