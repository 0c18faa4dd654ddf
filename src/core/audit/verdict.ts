/**
 * Whether each reference of a note still holds, and the note's verdict
 * (cli-contract `audit`; memory-facts §6: a note goes stale when the code it
 * describes changes). Pure: src/node/audit/audit.ts gathers the repository facts.
 *
 * Decisions:
 * - URLs and branch names are listed but never checked against the code (a
 *   branch may be deleted after merging, or never fetched into this clone, while
 *   the note stays true). They are reported `ok` with `resolved: null`, and a note
 *   naming only them is `unverifiable`.
 * - A note is `suspect` only for files it names (path references and script
 *   files), never for files where a symbol or quote merely occurs.
 * - Change times are committer dates: when a change landed on this branch.
 * - A folder rests on its existence only: edits to files under it do not make a
 *   note suspect (a renamed or deleted folder still makes it stale).
 * - A path ignored by git, or inside a build-output folder (`dist/`), is local to a
 *   machine: it is skipped with a reason, never counted missing.
 * - A bare file name (`money.ts`) holds when some tracked file has that name.
 */
import { diffLines } from 'diff'
import { GIT_PATH_MAX_CHARS, GIT_PATH_MAX_COMPONENTS } from '../limits'
import type { AuditReference, ReferenceStatus, Verdict } from '../../shared/model'
import type { HistoryIndex, PathFate, RenameStep } from '../git/parse'
import { followDir, followPath } from '../git/parse'
import type { Reference } from './references'
import type { SnippetMatch } from './snippet-match'

/** When a note was written, and how we know. */
export interface WrittenAt {
  readonly iso: string
  readonly ms: number
  readonly source: 'transcript' | 'frontmatter' | 'git-blame' | 'mtime'
  /** The frontmatter key, when the source is frontmatter. */
  readonly key?: string
}

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
  /** Tracked files (relative) whose last segment is `name`, for bare file names. */
  readonly byBasename: (name: string) => readonly string[]
  readonly history: HistoryIndex | null
  /** Files (relative) in which each word occurs; a word absent from the map was not searched. */
  readonly wordFiles: ReadonlyMap<string, readonly string[]>
  /** Script name → package.json files (relative) that define it. */
  readonly scripts: ReadonlyMap<string, readonly string[]>
  readonly packageFiles: readonly string[]
  /** Make target → Makefiles (relative) that define it. */
  readonly makeTargets: ReadonlyMap<string, readonly string[]>
  readonly makefiles: readonly string[]
  /** Best match of each quoted snippet, keyed by its code. */
  readonly snippets: ReadonlyMap<string, SnippetFinding>
  /** Uncommitted changes: relative path → mtime (ms). */
  readonly dirty: ReadonlyMap<string, number>
  /** Outside git: mtime (ms) of files the notes name. */
  readonly mtimes: ReadonlyMap<string, number>
  /** Set when these facts describe another branch's work tree (a note naming that branch). */
  readonly branch?: string
}

/** A reference after checking: the contract's shape plus what the verdict needs. */
export interface CheckedReference {
  readonly ref: Reference
  readonly audit: AuditReference
  /** Whether it can hold or fail against the code (URLs and branches cannot). */
  readonly checkable: boolean
  /** A repository-relative file or folder the note rests on (for `suspect`). */
  readonly restsOn: string | null
  /** The relative path the reference named (before renames), for diffs. */
  readonly namedPath: string | null
  readonly reason: string | null
  /** Renames git recorded for the named path, oldest first (for diffs). */
  readonly renames?: readonly RenameStep[]
  /** The commit that deleted the named path, when it was deleted. */
  readonly deletedIn?: string
  /** The facts it was checked against, when not the note's own (another branch's work tree). */
  readonly checkedIn?: RepoFacts
}

/**
 * Why a path named in a note is too long to look up (no file system holds it), or null. Such
 * a path is reported, never sent to git or the disk (see GIT_PATH_MAX_CHARS).
 */
export function overlongPath(path: string): string | null {
  if (path.length > GIT_PATH_MAX_CHARS)
    return `is ${path.length.toLocaleString('en')} characters long, over the ${GIT_PATH_MAX_CHARS.toLocaleString('en')} a path can have`
  let parts = 1
  for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1)) {
    if (++parts > GIT_PATH_MAX_COMPONENTS)
      return `has over ${GIT_PATH_MAX_COMPONENTS} path components`
  }
  return null
}

/**
 * Candidate repository-relative paths for a path as written: from the root, then
 * from the folder of the file holding the note. Null when it points outside, or is too
 * long to be a path (overlongPath).
 */
export function candidatePaths(
  path: string,
  root: string,
  noteDir: string | null,
): string[] | null {
  if (overlongPath(path) !== null) return null
  const out: string[] = []
  const push = (p: string | null): void => {
    if (p !== null && p !== '' && !out.includes(p)) out.push(p)
  }
  if (path.startsWith('/')) {
    const rel = relativeTo(path, root)
    return rel === null ? null : [rel]
  }
  if (path.startsWith('~')) return null
  if (!path.startsWith('../')) push(normaliseRel(path))
  if (noteDir !== null) {
    const base = relativeTo(noteDir, root)
    if (base !== null) push(normaliseRel(base === '' ? path : `${base}/${path}`))
  }
  return out.length > 0 ? out : null
}

function relativeTo(abs: string, root: string): string | null {
  const r = root.endsWith('/') ? root.slice(0, -1) : root
  if (abs === r) return ''
  if (!abs.startsWith(`${r}/`)) return null
  return normaliseRel(abs.slice(r.length + 1))
}

/** Resolve `.` and `..` segments; null when it climbs above the root. */
export function normaliseRel(p: string): string | null {
  const parts: string[] = []
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue
    if (seg === '..') {
      if (parts.length === 0) return null
      parts.pop()
    } else parts.push(seg)
  }
  return parts.join('/')
}

/** Join a root and a relative path into an absolute one. */
export function absolute(root: string, rel: string): string {
  if (rel === '') return root
  return root.endsWith('/') ? `${root}${rel}` : `${root}/${rel}`
}

const short = (sha: string): string => sha.slice(0, 7)
const day = (iso: string): string => iso.slice(0, 10)
const tick = (s: string): string => `\`${s}\``

function describeSteps(steps: readonly RenameStep[]): string {
  return steps
    .map(
      (s, i) =>
        `${i === 0 ? 'was renamed' : 'then'} to ${tick(s.to)} in ${short(s.sha)} on ${day(s.date)}`,
    )
    .join(', ')
}

function audit(
  ref: Reference,
  status: ReferenceStatus,
  resolved: string | null,
  movedTo: string | null,
): AuditReference {
  return { text: ref.text, kind: ref.kind, status, resolved, movedTo }
}

/** Check one reference against the repository facts. `noteDir` is the absolute folder of the note's file. */
export function checkReference(
  ref: Reference,
  facts: RepoFacts,
  noteDir: string | null,
): CheckedReference | { readonly skipped: string } {
  switch (ref.kind) {
    case 'url':
    case 'branch':
      return {
        ref,
        audit: audit(ref, 'ok', null, null),
        checkable: false,
        restsOn: null,
        namedPath: null,
        reason: null,
      }
    case 'path':
      return checkPath(ref, ref.path, ref.dir, facts, noteDir)
    case 'command':
      if (ref.runner === 'file') return checkPath(ref, ref.target, false, facts, noteDir)
      return checkCommand(ref, facts)
    case 'symbol':
      return checkSymbol(ref, facts)
    case 'snippet':
      return checkSnippet(ref, facts)
  }
}

function checkPath(
  ref: Reference,
  path: string,
  dir: boolean,
  facts: RepoFacts,
  noteDir: string | null,
): CheckedReference | { readonly skipped: string } {
  const overlong = overlongPath(path)
  if (overlong !== null) {
    const shown = path.length > 60 ? `${path.slice(0, 60)}…` : path
    return { skipped: `${tick(shown)} ${overlong}; not checked` }
  }
  const candidates = candidatePaths(path, facts.root, noteDir)
  if (candidates === null)
    return { skipped: `${tick(ref.text)} is outside the repository; not checked` }
  const found = candidates.find((c) => facts.exists(c))
  if (found !== undefined) {
    return {
      ref,
      audit: audit(ref, 'ok', absolute(facts.root, found), null),
      checkable: true,
      restsOn: found,
      namedPath: found,
      reason: null,
    }
  }
  // Ignored or generated files are local to a machine: their absence says nothing.
  const generated = candidates.some(isGenerated)
  if (candidates.some((c) => facts.ignored(c))) {
    return {
      skipped: `${tick(ref.text)} is ignored by git${generated ? ' (build output)' : ''}; not checked`,
    }
  }
  if (!dir && !path.includes('/') && facts.git) {
    const bare = checkBareName(ref, path, facts)
    if (bare) return bare
  }
  const named = candidates[0]
  const missing = (reason: string): CheckedReference => ({
    ref,
    audit: audit(ref, 'missing', null, null),
    checkable: true,
    restsOn: null,
    namedPath: named,
    reason,
  })
  const notInGit = { skipped: `${tick(ref.text)} is a build output folder; not checked` }
  if (!facts.history) {
    if (generated) return notInGit
    return missing(
      `${tick(ref.text)} does not exist${facts.git ? '' : ' (no git history to tell where it went)'}`,
    )
  }
  let fate: PathFate = { kind: 'unknown' }
  const bareHistory = !dir && !path.includes('/') ? historyByBasename(facts.history, path) : []
  for (const c of [...candidates, ...bareHistory.filter((h) => !candidates.includes(h))]) {
    fate = followPath(facts.history, c, facts.exists)
    if (fate.kind === 'unknown' && (dir || !/\.[^/]+$/.test(c)))
      fate = followDir(facts.history, c, facts.exists)
    if (fate.kind !== 'unknown') break
  }
  if (fate.kind === 'moved') {
    const to = absolute(facts.root, fate.current)
    return {
      ref,
      audit: audit(ref, 'moved', to, to),
      checkable: true,
      restsOn: fate.current,
      namedPath: fate.steps[0]?.from ?? named,
      reason: `${tick(fate.steps[0]?.from ?? named)} ${describeSteps(fate.steps)}`,
      renames: fate.steps,
    }
  }
  if (fate.kind === 'deleted') {
    const via = fate.steps.length > 0 ? `${describeSteps(fate.steps)}, and ` : ''
    return {
      ...missing(
        `${tick(fate.steps[0]?.from ?? fate.path)} ${via}was deleted in ${short(fate.sha)} on ${day(fate.date)}`,
      ),
      namedPath: fate.steps[0]?.from ?? fate.path,
      renames: fate.steps,
      deletedIn: fate.sha,
    }
  }
  if (generated) return notInGit
  const shallow = facts.shallow ? ' (shallow clone: older history is not available here)' : ''
  return missing(`${tick(ref.text)} does not exist and git history has no record of it${shallow}`)
}

/** Folder names build tools and package managers create; never part of the source. */
const GENERATED_DIRS = new Set(
  (
    'dist build out target coverage node_modules .next .nuxt .svelte-kit .turbo .cache .parcel-cache ' +
    '.output .vercel .terraform __pycache__ .pytest_cache .mypy_cache .venv venv storybook-static'
  ).split(' '),
)

function isGenerated(rel: string): boolean {
  return rel.split('/').some((seg) => GENERATED_DIRS.has(seg))
}

/**
 * A bare file name (`money.ts`) names a file somewhere in the repository: it holds
 * when a tracked file has that name. Null when no tracked file has it (the caller
 * then asks history, by basename too).
 */
function checkBareName(ref: Reference, name: string, facts: RepoFacts): CheckedReference | null {
  const files = [...facts.byBasename(name)].sort(
    (a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1),
  )
  if (files.length === 1) {
    return {
      ref,
      audit: audit(ref, 'ok', absolute(facts.root, files[0]), null),
      checkable: true,
      restsOn: files[0],
      namedPath: files[0],
      reason: `${tick(ref.text)} resolved to ${tick(files[0])}`,
    }
  }
  if (files.length > 1) {
    const shown = files.slice(0, 3).map(tick).join(', ')
    const more = files.length > 3 ? `, and ${files.length - 3} more` : ''
    // Which one the note means is unknown, so none of them can make it suspect.
    return {
      ref,
      audit: audit(ref, 'ok', null, null),
      checkable: true,
      restsOn: null,
      namedPath: null,
      reason: `${tick(ref.text)} matches ${files.length} tracked files (${shown}${more})`,
    }
  }
  return null
}

/** Paths in history with this last segment, for a bare file name no tracked file has. */
function historyByBasename(history: HistoryIndex, name: string): string[] {
  const out: string[] = []
  for (const p of history.leaves.keys()) if (p === name || p.endsWith(`/${name}`)) out.push(p)
  return out.sort()
}

function checkCommand(
  ref: Extract<Reference, { kind: 'command' }>,
  facts: RepoFacts,
): CheckedReference {
  const make = ref.runner === 'make'
  const table = make ? facts.makeTargets : facts.scripts
  const files = table.get(ref.target) ?? []
  if (files.length > 0) {
    // Prefer the file at the root, then the shallowest.
    const file = [...files].sort(
      (a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1),
    )[0]
    return {
      ref,
      audit: audit(ref, 'ok', absolute(facts.root, file), null),
      checkable: true,
      restsOn: null,
      namedPath: file,
      reason: null,
    }
  }
  const where = make
    ? facts.makefiles.length === 0
      ? 'there is no Makefile in the repository'
      : `no ${tick(ref.target)} target in ${facts.makefiles.map(tick).join(', ')}`
    : facts.packageFiles.length === 0
      ? 'there is no package.json in the repository'
      : `no ${tick(ref.target)} script in ${facts.packageFiles.length === 1 ? tick(facts.packageFiles[0]) : 'any package.json'}`
  return {
    ref,
    audit: audit(ref, 'missing', null, null),
    checkable: true,
    restsOn: null,
    namedPath: null,
    reason: `${tick(ref.text)}: ${where}`,
  }
}

function checkSymbol(
  ref: Extract<Reference, { kind: 'symbol' }>,
  facts: RepoFacts,
): CheckedReference {
  const missingTerms = ref.terms.filter((t) => (facts.wordFiles.get(t) ?? []).length === 0)
  if (missingTerms.length === 0) {
    // Point at code rather than at a document that merely mentions the name.
    const files = facts.wordFiles.get(ref.terms[ref.terms.length - 1]) ?? []
    const file = [...files].sort(
      (a, b) => Number(isDoc(a)) - Number(isDoc(b)) || (a < b ? -1 : 1),
    )[0]
    return {
      ref,
      audit: audit(ref, 'ok', file === undefined ? null : absolute(facts.root, file), null),
      checkable: true,
      restsOn: null,
      namedPath: null,
      reason: null,
    }
  }
  const which = ref.terms.length > 1 ? ` (${missingTerms.map(tick).join(', ')} not found)` : ''
  return {
    ref,
    audit: audit(ref, 'missing', null, null),
    checkable: true,
    restsOn: null,
    namedPath: null,
    reason: `${tick(ref.name)} is not found in the repository${which}`,
  }
}

function isDoc(rel: string): boolean {
  return /\.(?:md|mdx|markdown|txt|rst|adoc)$/i.test(rel)
}

function checkSnippet(
  ref: Extract<Reference, { kind: 'snippet' }>,
  facts: RepoFacts,
): CheckedReference {
  const finding = facts.snippets.get(ref.code)
  const m = finding?.match
  const head = firstLine(ref.code)
  const cut = m?.truncated ? ` (only its first ${m.lines} lines were compared)` : ''
  const base = { ref, checkable: true, restsOn: null, namedPath: null }
  if (finding && finding.file !== null && m && m.kind === 'exact') {
    return {
      ...base,
      audit: audit(ref, 'ok', absolute(facts.root, finding.file), null),
      reason: m.truncated ? `quoted code ${tick(head)} found in ${tick(finding.file)}${cut}` : null,
    }
  }
  if (finding && finding.file !== null && m && m.kind === 'similar') {
    const pct = Math.round(m.score * 100)
    return {
      ...base,
      audit: audit(ref, 'changed', absolute(facts.root, finding.file), null),
      reason: `quoted code ${tick(head)} now appears only with changes in ${tick(finding.file)} (lines ${m.startLine}–${m.endLine}, ${pct}% alike)${cut}`,
    }
  }
  const near =
    m && m.score > 0 && finding?.file
      ? ` (closest: ${Math.round(m.score * 100)}% alike in ${tick(finding.file)})`
      : ''
  return {
    ...base,
    audit: audit(ref, 'missing', null, null),
    reason: `quoted code ${tick(head)} is not found in the repository${near}${cut}`,
  }
}

function firstLine(code: string): string {
  const line = code.split(/\r?\n/).find((l) => l.trim() !== '') ?? ''
  const t = line.trim()
  return t.length > 60 ? `${t.slice(0, 59)}…` : t
}

/** The newest change to a file the note rests on, after `afterMs`; folders never count. */
function changedAfter(facts: RepoFacts, rel: string, afterMs: number): string | null {
  // A folder holds while it exists: what changes inside it is not what the note says.
  if (facts.isDir(rel)) return null
  const dirty = facts.dirty.get(rel)
  if (dirty !== undefined && dirty > afterMs)
    return `${tick(rel)} has uncommitted changes made after the note was written`
  if (facts.history) {
    const newest = facts.history.lastTouch.get(rel) ?? null
    if (newest && newest.time * 1000 > afterMs) {
      const on = facts.branch ? ` on branch ${tick(facts.branch)}` : ''
      return `${tick(rel)} changed in ${short(newest.sha)} on ${day(newest.date)}${on}, after the note was written`
    }
    return null
  }
  const mtime = facts.mtimes.get(rel)
  if (mtime !== undefined && mtime > afterMs) {
    return `${tick(rel)} was modified (file mtime, no git history) after the note was written`
  }
  return null
}

/** Name the source of a written-at time, as a reason line. */
export function writtenAtReason(w: WrittenAt | null): string {
  if (!w) return 'written-at unknown: changes since the note cannot be seen'
  switch (w.source) {
    case 'transcript':
      return `written-at ${w.iso} from the session transcript that wrote it`
    case 'frontmatter':
      return `written-at ${w.iso} from frontmatter \`${w.key ?? 'date'}\``
    case 'git-blame':
      return `written-at ${w.iso} from git blame (the last commit to these lines)`
    case 'mtime':
      return `written-at ${w.iso} from file mtime (coarse: any later edit moves it)`
  }
}

/** The verdict of a note from its checked references (cli-contract `audit`). */
export function judgeNote(
  checked: readonly CheckedReference[],
  writtenAt: WrittenAt | null,
  facts: RepoFacts | null,
): { readonly verdict: Verdict; readonly reasons: string[] } {
  const reasons: string[] = []
  const checkable = checked.filter((c) => c.checkable)
  if (!facts || checkable.length === 0) {
    const hasWeak = checked.length > 0
    reasons.push(
      !facts
        ? 'no repository to check against'
        : hasWeak
          ? 'nothing checkable: URLs and branch names are not checked against the code'
          : 'nothing checkable: no path, symbol, command or quoted code',
    )
    return { verdict: 'unverifiable', reasons }
  }
  const failing = checkable.filter((c) => c.audit.status !== 'ok')
  for (const c of checkable) if (c.reason) reasons.push(c.reason)
  if (failing.length > 0) return { verdict: 'stale', reasons }
  let suspect = false
  if (writtenAt) {
    const seen = new Set<string>()
    for (const c of checkable) {
      const on = c.checkedIn ?? facts
      const key = `${on.root}\0${c.restsOn}`
      if (c.restsOn === null || seen.has(key)) continue
      seen.add(key)
      const why = changedAfter(on, c.restsOn, writtenAt.ms)
      if (why) {
        reasons.push(why)
        suspect = true
      }
    }
  }
  return { verdict: suspect ? 'suspect' : 'fresh', reasons }
}

// ---- repository facts from files --------------------------------------------

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

/** Explicit targets a Makefile defines (not pattern rules, not special `.TARGETS`). */
export function parseMakeTargets(text: string): string[] {
  const out = new Set<string>()
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*(?:#|$)/.test(line) || line.startsWith('\t')) continue
    const m = /^([^:#=\t][^:#=]*?)\s*::?(?!=)/.exec(line)
    if (!m) continue
    for (const t of m[1].trim().split(/\s+/)) {
      if (t === '' || t.includes('%') || t.includes('$') || /^\.[A-Z_]+$/.test(t)) continue
      out.add(t)
    }
  }
  return [...out]
}

/** When the frontmatter of a topic file says it was written; newest-meaning keys first. */
export function frontmatterWrittenAt(
  data: Readonly<Record<string, unknown>> | null,
): WrittenAt | null {
  if (!data) return null
  const keys = [
    'updated',
    'updatedAt',
    'updated_at',
    'lastUpdated',
    'last_updated',
    'modified',
    'lastModified',
    'date',
    'created',
    'createdAt',
    'created_at',
    'timestamp',
  ]
  for (const key of keys) {
    const v = data[key]
    let ms = NaN
    if (v instanceof Date) ms = v.getTime()
    else if (typeof v === 'string') ms = Date.parse(v.trim())
    else if (typeof v === 'number') ms = v < 1e11 ? v * 1000 : v
    if (Number.isFinite(ms))
      return { iso: new Date(ms).toISOString(), ms, source: 'frontmatter', key }
  }
  return null
}

// ---- diffs ------------------------------------------------------------------

/** Lines shown per side of a diff at most. */
export const DIFF_MAX_LINES = 2000
/** Milliseconds a diff may take before we give up on counting it. */
const DIFF_TIMEOUT_MS = 2000

/** Cut a text to DIFF_MAX_LINES lines; says how much was cut. */
export function capText(text: string): { text: string; cut: string | null } {
  const lines = text.split('\n')
  if (lines.length <= DIFF_MAX_LINES) return { text, cut: null }
  return {
    text: lines.slice(0, DIFF_MAX_LINES).join('\n'),
    cut: `showing the first ${DIFF_MAX_LINES} of ${lines.length} lines`,
  }
}

/** "+3 −1 lines" from a line diff of the two texts. */
export function diffSummary(before: string, after: string): string {
  if (before === after) return 'no change'
  const changes = diffLines(before, after, { timeout: DIFF_TIMEOUT_MS })
  if (!changes) return 'changed (too large to count the lines)'
  let added = 0
  let removed = 0
  for (const c of changes) {
    if (c.added) added += c.count
    else if (c.removed) removed += c.count
  }
  return `+${added} −${removed} lines`
}
