/**
 * The code lines holding needles in some commits' trees, from one `git grep` over them all
 * (name-lines.ts, judge-notes.ts, claim-flips.ts, value-flips.ts read what the notes' names were
 * then and are now through it).
 *
 * Decisions:
 * - Docs are not code: the grep keeps the files CODE_PATHSPECS take (isCodePathspecFile, picked
 *   from its output rather than passed to git as pathspecs, which git matches against every
 *   entry of every tree: half the time).
 * - A search of a whole tree is kept between command-line runs per commit and needle
 *   (node/git/kept-searches.ts): a tree never changes, so the next audit greps only the commits
 *   and needles it has not seen. A search that failed or could not read a blob keeps nothing.
 */
import type { CodeLine } from '../../core/audit/name-loss'
import { runGit, type GitResult } from '../git/run'
import { excludedPath, missingBlobExcludes, stoppedOnMissingObject } from '../git/missing-blobs'
import { keptSearches } from '../git/kept-searches'
import type { Needle } from './pickaxe'
import { fixedStringsInput } from '../git/grep-patterns'
import { isBinaryByName, isCodePathspecFile } from '../../core/git/code-pathspecs'
import { definesMakeTarget, makeTargetTexts } from '../../core/audit/repo-facts'

const GREP_TIMEOUT_MS = 60_000
const GREP_MAX_BYTES = 64 * 1024 * 1024
/** A needle holding more lines than this in a tree is not kept (searched again next time). */
const KEPT_LINES_MAX = 400

export const key = (n: Needle): string => `${n.kind}\0${n.text}`

/** The grep patterns of a needle: a make target's hold its pattern rules (`server-%`). */
function patterns(n: Needle): string[] {
  return n.kind === 'script'
    ? [`"${n.text}"`]
    : n.kind === 'make'
      ? makeTargetTexts(n.text)
      : [n.text]
}

/** A search kept between runs: make targets' since they take pattern rules too. */
const keptKey = (n: Needle): string => (n.kind === 'make' ? `make%\0${n.text}` : key(n))

function fileFits(n: Needle, file: string): boolean {
  const base = file.slice(file.lastIndexOf('/') + 1)
  if (n.kind === 'script') return base === 'package.json'
  if (n.kind === 'make') return /^(?:[Mm]akefile|.*\.mk)$/.test(base)
  return true
}

const WORD_ONLY = /^[A-Za-z0-9_]+$/
const WORD_RUNS = /[A-Za-z0-9_]+/g

function wordIn(text: string, word: string): boolean {
  let i = text.indexOf(word)
  const w = (c: string | undefined): boolean => c !== undefined && /[A-Za-z0-9_]/.test(c)
  while (i !== -1) {
    if (!w(text[i - 1]) && !w(text[i + word.length])) return true
    i = text.indexOf(word, i + 1)
  }
  return false
}

/** Lines per tree and needle, from one `git grep` over several trees. */
export type Found = Map<string, Map<string, CodeLine[]>>

async function grepNow(
  root: string,
  revs: readonly string[],
  needles: readonly Needle[],
  files: readonly string[] | null,
  words: boolean,
  into: Found,
  /** Files git could not read in some tree (a partial clone's missing blobs). */
  unread: Set<string>,
): Promise<boolean> {
  const asked = needles.filter((n) => (n.kind === 'word') === words)
  const fixed = [...new Set(asked.flatMap(patterns))].filter((p) => p !== '' && !p.includes('\n'))
  if (fixed.length === 0 || revs.length === 0) return true
  // Every code file: no pathspecs, the files CODE_PATHSPECS would take are picked from what
  // git prints (git matches their 23 globs against every entry of every tree: half the time).
  const specs = files === null ? [] : files.map((f) => `:(literal)${f}`)
  const code = (file: string): boolean => files !== null || isCodePathspecFile(file)
  // A blob git could not read leaves a search unknown only when it could hold a line.
  const mayHold = (file: string): boolean => code(file) && !isBinaryByName(file)
  const flags = ['-z', '-n', '-I', '-E', '--no-color', ...(words ? ['-w'] : [])]
  const grep = (left: readonly string[]): Promise<GitResult> =>
    runGit(['grep', ...flags, '-f', '-', ...revs, '--', ...specs, ...left], {
      cwd: root,
      timeoutMs: GREP_TIMEOUT_MS,
      maxBytes: GREP_MAX_BYTES,
      input: fixedStringsInput(fixed),
    })
  let r = await grep([])
  // A partial clone with a promisor remote stops at a blob it lacks: ask again without the
  // files such blobs were at, which are then unread (node/git/missing-blobs.ts).
  if (stoppedOnMissingObject(r)) {
    const left = await missingBlobExcludes(root, revs)
    if (left !== null) {
      r = await grep(left)
      for (const spec of left) if (mayHold(excludedPath(spec))) unread.add(excludedPath(spec))
    }
  }
  // Exit 1: nothing matched. A blob a partial clone lacks is named on stderr and skipped.
  for (const m of r.stderr.matchAll(/^error: '[0-9a-f]+:(.+)': unable to read/gm))
    if (mayHold(m[1])) unread.add(m[1])
  if (r.code !== 0 && r.code !== 1 && (unread.size === 0 || r.stdout === '')) return false
  // A word needle of word characters only is a whole word of a line exactly when it is one of
  // the line's runs of word characters (wordIn): looked up, not searched for, line by line.
  const whole = new Map<string, Needle[]>()
  const others: Needle[] = []
  for (const n of asked) {
    if (n.kind === 'word' && WORD_ONLY.test(n.text)) {
      const same = whole.get(n.text)
      if (same) same.push(n)
      else whole.set(n.text, [n])
    } else others.push(n)
  }
  for (const rec of r.stdout.split('\n')) {
    const [where, num, ...rest] = rec.split('\0')
    if (where === undefined || num === undefined || rest.length === 0) continue
    const colon = where.indexOf(':')
    const rev = where.slice(0, colon)
    const file = where.slice(colon + 1)
    if (!code(file)) continue
    // A file with CRLF endings: the line without its CR (blind set DN oi-t02).
    const text = rest.join('\0').replace(/\r$/, '')
    const line = Number(num)
    let byNeedle = into.get(rev)
    if (!byNeedle) into.set(rev, (byNeedle = new Map()))
    const add = (n: Needle): void => {
      const list = byNeedle.get(key(n))
      const l = { file, line, text }
      if (list) list.push(l)
      else byNeedle.set(key(n), [l])
    }
    if (whole.size > 0) {
      const seen = new Set<string>()
      for (const w of text.match(WORD_RUNS) ?? []) {
        if (seen.has(w)) continue
        seen.add(w)
        for (const n of whole.get(w) ?? []) add(n)
      }
    }
    for (const n of others) {
      if (!fileFits(n, file)) continue
      if (n.kind === 'make') {
        if (definesMakeTarget(text, n.text)) add(n)
        continue
      }
      const p = patterns(n)[0]
      if (words ? wordIn(text, p) : text.includes(p)) add(n)
    }
  }
  return true
}

/**
 * The lines holding each needle (word needles with `-w`, others as text) in each tree `revs`
 * names, over `files` only or every code file (null). False when git could not say.
 */
export async function grepTrees(
  root: string,
  revs: readonly string[],
  needles: readonly Needle[],
  files: readonly string[] | null,
  words: boolean,
  into: Found,
  /** Files git could not read in some tree (a partial clone's missing blobs). */
  unread: Set<string>,
): Promise<boolean> {
  const kept = files === null ? await keptSearches(root) : null
  if (!kept) return grepNow(root, revs, needles, files, words, into, unread)
  const asked = needles.filter((n) => (n.kind === 'word') === words)
  // What each tree was searched for before; the rest is searched in one grep.
  const left = new Map<string, Needle[]>()
  for (const rev of revs)
    for (const n of asked) {
      const lines = kept.get('tree', rev, keptKey(n)) as CodeLine[] | undefined
      if (lines === undefined) left.set(rev, [...(left.get(rev) ?? []), n])
      else addLines(into, rev, key(n), lines)
    }
  if (left.size === 0) return true
  const found: Found = new Map()
  const missed = new Set<string>()
  const union = [...new Map([...left.values()].flat().map((n) => [key(n), n])).values()]
  const ok = await grepNow(root, [...left.keys()], union, null, words, found, missed)
  for (const m of missed) unread.add(m)
  if (!ok) return false
  for (const [rev, ns] of left)
    for (const n of ns) {
      const lines = found.get(rev)?.get(key(n)) ?? []
      addLines(into, rev, key(n), lines)
      if (missed.size === 0 && lines.length <= KEPT_LINES_MAX)
        kept.keep('tree', rev, keptKey(n), lines)
    }
  return true
}

/** Add a needle's lines in a tree to what was found (none: nothing is added). */
function addLines(into: Found, rev: string, k: string, lines: readonly CodeLine[]): void {
  if (lines.length === 0) return
  let byNeedle = into.get(rev)
  if (!byNeedle) into.set(rev, (byNeedle = new Map()))
  byNeedle.set(k, [...(byNeedle.get(k) ?? []), ...lines])
}
