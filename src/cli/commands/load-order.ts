/** `load-order --cwd DIR` (docs/cli.md): what Claude Code and Codex load when launched in DIR. */
import type { Command } from '../args'
import { resolveHomes } from '../../node/memory/homes'
import { callBackend } from '../backend-call'
import { emit, requireDir } from '../input'
import { loadOrderReport } from '../report'

export async function run(cmd: Extract<Command, { kind: 'load-order' }>): Promise<number> {
  // load-order only consults the Claude home: one that does not exist is not an error here.
  const homes = resolveHomes(cmd.global)
  const cwd = await requireDir(cmd.cwd, '--cwd')
  // The window's and serve's handler: MEMORY.md found with the agent's switches and overrides.
  const r = await callBackend({ homes, namedLaunchDirs: [cwd] }, 'loadOrder', [cwd])
  emit(cmd.global.json, r, () => loadOrderReport(r))
  return 0
}
