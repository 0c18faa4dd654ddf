/**
 * Pure parsers for the NUL-delimited git output the audit reads, and the history
 * index built from it (renames, deletions, last touches). Tested without git;
 * src/node/git/history.ts runs the commands.
 */

/** `--format` for `git log -z --name-status`: a record mark, then sha, unix time, ISO date, parents. */
export const LOG_FORMAT = '%x1e%H%x1f%ct%x1f%cI%x1f%P'

export type FileChange =
  | { readonly status: 'A' | 'M' | 'D' | 'T' | 'U' | 'X'; readonly path: string }
  | {
      readonly status: 'R' | 'C'
      readonly from: string
      readonly path: string
      readonly score: number
    }

export interface LogCommit {
  readonly sha: string
  /** Committer time, unix seconds. */
  readonly time: number
  /** Committer date, ISO 8601 with the committer's offset. */
  readonly date: string
  /** Parent shas; empty for a root commit or the cut edge of a shallow clone. */
  readonly parents: readonly string[]
  readonly changes: readonly FileChange[]
}

/**
 * Parse `git log -z --name-status --format=LOG_FORMAT`. Tokens are read in order
 * and paths consumed by count, so a path holding any byte but NUL is safe.
 */
export function parseLogNameStatus(out: string): LogCommit[] {
  const commits: LogCommit[] = []
  const tokens = out.split('\0')
  let current: {
    sha: string
    time: number
    date: string
    parents: string[]
    changes: FileChange[]
  } | null = null
  for (let i = 0; i < tokens.length; i++) {
    const raw = tokens[i]
    const tok = raw.replace(/^\n+/, '')
    if (tok.startsWith('\x1e')) {
      const [sha = '', time = '0', date = '', parents = ''] = tok.slice(1).split('\x1f')
      current = {
        sha,
        time: Number(time),
        date: date.trim(),
        parents: parents
          .trim()
          .split(' ')
          .filter((p) => p !== ''),
        changes: [],
      }
      commits.push(current)
      continue
    }
    if (tok === '' || !current) continue
    const m = /^([ACDMRTUX])(\d*)$/.exec(tok)
    if (!m) continue
    const status = m[1]
    if (status === 'R' || status === 'C') {
      const from = tokens[++i]
      const path = tokens[++i]
      if (from === undefined || path === undefined) break
      current.changes.push({ status, from, path, score: m[2] === '' ? 100 : Number(m[2]) })
    } else {
      const path = tokens[++i]
      if (path === undefined) break
      current.changes.push({ status: status as 'A' | 'M' | 'D' | 'T' | 'U' | 'X', path })
    }
  }
  return commits
}

/** Parse `git ls-files -z` (or any NUL-separated path list). */
export function parseNulList(out: string): string[] {
  return out.split('\0').filter((p) => p !== '')
}

export interface GrepMatch {
  readonly path: string
  readonly text: string
}

/**
 * Parse `git grep -z -o` without `-n`: `path NUL match LF` per match. With `-o`
 * each record's text is the matched part only, so it never holds a line break.
 */
export function parseGrepOnlyMatching(out: string): GrepMatch[] {
  const matches: GrepMatch[] = []
  let pos = 0
  while (pos < out.length) {
    const nul = out.indexOf('\0', pos)
    if (nul === -1) break
    const nl = out.indexOf('\n', nul + 1)
    const end = nl === -1 ? out.length : nl
    matches.push({ path: out.slice(pos, nul), text: out.slice(nul + 1, end) })
    pos = end + 1
  }
  return matches
}

/** Commit time of each final line from `git blame --line-porcelain`; null for uncommitted lines. */
export function parseBlamePorcelain(
  out: string,
): Map<number, { readonly sha: string; readonly time: number } | null> {
  const lines = new Map<number, { sha: string; time: number } | null>()
  let sha = ''
  let finalLine = 0
  let time = 0
  for (const l of out.split('\n')) {
    const head = /^([0-9a-f]{40}) \d+ (\d+)(?: \d+)?$/.exec(l)
    if (head) {
      sha = head[1]
      finalLine = Number(head[2])
      time = 0
    } else if (l.startsWith('committer-time ')) {
      time = Number(l.slice('committer-time '.length))
    } else if (l.startsWith('\t') && finalLine > 0) {
      lines.set(finalLine, /^0+$/.test(sha) ? null : { sha, time })
    }
  }
  return lines
}

// ---- history index ---------------------------------------------------------

/** A commit that touched a path, as the index keeps it. */
export interface Touch {
  readonly sha: string
  readonly time: number
  readonly date: string
  /** Position in log order (0 = newest); breaks ties between equal times. */
  readonly order: number
}

/** A path leaving its name: renamed away or deleted. */
export type Leave =
  | (Touch & { readonly kind: 'renamed'; readonly to: string })
  | (Touch & { readonly kind: 'deleted' })

export interface HistoryIndex {
  /** The newest commit touching each path (added, modified, or the target of a rename). */
  readonly lastTouch: ReadonlyMap<string, Touch>
  /** Every time each path was renamed away or deleted, newest first. */
  readonly leaves: ReadonlyMap<string, readonly Leave[]>
  /** When each path last came to be (added, copied, or the target of a rename). */
  readonly arrivals: ReadonlyMap<string, Touch>
  /** When each path first came to be, and whether as a rename's or a copy's target. */
  readonly firstArrivals: ReadonlyMap<string, Touch & { readonly moved: boolean }>
  /** Every commit, newest first by committer time. */
  readonly commits: readonly Touch[]
}

/**
 * Build the index from `git log --name-status -M` commits (newest first, as git
 * prints them). In a shallow clone the parentless commits are the cut edge: they
 * list every file as added, which says nothing about when files changed, so
 * `shallow` leaves them out of `lastTouch`.
 */
export function buildHistoryIndex(log: readonly LogCommit[], shallow = false): HistoryIndex {
  const lastTouch = new Map<string, Touch>()
  const leaves = new Map<string, Leave[]>()
  const arrivals = new Map<string, Touch>()
  const firstArrivals = new Map<string, Touch & { moved: boolean }>()
  const commits: Touch[] = []
  const pushLeave = (path: string, l: Leave): void => {
    const list = leaves.get(path)
    if (list) list.push(l)
    else leaves.set(path, [l])
  }
  const newer = (a: Touch, b: Touch): boolean =>
    a.time > b.time || (a.time === b.time && a.order < b.order)
  log.forEach((c, order) => {
    const t: Touch = { sha: c.sha, time: c.time, date: c.date, order }
    commits.push(t)
    if (shallow && c.parents.length === 0) return
    for (const ch of c.changes) {
      if (ch.status === 'D') pushLeave(ch.path, { ...t, kind: 'deleted' })
      else {
        if (ch.status === 'R') pushLeave(ch.from, { ...t, kind: 'renamed', to: ch.path })
        const prev = lastTouch.get(ch.path)
        if (!prev || newer(t, prev)) lastTouch.set(ch.path, t)
        if (ch.status === 'A' || ch.status === 'R' || ch.status === 'C') {
          const came = arrivals.get(ch.path)
          if (!came || newer(t, came)) arrivals.set(ch.path, t)
          const first = firstArrivals.get(ch.path)
          if (!first || newer(first, t))
            firstArrivals.set(ch.path, { ...t, moved: ch.status !== 'A' })
        }
      }
    }
  })
  for (const list of leaves.values()) list.sort((a, b) => (newer(a, b) ? -1 : newer(b, a) ? 1 : 0))
  commits.sort((a, b) => (newer(a, b) ? -1 : newer(b, a) ? 1 : 0))
  return { lastTouch, leaves, arrivals, firstArrivals, commits }
}

/** One rename on the way from a path to its current name. */
export interface RenameStep {
  readonly from: string
  readonly to: string
  readonly sha: string
  readonly date: string
}

export type PathFate =
  | { readonly kind: 'moved'; readonly current: string; readonly steps: readonly RenameStep[] }
  | {
      readonly kind: 'deleted'
      /** The name it had when deleted (after any renames). */
      readonly path: string
      readonly sha: string
      readonly date: string
      readonly steps: readonly RenameStep[]
    }
  | { readonly kind: 'unknown' }

/** Renames followed at most this many times (a guard against cycles). */
const MAX_RENAME_HOPS = 64

/**
 * What became of a path that no longer exists: follow its renames (a→b→c) to a
 * name that `exists`, or to the commit that deleted it. `unknown` when history
 * does not say (never tracked, or the event lies beyond a shallow clone).
 */
export function followPath(
  index: HistoryIndex,
  path: string,
  exists: (p: string) => boolean,
): PathFate {
  const steps: RenameStep[] = []
  const seen = new Set<string>()
  let name = path
  let after: Touch | null = null
  for (let hop = 0; hop < MAX_RENAME_HOPS; hop++) {
    if (seen.has(name)) return { kind: 'unknown' }
    seen.add(name)
    const list = index.leaves.get(name) ?? []
    // The newest leave, but not one older than the rename that brought us here.
    const leave = list.find(
      (l) => !after || l.time > after.time || (l.time === after.time && l.order <= after.order),
    )
    if (!leave)
      return steps.length > 0 && exists(name)
        ? { kind: 'moved', current: name, steps }
        : { kind: 'unknown' }
    if (leave.kind === 'deleted')
      return { kind: 'deleted', path: name, sha: leave.sha, date: leave.date, steps }
    steps.push({ from: name, to: leave.to, sha: leave.sha, date: leave.date })
    if (exists(leave.to)) return { kind: 'moved', current: leave.to, steps }
    name = leave.to
    after = leave
  }
  return { kind: 'unknown' }
}

/**
 * What became of a folder that no longer exists: when the files that left it
 * were renamed into one other folder that exists, it moved there; when they were
 * deleted, or went elsewhere than one folder (blind set AV: stores split into three
 * new folders), it is gone as a place, by the newest commit that took a file from it.
 */
export function followDir(
  index: HistoryIndex,
  dir: string,
  dirExists: (p: string) => boolean,
): PathFate {
  const prefix = `${dir}/`
  const targets = new Map<string, { sha: string; date: string; time: number }>()
  let lastDelete: Leave | null = null
  let lastLeave: Leave | null = null
  for (const [path, list] of index.leaves) {
    if (!path.startsWith(prefix)) continue
    const leave = list[0]
    if (!lastLeave || leave.time > lastLeave.time) lastLeave = leave
    if (leave.kind === 'deleted') {
      if (!lastDelete || leave.time > lastDelete.time) lastDelete = leave
      continue
    }
    const rest = path.slice(prefix.length)
    if (!leave.to.endsWith(`/${rest}`)) continue
    const newDir = leave.to.slice(0, leave.to.length - rest.length - 1)
    const prev = targets.get(newDir)
    if (!prev || leave.time > prev.time)
      targets.set(newDir, { sha: leave.sha, date: leave.date, time: leave.time })
  }
  const existing = [...targets.entries()].filter(([d]) => dirExists(d))
  if (existing.length === 1) {
    const [to, t] = existing[0]
    return { kind: 'moved', current: to, steps: [{ from: dir, to, sha: t.sha, date: t.date }] }
  }
  if (lastDelete && existing.length === 0) {
    return { kind: 'deleted', path: dir, sha: lastDelete.sha, date: lastDelete.date, steps: [] }
  }
  if (lastLeave && existing.length !== 1 && !dirExists(dir))
    return { kind: 'deleted', path: dir, sha: lastLeave.sha, date: lastLeave.date, steps: [] }
  return { kind: 'unknown' }
}

/** The newest commit at or before `timeMs` (the tree as it was when a note was written). */
export function commitAtOrBefore(index: HistoryIndex, timeMs: number): Touch | null {
  const t = Math.floor(timeMs / 1000)
  // Every note of an audit asks this, often for the same time: one scan per index and time.
  let known = commitsAt.get(index)
  if (!known) commitsAt.set(index, (known = new Map()))
  if (known.has(t)) return known.get(t) ?? null
  const found = index.commits.find((c) => c.time <= t) ?? null
  known.set(t, found)
  return found
}

const commitsAt = new WeakMap<HistoryIndex, Map<number, Touch | null>>()

/** One entry of `git diff-files -z` / `git diff-index -z` raw output. */
export interface RawDiffEntry {
  readonly oldMode: string
  readonly newMode: string
  /** The index's (diff-files) or HEAD's (diff-index) blob. */
  readonly oldSha: string
  readonly status: string
  readonly path: string
}

/**
 * Parse raw diff output with `-z`: `:<old mode> <new mode> <old sha> <new sha> <status>\0<path>\0`
 * (a second path follows for copies and renames; the new one is kept). Plumbing that, unlike
 * `git status`, needs no fsmonitor, untracked cache or submodule walk (issue 11).
 */
export function parseDiffRawZ(out: string): RawDiffEntry[] {
  const entries: RawDiffEntry[] = []
  const tokens = out.split('\0')
  for (let i = 0; i < tokens.length; i++) {
    const m = /^:(\d+) (\d+) ([0-9a-f]+) [0-9a-f]+ ([A-Z])\d*$/.exec(tokens[i])
    if (!m || i + 1 >= tokens.length) continue
    let path = tokens[++i]
    if ((m[4] === 'R' || m[4] === 'C') && i + 1 < tokens.length) path = tokens[++i]
    entries.push({ oldMode: m[1], newMode: m[2], oldSha: m[3], status: m[4], path })
  }
  return entries
}

/** One work tree of a repository, from `git worktree list --porcelain -z`. */
export interface Worktree {
  /** Absolute top level of the work tree. */
  readonly path: string
  readonly head: string | null
  /** Short branch name (`feature/x`), or null when detached or bare. */
  readonly branch: string | null
}

/** Parse `git worktree list --porcelain -z`: attribute tokens, each record ended by an empty one. */
export function parseWorktreeList(out: string): Worktree[] {
  const trees: Worktree[] = []
  let cur: { path: string; head: string | null; branch: string | null } | null = null
  for (const tok of out.split('\0')) {
    if (tok === '') {
      if (cur) trees.push(cur)
      cur = null
      continue
    }
    const sp = tok.indexOf(' ')
    const key = sp === -1 ? tok : tok.slice(0, sp)
    const value = sp === -1 ? '' : tok.slice(sp + 1)
    if (key === 'worktree') cur = { path: value, head: null, branch: null }
    else if (cur && key === 'HEAD') cur.head = value
    else if (cur && key === 'branch') cur.branch = value.replace(/^refs\/heads\//, '')
  }
  if (cur) trees.push(cur)
  return trees
}

/** The path of a `.git` file (`gitdir: <path>`), or null when it says anything else. */
export function parseGitFile(text: string): string | null {
  const m = /^gitdir: (.+?)\r?\n?$/.exec(text)
  return m && !m[1].includes('\n') ? m[1] : null
}
