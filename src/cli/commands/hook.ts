/**
 * `memory-curator hook session-start` (docs/cli.md §11): Claude Code's SessionStart hook. Reads
 * the hook's JSON on stdin, prints the notice of src/node/hooks/session-start.ts (or nothing),
 * and always exits 0: any error becomes silence plus a line in our log (hook-log.ts).
 */
import type { Command } from '../args'
import { defaultStateDir } from '../../node/app/state-dir'
import { resolveHomes } from '../../node/memory/homes'
import { logHookFailure } from '../../node/hooks/hook-log'
import {
  HOOK_INPUT_MAX_BYTES,
  noticeText,
  parseHookInput,
  sessionFindings,
} from '../../node/hooks/session-start'

/** Longest wait for Claude Code to close our stdin. */
const STDIN_TIMEOUT_MS = 2000

/** Standard input as text, up to `max` bytes; rejects when it is larger or never ends. */
function readStdin(max: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const timer = setTimeout(
      () => finish(new Error('stdin did not close in time')),
      STDIN_TIMEOUT_MS,
    )
    const finish = (err: Error | null): void => {
      clearTimeout(timer)
      process.stdin.removeAllListeners('data').removeAllListeners('end')
      process.stdin.pause()
      if (err) reject(err)
      else resolve(Buffer.concat(chunks).toString('utf8'))
    }
    process.stdin.on('data', (c: Buffer) => {
      size += c.length
      if (size > max) finish(new Error(`hook input larger than ${max} bytes`))
      else chunks.push(c)
    })
    process.stdin.on('end', () => finish(null))
    process.stdin.on('error', (e) => finish(e))
  })
}

export async function run(cmd: Extract<Command, { kind: 'hook' }>): Promise<number> {
  const stateDir = defaultStateDir()
  try {
    const input = parseHookInput(await readStdin(HOOK_INPUT_MAX_BYTES))
    const homes = resolveHomes(cmd.global)
    const findings = await sessionFindings({ ...homes, cwd: input.cwd, stateDir, env: process.env })
    const notice = noticeText(findings)
    if (cmd.global.json) {
      const out = notice
        ? { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: notice } }
        : {}
      process.stdout.write(`${JSON.stringify(out)}\n`)
    } else if (notice) process.stdout.write(`${notice}\n`)
  } catch (err) {
    await logHookFailure(stateDir, 'hook session-start', err)
  }
  return 0
}
