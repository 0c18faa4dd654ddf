/**
 * Our own backup store and undo log, kept beside every write and delete because the OS
 * trash can fail (architecture.md, habit 4). A backup is `<id>.bak` (the exact bytes) plus
 * `<id>.json` (what, where, why); nothing in the store is ever overwritten. The undo log is
 * append-only JSONL, so it survives restarts and a torn last line loses only that line.
 */
import { createHash, randomBytes } from 'node:crypto'
import { mkdir, open, readdir, readFile, rm } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { ContentHash } from '../../core/content-hash'
import { isContentHash } from '../../core/content-hash'
import type { Problem } from '../../shared/model'
import type { TrashFn } from './safe-write'
import { safeDelete, safeWriteBytes } from './safe-write'

/** Why a backup was taken: before a write, before a delete, or a version caught in a race. */
export type BackupOperation = 'write' | 'delete' | 'raced'

export interface BackupMeta {
  readonly id: string
  /** Absolute path of the file the bytes came from (as the caller named it). */
  readonly path: string
  readonly hash: ContentHash
  readonly size: number
  /** ISO time the backup was taken. */
  readonly time: string
  readonly reason: string
  readonly operation: BackupOperation
}

export type BackupCreated =
  { readonly ok: true; readonly meta: BackupMeta } | { readonly ok: false; readonly reason: string }

export type BackupRead =
  | { readonly ok: true; readonly meta: BackupMeta; readonly bytes: Buffer }
  | { readonly ok: false; readonly reason: string }

export interface BackupList {
  /** Oldest first (ids sort by time). */
  readonly backups: readonly BackupMeta[]
  readonly problems: readonly Problem[]
}

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

export type UndoResult =
  | {
      readonly kind: 'undone'
      /** The logged undo; null only if appending to the log failed (see warning). */
      readonly operation: OperationRecord | null
      /** Backup of the bytes the undo replaced or removed. */
      readonly backupId: string | null
      readonly warning?: string
    }
  | {
      readonly kind: 'conflict'
      readonly currentHash: ContentHash | null
      readonly currentText: string | null
    }
  | { readonly kind: 'error'; readonly reason: string }

const LOG_NAME = 'operations.jsonl'
const ID_PATTERN = /^[0-9A-Za-z-]{1,80}$/

let lastIdMs = 0
let idSeq = 0

/**
 * A new id that sorts by time as a string: `YYYYMMDDTHHMMSSmmmZ-<seq>-<random>`. The clock
 * is kept monotonic within a process; the random part keeps processes apart.
 */
export function newStoreId(now: number = Date.now()): string {
  const ms = Math.max(now, lastIdMs)
  lastIdMs = ms
  idSeq = (idSeq + 1) % 1_000_000
  const stamp = new Date(ms).toISOString().replace(/[-:.]/g, '')
  return `${stamp}-${String(idSeq).padStart(6, '0')}-${randomBytes(3).toString('hex')}`
}

/** Plain words for a failed file-system call (ENOSPC → "disk full", …). */
export function describeFsError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code
  switch (code) {
    case 'ENOSPC':
      return 'disk full (ENOSPC)'
    case 'EDQUOT':
      return 'disk quota exceeded (EDQUOT)'
    case 'EACCES':
    case 'EPERM':
      return `permission denied (${code})`
    case 'EROFS':
      return 'read-only file system (EROFS)'
    case 'ENOENT':
      return 'no such file or folder (ENOENT)'
    case 'ENOTDIR':
      return 'a part of the path is not a folder (ENOTDIR)'
    case 'EISDIR':
      return 'is a folder (EISDIR)'
    case 'ENAMETOOLONG':
      return 'name too long (ENAMETOOLONG)'
    case 'EMFILE':
    case 'ENFILE':
      return `too many open files (${code})`
    case 'EIO':
      return 'input/output error (EIO)'
    default:
      return code ? code : err instanceof Error ? err.message : String(err)
  }
}

/** fsync a folder so a new or renamed entry survives a crash; not every platform allows it. */
export async function syncDir(dir: string): Promise<void> {
  let handle
  try {
    handle = await open(dir, 'r')
    await handle.sync()
  } catch {
    // Windows and some file systems refuse fsync on folders; the data itself is synced.
  } finally {
    await handle?.close().catch(() => undefined)
  }
}

/** Create `path` exclusively (never overwriting), write all bytes and fsync. */
async function writeExclusive(path: string, bytes: Uint8Array): Promise<void> {
  const handle = await open(path, 'wx', 0o600)
  try {
    await handle.writeFile(bytes)
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/**
 * Store `bytes` as a new backup of `path`. The bytes file is written first and the sidecar
 * last, so a backup listed by its sidecar always has its bytes.
 */
export async function createBackup(
  dir: string,
  input: {
    readonly path: string
    readonly bytes: Uint8Array
    readonly reason: string
    readonly operation: BackupOperation
  },
): Promise<BackupCreated> {
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 })
  } catch (err) {
    return { ok: false, reason: `cannot create backup folder ${dir}: ${describeFsError(err)}` }
  }
  const hash = createHash('sha256').update(input.bytes).digest('hex')
  for (let attempt = 0; attempt < 5; attempt++) {
    const id = newStoreId()
    const meta: BackupMeta = {
      id,
      path: resolve(input.path),
      hash,
      size: input.bytes.length,
      time: new Date().toISOString(),
      reason: input.reason,
      operation: input.operation,
    }
    const bakPath = join(dir, `${id}.bak`)
    try {
      await writeExclusive(bakPath, input.bytes)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue
      await removeQuietly(bakPath)
      return { ok: false, reason: `cannot write backup in ${dir}: ${describeFsError(err)}` }
    }
    try {
      await writeExclusive(
        join(dir, `${id}.json`),
        Buffer.from(`${JSON.stringify(meta, null, 2)}\n`),
      )
    } catch (err) {
      await removeQuietly(bakPath)
      await removeQuietly(join(dir, `${id}.json`))
      return { ok: false, reason: `cannot write backup in ${dir}: ${describeFsError(err)}` }
    }
    await syncDir(dir)
    return { ok: true, meta }
  }
  return { ok: false, reason: `cannot find a free backup name in ${dir}` }
}

async function removeQuietly(path: string): Promise<void> {
  await rm(path, { force: true }).catch(() => undefined)
}

/** Check a parsed sidecar; null when it is not one of ours. */
function toMeta(value: unknown): BackupMeta | null {
  if (typeof value !== 'object' || value === null) return null
  const v = value as Record<string, unknown>
  const ops: readonly string[] = ['write', 'delete', 'raced']
  if (
    typeof v.id !== 'string' ||
    !ID_PATTERN.test(v.id) ||
    typeof v.path !== 'string' ||
    !isContentHash(v.hash) ||
    typeof v.size !== 'number' ||
    typeof v.time !== 'string' ||
    typeof v.reason !== 'string' ||
    typeof v.operation !== 'string' ||
    !ops.includes(v.operation)
  ) {
    return null
  }
  return {
    id: v.id,
    path: v.path,
    hash: v.hash,
    size: v.size,
    time: v.time,
    reason: v.reason,
    operation: v.operation as BackupOperation,
  }
}

/** Every backup in `dir` (optionally only those of `path`), oldest first; a missing folder is empty. */
export async function listBackups(dir: string, path?: string): Promise<BackupList> {
  let names: string[]
  try {
    names = await readdir(dir)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { backups: [], problems: [] }
    return {
      backups: [],
      problems: [{ path: dir, reason: `cannot list backups: ${describeFsError(err)}` }],
    }
  }
  const wanted = path === undefined ? undefined : resolve(path)
  const backups: BackupMeta[] = []
  const problems: Problem[] = []
  for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
    const file = join(dir, name)
    let meta: BackupMeta | null
    try {
      meta = toMeta(JSON.parse(await readFile(file, 'utf8')))
    } catch {
      meta = null
    }
    if (meta === null || `${meta.id}.json` !== name) {
      problems.push({ path: file, reason: 'not a valid backup sidecar' })
      continue
    }
    if (wanted === undefined || meta.path === wanted) backups.push(meta)
  }
  return { backups, problems }
}

/** One backup's record and exact bytes; refuses bytes that no longer match the recorded hash. */
export async function readBackup(dir: string, id: string): Promise<BackupRead> {
  if (!ID_PATTERN.test(id)) return { ok: false, reason: `not a backup id: ${JSON.stringify(id)}` }
  const sidecar = join(dir, `${id}.json`)
  let meta: BackupMeta | null
  try {
    meta = toMeta(JSON.parse(await readFile(sidecar, 'utf8')))
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return { ok: false, reason: `no backup ${id} in ${dir}` }
    return {
      ok: false,
      reason: `cannot read backup record ${sidecar}: ${code ? describeFsError(err) : 'invalid JSON'}`,
    }
  }
  if (meta === null || meta.id !== id)
    return { ok: false, reason: `${sidecar} is not a valid backup record` }
  const bakPath = join(dir, `${id}.bak`)
  let bytes: Buffer
  try {
    bytes = await readFile(bakPath)
  } catch (err) {
    return { ok: false, reason: `cannot read backup ${bakPath}: ${describeFsError(err)}` }
  }
  if (createHash('sha256').update(bytes).digest('hex') !== meta.hash) {
    return {
      ok: false,
      reason: `backup ${bakPath} is damaged: its bytes no longer match the recorded hash`,
    }
  }
  return { ok: true, meta, bytes }
}

// ---- undo log ---------------------------------------------------------------------------

function toOperation(value: unknown): OperationRecord | null {
  if (typeof value !== 'object' || value === null) return null
  const v = value as Record<string, unknown>
  const hashOrNull = (h: unknown): h is ContentHash | null => h === null || isContentHash(h)
  if (
    typeof v.id !== 'string' ||
    (v.op !== 'write' && v.op !== 'delete') ||
    typeof v.path !== 'string' ||
    !hashOrNull(v.beforeHash) ||
    !hashOrNull(v.afterHash) ||
    !(v.backupId === null || typeof v.backupId === 'string') ||
    typeof v.time !== 'string' ||
    !(v.reason === undefined || typeof v.reason === 'string') ||
    !(v.undoes === undefined || typeof v.undoes === 'string')
  ) {
    return null
  }
  return {
    id: v.id,
    op: v.op,
    path: v.path,
    beforeHash: v.beforeHash,
    afterHash: v.afterHash,
    backupId: v.backupId,
    time: v.time,
    ...(v.reason === undefined ? {} : { reason: v.reason }),
    ...(v.undoes === undefined ? {} : { undoes: v.undoes }),
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
    return { ok: false, reason: `cannot append to undo log ${logPath}: ${describeFsError(err)}` }
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

/**
 * The newest operation that can still be undone: not itself an undo and not undone yet.
 * Undoing repeatedly walks back through history, like an editor's undo stack.
 */
export function pickLastUndoable(
  operations: readonly OperationRecord[],
  path?: string,
): OperationRecord | null {
  const undone = new Set(operations.flatMap((o) => (o.undoes === undefined ? [] : [o.undoes])))
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

function warn(warning: string | undefined): { readonly warning?: string } {
  return warning === undefined ? {} : { warning }
}

export interface UndoOptions {
  /** How to remove a file when undoing its creation; null removes it (our backup keeps the bytes). */
  readonly trash?: TrashFn | null
}

/**
 * Reverse operation `opId`: put the backed-up bytes back (a write or delete), or remove a
 * file the operation created. Compare-and-swap against the operation's result, so a file
 * changed since is reported as a conflict and left alone. The undo is itself logged.
 */
export async function undo(
  dir: string,
  opId: string,
  options: UndoOptions = {},
): Promise<UndoResult> {
  const { operations } = await readOperations(dir)
  const op = operations.find((o) => o.id === opId)
  if (op === undefined)
    return { kind: 'error', reason: `no operation ${opId} in the undo log of ${dir}` }
  if (operations.some((o) => o.undoes === opId)) {
    return { kind: 'error', reason: `operation ${opId} on ${op.path} was already undone` }
  }
  const reason = `undo ${op.id}`
  if (op.beforeHash === null) {
    // The operation created the file: undoing it removes the file (after a backup).
    if (op.afterHash === null) return { kind: 'error', reason: `operation ${opId} changed nothing` }
    const res = await safeDelete({
      path: op.path,
      expectedHash: op.afterHash,
      backupsDir: dir,
      trash: options.trash ?? null,
      reason,
      undoes: op.id,
    })
    if (res.kind === 'deleted') {
      return {
        kind: 'undone',
        operation: res.operation,
        backupId: res.backupId,
        ...warn(res.warning),
      }
    }
    if (res.kind === 'conflict')
      return { kind: 'conflict', currentHash: res.currentHash, currentText: res.currentText }
    return { kind: 'error', reason: res.reason }
  }
  if (op.backupId === null)
    return { kind: 'error', reason: `operation ${opId} has no backup to restore` }
  const backup = await readBackup(dir, op.backupId)
  if (!backup.ok) return { kind: 'error', reason: backup.reason }
  if (backup.meta.hash !== op.beforeHash) {
    return {
      kind: 'error',
      reason: `backup ${op.backupId} does not hold the version operation ${opId} replaced`,
    }
  }
  const res = await safeWriteBytes({
    path: op.path,
    expectedHash: op.afterHash,
    newBytes: backup.bytes,
    backupsDir: dir,
    reason,
    undoes: op.id,
  })
  if (res.kind === 'written') {
    return {
      kind: 'undone',
      operation: res.operation,
      backupId: res.backupId,
      ...warn(res.warning),
    }
  }
  if (res.kind === 'conflict')
    return { kind: 'conflict', currentHash: res.currentHash, currentText: res.currentText }
  return res
}
