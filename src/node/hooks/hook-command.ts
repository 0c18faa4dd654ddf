/**
 * The command our SessionStart hook runs (issue 18 item 2). Claude Code runs it through a shell,
 * so paths are single-quoted.
 *
 * Decisions: `MEMORY_CURATOR_HOOK_COMMAND` wins (packagers, tests); a CLI run from a built file
 * installs that file run by the same Node (it works without anything on PATH); the app and
 * `serve` install the built CLI beside their bundle when there is one; otherwise the installed
 * command `memory-curator hook session-start`.
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export const HOOK_ARGS = 'hook session-start'

/** A shell word: single-quoted unless plainly safe. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_/.,:=@+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`
}

export interface HookCommandOptions {
  readonly env: Record<string, string | undefined>
  /** The built CLI script to run, when known. */
  readonly cliScript?: string | null
  /** The Node to run it with (default: this process's, unless this is Electron). */
  readonly nodePath?: string
}

export function hookCommand(opts: HookCommandOptions): string {
  const fixed = opts.env.MEMORY_CURATOR_HOOK_COMMAND
  if (fixed && fixed.trim() !== '') return fixed.trim()
  const script = opts.cliScript ?? null
  if (script && /\.(m?js)$/.test(script)) {
    const node = opts.nodePath ?? (process.versions.electron ? 'node' : process.execPath)
    return `${shellQuote(node)} ${shellQuote(script)} ${HOOK_ARGS}`
  }
  return `memory-curator ${HOOK_ARGS}`
}

/** The built CLI beside this bundle (`out/cli/index.js`), or null (run from the sources). */
export function builtCliScript(): string | null {
  if (!import.meta.url.startsWith('file:')) return null
  for (const rel of ['../cli/index.js', './index.js']) {
    const path = fileURLToPath(new URL(rel, import.meta.url))
    if (/[/\\]cli[/\\]index\.js$/.test(path) && existsSync(path)) return path
  }
  return null
}
