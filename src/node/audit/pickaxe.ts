/**
 * When code lines containing a name were last added or removed: a pickaxe
 * (`git log -G` / `-S`) over code files, through runGit. The audit asks it two things
 * (issue 12 items 1 and 4): when a reference that fails now went away (no commit at all:
 * it never was in this repository's code), and whether a note's names changed in code
 * after the note was written.
 *
 * Decisions:
 * - Docs are not code: `*.md`, `*.txt`, `*.rst`, LICENSE files, `docs/` folders and common
 *   binaries are left out, so a name only a document mentions never "existed".
 * - Symbols match as whole words (`-G` with word edges); script names, make targets and
 *   quoted lines match as fixed strings (`-S`) in their own files.
 * - Each search is bounded by a timeout; a search that fails or times out answers
 *   `undefined` (not known), never "never existed".
 * - In a shallow clone, a hit on the cut edge (a parentless commit) is not known. In a partial
 *   clone, a search that stops on a blob the clone lacks is asked again without the files such
 *   blobs were at (node/git/missing-blobs.ts).
 * - One search per (repository, HEAD, needle, files), cached for the process and kept between
 *   command-line runs (node/git/kept-searches.ts: the same HEAD gives the same answer); at most
 *   two run at once (the machine's cores are shared).
 */
import { BoundedCache } from '../cache/bounded-cache'
import { keptSearches } from '../git/kept-searches'
import { runGit, type GitResult } from '../git/run'
import { escapeEre } from '../git/grep-patterns'
import { missingBlobExcludes, stoppedOnMissingObject } from '../git/missing-blobs'
import { CODE_PATHSPECS, diffGitPath, isCodePathspecFile } from '../../core/git/code-pathspecs'
import { definesMakeTarget, makeTargetTexts } from '../../core/audit/repo-facts'
import { isPrefixName } from '../../core/audit/prose-names'

export { CODE_PATHSPECS }

/** The repository a search runs in: its root, HEAD commit, and whether it is a shallow clone. */
export interface SearchRepo {
  readonly root: string
  readonly head: string | null
  readonly shallow: boolean
}

/** A commit that added or removed a line holding the needle. */
export interface CodeChange {
  readonly sha: string
  /** Committer time, ms. */
  readonly ms: number
  /** Committer date, ISO. */
  readonly date: string
}

/** What to look for: a whole word in code, or a fixed string in code or in manifest files. */
export interface Needle {
  /** `word`: a whole word in code; `text`: a fixed string in code; `script`: a package.json
   * script name; `make`: a make target. */
  readonly kind: 'word' | 'text' | 'script' | 'make'
  readonly text: string
}

const PICKAXE_TIMEOUT_MS = 20_000
const PICKAXE_MAX_BYTES = 1024 * 1024
const PARALLEL = 2

function pathspecs(n: Needle, files: readonly string[] | null): readonly string[] {
  if (files !== null && files.length > 0) return files.map((f) => `:(literal)${f}`)
  if (n.kind === 'script') return [':(glob)**/package.json']
  if (n.kind === 'make') return [':(glob)**/Makefile', ':(glob)**/makefile', ':(glob)**/*.mk']
  return CODE_PATHSPECS
}

function pickaxeArg(n: Needle): string[] {
  switch (n.kind) {
    case 'word':
      return [`-G${wordEre(n.text)}`]
    case 'text':
      return [`-S${n.text}`]
    case 'script':
      return [`-S"${n.text}"`]
    case 'make':
      // A line defining the target (repo-facts.ts definesMakeTarget), not any line holding `c:`.
      return [`-G^([^\t#:=][^:#=]*[ \t])?${makeTargetEre(n.text)}([ \t][^:#=]*)?[ \t]*::?([^=]|$)`]
  }
}

/** A make target or a pattern rule's target that makes it (`server-%`), as an extended regex. */
function makeTargetEre(t: string): string {
  const cuts = Array.from({ length: t.length - 1 }, (_, i) =>
    [t.slice(0, i + 1), t.slice(i + 1)].map(escapeEre),
  )
  if (cuts.length === 0) return escapeEre(t)
  const [p, s] = [0, 1].map((k) => cuts.map((c) => c[k]).join('|'))
  return `(${escapeEre(t)}|(${p})%(${s})?|%(${s}))`
}

/** A needle's key among kept searches: make targets' since they take pattern rules too. */
const keptNeedle = (n: Needle): string => `${n.kind === 'make' ? 'make%' : n.kind}\0${n.text}`

/** A whole word, as an extended regex; a constant's prefix (`METATRON_`) may run on. */
function wordEre(text: string): string {
  const end = isPrefixName(text) ? '' : '([^A-Za-z0-9_$]|$)'
  return `(^|[^A-Za-z0-9_$])${escapeEre(text)}${end}`
}

/** Answers per repository HEAD, needle and range; bounded like every cache (src/node/cache). */
const cache = new BoundedCache<string, Promise<CodeChange | null | undefined>>(4096)
let running = 0
const waiting: (() => void)[] = []

async function slot<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= PARALLEL) await new Promise<void>((r) => waiting.push(r))
  running++
  try {
    return await fn()
  } finally {
    running--
    waiting.shift()?.()
  }
}

/**
 * The newest commit reachable from HEAD that added or removed a line holding the needle
 * (after `sinceMs` when given: the walk stops there); null when none did; undefined when git
 * could not say (timeout, failure). `head` keys the cache, so a new commit asks again.
 */
export function newestChange(
  { root, head, shallow }: SearchRepo,
  needle: Needle,
  sinceMs: number | null = null,
  /** Search only these files (repository-relative); null: every code file. */
  files: readonly string[] | null = null,
): Promise<CodeChange | null | undefined> {
  if (head === null || needle.text === '' || needle.text.includes('\n'))
    return Promise.resolve(undefined)
  const since = sinceMs === null ? null : Math.floor(sinceMs / 1000)
  const key = `${root}\0${head}\0${keptNeedle(needle)}\0${since ?? ''}\0${(files ?? []).join('\0')}`
  const known = cache.get(key)
  if (known) return known
  const keptKey = key.slice(root.length + head.length + 2)
  const run = (async (): Promise<CodeChange | null | undefined> => {
    const kept = await keptSearches(root)
    const was = kept?.get('pickaxe', head, keptKey) as CodeChange | null | undefined
    if (was !== undefined) return was
    const found = await slot(searchNewest)
    if (found !== undefined) kept?.keep('pickaxe', head, keptKey, found)
    return found
  })()
  async function searchNewest(): Promise<CodeChange | null | undefined> {
    if (head === null) return undefined
    const search = (left: readonly string[]): Promise<GitResult> =>
      runGit(
        [
          'log',
          '-n1',
          '--format=%H%x1f%ct%x1f%cI%x1f%P',
          ...(since === null ? [] : [`--since=@${since}`]),
          ...pickaxeArg(needle),
          'HEAD',
          '--',
          ...pathspecs(needle, files),
          ...left,
        ],
        { cwd: root, timeoutMs: PICKAXE_TIMEOUT_MS, maxBytes: PICKAXE_MAX_BYTES },
      )
    let r = await search([])
    if (stoppedOnMissingObject(r)) {
      const left = await missingBlobExcludes(root, [head])
      if (left !== null) r = await search(left)
    }
    if (r.code !== 0) return undefined
    const line = r.stdout.split('\n').find((l) => l.trim() !== '')
    if (line === undefined) return null
    const [sha, ct, date, parents] = line.trim().split('\x1f')
    const secs = Number(ct)
    if (!sha || !Number.isFinite(secs)) return undefined
    // A shallow clone's cut edge lists every line as added: it says nothing about when.
    if (shallow && (parents ?? '').trim() === '') return undefined
    if (since !== null && secs <= since) return null
    return { sha, ms: secs * 1000, date: date ?? new Date(secs * 1000).toISOString() }
  }
  cache.set(key, run)
  void run.then((v) => {
    if (v === undefined) cache.delete(key)
  })
  return run
}

/** Forget cached searches (tests rewrite repositories). */
export function clearPickaxeCache(): void {
  cache.clear()
}

/** The texts a needle's lines hold: a script in quotes, a make target's rule (repo-facts.ts). */
function textsOf(n: Needle): string[] {
  return n.kind === 'script'
    ? [`"${n.text}"`]
    : n.kind === 'make'
      ? makeTargetTexts(n.text)
      : [n.text]
}

/** Needles one history walk asks at most (the -G pattern is their alternation). */
const WALK_MAX_NEEDLES = 200
const WALK_MAX_BYTES = 64 * 1024 * 1024
const WALK_TIMEOUT_MS = 120_000
/** A history of at least this many commits is walked in two halves at once (two processes). */
const WALK_SPLIT_MIN_COMMITS = 500

/** A commit of the history in git log's order (newest first): `order` is its place. */
export interface LoggedCommit {
  readonly sha: string
  readonly order: number
}

/** A needle's hit in a walk: the commit, its place in git log's order, and a cut edge. */
interface Hit {
  readonly change: CodeChange
  readonly at: number
  readonly cutEdge: boolean
}

/**
 * `newestChange` for many needles in one walk of the history: `git log -p -G<alternation>`
 * over code files, newest first; the first commit whose added or removed lines hold a needle
 * is its newest change (null: none). One diff of each commit instead of one per needle.
 * Undefined when git could not say. A script needle counts only in a package.json, a make
 * target only in a Makefile, as `newestChange` searches them.
 *
 * Given the history in git log's order (`logged`, the audit's history index), a long history
 * is walked as two halves at once, `<mid>..HEAD` and `<mid>` (every commit in exactly one), on
 * two cores: each needle's newest change is its hit that comes first in that order, the same
 * commit one walk finds first.
 */
export async function newestChanges(
  { root, head, shallow }: SearchRepo,
  needles: readonly Needle[],
  logged: readonly LoggedCommit[] | null = null,
  /** Histories of at least this many commits are walked in halves (tests lower it). */
  splitAt = WALK_SPLIT_MIN_COMMITS,
): Promise<Map<string, CodeChange | null> | undefined> {
  const all = needles.filter((n) => n.text !== '' && !n.text.includes('\n'))
  if (head === null || all.length === 0 || all.length > WALK_MAX_NEEDLES) return undefined
  // What a walk from this HEAD found before is kept (kept-searches.ts): the rest is walked.
  const kept = await keptSearches(root)
  const out = new Map<string, CodeChange | null>()
  const asked = all.filter((n) => {
    const was = kept?.get('walk', head, keptNeedle(n)) as CodeChange | null | undefined
    if (was !== undefined) out.set(`${n.kind}\0${n.text}`, was)
    return was === undefined
  })
  if (asked.length === 0) return out
  // Git only picks the files whose added or removed lines may hold a needle: each needle as
  // plain text, one alternation. Whole words are checked below, line by line, on what it
  // prints; the same lines as `(^|[^A-Za-z0-9_$])word([^A-Za-z0-9_$]|$)` would pick, and a
  // pattern git's matcher runs several times faster (no edge group to try at every byte).
  const ere = [...new Set(asked.flatMap(textsOf).map(escapeEre))].join('|')
  const split = logged !== null && logged.length >= Math.max(2, splitAt)
  const mid = split ? logged.find((c) => c.order === Math.floor(logged.length / 2)) : undefined
  const places = mid ? new Map(logged?.map((c) => [c.sha, c.order])) : null
  const parts = mid ? [[`${mid.sha}..HEAD`], [mid.sha]] : [['HEAD']]
  const outputs = await Promise.all(parts.map((revs) => walkCode(root, head, ere, revs)))
  if (outputs.some((o) => o === undefined)) return undefined
  if (outputs.reduce((sum, o) => sum + (o?.bytes ?? 0), 0) > WALK_MAX_BYTES) return undefined
  const best = new Map<string, Hit>()
  for (const o of outputs) {
    const hits = walkHits(o?.picked ?? '', asked, shallow, places)
    if (hits === null) return undefined
    for (const [k, h] of hits) {
      const b = best.get(k)
      if (!b || h.at < b.at) best.set(k, h)
    }
  }
  for (const n of asked) {
    const k = `${n.kind}\0${n.text}`
    const h = best.get(k)
    // A shallow clone's cut edge lists every line as added: it says nothing about when.
    if (h?.cutEdge) continue
    out.set(k, h?.change ?? null)
    kept?.keep('walk', head, keptNeedle(n), h?.change ?? null)
  }
  return out
}

/**
 * One walk over `revs`, the file diffs of code files kept (undefined: git could not say).
 * Code files are picked here, not by pathspecs (code-pathspecs.ts); a file name this cannot
 * read sends the walk back to git's pathspecs.
 */
async function walkCode(
  root: string,
  head: string,
  ere: string,
  revs: readonly string[],
): Promise<{ picked: string; bytes: number } | undefined> {
  const walk = (specs: readonly string[]): Promise<GitResult> =>
    slot(() =>
      runGit(
        [
          'log',
          '-p',
          '-U0',
          '--no-renames',
          '--format=%x00%H%x1f%ct%x1f%cI%x1f%P',
          `-G${ere}`,
          ...revs,
          '--',
          ...specs,
        ],
        { cwd: root, timeoutMs: WALK_TIMEOUT_MS, maxBytes: WALK_MAX_BYTES },
      ),
    )
  let r = await walk([])
  let picked = r.code === 0 ? pickCodeFiles(r.stdout) : null
  if (r.code === 0 && picked === null) {
    r = await walk(CODE_PATHSPECS)
    picked = r.stdout
  }
  // A partial clone without some blobs: walked again without the files they were at.
  if (stoppedOnMissingObject(r)) {
    const left = await missingBlobExcludes(root, [head])
    if (left !== null) {
      r = await walk([...CODE_PATHSPECS, ...left])
      picked = r.stdout
    }
  }
  if (r.code !== 0) return undefined
  return { picked: picked ?? '', bytes: Buffer.byteLength(r.stdout) }
}

/**
 * Each needle's first hit in a walk's output: its hit with the lowest place. `places`: each
 * commit's place in git log's order (null: its place in this output, newest first); null when
 * a commit is not in it.
 */
function walkHits(
  picked: string,
  asked: readonly Needle[],
  shallow: boolean,
  places: ReadonlyMap<string, number> | null,
): Map<string, Hit> | null {
  const out = new Map<string, Hit>()
  const words = new Map(
    asked.flatMap((n) =>
      n.kind === 'word' ? [[n.text, new RegExp(wordEre(n.text))] as const] : [],
    ),
  )
  let shown = 0
  for (const chunk of picked.split('\0')) {
    const nl = chunk.indexOf('\n')
    const [sha, ct, date, parents] = (nl === -1 ? chunk : chunk.slice(0, nl)).trim().split('\x1f')
    const secs = Number(ct)
    if (!sha || !Number.isFinite(secs)) continue
    const at = places === null ? shown++ : places.get(sha)
    if (at === undefined) return null
    const change = { sha, ms: secs * 1000, date: date ?? new Date(secs * 1000).toISOString() }
    const cutEdge = shallow && (parents ?? '').trim() === ''
    let file = ''
    for (const line of chunk.slice(nl + 1).split('\n')) {
      if (line.startsWith('+++ ') || line.startsWith('--- ')) {
        const p = line.slice(4)
        if (p !== '/dev/null') file = p.replace(/^[ab]\//, '')
        continue
      }
      if (line.startsWith('diff --git ')) continue
      if (!line.startsWith('+') && !line.startsWith('-')) continue
      const text = line.slice(1)
      const base = file.slice(file.lastIndexOf('/') + 1)
      for (const n of asked) {
        const k = `${n.kind}\0${n.text}`
        const first = out.get(k)
        if (first && first.at <= at) continue
        if (n.kind === 'script' && base !== 'package.json') continue
        if (n.kind === 'make' && !/^(?:[Mm]akefile|.*\.mk)$/.test(base)) continue
        const hit =
          n.kind === 'word'
            ? words.get(n.text)?.test(text)
            : n.kind === 'make'
              ? definesMakeTarget(text, n.text)
              : text.includes(textsOf(n)[0])
        if (hit) out.set(k, { change, at, cutEdge })
      }
    }
  }
  return out
}

/**
 * A walk's output without the file diffs git's CODE_PATHSPECS would have left out, as if it
 * had been given them; null when a `diff --git` line names a path that cannot be read.
 */
function pickCodeFiles(stdout: string): string | null {
  const kept: string[] = []
  let keep = true
  for (const line of stdout.split('\n')) {
    if (line.startsWith('diff --git ')) {
      const p = diffGitPath(line)
      if (p === null) return null
      keep = isCodePathspecFile(p)
    } else if (line.includes('\0')) keep = true // the next commit's header
    if (keep) kept.push(line)
  }
  return kept.join('\n')
}
