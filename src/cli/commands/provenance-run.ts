/** The computation behind `provenance` (loaded only when the run cache misses, provenance.ts). */
import { provenance } from '../../node/transcripts/provenance'
import { noteEvidence } from '../../node/transcripts/note-evidence'
import { evidenceArgs, filesWithEvidence } from '../evidence-fields'
import type { ProvenanceOutput } from './provenance'

export async function computeProvenance(
  claudeHome: string,
  memoryDir: string,
  cacheDir: string,
): Promise<ProvenanceOutput> {
  // The transcript index cache: a second run reads only new bytes (our state folder, never the Claude home).
  const r = await provenance({ claudeHome, memoryDir, cacheDir })
  const evidence = await noteEvidence(evidenceArgs(claudeHome, memoryDir))
  return { files: filesWithEvidence(r.files, evidence.notes) }
}
