/**
 * `provenance` (docs/cli.md): who wrote each memory file, from transcripts. The printed result
 * is kept with the identity of everything it was computed from (node/cache/run-cache.ts,
 * node/transcripts/provenance-inputs.ts): a run over unchanged transcripts, memory files and
 * evidence archive checks them and prints it again, without loading the provenance code
 * (issue 16: warm at most 0.1× cold).
 */
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Command } from '../args'
import type { ProvenanceFile } from '../../shared/model'
import type { FileNoteEvidence } from '../evidence-fields'
import { defaultStateDir } from '../../node/app/state-dir'
import { resolveHomes } from '../../node/memory/homes'
import { statsIdentity } from '../../node/cache/file-identity'
import { loadRun, saveRun } from '../../node/cache/run-cache'
import { provenanceInputs } from '../../node/transcripts/provenance-inputs'
import { emit, requireDir } from '../input'
import { provenanceReport } from '../report'

/** What `provenance` prints (docs/cli.md §8). */
export interface ProvenanceOutput {
  readonly files: readonly (ProvenanceFile & { readonly evidence: readonly FileNoteEvidence[] })[]
}

function isOutput(v: unknown): v is ProvenanceOutput {
  const files = (v as { files?: unknown } | null)?.files
  return (
    Array.isArray(files) &&
    files.every((f) => typeof (f as { path?: unknown } | null)?.path === 'string')
  )
}

/** The built code's identity: a rebuild or an upgrade writes this file anew. Null: unknown. */
function codeIdentity(): string | null {
  try {
    return statsIdentity(statSync(fileURLToPath(import.meta.url)))
  } catch {
    return null
  }
}

export async function run(cmd: Extract<Command, { kind: 'provenance' }>): Promise<number> {
  const homes = resolveHomes(cmd.global)
  if (cmd.global.claudeHome) await requireDir(cmd.global.claudeHome, '--claude-home')
  const memoryDir = cmd.memoryDir
    ? await requireDir(cmd.memoryDir, '--memory-dir')
    : await requireDir(
        join(homes.claudeHome, 'projects', cmd.project ?? '', 'memory'),
        `--project ${cmd.project}:`,
      )
  const stateDir = defaultStateDir()
  const cacheDir = join(stateDir, 'provenance-cache')
  const runsDir = join(cacheDir, 'runs')
  const code = codeIdentity()
  const key = JSON.stringify({
    command: 'provenance',
    claudeHome: homes.claudeHome,
    memoryDir,
    stateDir,
    node: process.version,
    code,
  })
  const kept = code === null ? null : loadRun(runsDir, key, isOutput)
  if (kept !== null) {
    emit(cmd.global.json, kept, () => provenanceReport(kept))
    return 0
  }
  const started = Date.now()
  const { computeProvenance } = await import('./provenance-run')
  const out = await computeProvenance(homes.claudeHome, memoryDir, cacheDir)
  // Printed first: whoever reads the output need not wait for the save.
  emit(cmd.global.json, out, () => provenanceReport(out))
  const inputs = code === null ? null : provenanceInputs(homes.claudeHome, memoryDir, stateDir)
  if (inputs !== null) saveRun(runsDir, key, inputs, out, started)
  return 0
}
