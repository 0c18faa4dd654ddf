/**
 * `hook session-start` as Claude Code runs it (issue 18 item 1: within 300 ms on a warm index):
 * a whole process reading the hook's JSON on stdin, for a launch folder whose MEMORY.md is past
 * the cutoff (so the notice is computed and printed), beside a bare `node -e 0`.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cliEnv, cliMissing, STARTUP_RUNS, type CliTarget } from './cli-jobs'
import { runChild, sideBySide } from './measure'
import { budgetRow, skippedRow, type BenchRow } from './report'

/** Issue 18 item 1: the notice within 300 ms (the session waits for it). */
const HOOK_BUDGET_MS = 300

/** Claude Code's project folder name for a launch folder (docs/memory-rules.md §1). */
const projectFolder = (cwd: string): string => cwd.replace(/[^A-Za-z0-9]/g, '-')

export async function benchSessionStartHook(t: CliTarget): Promise<BenchRow> {
  const label = 'hook session-start (process, index past the cutoff)'
  const missing = cliMissing(t, label)
  if (missing) return missing
  const cwd = join(t.work, 'hook-project')
  const claudeHome = join(t.work, 'hook-claude')
  const memoryDir = join(claudeHome, 'projects', projectFolder(cwd), 'memory')
  mkdirSync(cwd, { recursive: true })
  mkdirSync(memoryDir, { recursive: true })
  const entries = Array.from({ length: 260 }, (_, i) => `- [Note ${i + 1}](note-${i + 1}.md) — n`)
  writeFileSync(join(memoryDir, 'MEMORY.md'), `# Memory\n${entries.join('\n')}\n`)
  const env = cliEnv(t.work, claudeHome)
  const input = JSON.stringify({
    session_id: 'bench',
    cwd,
    hook_event_name: 'SessionStart',
    source: 'startup',
  })
  const r = await sideBySide(
    STARTUP_RUNS,
    () => runChild(process.execPath, [t.cli, 'hook', 'session-start'], { env, input }),
    () => runChild(process.execPath, ['-e', '0'], { env }),
  )
  if (r.a.code !== 0 || r.a.stdoutBytes === 0)
    return skippedRow(label, `≤ ${HOOK_BUDGET_MS} ms`, `no notice: ${r.a.stderr.slice(0, 200)}`)
  return budgetRow(label, r.a.ms, HOOK_BUDGET_MS, r.a.peakRssMiB, {
    noticeBytes: r.a.stdoutBytes,
    nodeMs: Math.round(r.b.ms),
    ratioToNode: Number((r.a.ms / Math.max(r.b.ms, 0.001)).toFixed(2)),
  })
}
