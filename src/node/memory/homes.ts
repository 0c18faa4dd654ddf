/** Where the agents keep their files (docs/memory-rules.md §1.1), resolved from options, then env, then defaults. */
import { join, resolve } from 'node:path'
import type { LoadOrderWarning } from '../../shared/model'
import { encodeProjectDir } from '../../core/memory/project-path'
import { readTextFile } from '../fs/safe-read'

export { defaultManagedDir, resolveHomes, type HomeOptions, type Homes } from './home-dirs'

/** A Claude settings file as JSON: the object, or null with a warning when unusable. */
export interface SettingsRead {
  readonly data: Record<string, unknown> | null
  readonly warnings: readonly LoadOrderWarning[]
}

/** Read one settings JSON file; a missing file gives nothing, a bad one a warning. */
export async function readSettingsJson(file: string): Promise<SettingsRead> {
  const r = await readTextFile(file)
  if (!r.ok) {
    if (r.problem === 'missing') return { data: null, warnings: [] }
    return {
      data: null,
      warnings: [{ path: file, code: 'settings-unreadable', message: r.reason }],
    }
  }
  try {
    const data: unknown = JSON.parse(r.text)
    if (data && typeof data === 'object' && !Array.isArray(data)) {
      return { data: data as Record<string, unknown>, warnings: [] }
    }
    return { data: null, warnings: [] }
  } catch (err) {
    return {
      data: null,
      warnings: [
        {
          path: file,
          code: 'settings-invalid-json',
          message: `not valid JSON (${(err as Error).message}); its settings are ignored`,
        },
      ],
    }
  }
}

/** Claude Code treats `1`, `true`, `yes` and `on` as set. */
export function isTruthyEnv(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase())
}

export interface AutoMemoryInput {
  readonly claudeHome: string
  readonly managedDir: string
  /** The user's home, for `~/` in `autoMemoryDirectory`. */
  readonly homeDir: string
  /** Launch directory: its `.claude/settings*.json` are read. */
  readonly cwd: string
  /** The canonical root whose encoded path names the memory folder (main worktree, else cwd). */
  readonly canonicalRoot: string
  readonly env: Record<string, string | undefined>
}

export interface AutoMemory {
  /** The memory folder, or null when auto memory is off. */
  readonly dir: string | null
  /** Why auto memory is off, or where the folder came from when overridden. */
  readonly reason: string | null
  readonly warnings: readonly LoadOrderWarning[]
}

/**
 * Where Claude Code keeps auto memory for a launch directory, or that it is off
 * (docs/memory-rules.md §1.6, honoured by 2.1.332 [agent]): `CLAUDE_CODE_DISABLE_AUTO_MEMORY`, then
 * `autoMemoryEnabled: false` (managed > local > project > user settings), then the folder
 * from `CLAUDE_COWORK_MEMORY_PATH_OVERRIDE`, then `autoMemoryDirectory` (managed > local >
 * project > user settings) — else
 * `<claude home>/projects/<encoded root>/memory`.
 */
export async function resolveAutoMemory(input: AutoMemoryInput): Promise<AutoMemory> {
  const warnings: LoadOrderWarning[] = []
  const read = async (file: string): Promise<Record<string, unknown> | null> => {
    const r = await readSettingsJson(file)
    warnings.push(...r.warnings)
    return r.data
  }
  // Highest precedence first.
  const managed = await read(join(input.managedDir, 'managed-settings.json'))
  const local = await read(join(input.cwd, '.claude', 'settings.local.json'))
  const project = await read(join(input.cwd, '.claude', 'settings.json'))
  const user = await read(join(input.claudeHome, 'settings.json'))

  // The project's shared settings count for both keys: 2.1.332 honours them (npm run
  // conformance), so a repository can move its memory folder; the curator looks where the agent does.
  const layers = [
    ['managed', managed],
    ['local', local],
    ['project', project],
    ['user', user],
  ] as const
  if (isTruthyEnv(input.env.CLAUDE_CODE_DISABLE_AUTO_MEMORY)) {
    return { dir: null, reason: 'CLAUDE_CODE_DISABLE_AUTO_MEMORY is set', warnings }
  }
  for (const [name, s] of layers) {
    const v = s?.autoMemoryEnabled
    if (typeof v === 'boolean') {
      if (!v)
        return { dir: null, reason: `autoMemoryEnabled is false in the ${name} settings`, warnings }
      break
    }
  }
  const override = input.env.CLAUDE_COWORK_MEMORY_PATH_OVERRIDE
  if (override && override.trim() !== '') {
    return {
      dir: resolve(expandHome(override.trim(), input.homeDir)),
      reason: 'CLAUDE_COWORK_MEMORY_PATH_OVERRIDE',
      warnings,
    }
  }
  for (const [name, s] of layers) {
    const v = s?.autoMemoryDirectory
    if (typeof v !== 'string' || v.trim() === '') continue
    const value = v.trim()
    if (!value.startsWith('/') && !value.startsWith('~/')) {
      warnings.push({
        path: name,
        code: 'auto-memory-directory-invalid',
        message: `autoMemoryDirectory ${JSON.stringify(value)} is neither absolute nor ~/; ignored`,
      })
      continue
    }
    return {
      dir: resolve(expandHome(value, input.homeDir)),
      reason: `autoMemoryDirectory in the ${name} settings`,
      warnings,
    }
  }
  return {
    dir: join(input.claudeHome, 'projects', encodeProjectDir(input.canonicalRoot), 'memory'),
    reason: null,
    warnings,
  }
}

function expandHome(p: string, homeDir: string): string {
  return p === '~' || p.startsWith('~/') ? join(homeDir, p.slice(1)) : p
}
