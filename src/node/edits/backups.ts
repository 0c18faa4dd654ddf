/**
 * Our own backup store, kept beside every write and delete because the OS trash can fail
 * (docs/architecture.md §4.4). A backup is `<id>.bak` (the exact bytes) plus `<id>.json`
 * (what, where, why); nothing in the store is ever overwritten. The undo log beside it is
 * operation-log.ts; undoing an operation, undo.ts.
 */
import { createHash, randomBytes } from 'node:crypto'
import { mkdir, open, readdir, readFile, rm } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { ContentHash } from '../../core/content-hash'
import { isContentHash } from '../../core/content-hash'
import { z } from 'zod'
import type { Problem } from '../../shared/model'
import { describeFsError, fsFailure } from '../fs/fs-errors'

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
    return { ok: false, reason: fsFailure('create backup folder', dir, err) }
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
      return { ok: false, reason: fsFailure('write backup in', dir, err) }
    }
    try {
      await writeExclusive(
        join(dir, `${id}.json`),
        Buffer.from(`${JSON.stringify(meta, null, 2)}\n`),
      )
    } catch (err) {
      await removeQuietly(bakPath)
      await removeQuietly(join(dir, `${id}.json`))
      return { ok: false, reason: fsFailure('write backup in', dir, err) }
    }
    await syncDir(dir)
    return { ok: true, meta }
  }
  return { ok: false, reason: `cannot find a free backup name in ${dir}` }
}

async function removeQuietly(path: string): Promise<void> {
  await rm(path, { force: true }).catch(() => undefined)
}

/** A sidecar of ours: anything else in the folder is reported, never trusted. */
const backupMetaSchema = z.object({
  id: z.string().regex(ID_PATTERN),
  path: z.string(),
  hash: z.string().refine(isContentHash),
  size: z.number(),
  time: z.string(),
  reason: z.string(),
  operation: z.enum(['write', 'delete', 'raced']),
})

/** Check a parsed sidecar; null when it is not one of ours. */
function toMeta(value: unknown): BackupMeta | null {
  const r = backupMetaSchema.safeParse(value)
  return r.success ? r.data : null
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
    return { ok: false, reason: fsFailure('read backup', bakPath, err) }
  }
  if (createHash('sha256').update(bytes).digest('hex') !== meta.hash) {
    return {
      ok: false,
      reason: `backup ${bakPath} is damaged: its bytes no longer match the recorded hash`,
    }
  }
  return { ok: true, meta, bytes }
}
