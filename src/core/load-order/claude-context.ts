/**
 * The pieces every step of the Claude load order shares: the disk port and input types, the
 * per-run context (what loaded, what was skipped, cached reads), and the small tests of a read
 * (present, blank, shadows AGENTS.md). Pure: every disk access goes through the port.
 */
import picomatch from 'picomatch/posix.js'
import { INSTRUCTION_SKIP_BYTES } from '../limits'
import type {
  ClaudeOnDemandFile,
  ClaudeStartupFile,
  LoadOrderResult,
  LoadOrderWarning,
  Problem,
} from '../../shared/model'

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
   * checkout's files on the walk up (docs/memory-rules.md §3.8 [agent]).
   */
  readonly repoMainRoot?: string | null
  /**
   * Whether imports from project files that resolve outside the launch directory are
   * approved for this project (recorded in `.claude.json`, docs/memory-rules.md §3.7 [agent]).
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

export interface Ctx {
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
 * Claude Code's load order for `input.cwd` (docs/memory-rules.md §3). Rules inside one `rules/`
 * folder load in the order the port lists them: the raw order the filesystem returns,
 * never sorted (docs/memory-rules.md §3.5 [agent]).

/** Reads are cached per run: the AGENTS.md pre-check and the load itself read the same files. */
export function read(ctx: Ctx, path: string): Promise<PortRead> {
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
export function exists(r: PortRead): boolean {
  return r.ok || (r.problem !== 'missing' && r.problem !== 'not-a-file')
}

/** Whitespace only: Claude Code does not send the file (docs/memory-rules.md §3.6 [agent]). */
export function blank(r: PortRead): boolean {
  return r.ok && r.text.trim() === ''
}

/** A CLAUDE file that hides AGENTS.md: present and not whitespace only (docs/memory-rules.md §3 [agent]). */
export function shadows(r: PortRead): boolean {
  return exists(r) && !blank(r)
}

export function skip(
  ctx: Ctx,
  path: string,
  reason: string,
  detail?: string,
  importedBy?: string,
): void {
  const entry: SkippedFile = {
    path,
    reason,
    ...(detail !== undefined ? { detail } : {}),
    ...(importedBy !== undefined ? { importedBy } : {}),
  }
  ctx.skipped.push(entry)
}

/** `claudeMdExcludes` as one predicate; a pattern picomatch refuses is ignored. */
export function excludeMatcher(patterns: readonly string[]): (path: string) => boolean {
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

/** A file that loads on demand, unless switched off, excluded, unreadable or blank. */
export async function onDemandFile(
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
