/**
 * The work tree as HEAD and a few files (issue 16: a command-line audit after the first one
 * greps the work tree again, seven whole-tree searches, while the searches of commits are kept
 * between runs by kept-searches.ts). What `git grep --untracked` finds in the work tree is what
 * `git grep HEAD` finds, but in the files that differ from HEAD: the tracked files changed
 * (staged or not, deleted too) and the untracked files git does not ignore. So a search of the
 * work tree is a kept search of HEAD with those files taken out, and a search of those files
 * alone put back in git's order.
 *
 * Decisions:
 * - Git's own rules make the two equal: `git grep` reads the index's blob for an entry marked
 *   skip-worktree or assume-unchanged, reads no symbolic link or submodule in either mode; a
 *   file `changedFiles` does not name has HEAD's content.
 * - A tracked file is searched whatever the ignore rules say (`git grep --untracked` alone
 *   skips a tracked file an ignore rule matches); an untracked one only when git does not
 *   ignore it.
 * - Read once per audit ({@link withWorkTreeDeltas}, AsyncLocalStorage as cut-offs.ts does):
 *   the window audits again after an edit, and a difference read before it must not answer a
 *   later search. Outside a scope it is read for each search.
 * - At most DELTA_MAX files differ, and none is an untracked folder (a nested repository): more
 *   and the work tree is searched itself, its tracked files and its untracked ones in two runs.
 *   So is a list that was cut at its bound in a way the files put back could change
 *   (mergeWithDelta). Both ways give the same answer (work-tree-delta.test.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { lstat } from 'node:fs/promises'
import { join } from 'node:path'
import { parseDiffRawZ, parseNulList } from '../../core/git/parse'
import { globRegExp, isAgentWorktreeCopy } from '../../core/git/code-pathspecs'
import { openRepo } from './history'
import { runGit } from './run'

const GIT_MAX_BYTES = 256 * 1024 * 1024
const GIT_TIMEOUT_MS = 120_000
/** Files differing from HEAD beyond which the work tree is searched itself. */
const DELTA_MAX = 256

/** How the work tree differs from HEAD. */
export interface WorkTreeDelta {
  readonly head: string
  /** Tracked files whose content differs from HEAD's (or that are gone). */
  readonly changed: ReadonlySet<string>
  /** Untracked files git does not ignore, in git's order. */
  readonly untracked: readonly string[]
  /**
   * Some changed file is one an ignore rule matches (`git grep --untracked` would skip it): the
   * changed files are then searched apart from the untracked ones, in a run of their own.
   */
  readonly changedIgnored: boolean
}

interface Scope {
  /** Search the work tree itself (withoutWorkTreeDeltas). */
  readonly off?: true
  readonly deltas: Map<string, Promise<WorkTreeDelta | null>>
  readonly changed: Map<string, Promise<string[]>>
}

const scope = new AsyncLocalStorage<Scope>()

/** Run a job (an audit) whose searches of a work tree may start from HEAD's kept searches. */
export function withWorkTreeDeltas<T>(job: () => Promise<T>): Promise<T> {
  return scope.run({ deltas: new Map(), changed: new Map() }, job)
}

/** Run a job whose searches read the work tree itself, never HEAD's (the tests' reference). */
export function withoutWorkTreeDeltas<T>(job: () => Promise<T>): Promise<T> {
  return scope.run({ off: true, deltas: new Map(), changed: new Map() }, job)
}

/** How the work tree differs from HEAD (read once per scope); null when unsure. */
export function workTreeDelta(root: string): Promise<WorkTreeDelta | null> {
  const s = scope.getStore()
  if (s?.off) return Promise.resolve(null)
  if (!s) return readDelta(root).catch(() => null)
  let hit = s.deltas.get(root)
  if (!hit) {
    hit = readDelta(root).catch(() => null)
    s.deltas.set(root, hit)
  }
  return hit
}

async function readDelta(root: string): Promise<WorkTreeDelta | null> {
  const opened = await openRepo(root)
  if (!opened.ok || opened.state.head === null) return null
  const [changed, others] = await Promise.all([
    changedFiles(root),
    runGit(['ls-files', '-z', '--others', '--exclude-standard'], {
      cwd: root,
      timeoutMs: GIT_TIMEOUT_MS,
      maxBytes: GIT_MAX_BYTES,
    }),
  ])
  if (others.code !== 0) return null
  const untracked = parseNulList(others.stdout).sort(byteOrder)
  if (untracked.some((p) => p.endsWith('/'))) return null
  if (changed.length + untracked.length > DELTA_MAX) return null
  // Which changed files an ignore rule matches: one run for every search of the audit.
  let changedIgnored = false
  if (changed.length > 0) {
    const ignored = await runGit(['ls-files', '-z', '-c', '-i', '--exclude-standard'], {
      cwd: root,
      timeoutMs: GIT_TIMEOUT_MS,
      maxBytes: GIT_MAX_BYTES,
    })
    if (ignored.code !== 0) return null
    const set = new Set(parseNulList(ignored.stdout))
    changedIgnored = changed.some((f) => set.has(f))
  }
  return { head: opened.state.head, changed: new Set(changed), untracked, changedIgnored }
}

/** Every file a search of HEAD may not answer for. */
export const deltaFiles = (d: WorkTreeDelta): string[] => [...d.changed, ...d.untracked]

/**
 * Tracked files with uncommitted changes, staged or not (relative paths) — what
 * `git status --untracked-files=no` lists, from plumbing: `git status` would run the
 * fsmonitor hook, the untracked cache and a walk into every submodule (issue 11).
 * `diff-files` compares stat data only, so the files it names are hashed as git would
 * (`hash-object`, under the runner's disabled filters) and kept only when the content differs.
 * Read once per scope ({@link withWorkTreeDeltas}).
 */
export function changedFiles(root: string): Promise<string[]> {
  const s = scope.getStore()
  if (!s) return readChanged(root)
  let hit = s.changed.get(root)
  if (!hit) s.changed.set(root, (hit = readChanged(root)))
  return hit
}

async function readChanged(root: string): Promise<string[]> {
  const [staged, worktree] = await Promise.all([
    runGit(['diff-index', '--cached', '-z', '--ignore-submodules=all', 'HEAD', '--'], {
      cwd: root,
      timeoutMs: GIT_TIMEOUT_MS,
      maxBytes: GIT_MAX_BYTES,
    }),
    runGit(['diff-files', '-z', '--ignore-submodules=all', '--'], {
      cwd: root,
      timeoutMs: GIT_TIMEOUT_MS,
      maxBytes: GIT_MAX_BYTES,
    }),
  ])
  const out = new Set<string>()
  // No HEAD yet: nothing is committed, so every tracked file is a change.
  if (staged.code === 0) for (const e of parseDiffRawZ(staged.stdout)) out.add(e.path)
  if (worktree.code !== 0) return [...out]
  const toHash: { readonly path: string; readonly sha: string }[] = []
  for (const e of parseDiffRawZ(worktree.stdout)) {
    const sameRegularFile =
      e.status === 'M' && e.oldMode === e.newMode && /^100(644|755)$/.test(e.newMode)
    if (sameRegularFile && !e.path.includes('\n') && !out.has(e.path))
      toHash.push({ path: e.path, sha: e.oldSha })
    else out.add(e.path)
  }
  // Only regular files are handed to `hash-object`: it reads what it is given, and a FIFO put
  // where a tracked file was blocks it until the hang limit (reliability/bad-input › fifos).
  const kinds = await Promise.all(
    toHash.map((t) =>
      lstat(join(root, t.path)).then(
        (st) => st.isFile(),
        () => false,
      ),
    ),
  )
  for (let i = toHash.length - 1; i >= 0; i--) {
    if (!kinds[i]) {
      out.add(toHash[i]!.path)
      toHash.splice(i, 1)
    }
  }
  if (toHash.length > 0) {
    const h = await runGit(['hash-object', '--stdin-paths'], {
      cwd: root,
      timeoutMs: GIT_TIMEOUT_MS,
      input: toHash.map((t) => t.path).join('\n') + '\n',
    })
    const shas = h.code === 0 ? h.stdout.split('\n') : []
    toHash.forEach((t, i) => {
      if (shas[i] !== t.sha) out.add(t.path)
    })
  }
  return [...out]
}

/** Git's order of paths: by their UTF-8 bytes. */
export function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b))
}

/**
 * Whether the positive pathspecs among `specs` take `path`: `.` takes every file,
 * `:(glob)**\/<name glob>` a file of that name anywhere. Exclusions are left to git (they are
 * passed with the files). Null when some positive pathspec is of another form.
 */
export function positivesTake(specs: readonly string[], path: string): boolean | null {
  const base = path.slice(path.lastIndexOf('/') + 1)
  let took = false
  for (const s of specs) {
    if (s.startsWith(':(exclude')) continue
    if (s === '.') took = true
    else {
      const m = /^:\(glob\)\*\*\/([^/]+)$/.exec(s)
      if (!m || /[?[\]\\]/.test(m[1])) return null
      if (globRegExp(m[1], false).test(base)) took = true
    }
  }
  return took
}

/** Pathspecs searching only `files` (literally), with the exclusions of `specs`. */
export function deltaPathspecs(specs: readonly string[], files: readonly string[]): string[] {
  return [...files.map((f) => `:(literal)${f}`), ...specs.filter((s) => s.startsWith(':(exclude'))]
}

/**
 * What a search of the work tree would have listed, from a search of HEAD (`atHead`) and one of
 * the differing files (`inDelta`), each in git's order and cut at `cap` items: HEAD's items in
 * a differing file go, the differing files' items come in, tracked files in path order then
 * untracked ones, cut at `cap`. Null when a cut list leaves the answer unknown: an item past
 * the last one a cut list holds could have come before what is kept.
 */
export function mergeWithDelta<T>(
  delta: WorkTreeDelta,
  atHead: readonly T[],
  inDelta: readonly T[],
  cap: number,
  pathOf: (t: T) => string,
  lineOf: (t: T) => number,
): T[] | null {
  if (delta.changed.size === 0 && delta.untracked.length === 0) return [...atHead]
  const untracked = new Set(delta.untracked)
  const cmp = (a: T, b: T): number => {
    const ua = untracked.has(pathOf(a)) ? 1 : 0
    const ub = untracked.has(pathOf(b)) ? 1 : 0
    return ua - ub || byteOrder(pathOf(a), pathOf(b)) || lineOf(a) - lineOf(b)
  }
  const horizons = [atHead, inDelta].filter((l) => l.length >= cap).map((l) => l[l.length - 1])
  const merged = [
    ...atHead.filter((t) => !delta.changed.has(pathOf(t)) && !untracked.has(pathOf(t))),
    ...inDelta,
  ].sort(cmp)
  if (horizons.length === 0) return merged.slice(0, cap)
  const known = merged.filter((t) => horizons.every((h) => cmp(t, h) <= 0))
  return known.length >= cap ? known.slice(0, cap) : null
}

/** Where one `git grep` looks: a commit's tree, the work tree's tracked files, or its untracked ones. */
export type GrepWhere =
  | { readonly kind: 'tree'; readonly sha: string }
  | { readonly kind: 'tracked' }
  | { readonly kind: 'untracked' }

/** One `git grep` of some patterns over some pathspecs: each pattern's items in git's order. */
export type GrepOnce<T> = (
  where: GrepWhere,
  patterns: readonly string[],
  pathspecs: readonly string[],
) => Promise<ReadonlyMap<string, readonly T[]> | null>

export interface WorkTreeSearch<T> {
  readonly root: string
  readonly patterns: readonly string[]
  readonly pathspecs: readonly string[]
  /** Items kept per pattern: git's first ones. */
  readonly cap: number
  readonly grep: GrepOnce<T>
  /** The search of HEAD's tree (kept between runs by the caller). */
  readonly atHead: (head: string) => Promise<ReadonlyMap<string, readonly T[]> | null>
  readonly pathOf: (t: T) => string
  readonly lineOf: (t: T) => number
}

/**
 * Each pattern's items in the work tree: its tracked files as they are on disk (an ignore rule
 * hides no tracked file: `git grep --untracked` alone skips a tracked `.env.local.example` that
 * `.env*` ignores; blind set BP) and its untracked files git does not ignore. From HEAD's
 * search and the files that differ when it can (see above); else from two searches of the work
 * tree. Null when git failed.
 */
export async function searchWorkTree<T>(
  q: WorkTreeSearch<T>,
): Promise<Map<string, readonly T[]> | null> {
  const delta = await workTreeDelta(q.root)
  const via = delta ? await viaDelta(q, delta) : null
  if (via) return via
  const [tracked, untracked, opened] = await Promise.all([
    q.grep({ kind: 'tracked' }, q.patterns, q.pathspecs),
    q.grep({ kind: 'untracked' }, q.patterns, q.pathspecs),
    openRepo(q.root),
  ])
  if (!tracked || !untracked) return null
  const known = opened.ok ? opened.state.tracked : new Set<string>()
  const isUntracked = (t: T): boolean =>
    !known.has(q.pathOf(t)) && !isAgentWorktreeCopy(q.pathOf(t))
  const out = new Map<string, readonly T[]>()
  for (const p of q.patterns)
    out.set(
      p,
      [...(tracked.get(p) ?? []), ...(untracked.get(p) ?? []).filter(isUntracked)].slice(0, q.cap),
    )
  return out
}

async function viaDelta<T>(
  q: WorkTreeSearch<T>,
  delta: WorkTreeDelta,
): Promise<Map<string, readonly T[]> | null> {
  const take = (f: string): boolean | null => positivesTake(q.pathspecs, f)
  const files = deltaFiles(delta)
  if (files.some((f) => take(f) === null)) return null
  const changed = [...delta.changed].filter((f) => take(f))
  const untracked = delta.untracked.filter((f) => take(f))
  const none = new Map<string, readonly T[]>()
  // One run for both unless an ignore rule matches a changed file (`--untracked` skips it).
  const apart = delta.changedIgnored
  const together = apart ? untracked : [...changed, ...untracked]
  const [head, inChanged, inUntracked] = await Promise.all([
    q.atHead(delta.head),
    apart && changed.length > 0
      ? q.grep({ kind: 'tracked' }, q.patterns, deltaPathspecs(q.pathspecs, changed))
      : none,
    together.length > 0
      ? q.grep({ kind: 'untracked' }, q.patterns, deltaPathspecs(q.pathspecs, together))
      : none,
  ])
  if (!head || !inChanged || !inUntracked) return null
  const out = new Map<string, readonly T[]>()
  for (const p of q.patterns) {
    const c = inChanged.get(p) ?? []
    const u = inUntracked.get(p) ?? []
    if (c.length >= q.cap || u.length >= q.cap) return null
    const merged = mergeWithDelta(delta, head.get(p) ?? [], [...c, ...u], q.cap, q.pathOf, q.lineOf)
    if (merged === null) return null
    out.set(p, merged)
  }
  return out
}
