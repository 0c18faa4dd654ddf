/**
 * `load-order`: what Claude Code and Codex load for a launch directory (docs/memory-rules.md §3,
 * §4). The rules live in src/core; this module gives them the real disk, the settings
 * they read (`claudeMdExcludes`, Codex `config.toml`) and the repository root.
 */
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { cutoffFile } from '../memory/cutoff-file'
import { isTruthyEnv, resolveAutoMemory } from '../memory/homes'
import { claudeLoadOrder } from '../../core/load-order/claude'
import type { ClaudeLoadOrder } from '../../core/load-order/claude'
import { codexLoadOrder } from '../../core/load-order/codex'
import type { CodexLoadOrder } from '../../core/load-order/codex'
import type { LoadOrderResult, LoadOrderWarning, Problem } from '../../shared/model'
import { findRepo } from '../git/repo'
import { claudeJsonPath, externalImportsApproved, readClaudeMdExcludes } from './claude-settings'
import { readCodexConfig } from './codex-config'
import { createFsPort, realpathOr } from './fs-port'

export interface LoadOrderOptions {
  readonly cwd: string
  readonly claudeHome: string
  readonly codexHome: string
  readonly managedDir: string
  /** Environment to read `CLAUDE_CODE_DISABLE_CLAUDE_MDS` and `HOME` from (default process.env). */
  readonly env?: Record<string, string | undefined>
  /**
   * MEMORY.md and its loaded head, placed last in Claude's startup list. When not given,
   * the memory folder is resolved as the agent does (switches and overrides, homes.ts).
   */
  readonly memoryFile?: { path: string; lines: number; chars: number } | null
  /** Home folder for `~/` imports (default env.HOME, then the OS home). */
  readonly homeDir?: string
}

/** The contract's load-order result, with the wider core types and settings problems. */
export interface LoadOrderReport extends LoadOrderResult {
  readonly claude: ClaudeLoadOrder
  readonly codex: CodexLoadOrder
  /** Settings that could not be used (bad `config.toml` values, unreadable settings). */
  readonly problems: readonly Problem[]
}

/** What each agent loads when launched in `opts.cwd` (docs/memory-rules.md §3, §4). */
export async function loadOrder(opts: LoadOrderOptions): Promise<LoadOrderReport> {
  const env = opts.env ?? process.env
  const cwd = await realpathOr(resolve(opts.cwd))
  const claudeHome = resolve(opts.claudeHome)
  const codexHome = resolve(opts.codexHome)
  const managedDir = resolve(opts.managedDir)
  const homeDir = resolve(opts.homeDir ?? (env.HOME && env.HOME !== '' ? env.HOME : homedir()))
  const port = createFsPort()
  const problems: Problem[] = []

  const settingsWarnings: LoadOrderWarning[] = []
  const excludes: string[] = []
  for (const file of [
    join(claudeHome, 'settings.json'),
    join(cwd, '.claude', 'settings.json'),
    join(cwd, '.claude', 'settings.local.json'),
  ]) {
    const got = await readClaudeMdExcludes(file)
    excludes.push(...got.patterns)
    settingsWarnings.push(...got.warnings)
  }

  const repo = await findRepo(cwd)
  let memoryFile = opts.memoryFile ?? null
  if (opts.memoryFile === undefined) {
    const memory = await memoryFileFor({
      claudeHome,
      managedDir,
      homeDir,
      cwd,
      canonicalRoot: repo?.mainRoot ?? cwd,
      env,
    })
    memoryFile = memory.file
    for (const w of memory.warnings) {
      if (!settingsWarnings.some((s) => s.path === w.path && s.code === w.code))
        settingsWarnings.push(w)
    }
  }
  const claude = await claudeLoadOrder(
    {
      cwd,
      claudeHome,
      managedDir,
      homeDir,
      repoRoot: repo ? repo.toplevel : null,
      repoMainRoot: repo ? repo.mainRoot : null,
      externalImportsApproved: await externalImportsApproved(
        claudeJsonPath(claudeHome, homeDir, env),
        repo ? repo.toplevel : cwd,
      ),
      claudeMdExcludes: excludes,
      disableClaudeMds: isTruthyEnv(env.CLAUDE_CODE_DISABLE_CLAUDE_MDS),
      memoryFile,
    },
    port,
  )

  const config = await readCodexConfig(join(codexHome, 'config.toml'))
  problems.push(...config.problems)
  const codex = await codexLoadOrder(
    {
      cwd,
      codexHome,
      ...(config.budgetBytes !== undefined ? { budgetBytes: config.budgetBytes } : {}),
      ...(config.fallbackFilenames !== undefined
        ? { fallbackFilenames: config.fallbackFilenames }
        : {}),
    },
    port,
  )

  return {
    cwd,
    claude: { ...claude, warnings: [...settingsWarnings, ...claude.warnings] },
    codex,
    problems,
  }
}

/**
 * MEMORY.md as the agent finds it (docs/memory-rules.md §1, §2): null with a warning saying why when
 * auto memory is off, null when the index is absent or loads nothing.
 */
export async function memoryFileFor(input: Parameters<typeof resolveAutoMemory>[0]): Promise<{
  file: { path: string; lines: number; chars: number } | null
  warnings: LoadOrderWarning[]
}> {
  const memory = await resolveAutoMemory(input)
  const warnings = [...memory.warnings]
  if (memory.dir === null) {
    warnings.push({
      path: input.cwd,
      code: 'auto-memory-off',
      message: `auto memory is off (${memory.reason}): no MEMORY.md loads`,
    })
    return { file: null, warnings }
  }
  const path = join(memory.dir, 'MEMORY.md')
  const cut = await cutoffFile(path)
  if (cut.loadedLines === 0) return { file: null, warnings }
  return { file: { path, lines: cut.loadedLines, chars: cut.loadedChars }, warnings }
}
