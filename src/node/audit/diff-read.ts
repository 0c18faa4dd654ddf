/**
 * A note's diffs read from what its audit kept (issue 12 item 8): for each reference, the
 * file at the note's commit and the file now, from the basis in the audit result. Nothing is
 * audited again; both sides are read at the time of the click.
 */
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { AuditNote, AuditReference, DiffBasis, NoteDiff } from '../../shared/model'
import type { Note } from '../../core/memory/notes'
import { extractReferences } from '../../core/audit/references'
import { capText, diffSummary } from '../../core/audit/diff-text'
import { NOTE_CHECK_MAX_CHARS } from '../../core/limits'
import { showAt } from '../git/history'
import { BoundedCache } from '../cache/bounded-cache'
import { readRepoFile } from './repo-file'

/** Largest file a diff shows. */
const DIFF_MAX_BYTES = 4 * 1024 * 1024

/** A basis from the window or a kept result is checked before git or the disk sees it. */
const safeRel = (p: string | null): p is string =>
  p !== null &&
  p !== '' &&
  p.length <= 4096 &&
  !p.startsWith('/') &&
  !p.includes('\0') &&
  !p.split('/').includes('..')
const safeCommit = (c: string | null): c is string => c !== null && /^[0-9a-f]{40}\^?$/.test(c)

/**
 * The diffs of an audited note from its kept bases; null when a reference has none (checked in
 * another work tree), so that the caller looks afresh.
 */
export async function diffsFromAudit(
  root: string,
  note: Note,
  audit: AuditNote,
): Promise<NoteDiff[] | null> {
  const quotes = extractReferences(note.checkText.slice(0, NOTE_CHECK_MAX_CHARS)).flatMap((r) =>
    r.kind === 'snippet' ? [r] : [],
  )
  // Every basis is checked first (a reference without one sends the caller to look afresh, and
  // then nothing is read); the references are then read at once (issue 16: a diff within 150 ms
  // of a click), each a `git show` and a file read at most.
  const reads: (() => Promise<NoteDiff>)[] = []
  for (const reference of [...audit.references, ...(audit.proseReferences ?? [])]) {
    if (reference.kind === 'url' || reference.kind === 'branch') {
      const summary = `${reference.kind === 'url' ? 'URL' : 'branch'}: not checked against the code`
      reads.push(async () => ({ reference, before: null, after: null, summary }))
      continue
    }
    const b = reference.compare
    if (!b) return null
    if (reference.kind === 'snippet') {
      const code = quotes.find((q) => q.text === reference.text)?.code
      if (code === undefined) return null
      reads.push(() => quoteDiff(root, reference, b, code))
    } else if ((reference.kind === 'symbol' || reference.kind === 'command') && b.then === null) {
      // A name or a script: where it is found (the audit's basis has no file then).
      const summary =
        reference.status === 'ok'
          ? `found${b.now !== null ? ` in ${b.now}` : ''}`
          : (b.reason ?? 'not found')
      reads.push(async () => ({ reference, before: null, after: null, summary }))
    } else if (reference.kind === 'symbol' || reference.kind === 'command')
      reads.push(() => nameDiff(root, reference, b))
    else reads.push(() => fileDiff(root, reference, b))
  }
  return Promise.all(reads.map((read) => read()))
}

/**
 * A file as of a commit: `git show` once per (repository, commit, path) while the back end runs.
 * A full commit id (or its parent, `sha^`) names one content forever, so the entry never goes
 * stale; texts past SHOWN_CACHE_MAX_CHARS are not kept.
 */
const shownCache = new BoundedCache<string, Promise<Awaited<ReturnType<typeof showAt>>>>(256)
const SHOWN_CACHE_MAX_CHARS = 512 * 1024

function shownAt(root: string, commit: string, rel: string): ReturnType<typeof showAt> {
  const key = `${root}\0${commit}\0${rel}`
  const hit = shownCache.get(key)
  if (hit) return hit
  const p = showAt(root, commit, rel, DIFF_MAX_BYTES)
  shownCache.set(key, p)
  // Kept: a text of a bounded size, or an answer about the content ("did not exist", "binary",
  // which start with the path in backquotes). Not kept: git failing to run or timing out.
  const keep = (r: Awaited<typeof p>): boolean =>
    r.ok ? r.text.length <= SHOWN_CACHE_MAX_CHARS : r.reason.startsWith('`')
  void p.then(
    (r) => {
      if (!keep(r)) shownCache.delete(key)
    },
    () => shownCache.delete(key),
  )
  return p
}

const slice = (text: string, [a, b]: readonly [number, number]): string =>
  text
    .split(/\r?\n/)
    .slice(a - 1, b)
    .join('\n')

async function quoteDiff(
  root: string,
  reference: AuditReference,
  b: DiffBasis,
  code: string,
): Promise<NoteDiff> {
  const q = capText(code)
  const notes = q.cut ? ` (${q.cut})` : ''
  let before: NoteDiff['before'] = { label: 'quoted in the note', text: q.text }
  if (b.thenLines && safeRel(b.then) && safeCommit(b.commit)) {
    const shown = await shownAt(root, b.commit, b.then)
    if (shown.ok) {
      const [s, e] = b.thenLines
      before = {
        label: `${b.then}:${s}-${e} @ ${b.commit.slice(0, 7)} (when the note was written)`,
        text: capText(slice(shown.text, b.thenLines)).text,
      }
    }
  }
  if (!safeRel(b.now) || !b.nowLines)
    return { reference, before, after: null, summary: `quoted code not found now${notes}` }
  const r = await readRepoFile(root, b.now, { maxBytes: DIFF_MAX_BYTES })
  if (!r.ok) return { reference, before, after: null, summary: `\`${b.now}\`: ${r.reason}` }
  const after = capText(slice(r.text, b.nowLines))
  const [s, e] = b.nowLines
  return {
    reference,
    before,
    after: { label: `${b.now}:${s}-${e}`, text: after.text },
    summary: `${reference.status === 'ok' ? 'found as quoted' : diffSummary(before.text, after.text)}${notes}`,
  }
}

/**
 * A name or script with a file then (diff-basis.ts): the file at the note's commit and now; a
 * name found now says where, a name that lost lines is compared where it lost them.
 */
export async function nameDiff(
  root: string,
  reference: AuditReference,
  b: DiffBasis,
): Promise<NoteDiff> {
  const d = await fileDiff(root, reference, b)
  if (reference.status !== 'ok' || b.thenLines || b.now === null) return d
  return { ...d, summary: `found in ${b.now}; since the note: ${d.summary}` }
}

export async function fileDiff(
  root: string,
  reference: AuditReference,
  b: DiffBasis,
): Promise<NoteDiff> {
  const current = safeRel(b.now) ? b.now : null
  if (current !== null) {
    const st = await stat(join(root, ...current.split('/'))).catch(() => null)
    if (st?.isDirectory())
      return { reference, before: null, after: null, summary: 'a folder: no text to compare' }
  }
  let before: NoteDiff['before'] = null
  const problems: string[] = []
  if (safeCommit(b.commit) && safeRel(b.then)) {
    const shown = await shownAt(root, b.commit, b.then)
    const label = b.commit.endsWith('^')
      ? `${b.then} @ ${b.commit.slice(0, 7)}^ (before it was deleted)`
      : `${b.then} @ ${b.commit.slice(0, 7)} (${(b.commitDate ?? '').slice(0, 10)})`
    if (shown.ok) {
      const capped = capText(shown.text)
      before = { label, text: capped.text }
      if (capped.cut) problems.push(`before: ${capped.cut}`)
    } else problems.push(shown.reason)
  } else if (b.commit === null)
    problems.push('no commit at or before the time the note was written')
  let after: NoteDiff['after'] = null
  if (current !== null) {
    const r = await readRepoFile(root, current, { maxBytes: DIFF_MAX_BYTES })
    if (r.ok) {
      const capped = capText(r.text)
      after = { label: `${current} (now)`, text: capped.text }
      if (capped.cut) problems.push(`after: ${capped.cut}`)
    } else problems.push(`\`${current}\`: ${r.reason}`)
  } else problems.push(b.reason ?? 'no longer exists')
  const counted = before && after ? diffSummary(before.text, after.text) : null
  const summary = [counted, ...problems].filter((s): s is string => !!s).join('; ')
  return { reference, before, after, summary: summary || 'nothing to compare' }
}
