/** `provenance` (docs/cli.md): who wrote each memory file, from transcripts. */
import { join } from 'node:path'
import type { Command } from '../args'
import { defaultStateDir } from '../../node/app/setup'
import { resolveHomes } from '../../node/memory/homes'
import { provenance } from '../../node/transcripts/provenance'
import { emit, requireDir } from '../input'
import { provenanceReport } from '../report'
import { noteEvidence } from '../../node/transcripts/note-evidence'
import { evidenceArgs, filesWithEvidence } from '../evidence-fields'

export async function run(cmd: Extract<Command, { kind: 'provenance' }>): Promise<number> {
  const homes = resolveHomes(cmd.global)
  if (cmd.global.claudeHome) await requireDir(cmd.global.claudeHome, '--claude-home')
  const memoryDir = cmd.memoryDir
    ? await requireDir(cmd.memoryDir, '--memory-dir')
    : await requireDir(
        join(homes.claudeHome, 'projects', cmd.project ?? '', 'memory'),
        `--project ${cmd.project}:`,
      )
  const r = await provenance({
    claudeHome: homes.claudeHome,
    memoryDir,
    // The transcript index cache: a second run reads only new bytes (our state folder, never the Claude home).
    cacheDir: join(defaultStateDir(), 'provenance-cache'),
  })
  const evidence = await noteEvidence(evidenceArgs(homes.claudeHome, memoryDir))
  const files = filesWithEvidence(r.files, evidence.notes)
  emit(cmd.global.json, { files }, () => provenanceReport({ files }))
  return 0
}
