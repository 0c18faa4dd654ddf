/**
 * `memory-curator hooks install|uninstall|status [--user|--project]` (docs/cli.md §12): our
 * SessionStart hook in Claude Code's settings, through src/node/hooks/hook-settings.ts.
 *
 * Decisions: the diff is always printed first; `--yes` applies it; without `--yes` a terminal
 * is asked, and a non-interactive run applies nothing and says how to apply (exit 1).
 */
import { realpathSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline/promises'
import type { Command } from '../args'
import { defaultStateDir } from '../../node/app/state-dir'
import { resolveHomes } from '../../node/memory/homes'
import { hookCommand } from '../../node/hooks/hook-command'
import { applyHookChange, hookState, planHookChange } from '../../node/hooks/hook-settings'

/** The built CLI file being run, for the hook's command. */
function runningScript(): string | null {
  const p = process.argv[1]
  if (!p) return null
  try {
    return realpathSync(p)
  } catch {
    return null
  }
}

async function ask(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr })
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim())
  } finally {
    rl.close()
  }
}

export async function run(cmd: Extract<Command, { kind: 'hooks' }>): Promise<number> {
  const homes = resolveHomes(cmd.global)
  const target = {
    claudeHome: homes.claudeHome,
    cwd: cmd.scope === 'project' || cmd.cwd ? resolve(cmd.cwd ?? process.cwd()) : null,
  }
  const command = hookCommand({ env: process.env, cliScript: runningScript() })
  const out = (s: string): boolean => process.stdout.write(s)
  if (cmd.action === 'status') {
    const states = [await hookState('user', target)]
    if (target.cwd) states.push(await hookState('project', target))
    if (cmd.global.json) out(`${JSON.stringify({ command, states }, null, 2)}\n`)
    else
      for (const s of states)
        out(
          `${s.scope}: ${s.path}: ${s.problem ?? (s.installed ? 'installed' : 'not installed')}\n`,
        )
    return 0
  }
  const plan = await planHookChange(cmd.scope, cmd.action, target, command)
  if (plan.problem) {
    process.stderr.write(`memory-curator: ${plan.problem}; nothing changed\n`)
    return 1
  }
  if (!plan.changed) {
    out(
      `${plan.path}: ${cmd.action === 'install' ? 'the hook is already there' : 'no Memory Curator hook to remove'}; nothing to change\n`,
    )
    return 0
  }
  out(plan.diff)
  if (!cmd.yes) {
    if (!process.stdin.isTTY) {
      process.stderr.write(
        `memory-curator: not applied: review the change above, then run again with --yes to apply it\n`,
      )
      return 1
    }
    if (!(await ask(`Apply this change to ${plan.path}? [y/N] `))) {
      process.stderr.write('memory-curator: not applied\n')
      return 1
    }
  }
  const stateDir = defaultStateDir()
  const r = await applyHookChange(
    cmd.scope,
    cmd.action,
    target,
    command,
    plan.expectedHash,
    plan.afterHash ?? '',
    join(stateDir, 'backups'),
  )
  if (r.kind === 'written') {
    out(
      `${r.path}: ${cmd.action === 'install' ? 'hook added' : 'hook removed'}; the old file is backed up ` +
        `in ${join(stateDir, 'backups')} and the app's undo history can put it back\n`,
    )
    return 0
  }
  process.stderr.write(
    `memory-curator: ${r.path}: ${r.kind === 'conflict' ? 'changed on disk since the diff was made; nothing written, run again' : r.kind === 'error' ? r.reason : r.kind}\n`,
  )
  return 1
}
