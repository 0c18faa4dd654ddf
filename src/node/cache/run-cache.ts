/**
 * A whole command's result kept on disk with the identity of every input it was computed from,
 * so the next run of the command over unchanged inputs only checks them and prints (issue 16:
 * a warm `provenance` was a third of a cold one, most of it loading modules that a warm run
 * does not need). Used by `provenance` (transcripts/provenance-inputs.ts names its inputs).
 *
 * Decisions:
 * - Inputs are of three kinds: files and folders named by their identity (cache/file-identity.ts:
 *   device, inode, size, mtime, ctime; a folder's changes when an entry is added, removed or
 *   renamed), and folders of our own state named by the sorted names in them (evidence entries
 *   are created once and never rewritten, so their names say everything, with no clock).
 * - Taken after the computation, never trusted when racy: a file or folder changed (ctime)
 *   after `RACY_MS` before the computation began may have changed after it read it, or may
 *   change again within the same clock tick; then nothing is saved. ctime is set by the kernel
 *   on every change and cannot be set back by `touch`.
 * - A hit needs every recorded input to have the same identity or the same names; any
 *   difference, a missing or unreadable entry, another key or another version is a miss.
 * - The key names what the result depends on besides inputs: the command's options, the homes,
 *   the Node version and the identity of the built code (a rebuild or an upgrade writes new files).
 * - Bounded: at most `MAX_INPUTS` inputs (more: not cached), `MAX_FILE_BYTES` per file (bigger:
 *   not saved, not loaded), `MAX_FILES` files in the folder (the oldest go first).
 * - A damaged, foreign or unreadable file is a miss and is replaced by the next save; a failed
 *   save leaves no temp file and changes nothing of the run.
 * - Kept ready to print (version 2): one line of JSON (version, key, inputs, the result's length
 *   in bytes), then the result's bytes as the command printed them. A hit reads one file, parses
 *   the line and hands the bytes back: no parse and re-serialisation of a 100 kB result, and a
 *   result cut short (another length) is a miss.
 * - The file is named by a 64-bit hash of the key (`keyHash`), not a cryptographic one: loading
 *   `node:crypto` was ~6 ms of a warm run, and two keys that share a name only replace each
 *   other's result (the key inside the file decides a hit).
 */
import {
  closeSync,
  constants as fsConstants,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { statsIdentity } from './file-identity'

/** Bump when the file layout changes. */
export const RUN_CACHE_VERSION = 2
/** Inputs recorded at most; a larger run is not cached. */
export const MAX_INPUTS = 200_000
/** Largest cache file written or read. */
export const MAX_FILE_BYTES = 64 * 1024 * 1024
/** Result files kept in one cache folder. */
export const MAX_FILES = 8
/** How long before the computation an input must have last changed to be trusted. */
export const RACY_MS = 3000

/** What a run read: paths by their identity, and our own folders by their entry names. */
export interface RunInputs {
  /** Files and folders whose identity (or absence) the result depends on. */
  readonly paths: readonly string[]
  /** Folders whose entry names the result depends on (absent: none). */
  readonly listings: readonly string[]
}

interface Recorded {
  readonly paths: readonly (readonly [string, string])[]
  readonly listings: readonly (readonly [string, string])[]
}

const MISSING = '-'
const NEWLINE = 0x0a

function identityOf(path: string): { id: string; changedMs: number } {
  try {
    // No exception for "nothing there" (a session without subagents is the common case).
    const st = statSync(path, { throwIfNoEntry: false })
    if (st === undefined) return { id: MISSING, changedMs: 0 }
    return { id: statsIdentity(st), changedMs: Math.max(st.mtimeMs, st.ctimeMs) }
  } catch (err) {
    // Only "nothing there" is an identity; any other failure is unknown (never a hit).
    const code = (err as NodeJS.ErrnoException).code
    return { id: code === 'ENOENT' || code === 'ENOTDIR' ? MISSING : '', changedMs: 0 }
  }
}

function namesOf(dir: string): string {
  try {
    return readdirSync(dir).sort().join('/')
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    return code === 'ENOENT' || code === 'ENOTDIR' ? MISSING : ''
  }
}

/** A 64-bit hash of `key`, 16 hex digits (FNV-1a and a second lane mixed otherwise): a file name. */
export function keyHash(key: string): string {
  let a = 0x811c9dc5
  let b = 0x050c5d1f
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i)
    a = Math.imul(a ^ c, 0x01000193)
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15)
  }
  const hex = (n: number): string => (n >>> 0).toString(16).padStart(8, '0')
  return hex(a) + hex(b)
}

/** The file holding the result for `key` inside `dir`. */
export function runCachePath(dir: string, key: string): string {
  return join(dir, `run-v${RUN_CACHE_VERSION}-${keyHash(key)}.json`)
}

/** The recorded inputs of a kept file's first line for `key`, or null when it is not one. */
function headerOf(line: string, key: string, bodyBytes: number): Recorded | null {
  let data: unknown
  try {
    data = JSON.parse(line)
  } catch {
    return null
  }
  const f = data as { version?: unknown; key?: unknown; inputs?: unknown; bytes?: unknown } | null
  if (typeof f !== 'object' || f === null || f.version !== RUN_CACHE_VERSION || f.key !== key)
    return null
  if (f.bytes !== bodyBytes) return null
  const inputs = f.inputs as Partial<Recorded> | null
  if (!isPairs(inputs?.paths) || !isPairs(inputs.listings)) return null
  return { paths: inputs.paths, listings: inputs.listings }
}

/**
 * The result saved for `key`, as the bytes saved, when every input it recorded is unchanged;
 * else null.
 */
export function loadRun(dir: string, key: string): Buffer | null {
  const buf = readSmall(runCachePath(dir, key))
  if (buf === null) return null
  const end = buf.indexOf(NEWLINE)
  if (end < 0) return null
  const inputs = headerOf(buf.toString('utf8', 0, end), key, buf.length - end - 1)
  if (inputs === null) return null
  for (const [path, id] of inputs.paths) {
    const now = identityOf(path).id
    if (now === '' || now !== id) return null
  }
  for (const [dir, names] of inputs.listings) {
    const now = namesOf(dir)
    if (now === '' || now !== names) return null
  }
  return buf.subarray(end + 1)
}

/**
 * Record `inputs` as they are now and save `result` (the text the command printed) for `key`,
 * unless an input is unknown, too many, or changed after `startedMs - RACY_MS` (see the
 * module's decisions). Returns why nothing was saved, or null when saved. Never throws.
 */
export function saveRun(
  dir: string,
  key: string,
  inputs: RunInputs,
  result: string,
  startedMs: number,
): string | null {
  if (inputs.paths.length + inputs.listings.length > MAX_INPUTS) return 'too many inputs'
  const paths: [string, string][] = []
  for (const path of inputs.paths) {
    const { id, changedMs } = identityOf(path)
    if (id === '') return `unknown input ${path}`
    if (changedMs > startedMs - RACY_MS) return `input changed too recently: ${path}`
    paths.push([path, id])
  }
  const listings: [string, string][] = []
  for (const d of inputs.listings) {
    const names = namesOf(d)
    if (names === '') return `unknown input ${d}`
    listings.push([d, names])
  }
  const body = Buffer.from(result)
  const head = JSON.stringify({
    version: RUN_CACHE_VERSION,
    key,
    inputs: { paths, listings },
    bytes: body.length,
  })
  const text = Buffer.concat([Buffer.from(`${head}\n`), body])
  if (text.length > MAX_FILE_BYTES) return 'result too large'
  const path = runCachePath(dir, key)
  const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`
  const tmp = `${path}.${process.pid}.${unique}.tmp`
  try {
    mkdirSync(dir, { recursive: true })
    writeFileSync(tmp, text)
    renameSync(tmp, path)
  } catch (err) {
    try {
      unlinkSync(tmp)
    } catch {
      // Never written.
    }
    return `not saved: ${(err as NodeJS.ErrnoException).code ?? String(err)}`
  }
  prune(dir, path)
  return null
}

/** Keep the newest `MAX_FILES` result files of `dir` (and never `keep`). */
function prune(dir: string, keep: string): void {
  try {
    const files = readdirSync(dir)
      .filter((n) => n.startsWith('run-v') && n.endsWith('.json'))
      .map((n) => join(dir, n))
      .filter((p) => p !== keep)
      .map((p) => ({ p, t: mtimeOf(p) }))
      .sort((a, b) => b.t - a.t)
    for (const { p } of files.slice(MAX_FILES - 1)) {
      try {
        unlinkSync(p)
      } catch {
        // Another process pruned it.
      }
    }
  } catch {
    // An unlistable folder: nothing to prune.
  }
}

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs
  } catch {
    return 0
  }
}

/** A regular file of at most MAX_FILE_BYTES, or null. */
function readSmall(path: string): Buffer | null {
  let fd: number
  try {
    fd = openSync(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK)
  } catch {
    return null
  }
  try {
    const st = fstatSync(fd)
    if (!st.isFile() || st.size > MAX_FILE_BYTES) return null
    const buf = Buffer.allocUnsafe(st.size)
    let got = 0
    while (got < st.size) {
      const n = readSync(fd, buf, got, st.size - got, got)
      if (n === 0) break
      got += n
    }
    return got === st.size ? buf : buf.subarray(0, got)
  } catch {
    return null
  } finally {
    closeSync(fd)
  }
}

function isPairs(v: unknown): v is [string, string][] {
  return (
    Array.isArray(v) &&
    v.every(
      (p) =>
        Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && typeof p[1] === 'string',
    )
  )
}
