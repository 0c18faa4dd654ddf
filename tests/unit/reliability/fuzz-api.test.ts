/**
 * Security (issue 8): every API method fuzzed through `dispatch()` — the validation IPC and
 * `serve` share — with a real back end on a fixture home. Canary files outside the roots
 * (with an atime a year old, so any read moves it) must never be read, written or echoed.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  handleWindowOpen,
  isNavigationAllowed,
  secureWebPreferences,
} from '../../../src/main/security'
import type { Backend } from '../../../src/node/app/backend'
import { API_METHOD_NAMES } from '../../../src/shared/channels'
import { dispatch, DispatchError } from '../../../src/shared/dispatch'
import { BackendError } from '../../../src/node/app/errors'
import { fixtureBackend } from '../../helpers/test-backend'
import { createFixtureHome, type FixtureHome } from '../../helpers/fixture-home'
import { apiAttacks, type AttackTargets } from '../../helpers/bad-inputs/api-attacks'
import { diffSnapshots, plantCanaries, snapshotTree } from '../../helpers/bad-inputs/snapshots'

let f: FixtureHome
let outside: string
let backend: Backend
let targets: AttackTargets
let canaries: ReturnType<typeof plantCanaries>
let sibling: ReturnType<typeof plantCanaries>

beforeAll(async () => {
  f = createFixtureHome()
  outside = mkdtempSync(join(tmpdir(), 'mc-canary-'))
  canaries = plantCanaries(join(outside, 'canary'), ['secret.md', 'MEMORY.md', 'sub/deep.md'])
  // A folder named like a root plus a suffix: `startsWith` without a separator would let it in.
  sibling = plantCanaries(`${f.claudeHome}-evil`, ['secret.md'])
  const escapeLink = join(f.memoryDir, 'escape.md')
  const escapeDirLink = join(f.memoryDir, 'escape-dir')
  symlinkSync(join(outside, 'canary', 'secret.md'), escapeLink)
  symlinkSync(join(outside, 'canary'), escapeDirLink)
  targets = {
    claudeHome: f.claudeHome,
    memoryDir: f.memoryDir,
    repo: f.repo,
    canaryFile: join(outside, 'canary', 'secret.md'),
    canaryDir: join(outside, 'canary'),
    prefixSibling: join(`${f.claudeHome}-evil`, 'secret.md'),
    escapeLink,
    escapeDirLink,
  }
  backend = await fixtureBackend(f)
  // The scan runs once first, as the window does: it makes the launch folders roots.
  await backend.scan()
})

afterAll(async () => {
  await backend?.dispose()
  f?.cleanup()
  if (outside) rmSync(outside, { recursive: true, force: true })
})

type Outcome =
  | { kind: 'refused'; code: string; message: string }
  | { kind: 'answered'; body: string }
  | { kind: 'crashed'; message: string }

async function attempt(method: string, args: unknown): Promise<Outcome> {
  try {
    const result = await dispatch(backend, method, args)
    return { kind: 'answered', body: JSON.stringify(result) ?? '' }
  } catch (err) {
    if (err instanceof DispatchError || err instanceof BackendError)
      return { kind: 'refused', code: err.code, message: err.message }
    return { kind: 'crashed', message: (err as Error).stack ?? String(err) }
  }
}

describe('every API method, fuzzed through dispatch()', () => {
  it('refuses or answers every attack without touching anything outside the roots', async () => {
    expect(
      canaries.atimeWorks,
      'this mount hides reads (noatime); the atime check cannot see them',
    ).toBe(true)
    const attacks = apiAttacks(targets, API_METHOD_NAMES)
    // Everything but our own state folder must stay as it was: attacks never write.
    const watched = [
      f.claudeHome,
      f.codexHome,
      f.managedDir,
      f.repo,
      f.home,
      outside,
      `${f.claudeHome}-evil`,
    ]
    const before = snapshotTree(watched)
    canaries.rearm()
    sibling.rearm()
    const tally = { refused: 0, answered: 0, crashed: 0 }
    const leaks: string[] = []
    const crashes: string[] = []
    const accepted: string[] = []
    for (const a of attacks) {
      const o = await attempt(a.method, a.args)
      tally[o.kind]++
      const text = o.kind === 'answered' ? o.body : o.message
      if (
        text.includes(canaries.marker) ||
        text.includes(sibling.marker) ||
        text.includes('root:x:0:0')
      ) {
        leaks.push(`${a.method} (${a.note}) echoed a file outside the roots`)
      }
      if (o.kind === 'crashed') crashes.push(`${a.method} (${a.note}): ${o.message.split('\n')[0]}`)
      if (o.kind === 'answered') accepted.push(`${a.method} (${a.note})`)
      // Check the canaries after each request, so a failure names the request that touched them.
      const touched = [...canaries.touched(), ...sibling.touched()]
      if (touched.length > 0) leaks.push(`${a.method} (${a.note}): ${touched.join('; ')}`)
    }
    const changed = diffSnapshots(before, snapshotTree(watched))
    const summary = `${attacks.length} attack requests through dispatch(): ${tally.refused} refused, ${tally.answered} answered inside the roots, ${tally.crashed} unexpected errors; ${leaks.length} touches of files outside the roots; ${changed.length} files changed`
    process.stderr.write(`${summary}\n`)
    mkdirSync('test-results', { recursive: true })
    writeFileSync(
      'test-results/reliability-fuzz-api.json',
      JSON.stringify({ summary, tally, leaks, crashes, accepted, changed }, null, 2),
    )
    expect(leaks).toEqual([])
    expect(changed).toEqual([])
    // An unexpected error is not a leak, but it is a crash the window would show badly.
    expect(crashes).toEqual([])
    expect(attacks.length).toBeGreaterThan(1000)
  }, 300_000)

  it('answers every method with a valid call (the fuzz does not pass only because everything fails)', async () => {
    const mem = join(f.memoryDir, 'MEMORY.md')
    const read = (await dispatch(backend, 'readFile', [mem])) as { ok: boolean }
    expect(read.ok).toBe(true)
    await expect(dispatch(backend, 'cutoff', [mem])).resolves.toMatchObject({ loadedLines: 200 })
    await expect(dispatch(backend, 'readFile', [targets.escapeLink])).rejects.toMatchObject({
      code: 'forbidden',
    })
    await expect(dispatch(backend, 'readFile', [targets.prefixSibling])).rejects.toMatchObject({
      code: 'forbidden',
    })
    await expect(dispatch(backend, 'readFile', ['/etc/passwd'])).rejects.toMatchObject({
      code: 'forbidden',
    })
    await expect(dispatch(backend, 'readFile', [42])).rejects.toMatchObject({ code: 'bad-request' })
    await expect(dispatch(backend, '__proto__', [])).rejects.toMatchObject({ code: 'not-found' })
  })
})

describe('Electron window settings (beyond tests/unit/main/security.test.ts)', () => {
  it('ships a CSP without unsafe-eval or inline script in the built page', () => {
    const built = 'out/renderer/index.html'
    if (!existsSync(built)) return // built by `npx electron-vite build`; the source page is checked in security.test.ts
    const html = readFileSync(built, 'utf8')
    const csp = /Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1] ?? ''
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("object-src 'none'")
    expect(csp).not.toContain('unsafe-eval')
    expect(csp).not.toMatch(/script-src[^;]*(unsafe-inline|\*|data:|blob:|https?:)/)
    expect(csp).not.toMatch(/default-src[^;]*\*/)
    // No inline script made it into the built page (the CSP would block it, the build must not need it).
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/)
    // Scripts come from the app itself, never a CDN.
    for (const m of html.matchAll(/\bsrc="([^"]+)"/g)) expect(m[1]).not.toMatch(/^(https?:)?\/\//)
  })

  it('denies every new window and hands only https links to allow-listed hosts to the OS', () => {
    const opened: string[] = []
    for (const url of [
      'https://docs.claude.com/x',
      'http://evil.example',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'data:text/html,<script>1</script>',
      'about:blank',
      'smb://h/s',
      'HTTPS://UPPER.example',
      'HTTPS://DOCS.CLAUDE.COM/y',
      'https://docs.claude.com.evil.example/',
      'https://u:p@github.com/',
      'not a url',
    ]) {
      expect(handleWindowOpen(url, (u) => opened.push(u))).toEqual({ action: 'deny' })
    }
    expect(opened).toEqual(['https://docs.claude.com/x', 'HTTPS://DOCS.CLAUDE.COM/y'])
  })

  it('refuses navigation anywhere but the app page', () => {
    const app = 'file:///app/out/renderer/index.html'
    expect(isNavigationAllowed(app, app)).toBe(true)
    for (const url of [
      'https://evil.example',
      'file:///etc/passwd',
      'file:///app/out/renderer/index.html#x',
      'file:///app/out/renderer/other.html',
      'javascript:alert(1)',
      'about:blank',
    ]) {
      expect(isNavigationAllowed(url, app)).toBe(false)
    }
  })

  it('keeps the page isolated, sandboxed and without middle-click windows', () => {
    expect(secureWebPreferences('/p.cjs')).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      webviewTag: false,
      disableBlinkFeatures: 'Auxclick',
    })
  })
})
