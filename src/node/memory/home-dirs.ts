/**
 * Where the agents keep their files (docs/memory-rules.md §1.1, §1.2): options, then env, then
 * defaults. A module of its own with no import but Node's, so a command that only needs the
 * folders (a warm `provenance`) loads nothing else (issue 16); homes.ts re-exports it.
 */
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'

export interface HomeOptions {
  readonly claudeHome?: string
  readonly codexHome?: string
  readonly managedDir?: string
}

export interface Homes {
  readonly claudeHome: string
  readonly codexHome: string
  readonly managedDir: string
}

/** The platform's managed-policy folder (docs/memory-rules.md §1.2). */
export function defaultManagedDir(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return '/Library/Application Support/ClaudeCode'
  if (platform === 'win32') return 'C:\\Program Files\\ClaudeCode'
  return '/etc/claude-code'
}

export function resolveHomes(
  options: HomeOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): Homes {
  const home = env.HOME && env.HOME !== '' ? env.HOME : homedir()
  const claudeHome = options.claudeHome ?? (env.CLAUDE_CONFIG_DIR || join(home, '.claude'))
  const codexHome = options.codexHome ?? (env.CODEX_HOME || join(home, '.codex'))
  const managedDir = options.managedDir ?? defaultManagedDir()
  return {
    claudeHome: resolve(claudeHome),
    codexHome: resolve(codexHome),
    managedDir: resolve(managedDir),
  }
}
