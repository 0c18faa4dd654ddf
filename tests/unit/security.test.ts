import { describe, expect, it } from 'vitest'
import { isSafeExternalUrl, isTrustedSender, parseDesktopArgs, secureWebPreferences } from '../../src/main/security'
import { CSP } from '../../src/cli/http-transport'
import { readFileSync } from 'node:fs'

describe('window security settings', () => {
  it('isolates and sandboxes the page', () => {
    const p = secureWebPreferences('/app/out/preload/index.cjs')
    expect(p).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false, allowRunningInsecureContent: false })
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
    for (const u of ['http://x', 'file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'not a url']) expect(isSafeExternalUrl(u)).toBe(false)
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
    expect(parseDesktopArgs(['.', '--claude-home', '/h', '--demo', '--codex-home=/c'])).toEqual({ demo: true, claudeHome: '/h', codexHome: '/c' })
  })
})
