/**
 * Our hook's log: one line per failure, in our state folder (never the Claude home), so a hook
 * that stayed silent on error can still be diagnosed (issue 18 item 1). Bounded: past 256 KB
 * the log starts over. Writing the log never throws.
 */
import { appendFile, mkdir, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

const LOG_MAX_BYTES = 256 * 1024

export const hookLogPath = (stateDir: string): string => join(stateDir, 'hook.log')

export async function logHookFailure(stateDir: string, what: string, err: unknown): Promise<void> {
  try {
    await mkdir(stateDir, { recursive: true })
    const path = hookLogPath(stateDir)
    const size = await stat(path).then(
      (s) => s.size,
      () => 0,
    )
    const reason = (err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ')
    const line = `${new Date().toISOString()} ${what}: ${reason.slice(0, 1000)}\n`
    if (size > LOG_MAX_BYTES) await writeFile(path, line)
    else await appendFile(path, line)
  } catch {
    // Nowhere left to tell; the session must not notice.
  }
}
