/**
 * Judge each prepared note: check its references (on the checked-out branch, then on a
 * branch it names), find when it was written, and word its verdict and reasons.
 */
import { dirname, relative } from 'node:path'
import type { AuditNote } from '../../shared/model'
import type { Note } from '../../core/memory/notes'
import type { Reference } from '../../core/audit/reference'
import { checkReference } from '../../core/audit/check-reference'
import { pathThen, withHeldAlternatives } from '../../core/audit/maybe-paths'
import type { CheckedReference } from '../../core/audit/checked-reference'
import type { RepoFacts } from '../../core/audit/repo-facts'
import { judgeNote } from '../../core/audit/verdict'
import { frontmatterWrittenAt, writtenAtReason } from '../../core/audit/written-at'
import type { WrittenAt } from '../../core/audit/written-at'
import { NOTE_CHECK_MAX_CHARS } from '../../core/limits'
import { blameTimes, type RepoState } from '../git/history'
import type { Prepared } from './prepare-notes'
import { toPosix } from './repo-file'
import { askedOf, nameAsk, withGoneIn, type HeldThen } from './reference-history'
import { nameLosses, type NameLoss } from './name-lines'
import { grepTrees, key as needleKey, type Found } from './tree-grep'
import { commitAtOrBefore } from '../../core/git/parse'
import { newestChanges, type Needle } from './pickaxe'
import { commitAt, readQuoteFiles } from './quote-then'
import { sinceNoteFile, withSinceNote } from './since-note'
import { proseReferencesOf, withDiffBases } from './diff-basis'
import { claimFlips } from './claim-flips'
import { arrivedPaths } from '../../core/audit/arrived-paths'
import { mapLimited } from '../jobs/concurrency'
import { proseThen } from './prose-then'
import {
  runtimeFile,
  exampleName,
  withExample,
  withoutSuperseded,
  withTreeThen,
  type ProseFinding,
} from './prose-finding'
import { proseNamesOf } from './prose-candidates'

/** Provenance hook (the transcript that wrote a line), plugged in by the provenance module. */
export type WrittenAtProvider = (
  file: string,
  line: number,
) => Promise<{ at: string; source: 'transcript' } | null>

/** Best source first: transcript, frontmatter, git blame, file mtime (step 6 of the brief). */
async function writtenAtOf(
  note: Note,
  provider: WrittenAtProvider | undefined,
  mtimes: ReadonlyMap<string, number>,
  blame: (file: string) => Promise<Map<number, number | null> | null>,
): Promise<WrittenAt | null> {
  if (provider) {
    const asks: [string, number][] = note.topicFile ? [[note.topicFile, note.bodyLine]] : []
    if (note.kind !== 'topic') asks.push([note.file, note.line])
    for (const [file, line] of asks) {
      try {
        const got = await provider(file, line)
        const ms = got ? Date.parse(got.at) : NaN
        if (got && Number.isFinite(ms))
          return { iso: new Date(ms).toISOString(), ms, source: 'transcript' }
      } catch {
        // A failing provider falls back to the next source.
      }
    }
  }
  const fm = frontmatterWrittenAt(note.frontmatter)
  if (fm) return fm
  if (note.kind === 'instruction' || note.kind === 'index-text') {
    const times = await blame(note.file)
    if (times) {
      let newest = -1
      let uncommitted = false
      for (let l = note.line; l <= note.endLine; l++) {
        const t = times.get(l)
        if (t === null) uncommitted = true
        else if (t !== undefined && t > newest) newest = t
      }
      if (!uncommitted && newest >= 0)
        return { iso: new Date(newest).toISOString(), ms: newest, source: 'git-blame' }
    }
  }
  const mtime = mtimes.get(note.topicFile ?? note.file)
  return mtime === undefined
    ? null
    : { iso: new Date(mtime).toISOString(), ms: mtime, source: 'mtime' }
}

export interface Judged {
  readonly note: AuditNote
  readonly checked: readonly CheckedReference[]
  readonly writtenAt: WrittenAt | null
}

/** Judge every note; shared by `auditMemory` and `noteDiffs`. */
export async function judgeAll(
  p: Prepared,
  provider: WrittenAtProvider | undefined,
  onNote: () => void,
  signal: AbortSignal | undefined,
): Promise<Judged[]> {
  const blames = new Map<string, Promise<Map<number, number | null> | null>>()
  const blame = (file: string): Promise<Map<number, number | null> | null> => {
    if (!p.state) return Promise.resolve(null)
    const rel = toPosix(relative(p.state.root, file))
    if (rel.startsWith('..') || !p.state.tracked.has(rel)) return Promise.resolve(null)
    let hit = blames.get(rel)
    if (!hit) {
      hit = blameTimes(p.state.root, rel)
      blames.set(rel, hit)
    }
    return hit
  }
  // First every note's references and time; then, for all notes at once, which failing names
  // the code held when each note was written, and what their holding names lost since.
  const times = new Map<Note, WrittenAt | null>()
  for (const note of p.notes) times.set(note, await writtenAtOf(note, provider, p.mtimes, blame))
  // Names the notes give in plain prose, checked through each note's time (prose-then.ts).
  const prose = await proseThen(p, times)
  const firsts: First[] = []
  for (const note of p.notes) {
    signal?.throwIfAborted()
    firsts.push(checkNote(note, p, times.get(note) ?? null, prose.get(note)))
  }
  // Name losses and claim flips read only references that hold, which the walk and the loop
  // below leave as they are: they go beside the held greps and the walk.
  const losing = lossesOf(p, firsts)
  const claiming = claimFlips(p, firsts)
  for (const run of [losing, claiming]) void run.catch(() => undefined)
  const held = await heldThen(p, firsts)
  // The names no note's commit held are searched through the whole history in one walk.
  const walk = firsts.flatMap((f, n) =>
    f.checked.flatMap((c) => {
      const asked = askedOf(c)
      const h = held[n]
      return h && f.writtenAt && asked.some((x) => (h(x) ?? []).length > 0) ? [] : asked
    }),
  )
  const unique = [...new Map(walk.map((x) => [needleKey(x), x])).values()]
  const logged = p.facts?.history?.commits ?? null
  const walking = p.state && walk.length > 0 ? newestChanges(p.state, unique, logged) : undefined
  void walking?.catch(() => undefined)
  // The files changed quotes are in, as they were when their notes were written: read at once.
  const read = p.state
    ? await readQuoteFiles(
        p.state.root,
        p.state.head,
        firsts.flatMap(({ checked, writtenAt }) =>
          checked.flatMap((c) => {
            const file = sinceNoteFile(c, p)
            return file !== null && writtenAt ? [{ file, writtenMs: writtenAt.ms }] : []
          }),
        ),
      )
    : undefined
  const walked = await walking
  // References are independent here, of one note as of several: a few at once, so their short
  // git runs overlap (a note with four failing references no longer waits for each in turn).
  const left = firsts.map((f) => (p.state ? f.checked.length : 0))
  left.forEach((k) => k === 0 && onNote())
  const refs = firsts.flatMap((f, n) => (p.state ? f.checked.map((_, i) => [n, i] as const) : []))
  await mapLimited(refs, REFS_AT_ONCE, async ([n, i]) => {
    signal?.throwIfAborted()
    const { checked, writtenAt } = firsts[n]
    if (!p.state) return
    // In git, when a failing reference went away, and a quote against the note's commit.
    const gone = await withGoneIn(checked[i], p.state, held[n], writtenAt?.ms, walked)
    checked[i] = await withSinceNote(gone, p, writtenAt, read)
    if (--left[n] === 0) onNote()
  })
  signal?.throwIfAborted()
  const losses = await losing
  const claims = await claiming
  const out: Judged[] = []
  for (let i = 0; i < firsts.length; i++) {
    const { note, reasons, checked, writtenAt } = firsts[i]
    const came = arrivedPaths(checked, writtenAt, p.facts?.history ?? null)
    const judged = judgeNote(checked, writtenAt, p.facts, losses[i], [...claims[i], ...came])
    if (note.danglingTarget !== null)
      reasons.push(`the topic file \`${note.danglingTarget}\` does not exist`)
    if (note.checkText.length > NOTE_CHECK_MAX_CHARS) {
      reasons.push(
        `only the first ${NOTE_CHECK_MAX_CHARS.toLocaleString('en')} of ${note.checkText.length.toLocaleString('en')} characters of this note were checked`,
      )
    }
    reasons.push(...judged.reasons, writtenAtReason(writtenAt))
    out.push({
      note: {
        file: note.file,
        line: note.line,
        endLine: note.endLine,
        title: note.title,
        verdict: judged.verdict,
        writtenAt: writtenAt?.iso ?? null,
        writtenAtSource: writtenAt?.source ?? null,
        references: await withDiffBases(checked, p, writtenAt, losses[i]),
        ...proseReferencesOf(p, losses[i]),
        reasons,
      },
      checked,
      writtenAt,
    })
  }
  return out
}

/** References whose git runs (pickaxe since the note, the quoted file then) go at once. */
const REFS_AT_ONCE = 4

/** A note with its references checked and its time known, before its verdict. */
interface First {
  readonly note: Note
  readonly reasons: string[]
  readonly checked: CheckedReference[]
  readonly writtenAt: WrittenAt | null
  /** What its prose names added (prose-then.ts). */
  readonly prose?: ProseFinding
}

function checkNote(
  note: Note,
  p: Prepared,
  writtenAt: WrittenAt | null,
  prose: ProseFinding | undefined,
): First {
  let reasons: string[] = []
  const checked: CheckedReference[] = []
  if (p.facts) {
    const refs = p.refs.get(note) ?? []
    const elsewhere = refs.flatMap((r) => {
      const facts = r.kind === 'branch' ? p.branches.get(r.name)?.facts : null
      return r.kind === 'branch' && facts ? [{ name: r.name, facts }] : []
    })
    for (const r of refs) {
      let c = checkReference(r, p.facts, dirname(note.file), writtenAt?.ms ?? null)
      if (!('skipped' in c) && c.audit.status !== 'ok') c = onBranch(r, c, elsewhere, note)
      if (r.kind === 'path' && r.maybe && !pathThen(c, writtenAt)) continue
      const made = runtimeFile(c, prose)
      if (made !== null) c = { skipped: made }
      if ('skipped' in c) reasons.push(c.skipped)
      else checked.push(withExample(withTreeThen(c, prose), prose))
    }
    checked.push(...(prose?.checked ?? []))
    reasons = withoutSuperseded(reasons, prose)
  }
  return { note, reasons, checked: withHeldAlternatives(checked), writtenAt, prose }
}

/** At most this many note commits are searched for the names they held (each is a whole-tree grep). */
const HELD_TREES_MAX = 16

/**
 * For each note, the code files holding each of its failing names at the commit it was written
 * on: one grep per needle kind over every note's commit (name-lines.ts). Undefined for a note
 * without a time, or when git could not say: withGoneIn then searches the whole history.
 */
async function heldThen(p: Prepared, firsts: readonly First[]): Promise<(HeldThen | undefined)[]> {
  const out: (HeldThen | undefined)[] = firsts.map(() => undefined)
  const state = p.state
  if (!state || state.head === null) return out
  const asked = firsts.map((f) => f.checked.flatMap(askedOf))
  const shas = await Promise.all(
    firsts.map(async (f, i) => {
      if (f.writtenAt === null || asked[i].length === 0) return null
      const h = p.facts?.history
      if (h) return commitAtOrBefore(h, f.writtenAt.ms)?.sha ?? null
      return (await commitAt(state.root, state.head, f.writtenAt.ms))?.sha ?? null
    }),
  )
  const count = new Map<string, number>()
  for (const s of shas) if (s !== null) count.set(s, (count.get(s) ?? 0) + 1)
  const trees = [...count.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, HELD_TREES_MAX)
    .map(([s]) => s)
  if (trees.length === 0) return out
  const needles = [...new Map(asked.flat().map((n) => [needleKey(n), n])).values()]
  const found: Found = new Map()
  const unread = new Set<string>()
  const ok = await Promise.all([
    grepTrees(state.root, trees, needles, null, true, found, unread),
    grepTrees(state.root, trees, needles, null, false, found, unread),
  ])
  if (ok.includes(false)) return out
  shas.forEach((sha, i) => {
    if (sha === null || !trees.includes(sha)) return
    const byNeedle = found.get(sha)
    const h = (n: Needle): readonly string[] | undefined => {
      const lines = byNeedle?.get(needleKey(n)) ?? []
      // A file git could not read might have held it: not known.
      if (lines.length === 0 && unread.size > 0) return undefined
      return [...new Set(lines.map((l) => l.file))]
    }
    out[i] = Object.assign(h, { sha })
  })
  return out
}

/**
 * What each note's names lost since it was written (name-lines.ts): the checked-out work tree
 * for its own references, another work tree for references found on a branch it names.
 */
async function lossesOf(p: Prepared, firsts: readonly First[]): Promise<NameLoss[][]> {
  const out: NameLoss[][] = firsts.map(() => [])
  const trees: { state: RepoState; facts: RepoFacts | null; branch?: string }[] = []
  if (p.state) trees.push({ state: p.state, facts: p.facts })
  for (const [branch, b] of p.branches)
    if (b.state) trees.push({ state: b.state, facts: b.facts, branch })
  for (const t of trees) {
    const root = t.facts?.root ?? t.state.root
    const rel = (abs: string): string | null =>
      [toPosix(relative(root, abs))].find((r) => r !== '' && !r.startsWith('..')) ?? null
    const asks = firsts.map((f) =>
      nameAsk(
        f.checked.filter((c) => (t.branch === undefined ? !c.checkedIn : c.checkedIn === t.facts)),
        f.writtenAt,
        rel,
        t.branch === undefined ? proseNamesOf(f.note).filter((x) => !exampleName(x, f.prose)) : [],
        f.note.checkText,
      ),
    )
    const got = await nameLosses(t.state, t.facts?.history ?? null, asks, t.branch)
    got.forEach((g, i) => out[i].push(...g))
  }
  return out
}

/**
 * A reference that fails on the checked-out branch but holds on a branch the note
 * names (checked out in another work tree) holds: the note says where it lives.
 */
function onBranch(
  r: Reference,
  failed: CheckedReference,
  elsewhere: readonly { readonly name: string; readonly facts: RepoFacts }[],
  note: Note,
): CheckedReference {
  for (const b of elsewhere) {
    const c = checkReference(r, b.facts, dirname(note.file))
    if ('skipped' in c || c.audit.status !== 'ok') continue
    const where = `\`${r.text}\` is on branch \`${b.name}\` (work tree \`${b.facts.root}\`), not on the checked-out branch`
    return { ...c, checkedIn: b.facts, reason: c.reason ? `${where}; ${c.reason}` : where }
  }
  return failed
}
