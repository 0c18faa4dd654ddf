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
  const out: NoteDiff[] = []
  for (const reference of audit.references) {
    if (reference.kind === 'url' || reference.kind === 'branch') {
      out.push({
        reference,
        before: null,
        after: null,
        summary: `${reference.kind === 'url' ? 'URL' : 'branch'}: not checked against the code`,
      })
      continue
    }
    const b = reference.compare
    if (!b) return null
    if (reference.kind === 'snippet') {
      const code = quotes.find((q) => q.text === reference.text)?.code
      if (code === undefined) return null
      out.push(await quoteDiff(root, reference, b, code))
    } else if ((reference.kind === 'symbol' || reference.kind === 'command') && b.then === null) {
      // A name or a script: where it is found (the audit's basis has no file then).
      const summary =
        reference.status === 'ok'
          ? `found${b.now !== null ? ` in ${b.now}` : ''}`
          : (b.reason ?? 'not found')
      out.push({ reference, before: null, after: null, summary })
    } else out.push(await fileDiff(root, reference, b))
  }
  return out
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
    const shown = await showAt(root, b.commit, b.then, DIFF_MAX_BYTES)
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

async function fileDiff(root: string, reference: AuditReference, b: DiffBasis): Promise<NoteDiff> {
  const current = safeRel(b.now) ? b.now : null
  if (current !== null) {
    const st = await stat(join(root, ...current.split('/'))).catch(() => null)
    if (st?.isDirectory())
      return { reference, before: null, after: null, summary: 'a folder: no text to compare' }
  }
  let before: NoteDiff['before'] = null
  const problems: string[] = []
  if (safeCommit(b.commit) && safeRel(b.then)) {
    const shown = await showAt(root, b.commit, b.then, DIFF_MAX_BYTES)
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
