/**
 * What a note names in plain prose, checked through the note's time (issue 12, recall):
 * an identifier (`haul_to_stockpile`), a name with a value (`lodash-es` 4.17.23), a path
 * outside the repository that only code would hold (`../other-repo/`), or a path with a
 * wildcard or placeholder (`targets/profiles/*.json`, `[algo]-algorithm.js`).
 *
 * Decisions (prose is not a claim of names; src/core/audit/prose-names.ts says which words
 * are candidates at all):
 * - A candidate the code holds now says nothing here: it is not added (the note stays as it
 *   was; the names a note rests on for `suspect` are its back-ticked ones).
 * - A candidate the code does not hold now is looked up in the tree of the note's commit (the
 *   newest at or before its time). Absent then too, it was never a name of this repository:
 *   silently nothing, never "never matched" nor "wrong from the start".
 * - Present then and gone now: stale, naming the commit that removed it (the pickaxe from the
 *   note's time on, in the files that held it); a glob's commit is the one that deleted or
 *   renamed the last file it matched.
 * - A name with a value: a code line held both then; now the name's lines hold another value
 *   (or none holds the name with a value): stale, showing the line then and now.
 * - Git runs are grouped: one search of the work tree for every note, then one per commit of
 *   the notes whose candidates failed now (at most THEN_COMMITS_MAX commits an audit, two at
 *   once); a note whose candidates all hold now costs no run of its own.
 */
import { relative } from 'node:path'
import type { Note } from '../../core/memory/notes'
import { commitAtOrBefore } from '../../core/git/parse'
import type { Reference } from '../../core/audit/reference'
import { checked, type CheckedReference, type Gone } from '../../core/audit/checked-reference'
import { pairInLine } from '../../core/audit/prose-names'
import { absolute } from '../../core/audit/repo-paths'
import { day, short, tick } from '../../core/audit/reason-text'
import type { WrittenAt } from '../../core/audit/written-at'
import type { Prepared } from './prepare-notes'
import { newestChange, type Needle } from './pickaxe'
import { commitAt } from './quote-then'
import { filesAt, grepLines, LINES_PER_PATTERN, type CodeLine, type GrepFound } from './prose-grep'
import { candidatesOf, type Candidates } from './prose-candidates'
import { isCapped, pastCap } from './capped-pairs'
import { fileStems, inTree, matcher, matchesNow } from './tree-match'
import {
  dependencyLines,
  holdsAsCode,
  listedNow,
  noneNow,
  pairHeld,
  pairLines,
  stringsIn,
  wordLines,
  heldNow,
  mayHoldNow,
  codeHolds,
} from './candidate-lines'
import { memberPaths } from '../../core/audit/section-members'
import { isCommentLine } from '../../core/audit/name-loss'
import { onlyInExamples } from '../../core/audit/example-blocks'
import { heldInList } from '../../core/audit/bare-lists'
import { listMemberThen, mostlyHeld } from './list-members'
import { toPosix } from './repo-file'
import type { ProseFinding } from './prose-finding'

/**
 * Commits whose trees are searched in one audit (each search reads a whole tree: about 0.2 s on
 * a medium repository); notes at further commits keep their verdict. Two searches run at once.
 */
const THEN_COMMITS_MAX = 12
const THEN_PARALLEL = 2
/** Files a removal is searched in (the pickaxe's own limit is about as many). */
const PICKAXE_FILES_MAX = 19

/** The commit a note was written against: the newest at or before its time. */
async function commitThen(p: Prepared, w: WrittenAt): Promise<{ sha: string } | null> {
  const h = p.facts?.history
  const t = h ? commitAtOrBefore(h, w.ms) : null
  if (t) return t
  return p.state ? commitAt(p.state.root, p.state.head, w.ms) : null
}

/** Each note's prose candidates that hold neither now nor when it was written drop out here. */
export async function proseThen(
  p: Prepared,
  times: ReadonlyMap<Note, WrittenAt | null>,
): Promise<Map<Note, ProseFinding>> {
  const out = new Map<Note, ProseFinding>()
  const state = p.state
  if (!state || !p.facts || state.head === null) return out
  const cands = new Map<Note, Candidates>()
  for (const n of p.notes) if (times.get(n)) cands.set(n, candidatesOf(p, n, p.refs.get(n) ?? []))
  const all = [...cands.values()]
  const exclude = [...new Set(p.notes.flatMap((n) => [n.file, n.topicFile ?? n.file]))]
    .map((f) => toPosix(relative(state.root, f)))
    .filter((r) => r !== '' && !r.startsWith('..'))
  const ask = (list: readonly Candidates[]) => ({
    code: list.flatMap((c) => [
      ...c.names,
      ...c.located.map((x) => x.name),
      ...c.strings.flatMap((x) => x.members ?? [x.text]),
      ...c.pairs.filter((x) => !x.manifest).map((x) => x.name),
      ...c.blocks.blocks.flatMap((b) => b.types),
    ]),
    manifest: list.flatMap((c) => [
      ...c.pairs.filter((x) => x.manifest).map((x) => x.name),
      ...c.deps,
    ]),
  })
  const first = ask(all)
  if (
    first.code.length + first.manifest.length === 0 &&
    all.every((c) => c.globs.length + c.paths.length + c.deps.length + c.members.length === 0)
  )
    return out
  const now = await grepLines(state.root, null, first, exclude)
  if (!now) return out

  // Bare file names a code line holds now: files made at run time (ProseFinding.runtimeFiles).
  for (const [n, c] of cands) {
    const runtimeFiles = c.strings.flatMap((x) => {
      const held = x.runtimeFile ? stringsIn(now, x, true) : []
      return held.length > 0 ? [{ text: x.ref.text, path: held[0].path }] : []
    })
    if (runtimeFiles.length > 0)
      out.set(n, { checked: [], supersedes: [], absentThen: [], runtimeFiles })
  }
  // What fails now, per note; the rest says nothing.
  const stems = fileStems(state.tracked)
  const trackedNow = [...state.tracked, ...state.trackedDirs]
  const cut = all.flatMap((c) => c.pairs.filter((x) => isCapped(now, x) && !pairHeld(now, x)))
  const capped = await pastCap(state.root, now, cut, exclude)
  const failing = new Map<Note, Candidates>()
  for (const [n, c] of cands) {
    // A name that is a file's name (a component file) is present as that file.
    const names = c.names.filter((x) => !codeHolds(now.code.get(x), x) && !stems.has(x))
    const strings = c.strings.filter((x) => !mayHoldNow(now, x))
    // Lines cut at the cap may hide the one that holds it: searched apart (capped-pairs.ts).
    const pairs = c.pairs.filter(
      (x) => !names.includes(x.name) && !pairHeld(now, x) && (capped.get(x) ?? 'not') === 'not',
    )
    const globs = c.globs.filter((g) => !matchesNow(state.tracked, g.glob, g.same))
    const paths = c.paths.filter((x) => !inTree(trackedNow, x.path))
    // Present in the code now, but not in the file the note places it in (all lines seen).
    const located = c.located.filter((x) => {
      const lines = now.code.get(x.name) ?? []
      const held = wordLines(lines, x.name)
      return (
        held.length > 0 &&
        lines.length < LINES_PER_PATTERN &&
        held.every((l) => !x.files.includes(l.path))
      )
    })
    // A package no manifest lists now; lines cut at the cap may hide its own (blind set DN oi-t02).
    const deps = c.deps.filter(
      (d) =>
        (now.manifest.get(d)?.length ?? 0) < LINES_PER_PATTERN &&
        !listedNow(now, d, c.products.includes(d)),
    )
    // A listed member of a folder that no folder of that name holds now.
    const members = c.members.filter((x) =>
      x.anyFolder
        ? !heldInList(trackedNow, x.siblings ?? [], x.item)
        : [x.folder, ...(x.also ?? [])].every(
            (folder) => memberPaths(trackedNow, { ...x, folder }).length === 0,
          ),
    )
    const some = [names, strings, pairs, globs, paths, deps, members, located, c.blocks.blocks]
    if (some.some((x) => x.length > 0))
      failing.set(n, { ...c, names, pairs, strings, globs, paths, located, deps, members })
  }

  // The trees then, one search per commit.
  const bySha = new Map<string, Note[]>()
  for (const n of failing.keys()) {
    const c = await commitThen(p, times.get(n)!)
    if (!c) continue
    const list = bySha.get(c.sha)
    if (list) list.push(n)
    else if (bySha.size < THEN_COMMITS_MAX) bySha.set(c.sha, [n])
  }
  const jobs = [...bySha]
  const run = async (): Promise<void> => {
    for (let job = jobs.shift(); job; job = jobs.shift()) await thenAt(job[0], job[1])
  }
  const thenAt = async (sha: string, notes: readonly Note[]): Promise<void> => {
    const list = notes.map((n) => failing.get(n)!)
    const [then, files] = await Promise.all([
      grepLines(state.root, sha, ask(list), exclude),
      list.some((c) => c.globs.length + c.paths.length + c.members.length > 0)
        ? filesAt(state.root, sha)
        : Promise.resolve(null),
    ])
    if (!then) return
    for (const n of notes) {
      const found = await judgeThen(p, failing.get(n)!, { sha, then, files, now }, times.get(n)!)
      const runtimeFiles = out.get(n)?.runtimeFiles
      if (found.checked.length + found.absentThen.length + (found.examples?.length ?? 0) > 0)
        out.set(n, { ...found, runtimeFiles })
    }
  }
  await Promise.all(Array.from({ length: THEN_PARALLEL }, run))
  return out
}

interface Trees {
  readonly sha: string
  readonly then: GrepFound
  readonly files: readonly string[] | null
  readonly now: GrepFound
}

/** The commit after the note that removed a needle from the files that held it. */
async function removal(
  p: Prepared,
  needle: Needle,
  files: readonly string[],
  w: WrittenAt,
): Promise<Gone | undefined> {
  if (!p.state) return undefined
  const few = [...new Set(files.flatMap((f) => [f, ...renamedTo(p, f, w.ms)]))].slice(
    0,
    PICKAXE_FILES_MAX,
  )
  const ch = await newestChange(p.state, needle, w.ms, few.length > 0 ? few : null)
  return ch ? { sha: ch.sha, date: ch.date, how: 'removed' } : undefined
}

/**
 * Where a file went by renames after the note (history index): a name its new path lost is
 * searched there too, not only as the old path's removal by the rename (blind set BI: a command
 * "removed" by the commit that moved its folder, `t-deck-cli/` to `t-rex-firmware/`).
 */
function renamedTo(p: Prepared, file: string, sinceMs: number): string[] {
  const out: string[] = []
  let at = file
  let after = sinceMs / 1000
  for (let hop = 0; hop < 8; hop++) {
    // Newest first: the first to leave after the note is the last of those after it.
    const leave = p.facts?.history?.leaves
      .get(at)
      ?.filter((l) => l.time > after)
      .at(-1)
    if (!leave || leave.kind !== 'renamed' || out.includes(leave.to)) break
    out.push(leave.to)
    at = leave.to
    after = leave.time
  }
  return out
}

function failed(ref: Reference, reason: string, goneIn: Gone | undefined): CheckedReference {
  const c = checked(ref, 'missing', null, { reason })
  return goneIn ? { ...c, goneIn } : c
}

const at = (sha: string): string => `at ${short(sha)}, when the note was written`
const where = (l: CodeLine): string => `${tick(l.path)} line ${l.line}`
const shown = (l: CodeLine): string => {
  const t = l.text.trim()
  return tick(t.length > 80 ? `${t.slice(0, 79)}…` : t)
}

async function judgeThen(
  p: Prepared,
  c: Candidates,
  t: Trees,
  w: WrittenAt,
): Promise<ProseFinding> {
  const out: CheckedReference[] = []
  const supersedes: string[] = []
  const heldAt = (x: string): CodeLine[] =>
    wordLines(t.then.code.get(x), x).filter((l) => holdsAsCode(l, x))
  const examples = c.blocks.blocks.filter((b) => b.types.every((x) => heldAt(x).length === 0))
  for (const name of c.names) {
    if (onlyInExamples(name, c.blocks, examples)) continue
    const lang = c.fencedIn.get(name)
    // A comment's word is prose, not code (blind set ER xp-t04: "RxJS" of a doc comment).
    const held = heldAt(name).filter((l) => (lang?.test(l.path) ?? true) && !isCommentLine(l.text))
    if (held.length === 0) continue
    const ref: Reference = { kind: 'symbol', text: name, name, terms: [name] }
    const paths = held.map((l) => l.path)
    const gone = await removal(p, { kind: 'word', text: name }, paths, w)
    out.push(
      failed(
        ref,
        `${tick(name)} was in the code ${at(t.sha)} (${tick(held[0].path)}) and is not found now`,
        gone,
      ),
    )
  }
  for (const x of c.located) {
    const lines = t.then.code.get(x.name) ?? []
    const held = wordLines(lines, x.name).filter((l) => x.files.includes(l.path))
    if (held.length === 0 || lines.length >= LINES_PER_PATTERN) continue
    const file = held[0].path
    const elsewhere = [...new Set(wordLines(t.now.code.get(x.name), x.name).map((l) => l.path))]
    // Now in a file named after a name the line gives beside it (`SortableTaskCard` uses
    // `useSortable`, moved out of the page into `SortableTaskCard.tsx`): where the note puts it.
    if ([...fileStems(elsewhere)].some((stem) => x.beside.includes(stem))) continue
    const gone = await removal(p, { kind: 'word', text: x.name }, [file], w)
    const ref: Reference = { kind: 'symbol', text: x.name, name: x.name, terms: [x.name] }
    const to = elsewhere.length > 0 && p.state ? absolute(p.state.root, elsewhere[0]) : null
    const why = `${tick(x.name)} was in ${tick(file)} ${at(t.sha)}; now it is not (it is in ${elsewhere.slice(0, 2).map(tick).join(', ')}${elsewhere.length > 2 ? ', …' : ''})`
    const c0 = checked(ref, 'moved', to, { movedTo: to, reason: why })
    out.push(gone ? { ...c0, goneIn: gone } : c0)
  }
  for (const s of c.strings) {
    const held = stringsIn(t.then, s, false)
    if (held.length === 0 || heldNow(t.now, s, held).length > 0) continue
    supersedes.push(s.ref.text)
    const gone = await removal(
      p,
      // A list's commit is the one that changed its line.
      { kind: 'text', text: s.members ? held[0].text.trim() : s.text },
      held.map((l) => l.path),
      w,
    )
    const none = noneNow(s, stringsIn(t.now, s, true).length > 0)
    const what = s.qualified ? `${tick(s.ref.text)} (${shown(held[0])})` : tick(s.text)
    const why = `${what} was in ${where(held[0])} ${at(t.sha)}, and ${none}`
    out.push(failed(s.ref, why, gone))
  }
  for (const pair of c.pairs) {
    const then = pairLines(t.then, pair).find((l) => pairInLine(l.text, pair) === 'holds')
    if (!then) continue
    const nowLines = pairLines(t.now, pair).filter((l) => pairInLine(l.text, pair) === 'other')
    const nowLine = nowLines.find((l) => l.path === then.path) ?? nowLines[0]
    const gone = await removal(p, { kind: 'text', text: then.text.trim() }, [then.path], w)
    const changedIn = gone ? `; changed in ${short(gone.sha)} on ${day(gone.date)}` : ''
    const text = `${pair.name} ${pair.value}`
    const ref: Reference = { kind: 'symbol', text, name: pair.name, terms: [pair.name] }
    const nowText = nowLine
      ? `now ${where(nowLine)} holds ${shown(nowLine)}`
      : `now no code line holds ${tick(pair.name)} with a value`
    out.push(
      failed(
        ref,
        `${tick(pair.name)} ${pair.value}: ${where(then)} held ${shown(then)} ${at(t.sha)}; ${nowText}${changedIn}`,
        gone,
      ),
    )
  }
  for (const dep of c.deps) {
    const then = dependencyLines(t.then, dep)[0]
    if (!then) continue
    const gone = await removal(p, { kind: 'text', text: then.text.trim() }, [then.path], w)
    const removed = gone ? `; removed in ${short(gone.sha)} on ${day(gone.date)}` : ''
    const ref: Reference = { kind: 'symbol', text: dep, name: dep, terms: [dep] }
    supersedes.push(dep)
    out.push(
      failed(
        ref,
        `${tick(dep)} was a dependency ${at(t.sha)} (${where(then)}: ${shown(then)}); no manifest lists it now${removed}`,
        gone,
      ),
    )
  }
  for (const g of c.globs) {
    const is = matcher(g.glob, g.same)
    const held = (t.files ?? []).filter((f) => is(f))
    // Files git ignores now are not gone (visible set ap-cmd-greenhouse-answers: untracked since).
    if (held.length === 0 || (g.ref.kind === 'path' && p.facts?.ignored(g.ref.path))) continue
    supersedes.push(g.ref.text)
    const gone = lastLeave(p, held)
    const one = held.length === 1 ? '1 file' : `${held.length} files`
    const goneText = gone ? `; the last went in ${short(gone.sha)} on ${day(gone.date)}` : ''
    out.push(
      failed(
        g.ref,
        `${tick(g.ref.text)} matched ${one} ${at(t.sha)} (${tick(held[0])}${held.length > 1 ? ', …' : ''}); none now${goneText}`,
        gone,
      ),
    )
  }
  for (const x of c.members) {
    const m = x.anyFolder ? listMemberThen(p, t.files ?? [], x) : x
    if (m === null) continue
    const held = memberPaths(t.files ?? [], m)
    if (held.length === 0 || !mostlyHeld(t.files ?? [], m)) continue
    const gone = lastLeave(p, held)
    const why = `${tick(m.item)} was in ${tick(`${m.folder}/`)} ${at(t.sha)} (${tick(held[0])}); no such file is there now`
    out.push(failed(m.ref, why, gone))
  }
  const files = t.files
  const absentThen = files
    ? c.paths.filter((x) => !inTree(files, x.path)).map((x) => x.ref.text)
    : []
  return { checked: out, supersedes, absentThen, examples, blocks: c.blocks }
}

/** The newest commit that deleted or renamed away one of these files (history index). */
function lastLeave(p: Prepared, files: readonly string[]): Gone | undefined {
  const h = p.facts?.history
  if (!h) return undefined
  let best: Gone | undefined
  let bestTime = -Infinity
  for (const f of files) {
    const l = h.leaves.get(f)?.[0]
    if (l && l.time > bestTime) {
      bestTime = l.time
      best = { sha: l.sha, date: l.date, how: l.kind === 'deleted' ? 'deleted' : 'renamed' }
    }
  }
  return best
}
