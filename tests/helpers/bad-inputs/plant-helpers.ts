/**
 * Helpers that plant bad inputs: huge files written in chunks, named pipes, and transcript
 * lines of successful tool calls (a Write, the replay bomb's MultiEdit).
 */
import { execFileSync } from 'node:child_process'
import { closeSync, openSync, writeSync } from 'node:fs'
import { SESSION } from './tree'
import { replayBombInput } from './pathological-texts'

/** Write `bytes` bytes of `fill` lines without holding them all in memory twice. */
export function writeLarge(path: string, totalBytes: number, chunk: string): void {
  const fd = openSync(path, 'w')
  const buf = Buffer.from(chunk.repeat(Math.max(1, Math.floor((1024 * 1024) / chunk.length))))
  let written = 0
  while (written < totalBytes) {
    const n = Math.min(buf.length, totalBytes - written)
    writeSync(fd, buf, 0, n)
    written += n
  }
  closeSync(fd)
}

/** Make a named pipe at `path`. */
export function mkfifo(path: string): void {
  execFileSync('mkfifo', [path])
}

/** A successful tool call on `file`: the assistant's tool_use line and its result line. */
export function toolCall(
  file: string,
  id: string,
  at: { readonly use: string; readonly result: string },
  name: string,
  input: object,
  toolUseResult: object,
): string {
  return [
    JSON.stringify({
      type: 'assistant',
      sessionId: SESSION,
      cwd: '/x',
      gitBranch: 'main',
      uuid: `a-${id}`,
      timestamp: at.use,
      message: {
        id: `m-${id}`,
        role: 'assistant',
        content: [{ type: 'tool_use', id, name, input: { file_path: file, ...input } }],
      },
    }),
    JSON.stringify({
      type: 'user',
      sessionId: SESSION,
      uuid: `u-${id}`,
      timestamp: at.result,
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] },
      toolUseResult: { filePath: file, ...toolUseResult },
    }),
  ].join('\n')
}

/** A transcript line that writes `content` to `file` (a successful Write). */
export function writeCall(file: string, content: string, id: string): string {
  const at = { use: '2026-03-03T10:00:00.000Z', result: '2026-03-03T10:00:01.000Z' }
  return toolCall(file, id, at, 'Write', { content }, { type: 'update' })
}

/** A transcript line pair: a successful MultiEdit of `file` (the replay bomb). */
export function replayBombCall(file: string, id: string): string {
  const at = { use: '2026-03-03T10:00:02.000Z', result: '2026-03-03T10:00:03.000Z' }
  return toolCall(file, id, at, 'MultiEdit', replayBombInput(), replayBombInput())
}
