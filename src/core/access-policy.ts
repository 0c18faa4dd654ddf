/**
 * Access follows purpose, not roots (issue 11 items 3–4): each back-end method that takes a
 * path from the window names one purpose, and a purpose allows a few kinds of path. A path's
 * kind comes from what the app itself found (memory folders in the Claude home, load chains
 * it computed, scanned projects), never from where a transcript says a session ran: a
 * transcript's cwd names a project, it does not open its folder. Pure: the facts are values;
 * src/node/fs/path-guard.ts gathers them and checks both the path given and its real path.
 */
import { isNoteFileName } from './memory/note-file-name'
import { isInsidePath } from './paths'

/** Why a path is asked for. Derived from the API method, never sent by the window. */
export type AccessPurpose =
  /** Show or audit a note's file: a memory file or a file of a computed load chain. */
  | 'read-note-file'
  /** Write a file the person edits: a memory file or an instruction file of a load chain. */
  | 'write-note-file'
  /** Delete, review or restore lines of a memory file (instruction files are never deleted). */
  | 'memory-file'
  /** A memory folder as a whole (audit, provenance, stamps). */
  | 'memory-folder'
  /** The repository a scanned project maps to (references and diffs are read inside it). */
  | 'repository'
  /** A launch directory to compute a load chain from: a scanned project's folder or below. */
  | 'launch-dir'

export type PathKind =
  | 'memory-folder'
  | 'memory-file'
  /** CLAUDE.md, CLAUDE.local.md, `.claude/rules/*.md`, AGENTS(.override).md of a computed chain. */
  | 'instruction-file'
  /** Any other file of a computed chain (an @import), inside its launch directory or a home. */
  | 'imported-file'
  | 'repository'
  | 'launch-dir'

/** What the app found on its own: the only things that give a path a kind. */
export interface AccessFacts {
  /** The Claude home as configured and as its real path (memory folders live below it). */
  readonly claudeHomes: readonly string[]
  /**
   * Files of load chains the app computed (as given and, when they stay put, as real paths):
   * `loaded` for a file the chain loads by its place (CLAUDE.md, a rule, AGENTS.md), `import`
   * for one an `@import` names.
   */
  readonly chainFiles: ReadonlyMap<string, 'loaded' | 'import'>
  /** Repository roots of scanned projects. */
  readonly repositories: ReadonlySet<string>
  /** Launch directories and repository roots of scanned projects. */
  readonly projectDirs: readonly string[]
}

export const PURPOSE_ALLOWS: Readonly<Record<AccessPurpose, readonly PathKind[]>> = {
  'read-note-file': ['memory-file', 'instruction-file', 'imported-file'],
  'write-note-file': ['memory-file', 'instruction-file'],
  'memory-file': ['memory-file'],
  'memory-folder': ['memory-folder'],
  repository: ['repository'],
  'launch-dir': ['launch-dir', 'repository'],
}

/** What each purpose needs, for error messages ("not a memory file"). */
const NEEDS: Readonly<Record<AccessPurpose, string>> = {
  'read-note-file': 'not a memory file or a file of a load chain shown',
  'write-note-file': 'not a memory file or an instruction file of a load chain shown',
  'memory-file': 'not a memory file',
  'memory-folder': 'not a memory folder of the Claude home',
  repository: 'not the repository of a scanned project',
  'launch-dir': 'not a launch directory of a scanned project',
}

export type AccessDecision =
  { readonly ok: true; readonly kind: PathKind } | { readonly ok: false; readonly reason: string }

/** Path segments of an absolute POSIX-style path (`/a/b` → `a`, `b`). */
function segments(p: string): string[] {
  return p.split('/').filter((s) => s !== '')
}

/** The rest of `p` below `root` as segments, or null when it is not inside. */
function below(root: string, p: string): string[] | null {
  if (!isInsidePath(p, root)) return null
  return root === '/' ? segments(p) : segments(p.slice(root.replace(/\/+$/, '').length))
}

/**
 * Instruction file names the app offers to edit (docs/memory-rules.md §3 and §4): CLAUDE.md and
 * CLAUDE.local.md, `*.md` below a `rules/` folder, AGENTS.md and AGENTS.override.md. Only
 * for a file its chain loads by place: an import of any name is shown, never written.
 */
export function isInstructionName(p: string): boolean {
  const segs = segments(p)
  const name = segs[segs.length - 1] ?? ''
  if (['CLAUDE.md', 'CLAUDE.local.md', 'AGENTS.md', 'AGENTS.override.md'].includes(name))
    return true
  const rules = segs.lastIndexOf('rules')
  return rules > 0 && name.endsWith('.md') && rules < segs.length - 1
}

/** The kind of `p` (absolute, normalised), or why it has none. */
export function classifyPath(
  p: string,
  facts: AccessFacts,
): { kind: PathKind } | { reason: string } {
  // Git's own files are never content the window shows or writes (issue 11: `.git/config`).
  if (segments(p).includes('.git')) return { reason: 'inside .git' }
  for (const home of facts.claudeHomes) {
    const rest = below(home, p)
    // docs/memory-rules.md §1.5: `<claude home>/projects/<project>/memory/` holds MEMORY.md and topic `*.md`.
    if (rest === null || rest[0] !== 'projects' || rest[2] !== 'memory') continue
    if (rest.length === 3) return { kind: 'memory-folder' }
    const name = rest[rest.length - 1]
    if (rest.length > 3 && isNoteFileName(name)) return { kind: 'memory-file' }
  }
  const chain = facts.chainFiles.get(p)
  if (chain !== undefined)
    return {
      kind: chain === 'loaded' && isInstructionName(p) ? 'instruction-file' : 'imported-file',
    }
  if (facts.repositories.has(p)) return { kind: 'repository' }
  if (facts.projectDirs.some((d) => isInsidePath(p, d))) return { kind: 'launch-dir' }
  return { reason: 'not a memory file, an instruction file or a project folder the app found' }
}

/** May `p` be used for `purpose`? The reason, when not, names what was missing. */
export function decideAccess(
  purpose: AccessPurpose,
  p: string,
  facts: AccessFacts,
): AccessDecision {
  const c = classifyPath(p, facts)
  if ('reason' in c)
    return { ok: false, reason: c.reason === 'inside .git' ? c.reason : NEEDS[purpose] }
  if (!PURPOSE_ALLOWS[purpose].includes(c.kind)) return { ok: false, reason: NEEDS[purpose] }
  return { ok: true, kind: c.kind }
}
