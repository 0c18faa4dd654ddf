/**
 * Batched git queries for the audit: one `git ls-files`, one `git log
 * --name-status -M` pass (cached per HEAD commit); the searches for all words and all quoted
 * lines are pattern-search.ts's — never one git process per note or per file.
 * Parsing lives in src/core/git/parse.ts.
 */
import {
  buildHistoryIndex,
  LOG_FORMAT,
  parseBlamePorcelain,
  parseLogNameStatus,
  parseNulList,
  parseWorktreeList,
} from '../../core/git/parse'
import type { HistoryIndex, Worktree } from '../../core/git/parse'
import { runGit } from './run'
import { isAgentWorktreeCopy } from '../../core/git/code-pathspecs'
import { renameLog } from './history-store'
import { forgetIndexes, keepIndex } from './history-read'
import { partialCloneRenameLog, type LogRun } from './partial-log'
import { stoppedOnMissingObject } from './missing-blobs'
import { join } from 'node:path'
import { BoundedCache } from '../cache/bounded-cache'
import { fileIdentityAsync, repoIdentity } from '../cache/file-identity'
import { gitDirStamp } from './git-dir-stamp'

/** What git says about a work tree now. */
export interface RepoState {
  /** Absolute top level of the work tree. */
  readonly root: string
  /** HEAD commit, or null in a repository without commits. */
  readonly head: string | null
  readonly shallow: boolean
  /** HEAD is not on a branch. */
  readonly detached: boolean
  /** Tracked files (relative, `/`-separated), but for committed agent worktrees' copies. */
  readonly tracked: ReadonlySet<string>
  /** Every folder holding a tracked file. */
  readonly trackedDirs: ReadonlySet<string>
  /**
   * The work tree's identity (cache/file-identity.ts: HEAD and the index file's identity); equal
   * stamps mean the same commit and the same tracked files. Null when the index is not a plain
   * `.git/index` file (nothing is cached then).
   */
  readonly stamp: string | null
}

export type OpenRepo =
  { readonly ok: true; readonly state: RepoState } | { readonly ok: false; readonly reason: string }

/** Git output larger than this is refused (a reason, not a crash). */
const GIT_MAX_BYTES = 256 * 1024 * 1024
const GIT_TIMEOUT_MS = 120_000

/**
 * Tracked files of a work tree, by root, kept while its identity (HEAD and the index file) is
 * unchanged: a click must not re-list 20,000 files.
 */
const trackedCache = new BoundedCache<
  string,
  { readonly tracked: Set<string>; readonly trackedDirs: Set<string> }
>(16)

/**
 * What `openRepo` answered, by root, kept while the `.git` reading taken before and after it
 * (git-dir-stamp.ts) is unchanged: a click on a note starts no git process (issue 16).
 */
const openedCache = new BoundedCache<string, OpenRepo>(16)

/** Read the state of the work tree whose top level is `root`. */
export async function openRepo(root: string): Promise<OpenRepo> {
  const before = await gitDirStamp(root)
  const known = before === null ? undefined : openedCache.get(root, before)
  if (known) return known
  const { opened, certain } = await openWithGit(root)
  // Kept only when both `rev-parse` runs answered (not a timeout read as "no commit yet") and
  // nothing in `.git` moved while git read it: the answer is then the one for that reading.
  if (certain && before !== null && (await gitDirStamp(root)) === before)
    openedCache.set(root, opened, before)
  return opened
}

async function openWithGit(root: string): Promise<{ opened: OpenRepo; certain: boolean }> {
  const [rev, head, stamp] = await Promise.all([
    runGit(['rev-parse', '--is-shallow-repository', '--abbrev-ref', 'HEAD'], {
      cwd: root,
      timeoutMs: 15_000,
    }),
    runGit(['rev-parse', '--verify', '-q', 'HEAD'], { cwd: root, timeoutMs: 15_000 }),
    fileIdentityAsync(join(root, '.git', 'index')),
  ])
  const [shallowLine = '', abbrev = ''] = rev.stdout.split('\n')
  const headSha = head.code === 0 ? head.stdout.trim() : null
  const key = repoIdentity(headSha, stamp)
  let listed = trackedCache.get(root, key)
  if (!listed) {
    const ls = await runGit(['ls-files', '-z'], {
      cwd: root,
      timeoutMs: GIT_TIMEOUT_MS,
      maxBytes: GIT_MAX_BYTES,
    })
    if (ls.code !== 0) {
      const reason = `git ls-files failed: ${firstLine(ls.stderr)}`
      return { opened: { ok: false, reason }, certain: false }
    }
    // A committed agent worktree is a stale copy of the repository, not its files (code-pathspecs.ts).
    const tracked = new Set(parseNulList(ls.stdout).filter((p) => !isAgentWorktreeCopy(p)))
    const trackedDirs = new Set<string>()
    for (const p of tracked) {
      let i = p.lastIndexOf('/')
      while (i > 0) {
        const d = p.slice(0, i)
        if (trackedDirs.has(d)) break
        trackedDirs.add(d)
        i = d.lastIndexOf('/')
      }
    }
    listed = { tracked, trackedDirs }
    trackedCache.set(root, listed, key)
  }
  const state: RepoState = {
    root,
    head: headSha,
    shallow: shallowLine.trim() === 'true',
    detached: abbrev.trim() === 'HEAD',
    tracked: listed.tracked,
    trackedDirs: listed.trackedDirs,
    stamp: key,
  }
  return { opened: { ok: true, state }, certain: rev.code === 0 && head.code === 0 }
}

export type HistoryRead =
  | { readonly ok: true; readonly index: HistoryIndex }
  | { readonly ok: false; readonly reason: string }

/** History indexes by root, HEAD commit and shallowness (the HEAD commit names the history). */
const historyCache = new BoundedCache<string, Promise<HistoryRead>>(16)

/**
 * The rename/delete/last-touch index of the history reachable from HEAD, from one
 * `git log --name-status -M -z` pass; cached per (root, HEAD commit).
 */
export function readHistory(state: RepoState): Promise<HistoryRead> {
  if (state.head === null) return Promise.resolve({ ok: true, index: buildHistoryIndex([]) })
  const head = state.head
  const key = `${state.root}\0${head}\0${state.shallow}`
  const known = historyCache.get(key)
  if (known) return known
  const read = (async (): Promise<HistoryRead> => {
    const log: LogRun = (renames, range = 'HEAD', specs = [], extra = []) => {
      const args = ['log', '-z', renames, ...extra, '--name-status', `--format=${LOG_FORMAT}`]
      const opts = { cwd: state.root, timeoutMs: GIT_TIMEOUT_MS, maxBytes: GIT_MAX_BYTES }
      return runGit([...args, range, '--', ...specs], opts)
    }
    // Kept between runs where the process keeps it (history-store.ts). A partial clone's renames
    // are found without the files whose blobs it lacks (partial-log.ts).
    let r = await renameLog(state.root, head, state.shallow, async (range) => {
      const m = await log('-M', range)
      if (!stoppedOnMissingObject(m)) return m
      return (await partialCloneRenameLog(state.root, head, range, log)) ?? m
    })
    // Rename detection reads the blobs on both sides; a partial clone (`--filter=blob:none`) or a
    // damaged object store lacks some. The names alone still say what was deleted and when: a
    // rename then reads as a delete and an add, which is still "it left that name".
    if (
      r.code !== 0 &&
      /unable to read|could not read|bad object|missing blob|promisor/i.test(r.stderr)
    )
      r = await log('--no-renames')
    if (r.code !== 0) return { ok: false, reason: `git log failed: ${firstLine(r.stderr)}` }
    const index = buildHistoryIndex(parseLogNameStatus(r.stdout), state.shallow)
    keepIndex(state.root, head, index)
    return { ok: true, index }
  })()
  historyCache.set(key, read)
  // A failed read is not remembered: the next audit tries again.
  void read.then((h) => {
    if (!h.ok && historyCache.peek(key) === read) historyCache.delete(key)
  })
  return read
}

/** Forget cached histories (tests rewrite repositories). */
export function clearHistoryCache(): void {
  historyCache.clear()
  forgetIndexes()
  trackedCache.clear()
  openedCache.clear()
}

/**
 * Which of these relative paths (that need not exist) the repository's ignore rules
 * exclude, from one `git check-ignore --stdin -z` run. Each path is also asked with a
 * trailing `/`, since a rule like `dist/` matches only folders. Empty when git fails.
 */
export async function ignoredPaths(root: string, rels: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>()
  const asked = rels.filter((r) => r !== '' && !r.includes('\0'))
  if (asked.length === 0) return out
  const input = asked.flatMap((r) => [r, `${r}/`]).join('\0') + '\0'
  const r = await runGit(['check-ignore', '--stdin', '-z'], {
    cwd: root,
    timeoutMs: GIT_TIMEOUT_MS,
    maxBytes: GIT_MAX_BYTES,
    input,
  })
  // Exit 1 means nothing is ignored; anything else but 0 is a failure we treat the same.
  if (r.code !== 0) return out
  for (const p of parseNulList(r.stdout)) out.add(p.replace(/\/+$/, ''))
  return out
}

/** The work trees of the repository `root` belongs to (main first); empty when git fails. */
export async function listWorktrees(root: string): Promise<Worktree[]> {
  const r = await runGit(['worktree', 'list', '--porcelain', '-z'], {
    cwd: root,
    timeoutMs: 15_000,
  })
  return r.code === 0 ? parseWorktreeList(r.stdout) : []
}

/** Commit time (ms) of each line of a tracked file, from `git blame`; null when blame fails. */
export async function blameTimes(
  root: string,
  rel: string,
): Promise<Map<number, number | null> | null> {
  const r = await runGit(['blame', '--line-porcelain', '--', rel], {
    cwd: root,
    timeoutMs: GIT_TIMEOUT_MS,
  })
  if (r.code !== 0) return null
  const out = new Map<number, number | null>()
  for (const [line, c] of parseBlamePorcelain(r.stdout))
    out.set(line, c === null ? null : c.time * 1000)
  return out
}

export type ShowResult =
  { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string }

/** A file as it was in a commit (`git show <sha>:<path>`), refusing binary content. */
export async function showAt(
  root: string,
  sha: string,
  rel: string,
  maxBytes: number,
): Promise<ShowResult> {
  const r = await runGit(['show', `${sha}:${rel}`], {
    cwd: root,
    timeoutMs: GIT_TIMEOUT_MS,
    maxBytes,
  })
  // `abc1234^` (the commit before a deletion) keeps its `^` when shown.
  const at = sha.endsWith('^') ? `${sha.slice(0, 7)}^` : sha.slice(0, 7)
  if (r.code !== 0) {
    return {
      ok: false,
      reason: r.code === -1 ? firstLine(r.stderr) : `\`${rel}\` did not exist in ${at}`,
    }
  }
  if (r.stdout.slice(0, 8192).includes('\0'))
    return { ok: false, reason: `\`${rel}\` is a binary file` }
  // A folder: git lists its entries under a `tree <rev>:<path>` header; that is no file's text.
  if (r.stdout.startsWith(`tree ${sha}:${rel}\n\n`))
    return {
      ok: false,
      reason: `\`${rel}\` was a folder in ${at}: no text to compare`,
    }
  return { ok: true, text: r.stdout }
}

/** The first non-blank line of git's message, for a reason. */
export function firstLine(s: string): string {
  return (
    s
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? 'no output'
  )
}
