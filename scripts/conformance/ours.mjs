/**
 * Our side of a comparison: the built CLI's JSON answer for a case, and small helpers shared by
 * the Claude and Codex comparisons. `cli` is the build under test (run.mjs `--cli`).
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'

/** Our CLI's JSON answer. */
export function ours(cli, args, env) {
  const r = spawnSync(process.execPath, [cli, ...args, '--json'], { env, encoding: 'utf8' })
  if (r.status !== 0)
    throw new Error(`memory-curator ${args.join(' ')}: exit ${r.status}: ${r.stderr}`)
  return JSON.parse(r.stdout)
}

/** Our load-order for the case's launch dir, with the same homes (managed: an empty temp folder). */
export function ourLoadOrder(cli, T, cwd, env) {
  const homes = ['--claude-home', env.CLAUDE_CONFIG_DIR, '--codex-home', env.CODEX_HOME]
  return ours(cli, ['load-order', '--cwd', cwd, ...homes, '--managed-dir', join(T, 'managed')], env)
}

/** How a run ended, for an error line. */
export const ended = (run) =>
  `exit ${run.code}${run.hung ? ', hung' : ''}: ${run.output.slice(0, 300)}`

export const rel = (T, p) => (p.startsWith(T + '/') ? p.slice(T.length + 1) : null)
