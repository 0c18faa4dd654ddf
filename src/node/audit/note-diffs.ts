/**
 * `noteDiffs`: for one note, each reference then and now, read at the time of the click
 * (issue 7: within 200 ms, from the kept audit's facts when they still hold).
 */
import { dirname, relative, resolve } from 'node:path'
import { commitAtOrBefore } from '../../core/git/parse'
import type { NoteDiff } from '../../shared/model'
import type { CheckedReference } from '../../core/audit/checked-reference'
import type { RepoFacts } from '../../core/audit/repo-facts'
import { capText, diffSummary } from '../../core/audit/diff-text'
import { showAt } from '../git/history'
import { cacheKey, type AuditFactsCache } from './audit-cache'
import { loadNotes } from './load-notes'
import { judgeAll, type WrittenAtProvider } from './judge-notes'
import { prepare, type Prepared } from './prepare-notes'
import { readRepoFile } from './repo-file'
import { diffsFromAudit, fileDiff, nameDiff } from './diff-read'

/** Largest file `noteDiffs` shows. */
const DIFF_MAX_BYTES = 4 * 1024 * 1024

export interface NoteDiffOptions {
  readonly memoryDir: string
  readonly repo: string | null
  /** The file the note's `line` points into (as in the audit result). */
  readonly file: string
  readonly line: number
  readonly instructionFiles?: readonly string[]
  readonly writtenAtFor?: WrittenAtProvider
  /** The facts of the last audit of the same folder and repository, used while still true. */
  readonly cache?: AuditFactsCache
}

/**
 * For one note, each reference then and now: the file as of the last commit at or
 * before the note was written vs the file now (renames followed), or the quoted
 * code vs its best match. Empty when no note starts at `file:line`.
 */
export async function noteDiffs(opts: NoteDiffOptions): Promise<NoteDiff[]> {
  const file = resolve(opts.file)
  const instructionFiles = [...(opts.instructionFiles ?? [])]
  if (
    !instructionFiles.map((f) => resolve(f)).includes(file) &&
    dirname(file) !== resolve(opts.memoryDir)
  ) {
    instructionFiles.push(file)
  }
  const key = cacheKey(opts.memoryDir, opts.repo)
  // What the audit kept for this note: read, never audited again (issue 12 item 8).
  const kept = (await opts.cache?.keptResult(key, file, opts.line)) ?? null
  if (kept && kept.root !== null) {
    const read = await diffsFromAudit(kept.root, kept.note, kept.audit)
    if (read) {
      opts.cache?.countRead()
      return read
    }
  }
  const quick = (await opts.cache?.keptNote(key, file, opts.line)) ?? null
  const loaded = quick?.loaded ?? (await loadNotes(opts.memoryDir, instructionFiles))
  const note =
    quick?.note ??
    loaded.notes.find((n) => n.file === file && n.line <= opts.line && opts.line <= n.endLine)
  if (!note) return []
  const p =
    (await opts.cache?.reuse(key, note, loaded)) ??
    (await prepare(
      { ...loaded, notes: [note], problems: [...loaded.problems] },
      opts.repo,
      () => {},
      undefined,
    ))
  const [judged] = await judgeAll(p, opts.writtenAtFor, () => {}, undefined)
  if (!judged || !p.facts) return []
  const facts = p.facts
  const at =
    p.state && facts.history && judged.writtenAt
      ? commitAtOrBefore(facts.history, judged.writtenAt.ms)
      : null
  const out: NoteDiff[] = []
  for (const [i, c0] of judged.checked.entries()) {
    // The reference as the audit result gives it (with its diff basis).
    const c = { ...c0, audit: judged.note.references[i] ?? c0.audit }
    // A reference found on another branch is compared in that branch's work tree.
    const other = c.checkedIn ? [...p.branches.values()].find((b) => b.facts === c.checkedIn) : null
    if (other?.facts) {
      const otherAt =
        other.state && other.facts.history && judged.writtenAt
          ? commitAtOrBefore(other.facts.history, judged.writtenAt.ms)
          : null
      out.push(await diffFor(c, other.facts, other, otherAt))
    } else out.push(await diffFor(c, facts, p, at))
  }
  // Code the verdict rests on that no reference carries, read as a kept audit reads it.
  for (const e of judged.note.proseReferences ?? [])
    if (e.compare) out.push(await fileDiff(facts.root, e, e.compare))
  return out
}

async function diffFor(
  c: CheckedReference,
  facts: RepoFacts,
  p: Prepared,
  at: { sha: string; date: string; time: number } | null,
): Promise<NoteDiff> {
  const reference = c.audit
  const ref = c.ref
  if (ref.kind === 'url' || ref.kind === 'branch') {
    return {
      reference,
      before: null,
      after: null,
      summary: `${ref.kind === 'url' ? 'URL' : 'branch'}: not checked against the code`,
    }
  }
  if (ref.kind === 'snippet') {
    const q = capText(ref.code)
    const finding = facts.snippets.get(ref.code)
    const before = { label: 'quoted in the note', text: q.text }
    const notes = q.cut ? ` (${q.cut})` : ''
    if (!finding || finding.file === null || finding.match.kind === 'none') {
      return { reference, before, after: null, summary: `quoted code not found now${notes}` }
    }
    const text = p.snippetTexts.get(ref.code) ?? ''
    const region = text
      .split(/\r?\n/)
      .slice(finding.match.startLine - 1, finding.match.endLine)
      .join('\n')
    const after = capText(region)
    return {
      reference,
      before,
      after: {
        label: `${finding.file}:${finding.match.startLine}-${finding.match.endLine}`,
        text: after.text,
      },
      summary: `${finding.match.kind === 'exact' ? 'found as quoted' : diffSummary(q.text, after.text)}${notes}`,
    }
  }
  // A name that lost lines since the note: compared where it lost them, as a click on a kept
  // audit reads it (diff-basis.ts, diff-read.ts), so both looks show the same diff.
  const basis = reference.compare
  if ((ref.kind === 'symbol' || ref.kind === 'command') && basis && basis.then !== null)
    return nameDiff(facts.root, reference, basis)
  if (ref.kind === 'symbol' || (ref.kind === 'command' && ref.runner !== 'file')) {
    const summary =
      reference.status === 'ok'
        ? `found${reference.resolved ? ` in ${relative(facts.root, reference.resolved)}` : ''}`
        : (c.reason ?? 'not found')
    return { reference, before: null, after: null, summary }
  }
  // A path (or a script file): the file then vs now.
  const named = c.namedPath
  const current = c.restsOn
  if (current !== null && facts.isDir(current)) {
    return { reference, before: null, after: null, summary: 'a folder: no text to compare' }
  }
  let before: NoteDiff['before'] = null
  const problems: string[] = []
  if (at && named !== null && p.state) {
    // The name the file had at that commit: renames up to then applied.
    let then = named
    for (const s of c.renames ?? []) if (Date.parse(s.date) <= at.time * 1000) then = s.to
    let shown = await showAt(p.state.root, at.sha, then, DIFF_MAX_BYTES)
    let label = `${then} @ ${at.sha.slice(0, 7)} (${at.date.slice(0, 10)})`
    if (!shown.ok && c.deletedIn && !/binary/.test(shown.reason)) {
      // Deleted before the note was written: show the last version there was.
      shown = await showAt(p.state.root, `${c.deletedIn}^`, then, DIFF_MAX_BYTES)
      label = `${then} @ ${c.deletedIn.slice(0, 7)}^ (before it was deleted)`
    }
    if (shown.ok) {
      const capped = capText(shown.text)
      before = { label, text: capped.text }
      if (capped.cut) problems.push(`before: ${capped.cut}`)
    } else problems.push(shown.reason)
  } else if (!at) problems.push('no commit at or before the time the note was written')
  let after: NoteDiff['after'] = null
  if (current !== null) {
    const r = await readRepoFile(facts.root, current, { maxBytes: DIFF_MAX_BYTES })
    if (r.ok) {
      const capped = capText(r.text)
      after = { label: `${current} (now)`, text: capped.text }
      if (capped.cut) problems.push(`after: ${capped.cut}`)
    } else problems.push(`\`${current}\`: ${r.reason}`)
  } else problems.push(c.reason ?? 'no longer exists')
  const counted = before && after ? diffSummary(before.text, after.text) : null
  const summary = [counted, ...problems].filter((s): s is string => !!s).join('; ')
  return { reference, before, after, summary: summary || 'nothing to compare' }
}
