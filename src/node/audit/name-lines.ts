/**
 * The code lines holding a note's names when it was written and now, and which of them were
 * lost since (issue 12 items 4 and 5; the rules are in src/core/audit/name-loss.ts).
 *
 * Decisions:
 * - Few git runs for many notes: the files that changed after each note's commit come from
 *   the history index (`git log --name-status`, read once and cached per HEAD); an unchanged
 *   file holds the same lines on both sides, so only changed files are compared. Then one
 *   `git grep` per needle kind searches every note's commit and HEAD at once (grep takes
 *   several trees), over those files only. Replaces a pickaxe (`git log -G`) per name, each
 *   of which diffed every commit since the note. HEAD is searched whole (a line still held
 *   in an unchanged file is not lost; a name's home outside tests shows there).
 * - Docs are not code: the grep keeps the files CODE_PATHSPECS take (isCodePathspecFile, picked
 *   from its output rather than passed to git as pathspecs).
 * - Per lost name, one `git log -S` over the note's range and file names the commit that
 *   removed the line, and the file then and now is read for the enclosing lines (the diff
 *   basis). At most `NAMES_SHOWN` names per note are worked out that far.
 * - A search that fails (timeout, too much output) answers nothing: no name is called lost.
 */
import { commitAtOrBefore, type HistoryIndex, type Touch } from '../../core/git/parse'
import {
  isTestFile,
  leftEveryFile,
  lostLines,
  type CodeLine,
  type LostLine,
} from '../../core/audit/name-loss'
import { enclosingBlock, reflowed } from '../../core/audit/line-changes'
import { lowerForm, stillHeldInLowerCase } from '../../core/audit/product-names'
import type { NameChange } from '../../core/audit/verdict'
import { showAt, type RepoState } from '../git/history'
import { commitAt } from './quote-then'
import { runGit } from '../git/run'
import { reachedAfter } from './merged-after'
import type { Needle } from './pickaxe'
import { grepTrees, key, type Found } from './tree-grep'
import { isCodePathspecFile } from '../../core/git/code-pathspecs'

const GREP_TIMEOUT_MS = 60_000
const GREP_MAX_BYTES = 64 * 1024 * 1024
const SHOW_MAX_BYTES = 4 * 1024 * 1024
/** More changed files than this are not passed as pathspecs: the whole code tree is searched. */
const PATHSPEC_MAX = 2000
/** Lost names per note worked out to a commit and lines (the rest are not reported). */
const NAMES_SHOWN = 3

/** One note's ask: its names, the files it names, and when it was written. */
export interface NameAsk {
  readonly needles: readonly {
    readonly needle: Needle
    readonly named: ReadonlySet<string>
    /** Given in plain prose: counts only when it left every file that held it (leftEveryFile). */
    readonly prose?: true
  }[]
  readonly writtenMs: number
  /** The note's text: a literal it writes is its claim (name-loss.ts, literalsOnly). */
  readonly text?: string
  /** Types the note names (name-loss.ts: a file named after one is named). */
  readonly types?: ReadonlySet<string>
}

/** A name that lost code lines since its note, with the commit and the lines then and now. */
export interface NameLoss extends NameChange {
  readonly needle: Needle
  /** The commit the note was written on (the diff's then side). */
  readonly noteSha: string
  readonly thenLines?: readonly [number, number]
  readonly nowLines?: readonly [number, number]
}

const newer = (a: Touch, b: Touch): boolean =>
  a.time > b.time || (a.time === b.time && a.order < b.order)

/** Code files touched (changed, renamed away, deleted) after a commit, from the history index. */
function touchedAfter(h: HistoryIndex, at: Touch): Set<string> {
  const out = new Set<string>()
  for (const [path, t] of h.lastTouch) if (newer(t, at) && isCodePathspecFile(path)) out.add(path)
  for (const [path, ls] of h.leaves)
    if (ls.some((l) => newer(l, at)) && isCodePathspecFile(path)) out.add(path)
  return out
}

/** The newest commit after `from` that changed how often `text` occurs in `file`. */
async function removedIn(
  root: string,
  from: string,
  file: string,
  text: string,
): Promise<{ sha: string; date: string } | null> {
  const r = await runGit(
    ['log', '-n1', '--format=%H%x1f%cI', `-S${text}`, `${from}..HEAD`, '--', `:(literal)${file}`],
    { cwd: root, timeoutMs: GREP_TIMEOUT_MS, maxBytes: 64 * 1024 },
  )
  const [sha, date] = r.stdout.trim().split('\x1f')
  return r.code === 0 && sha && date ? { sha, date } : null
}

async function blockOf(
  root: string,
  rev: string,
  l: CodeLine | null,
): Promise<readonly [number, number] | undefined> {
  if (l === null) return undefined
  const shown = await showAt(root, rev, l.file, SHOW_MAX_BYTES)
  return shown.ok ? enclosingBlock(shown.text, l.line) : undefined
}

/** A note's commit and the code files touched after it up to HEAD. */
interface Since {
  readonly sha: string
  readonly files: ReadonlySet<string>
}

/**
 * Each note's commit and the files touched since: from the history index when the audit read
 * one (no git run), else one `git log --name-only` per note commit (no rename detection, so
 * it reads no file contents: a blobless or partial clone answers too).
 */
async function sinceOf(
  state: RepoState,
  head: string,
  h: HistoryIndex | null,
  asks: readonly (NameAsk | null)[],
): Promise<(Since | null)[]> {
  const bySha = new Map<string, Promise<Set<string> | null>>()
  const files = (sha: string, at: Touch | null): Promise<Set<string> | null> => {
    let hit = bySha.get(sha)
    if (!hit) {
      hit =
        at !== null ? Promise.resolve(touchedAfter(h as HistoryIndex, at)) : logged(state.root, sha)
      bySha.set(sha, hit)
    }
    return hit
  }
  return Promise.all(
    asks.map(async (a) => {
      if (a === null || a.needles.length === 0) return null
      const t = h ? commitAtOrBefore(h, a.writtenMs) : null
      const sha = h
        ? (t?.sha ?? null)
        : ((await commitAt(state.root, head, a.writtenMs))?.sha ?? null)
      if (sha === null || sha === head) return null
      const f = await files(sha, t)
      return f === null || f.size === 0 ? null : { sha, files: f }
    }),
  )
}

/**
 * Code files touched by the commits after `sha` up to HEAD; null when git could not say. Git
 * gets no pathspecs: matching 23 globs against every commit's entries took over 60 s on 12,000
 * commits under load (blind set Z2 openclaw, whose note then read fresh); the names are
 * filtered here instead (code-pathspecs.ts).
 */
async function logged(root: string, sha: string): Promise<Set<string> | null> {
  const r = await runGit(
    ['log', '-z', '--no-renames', '--name-only', '--format=', `${sha}..HEAD`],
    { cwd: root, timeoutMs: GREP_TIMEOUT_MS, maxBytes: GREP_MAX_BYTES },
  )
  if (r.code !== 0) return null
  return new Set(
    r.stdout
      .split(/[\0\n]/)
      .map((f) => f.trim())
      .filter((f) => f !== '' && isCodePathspecFile(f)),
  )
}

/**
 * For each note (same order as `asks`), its names that lost code lines since it was written;
 * empty when nothing was lost or git could not say. `history`: the audit's history index, when
 * it read one.
 */
export async function nameLosses(
  state: RepoState,
  history: HistoryIndex | null,
  asks: readonly (NameAsk | null)[],
  branch?: string,
): Promise<NameLoss[][]> {
  const out: NameLoss[][] = asks.map(() => [])
  const head = state.head
  if (head === null || asks.every((a) => a === null || a.needles.length === 0)) return out
  const since = await sinceOf(state, head, history, asks)
  const touched = new Map<string, ReadonlySet<string>>()
  for (const x of since) if (x !== null) touched.set(x.sha, x.files)
  if (touched.size === 0) return out
  const union = new Set([...touched.values()].flatMap((f) => [...f]))
  const files = union.size <= PATHSPEC_MAX ? [...union] : null
  const needles = new Map<string, Needle>()
  asks.forEach((a, i) => {
    if (a && since[i]) for (const x of a.needles) needles.set(key(x.needle), x.needle)
  })
  // A capitalised product in prose is searched in its lower-case form too (product-names.ts).
  asks.forEach((a, i) => {
    if (!a || !since[i]) return
    for (const x of a.needles) {
      const low = x.prose ? lowerForm(x.needle.text) : null
      if (low !== null) needles.set(key({ kind: 'word', text: low }), { kind: 'word', text: low })
    }
  })
  const found: Found = new Map()
  const all = [...needles.values()]
  const unread = new Set<string>()
  // The note commits over the files changed since; HEAD over every code file (a line still
  // held anywhere is not lost, and a name's home outside tests is seen there).
  const ok = await Promise.all([
    grepTrees(state.root, [...touched.keys()], all, files, true, found, unread),
    grepTrees(state.root, [...touched.keys()], all, files, false, found, unread),
    grepTrees(state.root, [head], all, null, true, found, unread),
    grepTrees(state.root, [head], all, null, false, found, unread),
  ])
  if (ok.includes(false)) return out
  const nowAll = found.get(head) ?? new Map<string, CodeLine[]>()
  // A file no tracked path has the name of now is gone whole; one moved keeps its name.
  const names = new Set([...state.tracked].map((f) => f.slice(f.lastIndexOf('/') + 1)))
  const goneWhole = (f: string): boolean =>
    !state.tracked.has(f) && !names.has(f.slice(f.lastIndexOf('/') + 1))
  await Promise.all(
    asks.map(async (a, i) => {
      const t = since[i]
      if (!a || !t) return
      // A file git could not read on some side (a partial clone) is compared on neither.
      const changed = (x: CodeLine): boolean => t.files.has(x.file) && !unread.has(x.file)
      const thenAll = found.get(t.sha) ?? new Map<string, CodeLine[]>()
      const lost: { needle: Needle; l: LostLine; onlyIn?: readonly string[] }[] = []
      for (const { needle, named, prose } of a.needles) {
        const nowLines = nowAll.get(key(needle)) ?? []
        if (prose) {
          const then = (thenAll.get(key(needle)) ?? []).filter(changed)
          const low = lowerForm(needle.text)
          if (low !== null) {
            const k = key({ kind: 'word', text: low })
            const lowThen = (thenAll.get(k) ?? []).filter(changed)
            if (stillHeldInLowerCase(nowAll.get(k) ?? [], lowThen, t.files)) continue
          }
          const left = leftEveryFile(then, nowLines, t.files, needle.text)
          if (left) lost.push({ needle, l: { then: left.then, now: null }, onlyIn: left.onlyIn })
          continue
        }
        // A line gone with its whole file says nothing of a name code still holds, unless the
        // note names that file (blind set EQ ah-r14: a deleted hook's `is_headless()` call). A
        // file moved is not gone (visible set os-fog-slider: the overlay moved under apps/web/).
        const inCode = branch === undefined && nowLines.some((x) => !isTestFile(x.file))
        const kept = (x: CodeLine): boolean =>
          !inCode || !goneWhole(x.file) || [...named].some((f) => isUnder(x.file, f))
        const l = lostLines(
          (thenAll.get(key(needle)) ?? []).filter(changed).filter(kept),
          nowLines.filter(changed),
          {
            named,
            outsideTestsNow: nowLines.some((x) => !isTestFile(x.file)),
            nowAnywhere: nowLines,
            name: needle.text,
            ...(a.text !== undefined ? { noteText: a.text } : {}),
            ...(a.types !== undefined ? { types: a.types } : {}),
          },
        )
        const real = await firstNotReflowed(state.root, head, l)
        if (real !== null) lost.push({ needle, l: real })
      }
      const shown = await Promise.all(
        lost.slice(0, NAMES_SHOWN).map(async ({ needle, l, onlyIn }): Promise<NameLoss | null> => {
          const found =
            (await removedIn(state.root, t.sha, l.then.file, l.then.text.trim())) ??
            (history ? lastTouchOf(history, l.then.file, t.sha) : null)
          // Held at the note's commit and gone now: lost after it (merged-after.ts).
          const by =
            found === null
              ? null
              : await reachedAfter(
                  state.root,
                  { ...found, ms: Date.parse(found.date) },
                  a.writtenMs,
                )
          if (by === null) return null
          const [thenLines, nowLines] = await Promise.all([
            blockOf(state.root, t.sha, l.then),
            blockOf(state.root, head, l.now),
          ])
          const name = needle.text.length > 60 ? `${needle.text.slice(0, 59)}…` : needle.text
          return {
            name,
            sha: by.sha,
            date: by.date,
            then: l.then,
            now: l.now,
            needle,
            noteSha: t.sha,
            ...(onlyIn ? { onlyIn } : {}),
            ...(l.movedOut ? { movedOut: true as const } : {}),
            ...(thenLines ? { thenLines } : {}),
            ...(nowLines ? { nowLines } : {}),
            ...(branch !== undefined ? { branch } : {}),
          }
        }),
      )
      out[i] = shown.filter((x): x is NameLoss => x !== null)
    }),
  )
  return out
}

/** Whether a file is a named path or under a named folder. */
const isUnder = (file: string, named: string): boolean =>
  file === named || file.startsWith(`${named.replace(/\/+$/, '')}/`)

/** The first lost line that is not the same code, only wrapped or re-spaced now (reflowed). */
async function firstNotReflowed(
  root: string,
  head: string,
  lost: readonly LostLine[],
): Promise<LostLine | null> {
  for (const l of lost) {
    // A definition moved out of a named file is a loss however alike its new home reads.
    if (l.movedOut) return l
    // No line holds a literal now may still hold it re-spaced in its file (`x   = None` aligned
    // with its neighbours; blind set EI fy-t03): the fixed-string grep cannot see it.
    const shown = await showAt(root, head, l.now?.file ?? l.then.file, SHOW_MAX_BYTES)
    const around = l.now === null ? Number.MAX_SAFE_INTEGER : undefined
    if (!shown.ok || !reflowed(l.then.text, shown.text, l.now?.line ?? 1, around)) return l
  }
  return null
}

/** The newest commit after the note's that touched or removed a file (when `-S` found none). */
function lastTouchOf(h: HistoryIndex, file: string, sha: string): Touch | null {
  const at = h.commits.find((c) => c.sha === sha)
  if (!at) return null
  const t = h.lastTouch.get(file)
  if (t && newer(t, at)) return t
  const l = h.leaves.get(file)?.find((x) => newer(x, at))
  return l ?? null
}
