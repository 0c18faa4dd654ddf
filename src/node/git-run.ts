/**
 * Running real `git` safely: argument arrays (never a shell), bounded output,
 * a timeout, and no prompts. Parsing of its output lives in pure functions.
 */
import { spawn } from 'node:child_process'

export interface GitResult {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

export interface GitOptions {
  readonly cwd: string
  readonly timeoutMs?: number
  readonly maxBytes?: number
  readonly input?: string
}

/**
 * The environment git runs with: no prompts, no optional locks, C locale, and none of the
 * `GIT_DIR` / `GIT_WORK_TREE` / `GIT_INDEX_FILE` a hook may have set, which would point
 * every query at the wrong repository.
 */
export function cleanGitEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(base)) {
    if (k.startsWith('GIT_') && k !== 'GIT_EXEC_PATH' && k !== 'GIT_SSH_COMMAND') continue
    env[k] = v
  }
  return { ...env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' }
}

/** Run `git args...` in `cwd`; resolves with the exit code (never rejects on a git error). */
export function runGit(args: readonly string[], options: GitOptions): Promise<GitResult> {
  const { cwd, timeoutMs = 60_000, maxBytes = 512 * 1024 * 1024 } = options
  return new Promise((resolve) => {
    const child = spawn('git', ['-c', 'core.quotepath=off', ...args], {
      cwd,
      env: cleanGitEnv(),
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    })
    const out: Buffer[] = []
    const err: Buffer[] = []
    let size = 0
    let done = false
    const finish = (r: GitResult): void => {
      if (done) return
      done = true
      clearTimeout(timer)
      resolve(r)
    }
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      finish({ code: -1, stdout: '', stderr: `git ${args[0] ?? ''} timed out after ${timeoutMs} ms` })
    }, timeoutMs)
    child.stdout?.on('data', (d: Buffer) => {
      size += d.length
      if (size > maxBytes) {
        child.kill('SIGKILL')
        finish({ code: -1, stdout: '', stderr: `git ${args[0] ?? ''} output over ${maxBytes} bytes` })
        return
      }
      out.push(d)
    })
    child.stderr?.on('data', (d: Buffer) => err.push(d))
    child.on('error', (e) => finish({ code: -1, stdout: '', stderr: `cannot run git: ${e.message}` }))
    child.on('close', (code) =>
      finish({ code: code ?? -1, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }),
    )
    if (options.input !== undefined) {
      child.stdin?.end(options.input)
    }
  })
}
