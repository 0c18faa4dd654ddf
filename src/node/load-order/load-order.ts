/**
 * `load-order`: what Claude Code and Codex load for a launch directory (memory-facts §3,
 * §4). The rules live in src/core; this module gives them the real disk, the settings
 * they read (`claudeMdExcludes`, Codex `config.toml`) and the repository root.
 */
import type { Dirent } from 'node:fs'
import { lstat, opendir, readdir, realpath, stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { cutoffFile } from '../memory/cutoff-file'
import { isTruthyEnv, readSettingsJson, resolveAutoMemory } from '../memory/homes'
import { claudeLoadOrder } from '../../core/load-order/claude'
import type { ClaudeFsPort, ClaudeLoadOrder, PortRead } from '../../core/load-order/claude'
import { codexLoadOrder } from '../../core/load-order/codex'
import type { CodexFsPort, CodexLoadOrder, EntryKind } from '../../core/load-order/codex'
import type { LoadOrderResult, LoadOrderWarning, Problem } from '../../shared/model'
import { findRepo } from '../git/repo'
import { readTextFile } from '../fs/safe-read'
import { RULES_LIST_MAX_FILES } from '../../core/limits'

export { RULES_LIST_MAX_FILES }

/** Entries one rules folder listing returns at most (our safety limit, not an agent rule). */

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

/** What each agent loads when launched in `opts.cwd` (memory-facts §3, §4). */
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
 * MEMORY.md as the agent finds it (memory-facts §1, §2): null with a warning saying why when
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
 * (memory-facts §3 [agent]). Only this one flag is looked at; anything unreadable means no.
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

async function realpathOr(p: string): Promise<string> {
  try {
    return await realpath(p)
  } catch {
    return p
  }
}

/** The real disk behind both ports. Never throws; symlink loops end as problems. */
export function createFsPort(): ClaudeFsPort & CodexFsPort {
  return {
    async readText(path: string, maxBytes: number, lenient?: boolean): Promise<PortRead> {
      try {
        const r = await readTextFile(path, { maxBytes, lenient: lenient ?? false })
        if (r.ok) return { ok: true, text: r.text, bytes: r.bytes }
        return { ok: false, problem: r.problem, reason: r.reason }
      } catch (err) {
        return { ok: false, problem: 'unreadable', reason: String(err) }
      }
    },
    listRulesDir,
    async isDir(path: string): Promise<boolean> {
      try {
        return (await stat(path)).isDirectory()
      } catch {
        return false
      }
    },
    async listSubdirs(dir: string): Promise<readonly string[]> {
      const entries = await readDirents(dir)
      // Dirent of a symlink is never a directory: the walk does not follow links, so no loops.
      return entries
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort()
    },
    async entryKind(path: string): Promise<EntryKind | null> {
      try {
        const st = await lstat(path)
        if (st.isSymbolicLink()) return 'symlink'
        if (st.isFile()) return 'file'
        if (st.isDirectory()) return 'dir'
        return 'other'
      } catch {
        return null
      }
    },
  }
}

async function readDirents(dir: string): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true })
  } catch {
    return []
  }
}

/**
 * A folder's entries in the raw order the filesystem returns them (`fs.opendir`, what
 * `ls -f` shows): Node's `readdir` sorts, the agent does not (memory-facts §3 [agent]).
 */
async function readDirentsRaw(dir: string): Promise<Dirent[]> {
  const out: Dirent[] = []
  try {
    const handle = await opendir(dir)
    for await (const e of handle) {
      out.push(e)
      if (out.length > RULES_LIST_MAX_FILES) break
    }
  } catch {
    // Missing or unreadable: no rules here.
  }
  return out
}

/**
 * `.md` files below a rules folder, as relative POSIX paths in raw filesystem order
 * (subfolders where they occur). Symlinked files and folders are followed (shared rules
 * are often linked in); each real folder is visited once.
 */
async function listRulesDir(dir: string): Promise<readonly string[]> {
  const out: string[] = []
  const seen = new Set<string>()
  const visit = async (abs: string, rel: string): Promise<void> => {
    const real = await realpathOr(abs)
    if (seen.has(real)) return
    seen.add(real)
    for (const e of await readDirentsRaw(abs)) {
      if (out.length >= RULES_LIST_MAX_FILES) return
      const childAbs = join(abs, e.name)
      const childRel = rel === '' ? e.name : `${rel}/${e.name}`
      let isDir = e.isDirectory()
      let isFile = e.isFile()
      if (e.isSymbolicLink()) {
        try {
          const st = await stat(childAbs)
          isDir = st.isDirectory()
          isFile = st.isFile()
        } catch {
          // A dangling or looping link: list .md names so the reader sees the problem.
          isFile = true
        }
      }
      if (isDir) await visit(childAbs, childRel)
      else if (isFile && e.name.endsWith('.md')) out.push(childRel)
    }
  }
  await visit(dir, '')
  return out
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

export interface CodexConfig {
  readonly budgetBytes?: number
  readonly fallbackFilenames?: readonly string[]
  readonly problems: readonly Problem[]
}

/** The two `config.toml` keys the Codex chain depends on; a missing file gives defaults. */
export async function readCodexConfig(file: string): Promise<CodexConfig> {
  const r = await readTextFile(file)
  if (!r.ok) {
    if (r.problem === 'missing') return { problems: [] }
    return { problems: [{ path: file, reason: r.reason }] }
  }
  return parseCodexConfig(r.text, file)
}

/**
 * A minimal, line-based reader for exactly two top-level keys of Codex's `config.toml`:
 * `project_doc_max_bytes = <integer>` and `project_doc_fallback_filenames = [<strings>]`
 * (the array may span lines). Keys after the first `[table]` header belong to that table
 * and are ignored; every other key is ignored. Not a TOML parser: a value it can't read is
 * reported as a problem and the default applies.
 */
export function parseCodexConfig(text: string, file: string): CodexConfig {
  const problems: Problem[] = []
  let budgetBytes: number | undefined
  let fallbackFilenames: string[] | undefined
  const lines = text.split(/\r?\n/)
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim()
    if (line.startsWith('[')) break
    const m = /^(project_doc_max_bytes|project_doc_fallback_filenames)\s*=\s*(.*)$/.exec(line)
    if (!m) continue
    const [, key, first] = m
    if (key === 'project_doc_max_bytes') {
      const value = stripComment(first).trim()
      if (/^\+?[0-9](?:_?[0-9])*$/.test(value)) {
        budgetBytes = Number(value.replace(/[_+]/g, ''))
      } else {
        problems.push({
          path: file,
          reason: `line ${i + 1}: project_doc_max_bytes is not a non-negative integer`,
        })
      }
      continue
    }
    let value = first
    const startLine = i + 1
    while (!arrayClosed(value) && i + 1 < lines.length) value += '\n' + lines[++i]
    const parsed = parseStringArray(stripComment(value).trim())
    if (parsed) fallbackFilenames = parsed
    else {
      problems.push({
        path: file,
        reason: `line ${startLine}: project_doc_fallback_filenames is not a list of strings`,
      })
    }
  }
  return {
    ...(budgetBytes !== undefined ? { budgetBytes } : {}),
    ...(fallbackFilenames !== undefined ? { fallbackFilenames } : {}),
    problems,
  }
}

/** Scan TOML-ish text outside strings; `onChar` returns true to stop. */
function scanOutsideStrings(value: string, onChar: (ch: string, i: number) => boolean): void {
  let quote: string | null = null
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]
    if (quote) {
      if (quote === '"' && ch === '\\') i++
      else if (ch === quote) quote = null
      continue
    }
    if (ch === '"' || ch === "'") quote = ch
    else if (onChar(ch, i)) return
  }
}

/** Remove a `#` comment that is outside strings, from each line. */
function stripComment(value: string): string {
  return value
    .split('\n')
    .map((line) => {
      let cut = line.length
      scanOutsideStrings(line, (ch, i) => {
        if (ch === '#') {
          cut = i
          return true
        }
        return false
      })
      return line.slice(0, cut)
    })
    .join('\n')
}

function arrayClosed(value: string): boolean {
  let closed = false
  scanOutsideStrings(stripComment(value), (ch) => {
    if (ch === ']') closed = true
    return closed
  })
  return closed || !value.trimStart().startsWith('[')
}

/** `["a", 'b', ]` → ['a', 'b']; null when it is anything else. */
function parseStringArray(value: string): string[] | null {
  if (!value.startsWith('[') || !value.endsWith(']')) return null
  const out: string[] = []
  const body = value.slice(1, -1)
  const re = /\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)')\s*(,|$)/y
  let pos = 0
  while (pos < body.length) {
    if (body.slice(pos).trim() === '') break
    re.lastIndex = pos
    const m = re.exec(body)
    if (!m) return null
    out.push(m[1] !== undefined ? unescapeBasic(m[1]) : m[2])
    pos = re.lastIndex
    if (m[3] === '') break
  }
  return body.slice(pos).trim() === '' ? out : null
}

function unescapeBasic(s: string): string {
  return s.replace(/\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)/g, (_, esc: string) => {
    if (esc[0] === 'u' || esc[0] === 'U') {
      const code = parseInt(esc.slice(1), 16)
      return code <= 0x10ffff ? String.fromCodePoint(code) : esc
    }
    const map: Record<string, string> = {
      n: '\n',
      t: '\t',
      r: '\r',
      b: '\b',
      f: '\f',
      '"': '"',
      '\\': '\\',
    }
    return map[esc] ?? esc
  })
}
