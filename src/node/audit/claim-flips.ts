/**
 * Claims a note makes that no reference carries, checked at the note's commit and now:
 * names it says are absent or not made yet that the code has gained since
 * (src/core/audit/absence-claims.ts), counts that held then and differ now (count-flips.ts),
 * files it names that were mostly rewritten since (src/core/audit/rewritten-files.ts) or that a
 * newer version replaced (src/core/audit/file-versions.ts), and plan states in plain words the
 * code now contradicts (plan-flips.ts), among others. Each found claim is a reason the note is
 * suspect (verdict.ts), naming the commit or the counts then and now.
 *
 * Decisions:
 * - A flip needs both sides: absent from code (comments and docs excluded) at the note's
 *   commit and present now. A name the code already held when the note called it planned or
 *   absent is a paraphrase of something else, not a claim that flipped.
 * - Only the checked-out work tree is read; a note without a time checks nothing.
 */
import { readFile, stat } from 'node:fs/promises'
import { basename, relative } from 'node:path'
import { absenceClaims, type AbsenceClaim } from '../../core/audit/absence-claims'
import type { CheckedReference } from '../../core/audit/checked-reference'
import { isCommentLine, type CodeLine } from '../../core/audit/name-loss'
import { day, short, tick } from '../../core/audit/reason-text'
import type { WrittenAt } from '../../core/audit/written-at'
import { wholeTreeAt } from './prose-grep'
import { commitAtOrBefore } from '../../core/git/parse'
import type { Note } from '../../core/memory/notes'
import {
  FROZEN_MIN_GONE,
  frozenFiles,
  generatedFiles,
  linesGone,
  mostlyRewritten,
  namesHeldThrough,
} from '../../core/audit/rewritten-files'
import type { ShowResult } from '../git/history'
import { showManyAt } from '../git/show-many'
import { grepTrees, key, type Found } from './tree-grep'
import type { Needle } from './pickaxe'
import type { Prepared } from './prepare-notes'
import { commitAt } from './quote-then'
import { toPosix } from './repo-file'
import { firstChange, valueFlips } from './value-flips'
import { planFlips } from './plan-flips'
import { lineFlips } from './line-flips'
import { todoFlips } from './todo-flips'
import { disabledFlips } from './disabled-flips'
import { seriesFlips } from './series-flips'
import { dependencyFlips } from './dependency-flips'
import { usageCountFlips } from './usage-counts'
import { scriptFlips } from './script-flips'
import { runnerFlips } from './runner-flips'
import { globCountFlips } from './glob-counts'
import { countFlips } from './count-flips'
import { optionFlips } from './option-flips'
import { supersededFiles } from '../../core/audit/file-versions'
import { mapLimited } from '../jobs/concurrency'

/** Notes whose count and rewrite checks go at once. */
const NOTES_AT_ONCE = 4
const SHOW_MAX_BYTES = 2 * 1024 * 1024

/** One note as the claims need it: its text, checked references and time. */
export interface ClaimAsk {
  readonly note: Note
  readonly checked: readonly CheckedReference[]
  readonly writtenAt: WrittenAt | null
}

/** For each note, the reasons its claims of absence or count no longer hold (empty: none). */
export async function claimFlips(p: Prepared, asks: readonly ClaimAsk[]): Promise<string[][]> {
  const out: string[][] = asks.map(() => [])
  const state = p.state
  if (!state || state.head === null || !p.facts) return out
  const head = state.head
  const thens = await Promise.all(
    asks.map(async (a) => {
      if (a.writtenAt === null) return null
      const h = p.facts?.history
      if (h) return commitAtOrBefore(h, a.writtenAt.ms)?.sha ?? null
      return (await commitAt(state.root, head, a.writtenAt.ms))?.sha ?? null
    }),
  )
  const absent = asks.map((a, i) => (thens[i] === null ? [] : absenceClaims(a.note.checkText)))
  const trees = new Map<string, Promise<Set<string> | null>>()
  const treeAt = (rev: string): Promise<Set<string> | null> => {
    let t = trees.get(rev)
    if (!t) trees.set(rev, (t = listTree(state.root, rev)))
    return t
  }
  const factsRoot = p.facts.root
  // Independent readers of the same trees: at once.
  const [flips, values, plans, series, deps] = await Promise.all([
    absenceFlips(state.root, head, thens, absent, state.tracked, treeAt),
    valueFlips(
      state.root,
      head,
      thens,
      asks.map((a) => a.note.checkText),
    ),
    planFlips(
      state.root,
      state.tracked,
      asks.map((a, i) => ({ text: a.note.checkText, title: a.note.title, then: thens[i] })),
      treeAt,
    ),
    seriesFlips(
      state.root,
      asks.map((a) => ({ text: a.note.checkText, named: namedFiles(a, factsRoot) })),
    ),
    dependencyFlips(
      state.root,
      head,
      thens,
      asks.map((a) => a.note.checkText),
    ),
  ])
  // The files each note names as they were at its commit: one batch per commit (show-many.ts),
  // not one `git show` per note and file (each process start blocks the event loop).
  const rewrite = await Promise.all(
    asks.map((a, i) =>
      thens[i] !== null && thens[i] !== head
        ? rewriteFiles(a, factsRoot)
        : new Map<string, string>(),
    ),
  )
  const wantedAt = new Map<string, Set<string>>()
  rewrite.forEach((files, i) => {
    const then = thens[i]
    if (then === null || files.size === 0) return
    const set = wantedAt.get(then) ?? new Set<string>()
    for (const rel of files.keys()) set.add(rel)
    wantedAt.set(then, set)
  })
  const shownAt = new Map(
    [...wantedAt].map(([then, rels]) => {
      const read = showManyAt(state.root, then, [...rels], SHOW_MAX_BYTES)
      void read.catch(() => undefined)
      return [then, read] as const
    }),
  )
  // Notes are independent: a few at once, so their short git runs overlap.
  await mapLimited([...asks.keys()], NOTES_AT_ONCE, async (i) => {
    out[i].push(...values[i])
    const then = thens[i]
    if (then !== null && then !== head) {
      const a = asks[i]
      out[i].push(...flips[i], ...deps[i])
      const said = { text: a.note.checkText, checked: a.checked }
      out[i].push(...(await countFlips(state.root, head, then, said, factsRoot)))
      out[i].push(...(await optionFlips(state.root, head, then, said, factsRoot)))
      out[i].push(...(await usageCountFlips(state.root, head, then, asks[i].note.checkText)))
      out[i].push(...(await globCountFlips(state.root, head, then, asks[i].note.checkText)))
      out[i].push(...(await scriptFlips(state.root, head, then, asks[i].note.checkText)))
      const runners = { root: state.root, head, treeAt, scripts: p.facts?.scripts ?? new Map() }
      const noteFile = toPosix(relative(state.root, a.note.file))
      out[i].push(...(await runnerFlips(runners, then, a.note.checkText, a.checked, noteFile)))
      const before = rewrite[i].size > 0 ? await shownAt.get(then) : undefined
      if (before)
        out[i].push(...(await rewriteFlips(state.root, then, asks[i], rewrite[i], before)))
      out[i].push(...(await lineFlips(state.root, factsRoot, then, a.note.checkText, a.checked)))
      out[i].push(...(await todoFlips(state.root, then, a.note.checkText)))
      const named = namedFiles(a, factsRoot)
      out[i].push(...(await disabledFlips(state.root, then, a.note.checkText, named)))
      const writtenMs = a.writtenAt?.ms ?? Infinity
      out[i].push(...supersededFiles(named, state.tracked, p.facts?.history ?? null, writtenMs))
    }
    // Last: a named thing that flipped, with its commit, says more than a plan's words.
    out[i].push(...series[i], ...plans[i])
  })
  return out
}

/** Names claimed absent that no code line held then and some code line holds now. */
async function absenceFlips(
  root: string,
  head: string,
  thens: readonly (string | null)[],
  claims: readonly AbsenceClaim[][],
  tracked: ReadonlySet<string>,
  treeAt: (rev: string) => Promise<Set<string> | null>,
): Promise<string[][]> {
  const out: string[][] = claims.map(() => [])
  const needleOf = (c: AbsenceClaim): Needle =>
    c.kind === 'script' ? { kind: 'script', text: c.name } : { kind: 'word', text: c.name }
  const revs = [...new Set(thens.filter((t): t is string => t !== null && t !== head))]
  const needles = [
    ...new Map(
      claims
        .flat()
        .filter((c) => c.kind !== 'path')
        .map((c) => [key(needleOf(c)), needleOf(c)]),
    ).values(),
  ]
  const found: Found = new Map()
  const unread = new Set<string>()
  if (revs.length > 0 && needles.length > 0) {
    const ok = await Promise.all([
      grepTrees(root, [...revs, head], needles, null, true, found, unread),
      grepTrees(root, [...revs, head], needles, null, false, found, unread),
    ])
    if (ok.includes(false)) return out
  }
  const code = (rev: string, n: Needle): CodeLine[] =>
    (found.get(rev)?.get(key(n)) ?? []).filter((l) => !isCommentLine(l.text))
  for (let i = 0; i < claims.length; i++) {
    const then = thens[i]
    if (then === null || then === head) continue
    for (const c of claims[i]) {
      let why: string | null
      if (c.kind === 'path') {
        const before = await treeAt(then)
        const now = [...tracked].find((f) => f === c.name || f.endsWith(`/${c.name}`))
        if (before === null || now === undefined) continue
        if ([...before].some((f) => f === c.name || f.endsWith(`/${c.name}`))) continue
        const added = await firstChange(root, then, ['--diff-filter=A'], now)
        why = added && flipText(c, added, `\`${now}\``)
      } else {
        const n = needleOf(c)
        const now = code(head, n)
        if (now.length === 0 || code(then, n).length > 0) continue
        const added = await firstChange(
          root,
          then,
          // -G, not -S: a comment holding the word may go in the commit that adds the code.
          [
            `-G${(n.kind === 'script' ? `"${c.name}"` : c.name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
          ],
          now[0].file,
        )
        why = added && flipText(c, added, `\`${now[0].file}\`:${now[0].line}`)
      }
      if (why) out[i].push(why)
    }
  }
  return out
}

function flipText(c: AbsenceClaim, added: { sha: string; date: string }, where: string): string {
  const what = c.kind === 'script' ? `script ${tick(c.name)}` : tick(c.name)
  const says =
    c.why === 'negated'
      ? `the note says there is no ${what}`
      : `the note gives ${what} as not made yet`
  return `${says}; it was not in the code when the note was written, and was added in ${short(added.sha)} on ${day(added.date)} (${where})`
}

async function listTree(root: string, rev: string): Promise<Set<string> | null> {
  const files = await wholeTreeAt(root, rev)
  return files === null ? null : new Set(files)
}

/** The repository files a note names that resolve now (repository-relative). */
function namedFiles(ask: ClaimAsk, factsRoot: string): string[] {
  return ask.checked.flatMap((c) => {
    const abs = c.ref.kind === 'path' && c.audit.status === 'ok' ? c.audit.resolved : null
    const rel = abs ? toPosix(relative(factsRoot, abs)) : ''
    return rel === '' || rel.startsWith('..') ? [] : [rel]
  })
}

/** Code files a note names (each resolving now, a file then too) read at most this many per note. */
const REWRITE_FILES_MAX = 8

/**
 * The other names a note ties to one file it names: its symbols' identifiers (whole words) and
 * the other files' names. A note naming anything else (a command, a quote, a link) gives none:
 * its claim reaches past the file's names. Files are matched by their stem as a word.
 */
function otherNames(ask: ClaimAsk, abs: string): { text: string; word: boolean }[] {
  const out: { text: string; word: boolean }[] = []
  for (const c of ask.checked) {
    const ref = c.ref
    if (ref.kind === 'symbol') for (const t of ref.terms) out.push({ text: t, word: true })
    else if (ref.kind === 'path') {
      if (c.audit.resolved === abs) continue
      // The stem: imports name a file without its extension (`./services`).
      const stem = basename(ref.path).replace(/\.[A-Za-z0-9]+$/, '')
      if (stem !== '') out.push({ text: stem, word: true })
    } else return []
  }
  return out
}

/** The files a note names that rewriteFlips compares (repository-relative → absolute). */
async function rewriteFiles(ask: ClaimAsk, factsRoot: string): Promise<Map<string, string>> {
  const files = new Map<string, string>()
  for (const c of ask.checked) {
    const abs = c.audit.resolved
    if (c.checkedIn || c.ref.kind !== 'path' || c.audit.status !== 'ok' || !abs) continue
    const rel = toPosix(relative(factsRoot, abs))
    if (rel === '' || rel.startsWith('..') || files.has(rel)) continue
    const st = await stat(abs).catch(() => null)
    if (st?.isFile() && st.size <= SHOW_MAX_BYTES) files.set(rel, abs)
    if (files.size >= REWRITE_FILES_MAX) break
  }
  return files
}

/** Files the note names (`files`, read at `then` into `before`) that lost most of their lines since. */
async function rewriteFlips(
  root: string,
  then: string,
  ask: ClaimAsk,
  files: ReadonlyMap<string, string>,
  before: ReadonlyMap<string, ShowResult>,
): Promise<string[]> {
  const relOf = new Map([...files].map(([rel, abs]) => [abs, rel]))
  const named = ask.checked.flatMap((c) => {
    const rel = c.audit.resolved ? relOf.get(c.audit.resolved) : undefined
    return rel !== undefined ? [{ written: c.ref.text, rel }] : []
  })
  const frozen = frozenFiles(ask.note.checkText, named)
  const generated = generatedFiles(ask.note.checkText, named)
  const out: string[] = []
  for (const [rel, abs] of files) {
    const was = before.get(rel)
    if (!was?.ok || generated.includes(rel)) continue
    const now = await readFile(abs, 'utf8').catch(() => null)
    if (now !== null && frozen.includes(rel)) {
      const g = linesGone(was.text, now)
      if (g.gone >= FROZEN_MIN_GONE) {
        const by = await firstChange(root, then, [], rel)
        const when = by ? `, first changed in ${short(by.sha)} on ${day(by.date)}` : ''
        out.push(
          `the note says ${tick(rel)} is to stay as it was; ${g.gone} of the ${g.linesThen} lines it had when the note was written (${short(then)}) are gone now${when}`,
        )
        continue
      }
    }
    const r = now === null ? null : mostlyRewritten(rel, was.text, now)
    if (r && now !== null && namesHeldThrough(otherNames(ask, abs), was.text, now)) continue
    if (r)
      out.push(
        `most of ${tick(rel)} was rewritten since the note: ${r.gone} of the ${r.linesThen} lines it had when the note was written (${short(then)}) are gone now`,
      )
  }
  return out
}
