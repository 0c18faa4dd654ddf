/**
 * `provenance` (docs/cli.md): who wrote each memory file, from transcripts. The printed result
 * is kept with the identity of everything it was computed from (node/cache/run-cache.ts,
 * node/transcripts/provenance-inputs.ts): a run over unchanged transcripts, memory files and
 * evidence archive checks them and prints it again, without loading the provenance code
 * (issue 16: warm at most 0.1× cold). The kept result is the JSON document as printed: with
 * --json a warm run writes its bytes as they are (stdout.ts); the report is made from it.
 */
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Command } from '../args'
import type { ProvenanceFile } from '../../shared/model'
import type { FileNoteEvidence } from '../evidence-fields'
import { defaultStateDir } from '../../node/app/state-dir'
import { resolveHomes } from '../../node/memory/home-dirs'
import { statsIdentity } from '../../node/cache/file-identity'
import { loadRun, saveRun } from '../../node/cache/run-cache'
import { provenanceInputs } from '../../node/transcripts/provenance-inputs'
import { jsonText, requireDir } from '../input'
import { writeOut } from '../stdout'

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
  const kept = code === null ? null : loadRun(runsDir, key)
  if (kept !== null) {
    if (cmd.global.json) {
      writeOut(kept)
      return 0
    }
    const value = parsed(kept)
    if (value !== null) {
      await printReport(value)
      return 0
    }
  }
  const started = Date.now()
  const { computeProvenance } = await import('./provenance-run')
  const out = await computeProvenance(homes.claudeHome, memoryDir, cacheDir)
  const json = jsonText(out)
  // Printed first: whoever reads the output need not wait for the save.
  if (cmd.global.json) writeOut(json)
  else await printReport(out)
  const inputs = code === null ? null : provenanceInputs(homes.claudeHome, memoryDir, stateDir)
  if (inputs !== null) saveRun(runsDir, key, inputs, json, started)
  return 0
}

/** A kept result read back for the report, or null when it is not one (then recomputed). */
function parsed(kept: Buffer): ProvenanceOutput | null {
  try {
    const v: unknown = JSON.parse(kept.toString('utf8'))
    return isOutput(v) ? v : null
  } catch {
    return null
  }
}

/** The report for a person (loaded only then: --json needs none of it). */
async function printReport(out: ProvenanceOutput): Promise<void> {
  const { provenanceReport } = await import('../report')
  writeOut(`${provenanceReport(out)}\n`)
}
