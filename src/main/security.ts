/**
 * Window security settings and checks, kept free of Electron imports so tests can
 * assert them (issue 2): isolation, sandbox, no Node in the page, trusted senders only.
 */

/** webPreferences every window gets. */
export function secureWebPreferences(preloadPath: string) {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    spellcheck: false,
    // Middle-click on a link must not open anything (Electronegativity AUXCLICK_JS_CHECK).
    disableBlinkFeatures: 'Auxclick',
  } as const
}

/**
 * The renderer is served from this privileged scheme, not `file://` (issue 11): a file URL's
 * origin is every file on the disk, while `app://renderer/` is only the built page.
 */
export const RENDERER_SCHEME = 'app'
export const RENDERER_HOST = 'renderer'
export const RENDERER_URL = `${RENDERER_SCHEME}://${RENDERER_HOST}/index.html`

/**
 * The URL the window loads. `ELECTRON_RENDERER_URL` (electron-vite's dev server) counts only
 * in a development build; a production build ignores it, so an environment variable can
 * never point the trusted window, with its API, at another page.
 */
export function rendererUrlFor(devBuild: boolean, envUrl: string | undefined): string {
  return devBuild && envUrl ? envUrl : RENDERER_URL
}

/** Only the app's own page, in its main frame, may call the API (GitHub Desktop's trusted-ipc-sender). */
export function isTrustedSender(
  frameUrl: string | undefined,
  isMainFrame: boolean,
  appUrl: string,
): boolean {
  if (!isMainFrame || !frameUrl) return false
  try {
    const got = new URL(frameUrl)
    const want = new URL(appUrl)
    if (got.protocol !== want.protocol) return false
    if (want.protocol === 'file:') return got.pathname === want.pathname
    // Not `origin`: for a custom scheme the WHATWG origin is the opaque "null" for every URL.
    return got.host === want.host && got.host !== ''
  } catch {
    return false
  }
}

/** Hosts the app may hand to the OS browser: its documentation links, nothing a page chose. */
export const EXTERNAL_HOSTS: readonly string[] = [
  'docs.claude.com',
  'docs.anthropic.com',
  'code.claude.com',
  'github.com',
]

/** Links the app may hand to the OS browser: https to an allow-listed host, no credentials, default port. */
export function isSafeExternalUrl(url: string): boolean {
  try {
    const u = new URL(url)
    return (
      u.protocol === 'https:' &&
      u.username === '' &&
      u.password === '' &&
      u.port === '' &&
      EXTERNAL_HOSTS.includes(u.hostname)
    )
  } catch {
    return false
  }
}

/** Every permission a page may ask for (camera, notifications, clipboard…) is refused, asked or checked. */
export function permissionAllowed(): false {
  return false
}

/** A request for a new window: never opened; an https link goes to the OS browser instead. */
export function handleWindowOpen(
  url: string,
  openExternal: (url: string) => void,
): { action: 'deny' } {
  if (isSafeExternalUrl(url)) openExternal(url)
  return { action: 'deny' }
}

/** The page may only ever show the app itself: any other navigation is prevented. */
export function isNavigationAllowed(url: string, appUrl: string): boolean {
  return url === appUrl
}

/** Options of the command line the desktop app understands (the same names as the CLI's). */
export interface DesktopArgs {
  claudeHome?: string
  codexHome?: string
  managedDir?: string
  demo: boolean
}

export function parseDesktopArgs(argv: readonly string[]): DesktopArgs {
  const out: DesktopArgs = { demo: false }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    const [name, inline] = a.includes('=')
      ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]
      : [a, undefined]
    const value = (): string | undefined => inline ?? argv[++i]
    if (name === '--demo') out.demo = true
    else if (name === '--claude-home') out.claudeHome = value()
    else if (name === '--codex-home') out.codexHome = value()
    else if (name === '--managed-dir') out.managedDir = value()
  }
  return out
}
