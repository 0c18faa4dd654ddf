/**
 * What Claude Code loads when launched in a directory (memory-facts §3): the startup
 * files in load order, what loads on demand, and what a reader might expect that does not
 * load. Pure: every disk access goes through an injected `ClaudeFsPort`.
 */
import picomatch from 'picomatch/posix.js'
import {
  IMPORT_MAX_HOPS,
  INSTRUCTION_ADVISED_MAX_LINES,
  INSTRUCTION_FLAG_CHARS,
  INSTRUCTION_SKIP_BYTES,
} from '../limits'
import type {
  ClaudeOnDemandFile,
  ClaudeScope,
  ClaudeStartupFile,
  LoadOrderResult,
  LoadOrderWarning,
  Problem,
} from '../../shared/model'
import { stripForLoading } from '../markdown/strip'
import { countLines } from '../text'
import { findImports, resolveImport } from './imports'
import { ancestorsRootFirst, isInsidePath, joinPath } from '../paths'
import { parseRule, pathsTrigger } from './rules'
import { ON_DEMAND_WALK_MAX_DIRS } from '../limits'

export { ON_DEMAND_WALK_MAX_DIRS }

/**
 * Directories looked at below the launch directory for on-demand files. Our own safety
 * limit, not an agent rule (belongs in limits.ts; kept here until the lead moves it).
 */

/** Folders the on-demand walk never enters (besides dot folders). */
const WALK_SKIP_DIRS: ReadonlySet<string> = new Set(['node_modules'])

export type PortReadProblem =
  'missing' | 'not-a-file' | 'unreadable' | 'too-large' | 'binary' | 'invalid-utf8'

/** A text read through a port: the text, or why not. */
export type PortRead =
  | { readonly ok: true; readonly text: string; readonly bytes: number }
  | { readonly ok: false; readonly problem: PortReadProblem; readonly reason: string }

/** The disk as the Claude rules see it. Implementations never throw and never hang. */
export interface ClaudeFsPort {
  /** Read a file as UTF-8 text; files over `maxBytes` come back as `too-large`. */
  readText(path: string, maxBytes: number): Promise<PortRead>
  /** `.md` files below `dir`, recursively, as relative POSIX paths; [] when `dir` is missing. */
  listRulesDir(dir: string): Promise<readonly string[]>
  /** Whether `path` is a directory. */
  isDir(path: string): Promise<boolean>
  /** Names of the real subdirectories of `dir` (symlinks not followed); [] when unreadable. */
  listSubdirs(dir: string): Promise<readonly string[]>
}

export interface ClaudeLoadInput {
  /** Absolute launch directory. */
  readonly cwd: string
  readonly claudeHome: string
  readonly managedDir: string
  /** The user's home, for `~/` imports. */
  readonly homeDir: string
  /** Top level of the launch directory's repository, or null outside git (then `cwd` counts). */
  readonly repoRoot: string | null
  /**
   * Top level of the repository's main worktree (differs from `repoRoot` in a linked
   * worktree), or null outside git. A worktree nested inside it does not load the main
   * checkout's files on the walk up (memory-facts §3 [agent]).
   */
  readonly repoMainRoot?: string | null
  /**
   * Whether imports from project files that resolve outside the launch directory are
   * approved for this project (recorded in `.claude.json`, memory-facts §3 [agent]).
   */
  readonly externalImportsApproved?: boolean
  /** The `claudeMdExcludes` setting: picomatch globs against absolute paths. */
  readonly claudeMdExcludes: readonly string[]
  /** `CLAUDE_CODE_DISABLE_CLAUDE_MDS=1`: no instruction file loads. */
  readonly disableClaudeMds: boolean
  /** MEMORY.md and the size of its loaded head (from the cutoff rules), or null. */
  readonly memoryFile: {
    readonly path: string
    readonly lines: number
    readonly chars: number
  } | null
  /** Cap on directories the on-demand walk looks at (default ON_DEMAND_WALK_MAX_DIRS). */
  readonly onDemandMaxDirs?: number
}

/** A skipped file: the contract's path and reason code, plus a plain detail when there is one. */
export interface SkippedFile extends Problem {
  readonly detail?: string
  readonly importedBy?: string
}

type ClaudeResult = LoadOrderResult['claude']

/** The contract's `claude` part; skipped entries carry a detail and the importer. */
export interface ClaudeLoadOrder extends ClaudeResult {
  readonly skipped: readonly SkippedFile[]
}

interface Ctx {
  readonly input: ClaudeLoadInput
  readonly port: ClaudeFsPort
  readonly startup: ClaudeStartupFile[]
  readonly onDemand: ClaudeOnDemandFile[]
  readonly skipped: SkippedFile[]
  readonly warnings: LoadOrderWarning[]
  readonly loaded: Set<string>
  /** Rule files already sorted into startup or on demand (a home folder can be in the chain). */
  readonly rulesSeen: Set<string>
  readonly reads: Map<string, Promise<PortRead>>
  readonly excluded: (path: string) => boolean
  /** Folders of the main checkout around a nested worktree, left out of the walk up. */
  readonly outsideWorktree: string[]
}

/**
 * Claude Code's load order for `input.cwd` (memory-facts §3). Rules inside one `rules/`
 * folder load in the order the port lists them: the raw order the filesystem returns,
 * never sorted (memory-facts §3 [agent]).
 */
export async function claudeLoadOrder(
  input: ClaudeLoadInput,
  port: ClaudeFsPort,
): Promise<ClaudeLoadOrder> {
  const ctx: Ctx = {
    input,
    port,
    startup: [],
    onDemand: [],
    skipped: [],
    warnings: [],
    loaded: new Set(),
    rulesSeen: new Set(),
    reads: new Map(),
    excluded: excludeMatcher(input.claudeMdExcludes),
    outsideWorktree: [],
  }
  const chain = walkUpDirs(ctx, ancestorsRootFirst(input.cwd))
  if (!(await port.isDir(input.cwd))) {
    ctx.warnings.push({
      path: input.cwd,
      code: 'cwd-not-a-directory',
      message: 'the launch directory does not exist or is not a folder',
    })
  }

  // AGENTS.md counts only where no CLAUDE file exists in the launch directory or above.
  let claudeFileInChain = false
  for (const dir of chain) {
    for (const name of ['CLAUDE.md', '.claude/CLAUDE.md', 'CLAUDE.local.md']) {
      if (shadows(await read(ctx, joinPath(dir, name)))) claudeFileInChain = true
    }
  }

  await loadTop(ctx, joinPath(input.managedDir, 'CLAUDE.md'), 'managed', false)
  await loadRules(ctx, joinPath(input.managedDir, 'rules'), false, true)
  await loadTop(ctx, joinPath(input.claudeHome, 'CLAUDE.md'), 'user', true)
  await loadRules(ctx, joinPath(input.claudeHome, 'rules'), true, true)
  for (const dir of chain) {
    await loadTop(ctx, joinPath(dir, 'CLAUDE.md'), 'project', true)
    await loadTop(ctx, joinPath(dir, '.claude', 'CLAUDE.md'), 'project', true)
    await loadRules(ctx, joinPath(dir, '.claude', 'rules'), true, false)
    // AGENTS.md comes after its folder's rules (memory-facts §3 [agent]).
    await agentsMd(ctx, joinPath(dir, 'AGENTS.md'), claudeFileInChain, 'startup', dir)
    await loadTop(ctx, joinPath(dir, 'CLAUDE.local.md'), 'local', true)
  }
  if (input.memoryFile) {
    const m = input.memoryFile
    ctx.startup.push({
      path: m.path,
      scope: 'memory',
      importedBy: null,
      lines: m.lines,
      chars: m.chars,
    })
  }
  for (const dir of ctx.outsideWorktree) {
    for (const name of ['CLAUDE.md', '.claude/CLAUDE.md', 'CLAUDE.local.md']) {
      const path = joinPath(dir, name)
      if (exists(await read(ctx, path))) {
        skip(
          ctx,
          path,
          'outside-worktree',
          'in the main checkout around this nested worktree; Claude Code does not load it',
        )
      }
    }
  }
  await walkBelow(ctx, claudeFileInChain)

  // An `@AGENTS.md` import reads a shadowed AGENTS.md after all (memory-facts §3).
  const skipped = ctx.skipped.filter(
    (s) => !(s.reason === 'agents-md-shadowed' && ctx.loaded.has(s.path)),
  )
  return { startup: ctx.startup, onDemand: ctx.onDemand, skipped, warnings: ctx.warnings }
}

/** Reads are cached per run: the AGENTS.md pre-check and the load itself read the same files. */
function read(ctx: Ctx, path: string): Promise<PortRead> {
  let hit = ctx.reads.get(path)
  if (!hit) {
    hit = ctx.port.readText(path, INSTRUCTION_SKIP_BYTES).catch((err: unknown): PortRead => ({
      ok: false,
      problem: 'unreadable',
      reason: String(err),
    }))
    ctx.reads.set(path, hit)
  }
  return hit
}

/** A file counts as present unless it is absent or is not a file (a folder named CLAUDE.md). */
function exists(r: PortRead): boolean {
  return r.ok || (r.problem !== 'missing' && r.problem !== 'not-a-file')
}

/** Whitespace only: Claude Code does not send the file (memory-facts §3 [agent]). */
function blank(r: PortRead): boolean {
  return r.ok && r.text.trim() === ''
}

/** A CLAUDE file that hides AGENTS.md: present and not whitespace only (memory-facts §3 [agent]). */
function shadows(r: PortRead): boolean {
  return exists(r) && !blank(r)
}

/** Managed and user files may import anywhere; project files need approval to leave the launch directory. */
function importsAnywhere(scope: ClaudeScope): boolean {
  return scope === 'managed' || scope === 'user'
}

/**
 * The folders of the walk up. In a worktree nested inside its main checkout
 * (`main/.claude/worktrees/feat`), the folders of the main checkout around it are not
 * walked (memory-facts §3 [agent]); their CLAUDE files are reported as skipped.
 */
function walkUpDirs(ctx: Ctx, chain: readonly string[]): string[] {
  const { repoRoot, repoMainRoot } = ctx.input
  if (!repoRoot || !repoMainRoot || repoRoot === repoMainRoot) return [...chain]
  if (!isInsidePath(repoRoot, repoMainRoot)) return [...chain]
  const out: string[] = []
  for (const dir of chain) {
    if (isInsidePath(dir, repoMainRoot) && !isInsidePath(dir, repoRoot))
      ctx.outsideWorktree.push(dir)
    else out.push(dir)
  }
  return out
}

function skip(ctx: Ctx, path: string, reason: string, detail?: string, importedBy?: string): void {
  const entry: SkippedFile = {
    path,
    reason,
    ...(detail !== undefined ? { detail } : {}),
    ...(importedBy !== undefined ? { importedBy } : {}),
  }
  ctx.skipped.push(entry)
}

/**
 * One file found by its place (not by an import): read it, apply the disable switch and
 * `claudeMdExcludes` (never to managed files, memory-facts §3), then load it.
 */
async function loadTop(
  ctx: Ctx,
  path: string,
  scope: ClaudeScope,
  excludable: boolean,
  preread?: PortRead,
): Promise<void> {
  if (ctx.loaded.has(path)) return // already loaded (by an import, or user home = a chain folder)
  const r = preread ?? (await read(ctx, path))
  if (!r.ok && r.problem === 'missing') return
  if (ctx.input.disableClaudeMds)
    return skip(ctx, path, 'disabled', 'CLAUDE_CODE_DISABLE_CLAUDE_MDS=1')
  if (excludable && ctx.excluded(path))
    return skip(ctx, path, 'excluded', 'matches claudeMdExcludes')
  if (!r.ok) return skip(ctx, path, r.problem, r.reason)
  if (blank(r)) return skip(ctx, path, 'empty', 'whitespace only; Claude Code does not send it')
  await load(ctx, path, scope, null, r.text, 0, [path], excludable, importsAnywhere(scope))
}

/** Rules of one `rules/` folder: unconditional ones load now, `paths` ones go on demand. */
async function loadRules(
  ctx: Ctx,
  rulesDir: string,
  excludable: boolean,
  /** Managed and user rules may import anywhere (memory-facts §3 [agent]). */
  anywhere: boolean,
): Promise<void> {
  // Raw filesystem order, as the agent reads the folder (memory-facts §3 [agent]).
  const files = await ctx.port.listRulesDir(rulesDir)
  for (const rel of files) {
    const path = joinPath(rulesDir, rel)
    if (ctx.loaded.has(path) || ctx.rulesSeen.has(path)) continue
    ctx.rulesSeen.add(path)
    const r = await read(ctx, path)
    if (!r.ok || blank(r) || ctx.input.disableClaudeMds || (excludable && ctx.excluded(path))) {
      await loadTop(ctx, path, 'rule', excludable, r)
      continue
    }
    const rule = parseRule(r.text)
    for (const w of rule.warnings) ctx.warnings.push({ path, code: w.code, message: w.message })
    if (rule.condition.kind === 'paths') {
      ctx.onDemand.push({ path, scope: 'rule', trigger: pathsTrigger(rule.condition) })
    } else await load(ctx, path, 'rule', null, r.text, 0, [path], excludable, anywhere)
  }
}

/** AGENTS.md in a folder: loads in the CLAUDE.md slot only when no CLAUDE file shadows it. */
async function agentsMd(
  ctx: Ctx,
  path: string,
  shadowed: boolean,
  mode: 'startup' | 'on-demand',
  dir: string,
): Promise<void> {
  if (ctx.loaded.has(path)) return
  const r = await read(ctx, path)
  if (!r.ok && r.problem === 'missing') return
  if (shadowed && !ctx.input.disableClaudeMds) {
    return skip(
      ctx,
      path,
      'agents-md-shadowed',
      'a CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md exists',
    )
  }
  if (mode === 'startup') return loadTop(ctx, path, 'project', true, r)
  return onDemandFile(ctx, path, 'project', dir, r)
}

/** Add a loaded file, its size warnings, then its imports right after it (memory-facts §3). */
async function load(
  ctx: Ctx,
  path: string,
  scope: ClaudeScope,
  importedBy: string | null,
  text: string,
  hop: number,
  ancestry: readonly string[],
  excludable: boolean,
  anywhere: boolean,
): Promise<void> {
  const body = stripForLoading(text).text
  const lines = countLines(body)
  ctx.loaded.add(path)
  ctx.startup.push({ path, scope, importedBy, lines, chars: body.length })
  if (lines > INSTRUCTION_ADVISED_MAX_LINES) {
    ctx.warnings.push({
      path,
      code: 'over-200-lines',
      message: `${lines} lines load; the docs advise under ${INSTRUCTION_ADVISED_MAX_LINES} per file`,
    })
  }
  if (body.length > INSTRUCTION_FLAG_CHARS) {
    ctx.warnings.push({
      path,
      code: 'over-40k-chars',
      message: `${body.length} characters load, over ${INSTRUCTION_FLAG_CHARS}`,
    })
  }
  for (const imp of findImports(body)) {
    const target = resolveImport(path, imp.path, ctx.input.homeDir)
    await loadImport(ctx, target, path, hop + 1, ancestry, excludable, anywhere)
  }
}

/** One `@path` import: cycles, repeats, depth, exclusion and read problems are skipped. */
async function loadImport(
  ctx: Ctx,
  target: string,
  from: string,
  hop: number,
  ancestry: readonly string[],
  excludable: boolean,
  anywhere: boolean,
): Promise<void> {
  if (ancestry.includes(target)) {
    return skip(ctx, target, 'import-cycle', `imported again by ${from}, which it imports`, from)
  }
  if (ctx.loaded.has(target)) return skip(ctx, target, 'import-repeat', 'already loaded', from)
  if (hop > IMPORT_MAX_HOPS) {
    return skip(
      ctx,
      target,
      'import-depth',
      `${hop} hops from the importing file, over ${IMPORT_MAX_HOPS}`,
      from,
    )
  }
  const { cwd, repoRoot, claudeHome, managedDir } = ctx.input
  // Outside the launch directory, a project file's import needs approval; until then the
  // agent does not read it, and neither do we (memory-facts §3 [agent]; issue 11 item 6).
  if (!anywhere && !isInsidePath(target, cwd) && ctx.input.externalImportsApproved !== true) {
    return skip(
      ctx,
      target,
      'import-needs-approval',
      `outside the launch directory; Claude Code loads it only once external imports are approved for ${repoRoot ?? cwd}`,
      from,
    )
  }
  const r = await read(ctx, target)
  if (!r.ok && r.problem === 'missing') {
    return skip(ctx, target, 'import-missing', 'Claude ignores a missing import silently', from)
  }
  if (excludable && ctx.excluded(target))
    return skip(ctx, target, 'excluded', 'matches claudeMdExcludes', from)
  if (!r.ok) return skip(ctx, target, r.problem, r.reason, from)
  if (blank(r))
    return skip(ctx, target, 'empty', 'whitespace only; Claude Code does not send it', from)
  const inside = [repoRoot ?? cwd, claudeHome, managedDir].some((root) =>
    isInsidePath(target, root),
  )
  if (!inside) {
    ctx.warnings.push({
      path: target,
      code: 'import-outside-repo',
      message: `imported by ${from} from outside the repository and the Claude home`,
    })
  }
  await load(ctx, target, 'import', from, r.text, hop, [...ancestry, target], excludable, anywhere)
}

/**
 * On-demand files below the launch directory: CLAUDE.md, .claude/CLAUDE.md, .claude/rules
 * and CLAUDE.local.md load when Claude reads a file under their folder (memory-facts §3).
 * Skips node_modules and dot folders; looks at no more than the cap of folders.
 */
async function walkBelow(ctx: Ctx, claudeFileInChain: boolean): Promise<void> {
  const cap = ctx.input.onDemandMaxDirs ?? ON_DEMAND_WALK_MAX_DIRS
  let visited = 0
  const stack: string[] = []
  const pushChildren = async (dir: string): Promise<void> => {
    const names = [...(await ctx.port.listSubdirs(dir))].sort()
    const keep = names.filter((n) => !n.startsWith('.') && !WALK_SKIP_DIRS.has(n))
    for (let i = keep.length - 1; i >= 0; i--) stack.push(joinPath(dir, keep[i]))
  }
  await pushChildren(ctx.input.cwd)
  while (stack.length > 0) {
    if (visited >= cap) {
      ctx.warnings.push({
        path: ctx.input.cwd,
        code: 'on-demand-walk-capped',
        message: `looked at ${cap} folders below the launch directory; deeper on-demand files are not listed`,
      })
      return
    }
    const dir = stack.pop() as string
    visited++
    const claudeHere = []
    for (const name of ['CLAUDE.md', '.claude/CLAUDE.md', 'CLAUDE.local.md']) {
      const path = joinPath(dir, name)
      const r = await read(ctx, path)
      if (!r.ok && r.problem === 'missing') continue
      if (shadows(r)) claudeHere.push(path)
      await onDemandFile(ctx, path, name === 'CLAUDE.local.md' ? 'local' : 'project', dir, r)
    }
    await agentsMd(
      ctx,
      joinPath(dir, 'AGENTS.md'),
      claudeFileInChain || claudeHere.length > 0,
      'on-demand',
      dir,
    )
    await onDemandRules(ctx, joinPath(dir, '.claude', 'rules'), dir)
    await pushChildren(dir)
  }
}

async function onDemandFile(
  ctx: Ctx,
  path: string,
  scope: string,
  dir: string,
  r: PortRead,
): Promise<void> {
  if (ctx.loaded.has(path)) return
  if (ctx.input.disableClaudeMds)
    return skip(ctx, path, 'disabled', 'CLAUDE_CODE_DISABLE_CLAUDE_MDS=1')
  if (ctx.excluded(path)) return skip(ctx, path, 'excluded', 'matches claudeMdExcludes')
  if (!r.ok) return skip(ctx, path, r.problem, r.reason)
  if (blank(r)) return skip(ctx, path, 'empty', 'whitespace only; Claude Code does not send it')
  ctx.onDemand.push({ path, scope, trigger: `reading a file under ${dir}` })
}

async function onDemandRules(ctx: Ctx, rulesDir: string, dir: string): Promise<void> {
  const files = await ctx.port.listRulesDir(rulesDir)
  for (const rel of files) {
    const path = joinPath(rulesDir, rel)
    if (ctx.rulesSeen.has(path)) continue
    ctx.rulesSeen.add(path)
    const r = await read(ctx, path)
    if (!r.ok || blank(r) || ctx.input.disableClaudeMds || ctx.excluded(path)) {
      await onDemandFile(ctx, path, 'rule', dir, r)
      continue
    }
    const rule = parseRule(r.text)
    for (const w of rule.warnings) ctx.warnings.push({ path, code: w.code, message: w.message })
    const trigger =
      rule.condition.kind === 'paths'
        ? `${pathsTrigger(rule.condition)} (under ${dir})`
        : `reading a file under ${dir}`
    ctx.onDemand.push({ path, scope: 'rule', trigger })
  }
}

/** `claudeMdExcludes` as one predicate; a pattern picomatch refuses is ignored. */
function excludeMatcher(patterns: readonly string[]): (path: string) => boolean {
  const matchers: ((p: string) => boolean)[] = []
  for (const p of patterns) {
    try {
      matchers.push(picomatch(p, { dot: true }))
    } catch {
      // An invalid glob excludes nothing; the node layer reports bad settings.
    }
  }
  return (path) => matchers.some((m) => m(path))
}
