/**
 * A cache kept in a JSON file between runs (the transcript index, the provenance report), and
 * its parsed form kept in memory while the file keeps its identity: a long-lived back end reads
 * it once (issue 7: loading the index was a quarter of a warm run), and another process saving
 * the file gives it a new identity (the save renames a new file in: a new inode).
 *
 * Decisions:
 * - Written atomically: a temp file beside it, then a rename; a failed save is a problem, not
 *   an error, and leaves no temp file.
 * - Files larger than `maxBytes` are not loaded (rebuilt instead).
 * - A file is a JSON object with the layout's `version`; what else it holds is checked by the
 *   caller's `parse`. Anything of another version or refused by `parse` starts empty.
 */
import { randomBytes } from 'node:crypto'
import { mkdir, rename, unlink, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { Problem } from '../../shared/model'
import { TRANSCRIPT_INDEX_MAX_BYTES } from '../../core/limits'
import { readTextFile } from '../fs/safe-read'
import { BoundedCache } from './bounded-cache'
import { fileIdentity } from './file-identity'

/** Largest cache file loaded; a bigger one is rebuilt. */
const CACHE_FILE_MAX_BYTES = TRANSCRIPT_INDEX_MAX_BYTES

export interface PersistentCacheOptions<T> {
  /** The layout's version, written into every file; a file of another version starts empty. */
  readonly version: number
  /** Parsed files kept in memory at once. */
  readonly max: number
  /** Largest file loaded. */
  readonly maxBytes: number
  /** The cached value from the file's JSON object (of this version), or null when of another shape. */
  readonly parse: (data: Readonly<Record<string, unknown>>) => T | null
}

export class PersistentCache<T> {
  readonly #parsed: BoundedCache<string, T>

  constructor(private readonly options: PersistentCacheOptions<T>) {
    this.#parsed = new BoundedCache(options.max)
  }

  /**
   * The value the file at `path` holds, or null when it is missing, unreadable, too large, not
   * JSON or refused by `parse`. With `problems`, an unreadable or broken file is reported there.
   */
  async load(path: string, problems?: Problem[]): Promise<T | null> {
    const id = fileIdentity(path)
    const known = this.#parsed.get(path, id)
    if (known !== undefined) return known
    const read = await readTextFile(path, { maxBytes: this.options.maxBytes })
    if (!read.ok) {
      if (read.problem !== 'missing')
        problems?.push({ path, reason: `cache ignored: ${read.reason}` })
      return null
    }
    let data: unknown
    try {
      data = JSON.parse(read.text)
    } catch {
      problems?.push({ path, reason: 'cache ignored: not valid JSON' })
      return null
    }
    const file = data as { version?: unknown } | null
    if (typeof file !== 'object' || file === null || file.version !== this.options.version)
      return null
    const value = this.options.parse(file as Record<string, unknown>)
    if (value !== null) this.#parsed.set(path, value, id)
    return value
  }

  /**
   * Write `body` (with the layout's version) to `path` atomically and remember `value` as what
   * it holds; a failure is pushed to `problems`.
   */
  async save(
    path: string,
    body: Readonly<Record<string, unknown>>,
    value: T,
    problems: Problem[],
  ): Promise<void> {
    const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
    try {
      await mkdir(dirname(path), { recursive: true })
      await writeFile(tmp, JSON.stringify({ version: this.options.version, ...body }))
      await rename(tmp, path)
      this.#parsed.set(path, value, fileIdentity(path))
    } catch (err) {
      this.#parsed.delete(path)
      problems.push({
        path,
        reason: `cache not saved: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
      })
      await unlink(tmp).catch(() => undefined)
    }
  }

  /** Forget the parsed files (the files on disk stay). */
  clear(): void {
    this.#parsed.clear()
  }
}

export interface RecordsCacheOptions<T> {
  /** The layout's version (see PersistentCacheOptions). */
  readonly version: number
  /** Parsed files kept in memory at once. */
  readonly max: number
  /** The file's field naming what the records are valid for, and the field holding them. */
  readonly fields: { readonly key: string; readonly records: string }
  /** True for a well-formed record; others are dropped on load. */
  readonly isRecord: (value: unknown) => value is T
  /** The path a record is about (its key in the map). */
  readonly pathOf: (record: T) => string
}

/**
 * A persistent cache of records by path, valid for one key (the transcript index for a scope,
 * the provenance report for a set of histories): `{ version, <key>, <records>: [...] }` on disk.
 * A file saved for another key loads as empty.
 */
export class RecordsCache<T> {
  readonly #files: PersistentCache<{ readonly key: string; readonly records: Map<string, T> }>

  constructor(private readonly options: RecordsCacheOptions<T>) {
    const { fields, isRecord, pathOf } = options
    this.#files = new PersistentCache({
      version: options.version,
      max: options.max,
      maxBytes: CACHE_FILE_MAX_BYTES,
      parse: (data) => {
        const key = data[fields.key]
        const list = data[fields.records]
        if (typeof key !== 'string' || !Array.isArray(list)) return null
        const records = new Map<string, T>()
        for (const r of list) if (isRecord(r)) records.set(pathOf(r), r)
        return { key, records }
      },
    })
  }

  /** The records saved at `path` for `key`; empty when there are none (see PersistentCache.load). */
  async load(path: string, key: string, problems?: Problem[]): Promise<ReadonlyMap<string, T>> {
    const loaded = await this.#files.load(path, problems)
    return loaded?.key === key ? loaded.records : new Map<string, T>()
  }

  /** Save `records` at `path` as valid for `key` (see PersistentCache.save). */
  async save(path: string, key: string, records: readonly T[], problems: Problem[]): Promise<void> {
    const { fields, pathOf } = this.options
    const body = { [fields.key]: key, [fields.records]: records }
    const value = { key, records: new Map(records.map((r) => [pathOf(r), r])) }
    await this.#files.save(path, body, value, problems)
  }
}
