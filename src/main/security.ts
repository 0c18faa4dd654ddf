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

/** Only the app's own page, in its main frame, may call the API (GitHub Desktop's trusted-ipc-sender). */
export function isTrustedSender(frameUrl: string | undefined, isMainFrame: boolean, appUrl: string): boolean {
  if (!isMainFrame || !frameUrl) return false
  try {
    const got = new URL(frameUrl)
    const want = new URL(appUrl)
    if (got.protocol !== want.protocol) return false
    if (want.protocol === 'file:') return got.pathname === want.pathname
    return got.origin === want.origin
  } catch {
    return false
  }
}

/** Links the app may hand to the OS browser: https only. */
export function isSafeExternalUrl(url: string): boolean {
  try {
    return new URL(url).protocol === 'https:'
  } catch {
    return false
  }
}

/** A request for a new window: never opened; an https link goes to the OS browser instead. */
export function handleWindowOpen(url: string, openExternal: (url: string) => void): { action: 'deny' } {
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
    const [name, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined]
    const value = (): string | undefined => inline ?? argv[++i]
    if (name === '--demo') out.demo = true
    else if (name === '--claude-home') out.claudeHome = value()
    else if (name === '--codex-home') out.codexHome = value()
    else if (name === '--managed-dir') out.managedDir = value()
  }
  return out
}
