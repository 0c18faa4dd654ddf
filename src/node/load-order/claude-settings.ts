/**
 * The Claude settings the load order consults: `claudeMdExcludes` from a settings file, and
 * whether outside imports are approved for a project (docs/memory-rules.md §3 [agent]).
 */
import { join, resolve } from 'node:path'
import type { LoadOrderWarning } from '../../shared/model'
import { readSettingsJson } from '../memory/homes'

/**
 * The file where Claude Code records per-project approvals: `.claude.json` inside
 * `CLAUDE_CONFIG_DIR` when that is set (observed with 2.1.332 by npm run conformance),
 * else in the home; a Claude home given apart from `~/.claude` counts as set.
 */
export function claudeJsonPath(
  claudeHome: string,
  homeDir: string,
  env: Record<string, string | undefined>,
): string {
  const configDirSet =
    !!env.CLAUDE_CONFIG_DIR || resolve(claudeHome) !== resolve(homeDir, '.claude')
  return configDirSet ? join(claudeHome, '.claude.json') : join(homeDir, '.claude.json')
}

/**
 * Whether imports from outside the launch directory are approved for `projectRoot`
 * (docs/memory-rules.md §3.7 [agent]). Only this one flag is looked at; anything unreadable means no.
 */
export async function externalImportsApproved(file: string, projectRoot: string): Promise<boolean> {
  const r = await readSettingsJson(file)
  const projects = r.data?.projects
  if (!projects || typeof projects !== 'object') return false
  const entry = (projects as Record<string, unknown>)[projectRoot]
  return (
    !!entry &&
    typeof entry === 'object' &&
    (entry as Record<string, unknown>).hasClaudeMdExternalIncludesApproved === true
  )
}

/** `claudeMdExcludes` from one settings file; a missing file gives nothing, a bad one a warning. */
export async function readClaudeMdExcludes(
  file: string,
): Promise<{ patterns: string[]; warnings: LoadOrderWarning[] }> {
  const r = await readSettingsJson(file)
  if (!r.data || !('claudeMdExcludes' in r.data)) return { patterns: [], warnings: [...r.warnings] }
  const value = r.data.claudeMdExcludes
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
    return {
      patterns: [],
      warnings: [
        {
          path: file,
          code: 'settings-invalid-excludes',
          message: 'claudeMdExcludes is not a list of strings; ignored',
        },
      ],
    }
  }
  return { patterns: value as string[], warnings: [] }
}
