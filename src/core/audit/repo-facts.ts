/**
 * What a verdict needs to know about the repository, gathered beforehand by
 * src/node/audit/gather-facts.ts, and the pure parsers of the files that feed it
 * (package.json scripts, Makefile targets).
 */
import type { HistoryIndex } from '../git/parse'
import type { SnippetMatch } from './snippet-match'

/** Where a snippet was found best, as the node layer reports it. */
export interface SnippetFinding {
  /** Repository-relative file of the best match, or null when nothing came close. */
  readonly file: string | null
  readonly match: SnippetMatch
}

/** Everything about the repository a verdict needs, gathered beforehand. */
export interface RepoFacts {
  /** Absolute root paths are built from (the git top level, or the folder given). */
  readonly root: string
  readonly git: boolean
  readonly shallow: boolean
  /** Whether a repository-relative path exists now (file or folder, tracked or not). */
  readonly exists: (rel: string) => boolean
  /** Whether it is a folder. */
  readonly isDir: (rel: string) => boolean
  /** Whether a path that does not exist is ignored by the repository's `.gitignore`. */
  readonly ignored: (rel: string) => boolean
  /**
   * Tracked files and folders (relative) whose path ends with `/written`: a bare file name
   * (`money.ts`) or a partial path (`game/character/x.ts`, `base/`) the root does not have.
   */
  readonly bySuffix: (written: string) => readonly string[]
  /**
   * Tracked files and folders that are a path the root lacks, or end with it, in another case
   * only (`design.md` for `DESIGN.md`): the same file on a case-insensitive file system.
   */
  readonly inAnyCase?: (written: string) => readonly string[]
  /**
   * For a file-name suffix a note writes (`.meta.json`, `.test.ts`): tracked files whose name
   * ends with it and is longer (`song.meta.json`), at most SUFFIXED_MAX of them.
   */
  readonly withSuffix?: (suffix: string) => readonly string[]
  readonly history: HistoryIndex | null
  /** Files (relative) in which each word occurs; a word absent from the map was not searched. */
  readonly wordFiles: ReadonlyMap<string, readonly string[]>
  /**
   * A search that failed (git's reason, a time limit): a word or quote it did not find is not
   * known to be absent (check-reference.ts skips it with the reason).
   */
  readonly unsearched?: { readonly words?: string; readonly quotes?: string }
  /** Script name → package.json files (relative) that define it. */
  readonly scripts: ReadonlyMap<string, readonly string[]>
  readonly packageFiles: readonly string[]
  /** Make target → Makefiles (relative) that define it. */
  readonly makeTargets: ReadonlyMap<string, readonly string[]>
  readonly makefiles: readonly string[]
  /**
   * Packages the package.json files depend on (any dependency field): the program `pnpm x` or
   * `yarn x` runs when no script is named `x`. Absent: not read.
   */
  readonly packageDeps?: ReadonlySet<string>
  /** Best match of each quoted snippet, keyed by its code. */
  readonly snippets: ReadonlyMap<string, SnippetFinding>
  /** Uncommitted changes: relative path → mtime (ms). */
  readonly dirty: ReadonlyMap<string, number>
  /** Outside git: mtime (ms) of files the notes name. */
  readonly mtimes: ReadonlyMap<string, number>
  /** Set when these facts describe another branch's work tree (a note naming that branch). */
  readonly branch?: string
}

/** Script names of a package.json; empty when it is not valid JSON. */
export function parsePackageScripts(text: string): string[] {
  try {
    const data: unknown = JSON.parse(text)
    if (!data || typeof data !== 'object') return []
    const scripts = (data as { scripts?: unknown }).scripts
    if (!scripts || typeof scripts !== 'object' || Array.isArray(scripts)) return []
    return Object.keys(scripts)
  } catch {
    return []
  }
}

/** The dependencies' names of a package.json (every `*dependencies` field); empty when not JSON. */
export function parsePackageDeps(text: string): string[] {
  try {
    const data: unknown = JSON.parse(text)
    if (!data || typeof data !== 'object' || Array.isArray(data)) return []
    const out: string[] = []
    for (const [k, v] of Object.entries(data as Record<string, unknown>))
      if (/^(?:d|devD|peerD|optionalD)ependencies$/.test(k) && v && typeof v === 'object')
        out.push(...Object.keys(v))
    return out
  } catch {
    return []
  }
}

/**
 * Explicit targets a Makefile defines (not special `.TARGETS`); pattern rules' targets
 * (`server-%`) only when `patterns` is set: they make many targets (makePatternMakes).
 */
export function parseMakeTargets(text: string, patterns = false): string[] {
  const out = new Set<string>()
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*(?:#|$)/.test(line) || line.startsWith('\t')) continue
    const m = /^([^:#=\t][^:#=]*?)\s*::?(?!=)/.exec(line)
    if (!m) continue
    for (const t of m[1].trim().split(/\s+/)) {
      if (t === '' || t.includes('$') || /^\.[A-Z_]+$/.test(t)) continue
      if (t.includes('%') && !(patterns && isMakePattern(t))) continue
      out.add(t)
    }
  }
  return [...out]
}

/** A pattern rule's target with one `%` and some text around it (a lone `%` makes anything). */
function isMakePattern(t: string): boolean {
  return t !== '%' && t.indexOf('%') === t.lastIndexOf('%')
}

/**
 * Whether a pattern rule's target makes `target`: `server-%` makes `server-build` (the `%`
 * stands for a non-empty stem). Blind set DY pm-t01: `make server-build` ran through a
 * `server-%` rule that left, read as a target that never was.
 */
export function makePatternMakes(pattern: string, target: string): boolean {
  if (!isMakePattern(pattern)) return false
  const at = pattern.indexOf('%')
  const [pre, post] = [pattern.slice(0, at), pattern.slice(at + 1)]
  return target.length > pre.length + post.length && target.startsWith(pre) && target.endsWith(post)
}

/**
 * The texts a Makefile line defining `target` holds, for fixed-string searches: `target:`,
 * or a pattern rule's `server-%` or `%-build:` (at least three characters: `%s` is in
 * every format string).
 */
export function makeTargetTexts(target: string): string[] {
  const out = [`${target}:`]
  for (let i = 1; i < target.length; i++) {
    if (i >= 2) out.push(`${target.slice(0, i)}%`)
    out.push(`%${target.slice(i)}:`)
  }
  return out
}

/**
 * Whether a Makefile line defines `target`: the target, or a pattern rule that makes it, is
 * one of the rule's targets, before its colon. A line that merely holds `target:` (`%.asc:`
 * for `c`, `formatc:`) defines another (blind set CY ws-t03: `make c` read as changed by an
 * edit of a `formatc` rule).
 */
export function definesMakeTarget(line: string, target: string): boolean {
  return parseMakeTargets(line, true).some((t) => t === target || makePatternMakes(t, target))
}

/**
 * The file name of a repository path that no file of the tree has now, as written or as the end
 * of a tracked path (`NIGHTYTIDY-REPORT.md`, a file the code writes); null for any other path.
 */
export function goneFileName(facts: RepoFacts, path: string): string | null {
  const name = path.slice(path.lastIndexOf('/') + 1)
  if (/^(?:\.\.?\/|\/|~)/.test(path) || !/^[\w.-]+\.[A-Za-z]\w{0,4}$/.test(name)) return null
  return !facts.exists(path) && facts.bySuffix(name).length === 0 ? name : null
}
