/** The built CLI (`out/cli/index.js`) as a real process, with stdin given and a clean environment. */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'

export const CLI = resolve('out/cli/index.js')
export const cliBuilt = existsSync(CLI)

export function runCli(
  args: string[],
  env: Record<string, string>,
  stdin: string | null,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((ok) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('close', (code) => ok({ code: code ?? -1, stdout, stderr }))
    if (stdin !== null) child.stdin.end(stdin)
  })
}
