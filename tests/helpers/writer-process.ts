/** Starts tests/helpers/concurrent-writer.mjs in its own process, for the concurrent-writer tests. */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const WRITER = fileURLToPath(new URL('./concurrent-writer.mjs', import.meta.url))

export type WriterMode = 'same-size' | 'truncate' | 'append' | 'rename-over' | 'delete-recreate'

/** The other writer; `running()` is false once it has exited. */
export function startWriter(
  file: string,
  mode: WriterMode,
  rounds: number,
  logPath: string,
  maxSleepMs: number,
): { running: () => boolean; exited: Promise<number | null>; stderr: () => string } {
  const child = spawn(
    process.execPath,
    [WRITER, file, mode, String(rounds), logPath, String(maxSleepMs)],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  )
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  let running = true
  const exited = new Promise<number | null>((res) =>
    child.on('exit', (code) => {
      running = false
      res(code)
    }),
  )
  return { running: () => running, exited, stderr: () => stderr }
}
