/**
 * A note's verdict from its checked references (docs/cli.md §7 `audit`; docs/memory-rules.md §6: a
 * note goes stale when the code it describes changes). Pure: check-reference.ts checks each
 * reference, src/node/audit/gather-facts.ts gathers the repository facts.
 *
 * Decisions:
 * - URLs and branch names are listed but never checked against the code (a
 *   branch may be deleted after merging, or never fetched into this clone, while
 *   the note stays true). They are reported `ok` with `resolved: null`, and a note
 *   naming only them is `unverifiable`.
 * - A note is `suspect` only for files it names (path references and script
 *   files), never for files where a symbol or quote merely occurs.
 * - Change times are committer dates: when a change landed on this branch.
 * - A folder rests on its existence only: edits to files under it do not make a
 *   note suspect (a renamed or deleted folder still makes it stale).
 * - Never matched is not stale (issue 12 item 1): a reference that fails now and also
 *   failed when the note was written (history never had it, or it went away before) makes
 *   the note `never-matched`: "wrong from the start" for a path or command (a fact about
 *   this repository), "not a reference" for a symbol or quote history never had (a
 *   paraphrase, template or example). A note is `stale` only for a reference that held
 *   when it was written; its reason names the commit that changed it.
 * - Names intact, lines changed (item 5): quoted code found now only with changes makes a
 *   note suspect, never stale; when the node layer knows the lines were the same when the
 *   note was written (it paraphrased them from the start), it does not count at all.
 * - Suspect from content (item 4): in a git repository a note is suspect when code lines
 *   that held its names when it was written are gone or changed now (name-loss.ts: added
 *   lines, moves, comments and small edits do not count), or a file it names has
 *   uncommitted edits since; a commit to a file it names that touched none of its names
 *   does not count. The reason names the commit and quotes the line then and now (item 5).
 *   Outside git, file mtimes stand in.
 */
import type { Verdict } from '../../shared/model'
import type { CheckedReference, Gone } from './checked-reference'
import type { RepoFacts } from './repo-facts'
import type { WrittenAt } from './written-at'
import { day, short, tick } from './reason-text'
import type { CodeLine } from './name-loss'

/** A code line holding one of the note's names when it was written, gone or changed since. */
export interface NameChange {
  readonly name: string
  /** The commit that removed or changed the line. */
  readonly sha: string
  /** Committer date, ISO. */
  readonly date: string
  /** The branch searched, when not the checked-out one (another work tree). */
  readonly branch?: string
  /** The line then, and the most alike line holding the name now (null: none). */
  readonly then?: CodeLine
  readonly now?: CodeLine | null
  /** A name that left every code file holding it then: the code files holding it now. */
  readonly onlyIn?: readonly string[]
  /** The then line defined the name in a file the note names, which defines it no more. */
  readonly movedOut?: true
}

/** Uncommitted edits (or, outside git, a newer mtime) to a file the note rests on; folders never count. */
function editedAfter(facts: RepoFacts, rel: string, afterMs: number): string | null {
  // A folder holds while it exists: what changes inside it is not what the note says.
  if (facts.isDir(rel)) return null
  const dirty = facts.dirty.get(rel)
  if (dirty !== undefined && dirty > afterMs)
    return `${tick(rel)} has uncommitted changes made after the note was written`
  if (facts.git) return null
  const mtime = facts.mtimes.get(rel)
  if (mtime !== undefined && mtime > afterMs) {
    return `${tick(rel)} was modified (file mtime, no git history) after the note was written`
  }
  return null
}

/** A code change to one of the note's names after it was written, worded like a file change. */
function nameChangedAfter(facts: RepoFacts, ch: NameChange, afterMs: number): string | null {
  if (Date.parse(ch.date) <= afterMs) return null
  const branch = ch.branch ?? facts.branch
  const on = branch ? ` on branch ${tick(branch)}` : ''
  const when = `in ${short(ch.sha)} on ${day(ch.date)}${on}, after the note was written`
  if (!ch.then) return `code lines with ${tick(ch.name)} changed ${when}`
  const line = (l: CodeLine): string => `${tick(cut(l.text))} (${tick(l.file)}:${l.line})`
  const now =
    ch.now === undefined || ch.now === null
      ? `no code line in ${tick(ch.then.file)} holds ${tick(ch.name)} now`
      : `now ${line(ch.now)}`
  if (ch.onlyIn) {
    const files = ch.onlyIn.slice(0, 2).map(tick).join(', ')
    const more = ch.onlyIn.length > 2 ? ` and ${ch.onlyIn.length - 2} more` : ''
    return `${tick(ch.name)} left every code file that held it when the note was written: then ${line(ch.then)}, changed ${when}; it is now only in ${files}${more}, which did not hold it then`
  }
  if (ch.movedOut) {
    const there = ch.now ? `; now defined at ${line(ch.now)}` : '; no code file defines it now'
    return `${tick(ch.name)} is no longer defined in ${tick(ch.then.file)}, which the note names: changed ${when}; then ${line(ch.then)}${there}`
  }
  return `a code line with ${tick(ch.name)} changed ${when}: then ${line(ch.then)}; ${now}`
}

/** A code line as a reason quotes it: trimmed, at most 100 characters. */
function cut(text: string): string {
  const t = text.trim().replace(/`/g, "'")
  return t.length > 100 ? `${t.slice(0, 99)}…` : t
}

/**
 * How a failing reference stands: gone after the note (stale), never matched, or unknown (no
 * history to say when it went: no git, beyond a shallow clone's edge, a search git could not
 * run). A stale verdict names the commit that changed what held (issue 12 item 1); without
 * one the note is suspect.
 */
type Failure =
  | { readonly kind: 'stale'; readonly reason: string }
  | { readonly kind: 'unknown'; readonly reason: string }
  | { readonly kind: 'never'; readonly reason: string; readonly example?: true }

function goneText(g: Gone): string {
  return `${g.how} in ${short(g.sha)} on ${day(g.date)}`
}

/** How long after a note the code it describes may be committed (a session commits late). */
const COMMIT_LAG_MS = 24 * 60 * 60 * 1000

function classify(c: CheckedReference, writtenAt: WrittenAt | null): Failure {
  const base = c.reason ?? `${tick(c.audit.text)} does not hold`
  const g = c.goneIn
  // The reason of a deleted or renamed path already names its commit.
  const named = (x: Gone): string =>
    base.includes(short(x.sha)) ? base : `${base}; ${goneText(x)}`
  const fact = c.ref.kind === 'path' || c.ref.kind === 'command'
  if (g === null) {
    return fact
      ? { kind: 'never', reason: `wrong from the start: ${base}` }
      : {
          kind: 'never',
          example: true,
          // A quote whose line was code then, but not the quote as a whole, says so itself.
          reason: `not a reference: ${base}${/when the note was written/.test(base) ? '' : ', and never was in its code history'} (a paraphrase, template or example)`,
        }
  }
  if (g === undefined)
    return {
      kind: 'unknown',
      reason: /history/.test(base)
        ? base
        : `${base}; git history could not say whether it held when the note was written`,
    }
  // A change in the note's own second is no earlier than the note: the note, which states the
  // thing, saw it (blind set AH: a commit removing tests in the same second as the note's).
  if (writtenAt && Date.parse(g.date) < writtenAt.ms)
    return {
      kind: 'never',
      reason: `wrong from the start: ${named(g)}, before the note was written`,
    }
  // A file that came to be only well after the note, and left since, was not there when the
  // note was written (blind set Y: a `middleware.ts` added four days after the note and merged
  // away the same day). A day's grace keeps a note written before its code was committed.
  const came = c.cameIn
  if (writtenAt && came && Date.parse(came.date) > writtenAt.ms + COMMIT_LAG_MS)
    return {
      kind: 'never',
      reason: `wrong from the start: ${named(g)}; it came only in ${short(came.sha)} on ${day(came.date)}, after the note was written`,
    }
  return { kind: 'stale', reason: named(g) }
}

/**
 * A path renamed before the note was written, to a place the note names too ("Dissolve
 * `apps/web-monitor`: … → `packages/cli-web`"): the note tells of the move; the old path is
 * history, not a claim that was wrong from the start. Blind set R.
 */
function toldMove(
  c: CheckedReference,
  all: readonly CheckedReference[],
  writtenAt: WrittenAt | null,
): string | null {
  const to = c.audit.movedTo
  const g = c.goneIn
  if (c.audit.status !== 'moved' || !to || !g || !writtenAt || Date.parse(g.date) > writtenAt.ms)
    return null
  // A path the note writes, not a symbol found in that file now (the bench's notes: a function
  // that moved with its file).
  const named = all.some(
    (x) => x !== c && x.ref.kind === 'path' && x.audit.status === 'ok' && x.audit.resolved === to,
  )
  return named ? `the note tells of the move: ${c.reason ?? tick(c.audit.text)}` : null
}

/** A path inside a folder whose move the note tells, gone in that same commit: told with it. */
function underMove(c: CheckedReference, moves: readonly CheckedReference[]): string | null {
  const g = c.goneIn
  if (c.audit.status === 'ok' || !g) return null
  // A bare file name (`remote.html`) is under the folder by the path it resolved to.
  const paths = [c.ref.text, c.namedPath ?? '']
  const told = moves.find((m) => {
    const dir = `${(m.namedPath ?? m.ref.text).replace(/\/$/, '')}/`
    return m.goneIn?.sha === g.sha && paths.some((p) => p.startsWith(dir))
  })
  return told
    ? `the note tells of the move of ${tick(told.ref.text)}: ${c.reason ?? tick(c.audit.text)}`
    : null
}

/** The verdict of a note from its checked references (docs/cli.md §7 `audit`). */
export function judgeNote(
  checked: readonly CheckedReference[],
  writtenAt: WrittenAt | null,
  facts: RepoFacts | null,
  changes: readonly NameChange[] = [],
  /** Claims no reference carries that no longer hold (absence, counts): claim-flips.ts. */
  claims: readonly string[] = [],
): { readonly verdict: Verdict; readonly reasons: string[] } {
  const reasons: string[] = []
  const checkable = checked.filter((c) => c.checkable)
  if (facts && checkable.length === 0) {
    // A name given in plain prose that left its code files speaks without any reference.
    const left = changes.flatMap((ch) => {
      const why = ch.onlyIn && writtenAt ? nameChangedAfter(facts, ch, writtenAt.ms) : null
      return why ? [why] : []
    })
    if (claims.length > 0 || left.length > 0)
      return { verdict: 'suspect', reasons: [...claims, ...left] }
  }
  if (!facts || checkable.length === 0) {
    const hasWeak = checked.length > 0
    reasons.push(
      !facts
        ? 'no repository to check against'
        : hasWeak
          ? 'nothing checkable: URLs and branch names are not checked against the code'
          : 'nothing checkable: no path, symbol, command or quoted code',
    )
    return { verdict: 'unverifiable', reasons }
  }
  let stale = false
  let never = false
  let unknown = false
  // Only "not a reference" failures (a paraphrase, template or example): no claim at all.
  let examplesOnly = true
  /** Quotes whose history could not be read: not checked. */
  let unread = 0
  const reworded: string[] = []
  const staleFirst: string[] = []
  const moves = checkable.filter((c) => toldMove(c, checkable, writtenAt) !== null)
  for (const c of checkable) {
    if (c.audit.status === 'ok') {
      if (c.reason) reasons.push(c.reason)
      continue
    }
    // Quoted code whose lines survive with changes (names intact, lines changed) is never
    // stale: suspect when they changed since the note, fresh when they were so already then.
    if (c.audit.status === 'changed' && c.goneIn !== null) {
      if (c.sinceNote && !c.sinceNote.changed) reasons.push(c.sinceNote.reason)
      else reworded.push(c.sinceNote?.reason ?? c.reason ?? `${tick(c.audit.text)} changed`)
      continue
    }
    const told = toldMove(c, checkable, writtenAt) ?? underMove(c, moves)
    if (told !== null) {
      reasons.push(told)
      continue
    }
    const f = classify(c, writtenAt)
    // Quoted code not found now, whose history git could not read, says nothing either way:
    // quotes are mostly paraphrases and examples (blind set CO tl-r04, `MyConfig`: over every
    // set, the four notes so called suspect were none of them stale).
    if (f.kind === 'unknown' && c.ref.kind === 'snippet') {
      reasons.push(`${f.reason}; not checked`)
      unread++
      continue
    }
    if (f.kind === 'stale') staleFirst.push(f.reason)
    else reasons.push(f.reason)
    if (f.kind === 'stale') stale = true
    else if (f.kind === 'unknown') unknown = true
    else {
      never = true
      if (!f.example) examplesOnly = false
    }
  }
  // What makes the note stale comes first, then what held.
  if (stale) return { verdict: 'stale', reasons: [...staleFirst, ...reasons] }
  // A claim that held then and not now outweighs references that never held.
  if (never && !unknown && !examplesOnly && claims.length === 0)
    return { verdict: 'never-matched', reasons }
  reasons.unshift(...claims)
  reasons.push(...reworded)
  let suspect = unknown || reworded.length > 0 || claims.length > 0
  if (writtenAt) {
    const seen = new Set<string>()
    for (const c of checkable) {
      const on = c.checkedIn ?? facts
      const key = `${on.root}\0${c.restsOn}`
      if (c.restsOn === null || seen.has(key)) continue
      seen.add(key)
      const why = editedAfter(on, c.restsOn, writtenAt.ms)
      if (why) {
        reasons.push(why)
        suspect = true
      }
    }
    for (const ch of changes) {
      const why = nameChangedAfter(facts, ch, writtenAt.ms)
      if (why) {
        reasons.push(why)
        suspect = true
      }
    }
  }
  // An example that never matched does not hide what the note's names lost since.
  if (suspect || never) return { verdict: suspect ? 'suspect' : 'never-matched', reasons }
  return { verdict: unread === checkable.length ? 'unverifiable' : 'fresh', reasons }
}
