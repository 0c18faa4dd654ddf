/**
 * One generated transcript of the bench home (docs/memory-rules.md §5): user and assistant lines with
 * tool calls and results as Claude Code writes them, progress noise, and Write calls on memory
 * files spread through the session. Deterministic from the seeded generator it is given.
 */
import { closeSync, openSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import type { Rng } from './prng'

const KiB = 1024

export interface MemoryFolder {
  readonly dir: string
  readonly index: string
  readonly topics: readonly { readonly file: string; readonly content: string }[]
}

const LOREM =
  'The build runs through electron-vite; tests use vitest with real git repositories in temp ' +
  'folders. When the index grows past its cutoff the newest notes fall off first, so keep the ' +
  'loaded head small. Retry the flaky upload twice before failing the job; the staging bucket ' +
  'is eventually consistent. Prefer small pull requests and run the linter before pushing. '

/** A long deterministic text to slice filler from without building strings per line. */
const FILLER = LOREM.repeat(Math.ceil((96 * KiB) / LOREM.length))

export function filler(rng: Rng, min: number, max: number): string {
  const n = rng.int(min, max)
  const start = rng.int(0, FILLER.length - n - 1)
  return FILLER.slice(start, start + n)
}

export function uuid(rng: Rng): string {
  const hex = (n: number): string =>
    Array.from({ length: n }, () => Math.floor(rng.next() * 16).toString(16)).join('')
  return `${hex(8)}-${hex(4)}-4${hex(3)}-8${hex(3)}-${hex(12)}`
}

export interface SessionSpec {
  readonly sessionId: string
  readonly cwd: string
  readonly branch: string
  readonly bytes: number
  readonly day: number
  readonly memory: MemoryFolder | null
  readonly agentId: string | null
}

/** Write one transcript of about `spec.bytes`; returns the bytes written and memory writes. */
export function writeSession(
  rng: Rng,
  path: string,
  spec: SessionSpec,
): { bytes: number; memoryWrites: number } {
  const fd = openSync(path, 'w')
  const chunk: string[] = []
  let pending = 0
  let bytes = 0
  const emit = (obj: unknown): void => {
    const line = JSON.stringify(obj) + '\n'
    chunk.push(line)
    const n = Buffer.byteLength(line)
    pending += n
    bytes += n
    if (pending > 1024 * KiB) flush()
  }
  const flush = (): void => {
    if (chunk.length > 0) writeSync(fd, chunk.join(''))
    chunk.length = 0
    pending = 0
  }
  const base = {
    isSidechain: spec.agentId !== null,
    userType: 'external',
    cwd: spec.cwd,
    sessionId: spec.sessionId,
    version: '2.1.70',
    gitBranch: spec.branch,
    ...(spec.agentId ? { agentId: spec.agentId } : {}),
  }
  const t0 = Date.UTC(2026, 0, 1) + spec.day * 3_600_000
  let n = 0
  const at = (): string => new Date(t0 + n * 1000).toISOString()
  /** An assistant or user line of this session; `message` runs after the line's uuid is drawn. */
  const line = (
    type: 'assistant' | 'user',
    message: () => unknown,
    extra: Record<string, unknown> = {},
  ): void =>
    emit({
      ...base,
      type,
      parentUuid: `p-${n}`,
      uuid: uuid(rng),
      timestamp: at(),
      message: message(),
      ...extra,
    })
  // Many real transcripts open with a snapshot line that names no cwd (docs/memory-rules.md §5.1).
  if (rng.chance(0.3)) {
    emit({
      type: 'file-history-snapshot',
      messageId: uuid(rng),
      snapshot: { trackedFileBackups: {} },
    })
  }
  emit({
    ...base,
    type: 'user',
    parentUuid: null,
    uuid: uuid(rng),
    timestamp: at(),
    message: { role: 'user', content: filler(rng, 40, 400) },
  })
  // Memory writes: a topic file and sometimes the index, written with their final text.
  const writes: { file: string; content: string }[] = []
  if (spec.memory && spec.memory.topics.length > 0 && rng.chance(0.3)) {
    const t = rng.pick(spec.memory.topics)
    writes.push({ file: join(spec.memory.dir, t.file), content: t.content })
  }
  if (spec.memory && rng.chance(0.1)) {
    writes.push({ file: join(spec.memory.dir, 'MEMORY.md'), content: spec.memory.index })
  }
  const planned = writes.length
  const emitWrite = (w: { file: string; content: string }): void => {
    const id = `toolu_${uuid(rng).replace(/-/g, '').slice(0, 24)}`
    line('assistant', () => ({
      id: `msg_w${n}`,
      role: 'assistant',
      content: [
        { type: 'tool_use', id, name: 'Write', input: { file_path: w.file, content: w.content } },
      ],
    }))
    line(
      'user',
      () => ({
        role: 'user',
        content: [
          {
            tool_use_id: id,
            type: 'tool_result',
            content: `File created successfully at: ${w.file}`,
          },
        ],
      }),
      {
        toolUseResult: {
          type: 'create',
          filePath: w.file,
          content: w.content,
          structuredPatch: [],
        },
      },
    )
  }
  let writeAt = writes.length > 0 ? rng.next() : 2
  while (bytes < spec.bytes) {
    n++
    const done = bytes / spec.bytes
    const w = writes.length > 0 && done >= writeAt ? writes.shift() : undefined
    if (w) {
      emitWrite(w)
      writeAt = done + rng.next() * (1 - done)
      continue
    }
    const tool = rng.pick(['Bash', 'Read', 'Grep', 'Glob'])
    const id = `toolu_${uuid(rng).replace(/-/g, '').slice(0, 24)}`
    const input =
      tool === 'Bash'
        ? { command: 'npm test -- --run', description: 'Run tests' }
        : tool === 'Read'
          ? { file_path: `${spec.cwd}/src/file${n % 50}.ts` }
          : { pattern: 'export function' }
    const result = filler(rng, 300, tool === 'Read' ? 9000 : 2500)
    const msgId = `msg_${n}`
    // One API message streamed as two lines (text, then the tool call), as Claude Code logs it.
    const reply = (content: unknown[], usage?: unknown) => ({
      id: msgId,
      type: 'message',
      role: 'assistant',
      model: 'claude-opus-4-5',
      content,
      ...(usage === undefined ? {} : { usage }),
    })
    line('assistant', () =>
      reply([{ type: 'text', text: filler(rng, 80, 900) }], {
        input_tokens: 5,
        output_tokens: 120,
      }),
    )
    line('assistant', () => reply([{ type: 'tool_use', id, name: tool, input }]))
    line(
      'user',
      () => ({
        role: 'user',
        content: [{ tool_use_id: id, type: 'tool_result', content: result }],
      }),
      { toolUseResult: { stdout: result, stderr: '', interrupted: false, isImage: false } },
    )
    if (rng.chance(0.5))
      emit({
        type: 'progress',
        sessionId: spec.sessionId,
        timestamp: at(),
        data: { type: 'hook_progress', hookEvent: 'PostToolUse' },
      })
  }
  // A write planned past the last exchange still happens, at the very end.
  for (const w of writes) emitWrite(w)
  flush()
  closeSync(fd)
  return { bytes, memoryWrites: planned }
}
