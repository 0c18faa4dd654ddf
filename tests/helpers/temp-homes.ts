/**
 * The folders every fixture starts from: a temp root holding a HOME, a Claude home, a Codex home,
 * a managed-policy folder and our own state folder, all created. Never the real ~/.claude.
 */
import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface TempHomes {
  readonly root: string
  readonly home: string
  readonly claudeHome: string
  readonly codexHome: string
  readonly managedDir: string
  readonly stateDir: string
}

/** A fresh temp root named `prefix…` (its real path when `real`) with the standard homes in it. */
export function createTempHomes(prefix: string, real = false): TempHomes {
  const made = mkdtempSync(join(tmpdir(), prefix))
  const root = real ? realpathSync(made) : made
  const homes: TempHomes = {
    root,
    home: join(root, 'home'),
    claudeHome: join(root, 'claude'),
    codexHome: join(root, 'codex'),
    managedDir: join(root, 'managed'),
    stateDir: join(root, 'state'),
  }
  for (const d of [homes.home, homes.claudeHome, homes.codexHome, homes.managedDir, homes.stateDir])
    mkdirSync(d, { recursive: true })
  return homes
}

/** The command-line options that point `serve` at these homes and this state folder. */
export function homeArgs(
  h: Pick<TempHomes, 'claudeHome' | 'codexHome' | 'managedDir' | 'stateDir'>,
): string[] {
  const args: [string, string][] = [
    ['--claude-home', h.claudeHome],
    ['--codex-home', h.codexHome],
    ['--managed-dir', h.managedDir],
    ['--state-dir', h.stateDir],
  ]
  return args.flat()
}
