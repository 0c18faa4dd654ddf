import { describe, expect, it } from 'vitest'
import {
  isSafeExternalUrl,
  isTrustedSender,
  parseDesktopArgs,
  RENDERER_URL,
  rendererUrlFor,
  secureWebPreferences,
} from '../../../src/main/security'
import { menuTemplate } from '../../../src/main/menu-template'
import { rendererFileFor, serveRendererRequest } from '../../../src/main/renderer-protocol'
import { CSP } from '../../../src/cli/http-transport'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { realpath } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

describe('window security settings', () => {
  it('isolates and sandboxes the page', () => {
    const p = secureWebPreferences('/app/out/preload/index.cjs')
    expect(p).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
      allowRunningInsecureContent: false,
    })
  })

  it('trusts only the app page in its main frame', () => {
    const app = 'file:///app/out/renderer/index.html'
    expect(isTrustedSender(app, true, app)).toBe(true)
    expect(isTrustedSender(app, false, app)).toBe(false)
    expect(isTrustedSender('file:///tmp/evil.html', true, app)).toBe(false)
    expect(isTrustedSender('https://evil.example/', true, app)).toBe(false)
    expect(isTrustedSender(undefined, true, app)).toBe(false)
    expect(isTrustedSender('http://localhost:5173/x', true, 'http://localhost:5173/')).toBe(true)
    expect(isTrustedSender('http://localhost:5174/', true, 'http://localhost:5173/')).toBe(false)
  })

  it('opens only https links outside', () => {
    expect(isSafeExternalUrl('https://docs.claude.com')).toBe(true)
    for (const u of [
      'http://x',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://host/share',
      'not a url',
    ])
      expect(isSafeExternalUrl(u)).toBe(false)
  })

  it('has a CSP without unsafe-eval, in the page and in serve', () => {
    const html = readFileSync('src/renderer/index.html', 'utf8')
    const meta = /Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1] ?? ''
    for (const csp of [meta, CSP]) {
      expect(csp).toContain("script-src 'self'")
      expect(csp).not.toContain('unsafe-eval')
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/)
    }
  })

  it('parses the desktop flags', () => {
    expect(parseDesktopArgs(['.', '--claude-home', '/h', '--demo', '--codex-home=/c'])).toEqual({
      demo: true,
      claudeHome: '/h',
      codexHome: '/c',
    })
  })
})

describe('Electron hardening (issue 11)', () => {
  it('hands only allow-listed https hosts to the OS browser', () => {
    for (const u of [
      'https://docs.claude.com/en/docs/claude-code/memory',
      'https://github.com/x/y',
    ])
      expect(isSafeExternalUrl(u)).toBe(true)
    for (const u of [
      'https://evil.example/',
      'https://docs.claude.com.evil.example/',
      'https://user:pw@docs.claude.com/',
      'https://docs.claude.com:8443/',
    ])
      expect(isSafeExternalUrl(u)).toBe(false)
  })

  it('a production build loads app://renderer/ whatever ELECTRON_RENDERER_URL says; a dev build follows it', () => {
    expect(rendererUrlFor(false, 'http://127.0.0.1:5173/')).toBe(RENDERER_URL)
    expect(rendererUrlFor(false, undefined)).toBe(RENDERER_URL)
    expect(rendererUrlFor(true, 'http://127.0.0.1:5173/')).toBe('http://127.0.0.1:5173/')
  })

  it('trusts app://renderer only, not another host of the same scheme', () => {
    expect(isTrustedSender('app://renderer/index.html', true, RENDERER_URL)).toBe(true)
    expect(isTrustedSender('app://evil/index.html', true, RENDERER_URL)).toBe(false)
    expect(isTrustedSender('app:///index.html', true, RENDERER_URL)).toBe(false)
  })

  it('shows DevTools only in a development build', () => {
    const noop = { rescan: () => {}, focus: () => {}, openDocs: () => {} }
    const roles = (devBuild: boolean): unknown[] =>
      menuTemplate(noop, { isMac: false, devBuild }).flatMap((m) =>
        Array.isArray(m.submenu) ? m.submenu.map((i) => i.role) : [],
      )
    expect(roles(false)).not.toContain('toggleDevTools')
    expect(roles(true)).toContain('toggleDevTools')
  })

  it('the renderer protocol serves files of the renderer folder only', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mc-renderer-'))
    try {
      const dir = join(root, 'renderer')
      mkdirSync(join(dir, 'assets'), { recursive: true })
      writeFileSync(join(dir, 'index.html'), '<!doctype html>')
      writeFileSync(join(dir, 'assets', 'a.js'), 'export {}')
      writeFileSync(join(root, 'secret.txt'), 'secret')
      symlinkSync(join(root, 'secret.txt'), join(dir, 'link.txt'))
      const ok = await serveRendererRequest(dir, 'app://renderer/assets/a.js')
      expect(ok.status).toBe(200)
      expect(ok.headers.get('content-type')).toMatch(/javascript/)
      expect(await rendererFileFor(dir, 'app://renderer/')).toBe(
        join(await realpath(dir), 'index.html'),
      )
      for (const bad of [
        'app://renderer/../secret.txt',
        'app://renderer/%2e%2e/secret.txt',
        'app://renderer/..%2fsecret.txt',
        'app://renderer/link.txt',
        'app://other/index.html',
        'file:///etc/hostname',
        'app://renderer/%00',
        'app://renderer/%E0%A4%A',
      ]) {
        expect(await rendererFileFor(dir, bad), bad).toBeNull()
        expect((await serveRendererRequest(dir, bad)).status, bad).toBe(404)
      }
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
