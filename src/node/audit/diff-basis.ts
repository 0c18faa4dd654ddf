/**
 * What each reference's diff compares (issue 12 item 8), worked out once by the audit and
 * kept in its result: the path then, the commit the note was written on, the path now, and a
 * quote's lines. A click on a note reads these (note-diffs.ts); it never audits again.
 */
import { relative } from 'node:path'
import { commitAtOrBefore } from '../../core/git/parse'
import type { AuditReference, DiffBasis } from '../../shared/model'
import type { CheckedReference } from '../../core/audit/checked-reference'
import type { WrittenAt } from '../../core/audit/written-at'
import type { Prepared } from './prepare-notes'
import { commitAt } from './quote-then'
import { toPosix } from './repo-file'
import type { NameLoss } from './name-lines'
import { needlesOf } from './reference-history'

interface At {
  readonly sha: string
  readonly ms: number
  readonly date: string
}

/** The commit a note was written against: newest at or before its time. */
async function noteCommit(p: Prepared, writtenAt: WrittenAt | null): Promise<At | null> {
  if (!p.state || !writtenAt) return null
  const h = p.facts?.history
  if (h) {
    const t = commitAtOrBefore(h, writtenAt.ms)
    return t ? { sha: t.sha, ms: t.time * 1000, date: t.date } : null
  }
  const c = await commitAt(p.state.root, p.state.head, writtenAt.ms)
  return c ? { sha: c.sha, ms: Date.parse(c.date), date: c.date } : null
}

/**
 * Each checked reference's contract shape, with its diff basis when it has one. A name that
 * lost code lines since the note (`losses`, name-lines.ts) is compared where it lost them:
 * the lines around the line then and around the most alike line now (item 5).
 */
export async function withDiffBases(
  checked: readonly CheckedReference[],
  p: Prepared,
  writtenAt: WrittenAt | null,
  losses: readonly NameLoss[] = [],
): Promise<AuditReference[]> {
  const at = await noteCommit(p, writtenAt)
  return checked.map((c) => {
    const basis = lossBasis(c, losses) ?? basisOf(c, p, at)
    if (!basis) return c.audit
    const compare: DiffBasis = {
      ...basis,
      ...(at && basis.commit !== null ? { commitDate: at.date } : {}),
      ...(c.reason !== null ? { reason: c.reason } : {}),
    }
    return { ...c.audit, compare }
  })
}

function lossBasis(c: CheckedReference, losses: readonly NameLoss[]): DiffBasis | null {
  if (c.checkedIn || (c.ref.kind !== 'symbol' && c.ref.kind !== 'command')) return null
  const own = new Set(needlesOf(c.ref).map((n) => `${n.kind}\0${n.text}`))
  const l = losses.find((x) => own.has(`${x.needle.kind}\0${x.needle.text}`))
  if (!l?.then) return null
  return {
    then: l.then.file,
    commit: l.noteSha,
    now: l.now?.file ?? null,
    ...(l.thenLines ? { thenLines: l.thenLines } : {}),
    ...(l.now && l.nowLines ? { nowLines: l.nowLines } : {}),
  }
}

function basisOf(c: CheckedReference, p: Prepared, at: At | null): DiffBasis | null {
  const facts = p.facts
  // A reference found in another work tree is compared there: not kept (the click looks again).
  if (!facts || !p.state || c.checkedIn) return null
  const ref = c.ref
  const rel = (abs: string | null): string | null => {
    if (abs === null) return null
    const r = toPosix(relative(facts.root, abs))
    return r === '' || r.startsWith('..') ? null : r
  }
  switch (ref.kind) {
    case 'url':
    case 'branch':
      return null
    case 'snippet': {
      const f = facts.snippets.get(ref.code)
      const now = f && f.file !== null && f.match.kind !== 'none' ? f.file : null
      const thenLines = c.sinceNote?.thenLines
      return {
        then: thenLines && now !== null ? now : null,
        commit: at?.sha ?? null,
        now,
        ...(thenLines && now !== null ? { thenLines } : {}),
        ...(f && now !== null ? { nowLines: [f.match.startLine, f.match.endLine] as const } : {}),
      }
    }
    case 'symbol':
    case 'command':
      if (ref.kind === 'symbol' || ref.runner !== 'file') {
        // Where the name (or script) is found now, and that file as it was when the note was
        // written: the code the note talks about, then and now (issue 12 item 5). A name not
        // found now has no file then.
        const now = rel(c.audit.resolved)
        const then = c.audit.status === 'ok' && at !== null ? now : null
        return { then, commit: at?.sha ?? null, now }
      }
      return pathBasis(c, at)
    case 'path':
      return pathBasis(c, at)
  }
}

/** A path: its name at the note's commit (renames up to then applied) and its name now. */
function pathBasis(c: CheckedReference, at: At | null): DiffBasis {
  const named = c.namedPath
  let then = named
  if (at && then !== null)
    for (const s of c.renames ?? []) if (Date.parse(s.date) <= at.ms) then = s.to
  // Gone before the note was written: the last version there was.
  const goneBefore =
    c.deletedIn !== undefined &&
    c.goneIn?.how === 'deleted' &&
    at !== null &&
    Date.parse(c.goneIn.date) <= at.ms
  return {
    then,
    commit: goneBefore ? `${c.deletedIn}^` : (at?.sha ?? null),
    now: c.restsOn,
  }
}

/**
 * What the note's prose names lost that no reference carries (name-lines.ts: a name that left
 * every code file holding it), as references with their diff basis: the file then at the note's
 * commit against the same file now (or, when it is gone, the first file holding the name now).
 */
export function proseReferencesOf(
  p: Prepared,
  losses: readonly NameLoss[],
): { proseReferences?: AuditReference[] } {
  const out: AuditReference[] = []
  for (const l of losses) {
    if (!l.onlyIn || !l.then || l.branch !== undefined) continue
    const stays = p.state?.tracked.has(l.then.file) === true
    out.push({
      text: l.name,
      kind: 'symbol',
      status: 'changed',
      resolved: null,
      movedTo: null,
      compare: {
        then: l.then.file,
        commit: l.noteSha,
        now: stays ? l.then.file : (l.onlyIn[0] ?? null),
        ...(l.thenLines ? { thenLines: l.thenLines } : {}),
        reason: `left every code file that held it; now only in ${l.onlyIn.join(', ')}`,
      },
    })
  }
  return out.length > 0 ? { proseReferences: out } : {}
}
