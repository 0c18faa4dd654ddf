/**
 * The `evidence` field the CLI adds to `audit --json` notes and `provenance` files (docs/cli.md
 * §7, §8; issue 12 item 10): additive, every existing field kept.
 */
import type { AuditNote, AuditResult, ProvenanceFile } from '../shared/model'
import type { NoteEvidence, NoteEvidenceEntry } from '../shared/evidence-model'
import { join } from 'node:path'
import { defaultStateDir } from '../node/app/state-dir'

/** The evidence of one note, with where it stands: what `provenance` lists per file. */
export type FileNoteEvidence = Pick<NoteEvidenceEntry, 'line' | 'endLine' | 'title'> & NoteEvidence

/** Each audited note with its evidence (notes of instruction files have none to say: no field). */
export function auditWithEvidence(
  audit: AuditResult,
  evidence: readonly NoteEvidenceEntry[],
): AuditResult & { readonly notes: readonly (AuditNote & { evidence?: NoteEvidence })[] } {
  const at = new Map(evidence.map((e) => [`${e.file}\0${e.line}`, e.evidence]))
  return {
    ...audit,
    notes: audit.notes.map((n) => {
      const e = at.get(`${n.file}\0${n.line}`)
      return e ? { ...n, evidence: e } : n
    }),
  }
}

/** Each file with the evidence of the notes standing on it (its own notes, or the entry linking it). */
export function filesWithEvidence<F extends ProvenanceFile>(
  files: readonly F[],
  evidence: readonly NoteEvidenceEntry[],
): (F & { evidence: FileNoteEvidence[] })[] {
  return files.map((f) => ({
    ...f,
    evidence: evidence
      .filter((e) => e.file === f.path || e.topicFile === f.path)
      .map((e) => ({ line: e.line, endLine: e.endLine, title: e.title, ...e.evidence })),
  }))
}

/** Where the evidence of notes is read and archived: our state folder, never the Claude home. */
export function evidenceArgs(
  claudeHome: string,
  memoryDir: string,
): { claudeHome: string; memoryDir: string; stateDir: string; cacheDir: string } {
  return {
    claudeHome,
    memoryDir,
    stateDir: defaultStateDir(),
    cacheDir: join(defaultStateDir(), 'provenance-cache'),
  }
}
