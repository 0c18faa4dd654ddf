/**
 * Running an installed agent (`claude`, `codex`) for "Check with the installed agent" (issue 13
 * item 4): the one place besides the git runner and the job launcher that starts a program.
 * It runs only a binary found on the absolute entries of PATH (never one named by a repository
 * or a memory file), with an environment built from scratch (agents-check.ts gives it: a
 * temporary home, the stand-in server's URL, a dummy key), in its own process group, killed as
 * a whole when the run has what it needs or passes its time limit.
 */
import { spawn } from 'node:child_process'
import { constants } from 'node:fs'
import { access, realpath, stat } from 'node:fs/promises'
import { delimiter, isAbsolute, join } from 'node:path'

export type { AgentName } from '../../shared/model'
import type { AgentName } from '../../shared/model'

/** The executable `name` on the absolute entries of `path` (relative entries are skipped). */
export async function findOnPath(
  name: AgentName,
  path: string | undefined,
): Promise<string | null> {
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue
    const file = join(dir, name)
    try {
      await access(file, constants.X_OK)
      const real = await realpath(file)
      if ((await stat(real)).isFile()) return file
    } catch {
      // not here
    }
  }
  return null
}

export interface AgentRun {
  readonly code: number | null
  readonly output: string
  readonly hung: boolean
}

export interface AgentRunOptions {
  readonly cwd: string
  readonly env: Record<string, string>
  readonly limitMs: number
  /** Polled while the agent runs; once true, the agent is stopped (it has sent what we need). */
  readonly enough?: () => boolean
}

const OUTPUT_MAX = 64 * 1024

/** Run `bin args` to its exit, until `enough()`, or until the limit; output capped at 64 KB. */
export function runAgentProcess(
  bin: string,
  args: readonly string[],
  opts: AgentRunOptions,
): Promise<AgentRun> {
  return new Promise((resolvePromise) => {
    const child = spawn(bin, [...args], {
      cwd: opts.cwd,
      env: opts.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    let output = ''
    const keep = (d: Buffer): void => {
      if (output.length < OUTPUT_MAX)
        output += d.toString('utf8').slice(0, OUTPUT_MAX - output.length)
    }
    child.stdout.on('data', keep)
    child.stderr.on('data', keep)
    let hung = false
    const killGroup = (signal: NodeJS.Signals): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal)
      } catch {
        child.kill(signal)
      }
    }
    const limit = setTimeout(() => {
      hung = true
      killGroup('SIGKILL')
    }, opts.limitMs)
    const poll = setInterval(() => {
      if (opts.enough?.()) killGroup('SIGTERM')
    }, 100)
    let settled = false
    const done = (code: number | null): void => {
      if (settled) return
      settled = true
      clearTimeout(limit)
      clearInterval(poll)
      killGroup('SIGKILL')
      resolvePromise({ code, output, hung })
    }
    child.on('error', (err) => {
      output += String(err.message)
      done(null)
    })
    child.on('exit', (code) => done(code))
  })
}
