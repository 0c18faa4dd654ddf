/**
 * The undo log: one JSON line per write or delete, appended with O_APPEND + fsync so it
 * survives restarts, and a line torn by a crash loses only that line. `undoes` marks an
 * operation that reversed an earlier one.
 */
import { mkdir, open, readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { ContentHash } from '../../core/content-hash'
import { isContentHash } from '../../core/content-hash'
import { z } from 'zod'
import type { Problem } from '../../shared/model'
import { describeFsError, fsFailure } from '../fs/fs-errors'
import { newStoreId } from './backups'

/** One line of the undo log. `undoes` marks an operation that reversed an earlier one. */
export interface OperationRecord {
  readonly id: string
  readonly op: 'write' | 'delete'
  readonly path: string
  /** Hash before the operation; null when the file did not exist. */
  readonly beforeHash: ContentHash | null
  /** Hash after the operation; null when the operation removed the file. */
  readonly afterHash: ContentHash | null
  readonly backupId: string | null
  readonly time: string
  readonly reason?: string
  readonly undoes?: string
}

export type OperationInput = Omit<OperationRecord, 'id' | 'time'>

export interface OperationLog {
  /** In the order they were appended. */
  readonly operations: readonly OperationRecord[]
  readonly problems: readonly Problem[]
}

const LOG_NAME = 'operations.jsonl'

const hashOrNull = z.string().refine(isContentHash).nullable()
const operationSchema = z.object({
  id: z.string(),
  op: z.enum(['write', 'delete']),
  path: z.string(),
  beforeHash: hashOrNull,
  afterHash: hashOrNull,
  backupId: z.string().nullable(),
  time: z.string(),
  reason: z.string().optional(),
  undoes: z.string().optional(),
})

/** Check a parsed log line; null when it is not an operation record. */
function toOperation(value: unknown): OperationRecord | null {
  const r = operationSchema.safeParse(value)
  if (!r.success) return null
  const { reason, undoes, ...rest } = r.data
  return {
    ...rest,
    ...(reason === undefined ? {} : { reason }),
    ...(undoes === undefined ? {} : { undoes }),
  }
}

/** Parse undo-log text; malformed lines (e.g. one torn by a crash) become problems. */
export function parseOperationLog(text: string, logPath: string): OperationLog {
  const operations: OperationRecord[] = []
  const problems: Problem[] = []
  const lines = text.split('\n')
  lines.forEach((line, i) => {
    if (line.trim() === '') return
    let op: OperationRecord | null
    try {
      op = toOperation(JSON.parse(line))
    } catch {
      op = null
    }
    if (op === null)
      problems.push({ path: logPath, reason: `line ${i + 1}: not a valid operation record` })
    else operations.push(op)
  })
  return { operations, problems }
}

/** Append one operation to the undo log (O_APPEND + fsync) and return it with its id and time. */
export async function recordOperation(
  dir: string,
  input: OperationInput,
): Promise<
  | { readonly ok: true; readonly operation: OperationRecord }
  | { readonly ok: false; readonly reason: string }
> {
  const operation: OperationRecord = {
    id: newStoreId(),
    time: new Date().toISOString(),
    ...input,
    path: resolve(input.path),
  }
  const logPath = join(dir, LOG_NAME)
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 })
    const handle = await open(logPath, 'a+', 0o600)
    try {
      // A line torn by a power cut must not swallow this one: start on a fresh line.
      const { size } = await handle.stat()
      let lead = ''
      if (size > 0) {
        const last = Buffer.alloc(1)
        await handle.read(last, 0, 1, size - 1)
        if (last[0] !== 0x0a) lead = '\n'
      }
      // One write call per line: small O_APPEND writes land whole, even from two processes.
      await handle.write(`${lead}${JSON.stringify(operation)}\n`)
      await handle.sync()
    } finally {
      await handle.close()
    }
  } catch (err) {
    return { ok: false, reason: fsFailure('append to undo log', logPath, err) }
  }
  return { ok: true, operation }
}

/** Every operation in the undo log of `dir`; a missing log is empty. */
export async function readOperations(dir: string): Promise<OperationLog> {
  const logPath = join(dir, LOG_NAME)
  let text: string
  try {
    text = await readFile(logPath, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { operations: [], problems: [] }
    return {
      operations: [],
      problems: [{ path: logPath, reason: `cannot read undo log: ${describeFsError(err)}` }],
    }
  }
  return parseOperationLog(text, logPath)
}

/** Ids of the operations an undo in `operations` reversed. */
export function undoneIds(operations: readonly OperationRecord[]): Set<string> {
  return new Set(operations.flatMap((o) => (o.undoes === undefined ? [] : [o.undoes])))
}

/**
 * The newest operation that can still be undone: not itself an undo and not undone yet.
 * Undoing repeatedly walks back through history, like an editor's undo stack.
 */
export function pickLastUndoable(
  operations: readonly OperationRecord[],
  path?: string,
): OperationRecord | null {
  const undone = undoneIds(operations)
  const wanted = path === undefined ? undefined : resolve(path)
  for (let i = operations.length - 1; i >= 0; i--) {
    const o = operations[i]
    if (o.undoes !== undefined || undone.has(o.id)) continue
    if (wanted !== undefined && o.path !== wanted) continue
    return o
  }
  return null
}

/** The newest undoable operation recorded in `dir` (optionally for one path). */
export async function lastUndoable(dir: string, path?: string): Promise<OperationRecord | null> {
  return pickLastUndoable((await readOperations(dir)).operations, path)
}
