/** `scan` (docs/cli.md §4): every project folder under `<claude home>/projects`. */
import type { Command } from '../args'
import { resolveHomes } from '../../node/memory/homes'
import { callBackend } from '../backend-call'
import { emit, requireDir } from '../input'
import { scanReport } from '../report'

export async function run(cmd: Extract<Command, { kind: 'scan' }>): Promise<number> {
  const homes = resolveHomes(cmd.global)
  // The Claude home is the input of scan: a missing one exits 2 (docs/cli.md §3).
  if (cmd.global.claudeHome) await requireDir(cmd.global.claudeHome, '--claude-home')
  const r = await callBackend({ homes }, 'scan', [])
  emit(cmd.global.json, r, () => scanReport(r))
  return 0
}
