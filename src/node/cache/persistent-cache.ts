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
import { readTextFile } from '../fs/safe-read'
import { BoundedCache } from './bounded-cache'
import { fileIdentity } from './file-identity'

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
