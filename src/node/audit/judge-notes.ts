/**
 * Judge each prepared note: check its references (on the checked-out branch, then on a
 * branch it names), find when it was written, and word its verdict and reasons.
 */
import { dirname, relative } from 'node:path'
import type { AuditNote } from '../../shared/model'
import type { Note } from '../../core/memory/notes'
import type { Reference } from '../../core/audit/reference'
import { checkReference } from '../../core/audit/check-reference'
import type { CheckedReference } from '../../core/audit/checked-reference'
import type { RepoFacts } from '../../core/audit/repo-facts'
import { judgeNote } from '../../core/audit/verdict'
import { isDocFile } from '../../core/audit/repo-paths'
import { frontmatterWrittenAt, writtenAtReason } from '../../core/audit/written-at'
import type { WrittenAt } from '../../core/audit/written-at'
import { NOTE_CHECK_MAX_CHARS } from '../../core/limits'
import { blameTimes, type RepoState } from '../git/history'
import type { Prepared } from './prepare-notes'
import { toPosix } from './repo-file'
import { nameChanges, withGoneIn } from './reference-history'
import type { Needle } from './pickaxe'
import { quoteThen } from './quote-then'
import { withDiffBases } from './diff-basis'
import { proseThen, withoutSuperseded, withTreeThen } from './prose-then'

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
  const times = new Map<Note, WrittenAt | null>()
  for (const note of p.notes) times.set(note, await writtenAtOf(note, provider, p.mtimes, blame))
  // Names the notes give in plain prose, checked through each note's time (prose-then.ts).
  const prose = await proseThen(p, times)
  const out: Judged[] = []
  for (const note of p.notes) {
    signal?.throwIfAborted()
    let reasons: string[] = []
    const checked: CheckedReference[] = []
    const writtenAt = times.get(note) ?? null
    if (p.facts) {
      const refs = p.refs.get(note) ?? []
      const elsewhere = refs.flatMap((r) => {
        const facts = r.kind === 'branch' ? p.branches.get(r.name)?.facts : null
        return r.kind === 'branch' && facts ? [{ name: r.name, facts }] : []
      })
      for (const r of refs) {
        let c = checkReference(r, p.facts, dirname(note.file), writtenAt?.ms ?? null)
        if (!('skipped' in c) && c.audit.status !== 'ok') c = onBranch(r, c, elsewhere, note)
        if ('skipped' in c) reasons.push(c.skipped)
        else checked.push(withTreeThen(c, prose.get(note)))
      }
      checked.push(...(prose.get(note)?.checked ?? []))
      reasons = withoutSuperseded(reasons, prose.get(note))
    }
    // In git, when each failing reference went away, and which names changed since the note.
    const repo = p.state
    if (repo)
      for (let i = 0; i < checked.length; i++) {
        checked[i] = await withGoneIn(checked[i], repo)
        checked[i] = await withSinceNote(checked[i], p, writtenAt)
      }
    const changes = repo
      ? await nameChanges(
          checked,
          writtenAt,
          (c) => searchRepoOf(p, c),
          (c, n) => nameFiles(c, n, checked, c.checkedIn ?? p.facts),
        )
      : []
    const judged = judgeNote(checked, writtenAt, p.facts, changes)
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
        references: await withDiffBases(checked, p, writtenAt),
        reasons,
      },
      checked,
      writtenAt,
    })
    onNote()
  }
  return out
}

/** At most this many files hold a name for its search to be limited to them (the grep's cap is 20). */
const NAME_FILES_MAX = 19

/**
 * The files a name is searched in for suspect: the files the note names that hold it now,
 * else the code files that hold it now; null (every code file) when not known or too many.
 */
function nameFiles(
  c: CheckedReference,
  n: Needle,
  checked: readonly CheckedReference[],
  facts: RepoFacts | null,
): readonly string[] | null {
  if (!facts) return null
  if (n.kind === 'text') {
    const at = c.audit.resolved
    const rel = at === null ? null : toPosix(relative(facts.root, at))
    return rel !== null && !rel.startsWith('..') ? [rel] : null
  }
  if (n.kind !== 'word') return null
  const all = facts.wordFiles.get(n.text) ?? []
  const holding = all.filter((f) => !isDocFile(f))
  if (holding.length === 0 || all.length > NAME_FILES_MAX) return null
  const named = new Set(checked.flatMap((x) => (x.restsOn === null ? [] : [x.restsOn])))
  const own = holding.filter((f) => named.has(f))
  return own.length > 0 ? own : holding
}

/** The repository a reference's names are searched in: its branch's work tree, else the audited one. */
function searchRepoOf(
  p: Prepared,
  c: CheckedReference,
): (RepoState & { readonly branch?: string }) | null {
  if (!c.checkedIn) return p.state
  for (const [branch, b] of p.branches)
    if (b.facts === c.checkedIn && b.state) return { ...b.state, branch }
  return null
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

/**
 * Quoted code found now only with changes, against the same file when the note was written
 * (issue 12 item 5): changed since (suspect), or the same lines then (a paraphrase from the start).
 */
async function withSinceNote(
  c: CheckedReference,
  p: Prepared,
  writtenAt: WrittenAt | null,
): Promise<CheckedReference> {
  if (c.ref.kind !== 'snippet' || c.audit.status !== 'changed' || c.checkedIn) return c
  const finding = p.facts?.snippets.get(c.ref.code)
  if (!p.state || !writtenAt || !finding || finding.file === null) return c
  const then = await quoteThen(p.state.root, p.state.head, c.ref.code, finding.file, writtenAt.ms)
  if (!then) return c
  const now = (p.snippetTexts.get(c.ref.code) ?? '')
    .split(/\r?\n/)
    .slice(finding.match.startLine - 1, finding.match.endLine)
    .join('\n')
  const head = c.audit.text.split(/\r?\n/)[0].slice(0, 60)
  const file = `\`${finding.file}\``
  const pct = (x: number): string => `${Math.round(x * 100)}%`
  const at = `${then.commit.sha.slice(0, 7)} (${then.commit.date.slice(0, 10)})`
  const m = then.match
  const thenLines = m && m.kind !== 'none' ? { thenLines: [m.startLine, m.endLine] as const } : {}
  if (then.match !== null && then.match.kind !== 'exact' && then.region === now) {
    return {
      ...c,
      sinceNote: {
        changed: false,
        reason: `quoted code \`${head}\` differs from ${file} as it already did when the note was written (${at}); those lines are unchanged since`,
      },
    }
  }
  const was =
    then.match === null
      ? `${file} did not exist at ${at}, when the note was written`
      : then.match.kind === 'exact'
        ? `it matched ${file} exactly at ${at}, when the note was written`
        : `${file} held it ${pct(then.match.score)} alike at ${at}, when the note was written`
  return {
    ...c,
    sinceNote: {
      changed: true,
      reason: `quoted code \`${head}\` changed since the note: ${was}; now ${pct(finding.match.score)} alike (lines ${finding.match.startLine}–${finding.match.endLine})`,
      ...thenLines,
    },
  }
}
