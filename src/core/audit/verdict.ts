/**
 * A note's verdict from its checked references (cli-contract `audit`; memory-facts §6: a
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
 */
import type { Verdict } from '../../shared/model'
import type { CheckedReference } from './checked-reference'
import type { RepoFacts } from './repo-facts'
import type { WrittenAt } from './written-at'
import { day, short, tick } from './reason-text'

/** The newest change to a file the note rests on, after `afterMs`; folders never count. */
function changedAfter(facts: RepoFacts, rel: string, afterMs: number): string | null {
  // A folder holds while it exists: what changes inside it is not what the note says.
  if (facts.isDir(rel)) return null
  const dirty = facts.dirty.get(rel)
  if (dirty !== undefined && dirty > afterMs)
    return `${tick(rel)} has uncommitted changes made after the note was written`
  if (facts.history) {
    const newest = facts.history.lastTouch.get(rel) ?? null
    if (newest && newest.time * 1000 > afterMs) {
      const on = facts.branch ? ` on branch ${tick(facts.branch)}` : ''
      return `${tick(rel)} changed in ${short(newest.sha)} on ${day(newest.date)}${on}, after the note was written`
    }
    return null
  }
  const mtime = facts.mtimes.get(rel)
  if (mtime !== undefined && mtime > afterMs) {
    return `${tick(rel)} was modified (file mtime, no git history) after the note was written`
  }
  return null
}

/** The verdict of a note from its checked references (cli-contract `audit`). */
export function judgeNote(
  checked: readonly CheckedReference[],
  writtenAt: WrittenAt | null,
  facts: RepoFacts | null,
): { readonly verdict: Verdict; readonly reasons: string[] } {
  const reasons: string[] = []
  const checkable = checked.filter((c) => c.checkable)
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
  const failing = checkable.filter((c) => c.audit.status !== 'ok')
  for (const c of checkable) if (c.reason) reasons.push(c.reason)
  if (failing.length > 0) return { verdict: 'stale', reasons }
  let suspect = false
  if (writtenAt) {
    const seen = new Set<string>()
    for (const c of checkable) {
      const on = c.checkedIn ?? facts
      const key = `${on.root}\0${c.restsOn}`
      if (c.restsOn === null || seen.has(key)) continue
      seen.add(key)
      const why = changedAfter(on, c.restsOn, writtenAt.ms)
      if (why) {
        reasons.push(why)
        suspect = true
      }
    }
  }
  return { verdict: suspect ? 'suspect' : 'fresh', reasons }
}
