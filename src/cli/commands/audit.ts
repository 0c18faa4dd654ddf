/** `audit` (docs/cli.md): check notes against the code they describe. */
import { join } from 'node:path'
import type { Command } from '../args'
import { auditMemory } from '../../node/audit/audit'
import { keepHistoryIn } from '../../node/git/history-store'
import { defaultStateDir } from '../../node/app/state-dir'
import { resolveHomes } from '../../node/memory/homes'
import { scanClaudeHome } from '../../node/memory/scan'
import { writtenAtProvider } from '../../node/transcripts/line-attribution'
import { emit, InputError, requireDir } from '../input'
import { auditReport } from '../report'
import { saveAuditDigest } from '../../node/hooks/audit-digest'
import { noteEvidence } from '../../node/transcripts/note-evidence'
import { auditWithEvidence, evidenceArgs } from '../evidence-fields'

export async function run(cmd: Extract<Command, { kind: 'audit' }>): Promise<number> {
  const homes = resolveHomes(cmd.global)
  if (cmd.global.claudeHome) await requireDir(cmd.global.claudeHome, '--claude-home')
  let memoryDir: string
  let repo: string | null = cmd.repo ? await requireDir(cmd.repo, '--repo') : null
  if (cmd.memoryDir) {
    memoryDir = await requireDir(cmd.memoryDir, '--memory-dir')
    if (!cmd.repo) {
      // The repository of the project that owns this memory folder, if the scan knows it.
      const scan = await scanClaudeHome(homes.claudeHome)
      repo = scan.projects.find((p) => p.memoryDir === memoryDir)?.repoRoot ?? null
    }
  } else {
    const scan = await scanClaudeHome(homes.claudeHome)
    const project = scan.projects.find((p) => p.id === cmd.project)
    if (!project)
      throw new InputError(
        `--project ${cmd.project}: no such project folder in ${homes.claudeHome}/projects`,
      )
    if (!project.memoryDir) throw new InputError(`--project ${cmd.project}: has no memory folder`)
    memoryDir = project.memoryDir
    if (!cmd.repo) repo = project.repoRoot
  }
  // Each repository's history log, kept between runs (issue 16): a later audit logs only new commits.
  keepHistoryIn(join(defaultStateDir(), 'history'))
  const r = await auditMemory({
    memoryDir,
    repo,
    // When a note was written: the transcript write that last touched its lines, else coarser sources.
    writtenAtFor: writtenAtProvider({
      claudeHome: homes.claudeHome,
      // The transcript index cache, shared with `provenance` (our state folder, never the Claude home).
      cacheDir: join(defaultStateDir(), 'provenance-cache'),
    }),
    onProgress: cmd.global.json
      ? undefined
      : (done, total) => process.stderr.write(`\raudit ${done}/${total}`),
  })
  if (!cmd.global.json) process.stderr.write('\n')
  // Kept for `hook session-start` (issue 18): it names stale notes without auditing.
  await saveAuditDigest(defaultStateDir(), memoryDir, r)
  // --json adds each note's evidence (archiving excerpts seen for the first time, issue 12 item 10).
  const out = cmd.global.json
    ? auditWithEvidence(r, (await noteEvidence(evidenceArgs(homes.claudeHome, memoryDir))).notes)
    : r
  emit(cmd.global.json, out, () => auditReport(r))
  if (cmd.failOn === 'stale' && r.summary.stale > 0) return 1
  if (cmd.failOn === 'suspect' && r.summary.stale + r.summary.suspect > 0) return 1
  return 0
}
