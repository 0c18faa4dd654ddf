/**
 * Flags for Debian's Chromium on these machines (docs/stack.md): no sandbox as root, no GPU, and
 * no background network calls, which this machine's closed network refuses. Used by the
 * Playwright config and the window benchmark.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
