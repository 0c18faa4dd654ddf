/**
 * Searches of commits kept between command-line runs (issues 12 and 16: an audit "incremental
 * after a change"). A commit's tree never changes, so what a whole-tree `git grep` found there
 * for a needle holds for every later audit, whatever moved since; an audit of the same notes
 * after an edit of one asks git only for what that note added. Kept where the history log is
 * kept (history-store.ts `keepHistoryIn`: the command line's and the window's state folder;
 * tests keep nothing unless they name a folder).
 *
 * Decisions:
 * - One JSON file per work tree beside its kept log. Its header names the work tree and the
 *   build: the names and sizes of the running program's files (the bundler names each chunk by
 *   a hash of its content), so a build that reads code lines otherwise never reads another's
 *   answers. A file not ours, of another work tree or another build is ignored, never trusted.
 * - Values are what the caller keeps (JSON); a section per kind of search, keyed by commit
 *   then by needle. At most COMMITS_MAX commits a section, the least recently used dropped.
 * - Written once per audit (flushKeptSearches), atomically (a temp file, then a rename); a
 *   failed write costs only the next run's time, and a damaged file is read as none.
 */
import { createHash, randomBytes } from 'node:crypto'
import { readdirSync, statSync } from 'node:fs'
import { mkdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { keptFolder, keptLogPath } from './history-store'

const HEADER = 'memory-curator kept searches v1'
/** Commits kept per section (trees searched, heads walked). */
const COMMITS_MAX = 256
/** Largest file read back; a bigger one is searched again (and rewritten smaller). */
const KEPT_MAX_BYTES = 64 * 1024 * 1024
const SHA_RE = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/

type Section = Record<string, { used: number; values: Record<string, unknown> }>

export interface KeptSearches {
  /** What was kept for a needle (`key`) at a commit, in a section; undefined when nothing. */
  get(section: string, sha: string, key: string): unknown
  /** Keep a value (JSON) for a needle at a commit (40 or 64 hex digits; others are not kept). */
  keep(section: string, sha: string, key: string, value: unknown): void
}

interface Open extends KeptSearches {
  readonly file: string
  readonly root: string
  readonly sections: Record<string, Section>
  dirty: boolean
}

const opened = new Map<string, Promise<Open | null>>()
let build: string | null = null

/** The running build's identity: its folder's program files, by name and size. */
function buildId(): string {
  if (build !== null) return build
  const dir = dirname(fileURLToPath(import.meta.url))
  const h = createHash('sha256')
  try {
    for (const n of readdirSync(dir).sort())
      if (/\.(?:m?js|ts)$/.test(n)) h.update(`${n}\0${statSync(join(dir, n)).size}\0`)
  } catch {
    h.update(String(Date.now())) // unreadable: this run's answers are its own
  }
  build = h.digest('hex').slice(0, 32)
  return build
}

/** The kept searches of a work tree, or null when this process keeps none. */
export function keptSearches(root: string): Promise<KeptSearches | null> {
  const dir = keptFolder()
  if (dir === null) return Promise.resolve(null)
  const file = keptLogPath(dir, root).replace(/\.log$/, '.searches.json')
  let hit = opened.get(file)
  if (!hit) {
    hit = openKept(file, root)
    opened.set(file, hit)
  }
  return hit
}

async function openKept(file: string, root: string): Promise<Open> {
  const sections: Record<string, Section> = Object.create(null) as Record<string, Section>
  try {
    const st = await stat(file)
    if (st.isFile() && st.size <= KEPT_MAX_BYTES) {
      const data = JSON.parse(await readFile(file, 'utf8')) as {
        kind?: unknown
        root?: unknown
        build?: unknown
        sections?: unknown
      }
      if (
        data.kind === HEADER &&
        data.root === root &&
        data.build === buildId() &&
        typeof data.sections === 'object' &&
        data.sections !== null
      )
        for (const [name, section] of Object.entries(data.sections as Record<string, unknown>)) {
          if (typeof section !== 'object' || section === null) continue
          const s: Section = Object.create(null) as Section
          for (const [sha, at] of Object.entries(section as Record<string, unknown>)) {
            const a = at as { used?: unknown; values?: unknown } | null
            if (!SHA_RE.test(sha) || typeof a?.used !== 'number') continue
            if (typeof a.values !== 'object' || a.values === null) continue
            s[sha] = { used: a.used, values: Object.assign(Object.create(null), a.values) }
          }
          sections[name] = s
        }
    }
  } catch {
    // None, damaged or unreadable: searched again.
  }
  const now = Date.now()
  const kept: Open = {
    file,
    root,
    sections,
    dirty: false,
    get(section, sha, key) {
      const at = sections[section]?.[sha]
      if (at === undefined) return undefined
      if (at.used !== now) {
        at.used = now
        kept.dirty = true
      }
      return at.values[key]
    },
    keep(section, sha, key, value) {
      if (!SHA_RE.test(sha)) return
      const s = (sections[section] ??= Object.create(null) as Section)
      const at = (s[sha] ??= { used: now, values: Object.create(null) as Record<string, unknown> })
      at.used = now
      at.values[key] = value
      kept.dirty = true
    },
  }
  return kept
}

/** Write every kept search that changed since it was read (the end of an audit). */
export async function flushKeptSearches(): Promise<void> {
  for (const [file, p] of [...opened]) {
    opened.delete(file)
    const kept = await p
    if (!kept?.dirty) continue
    for (const s of Object.values(kept.sections)) {
      const order = Object.entries(s).sort((a, b) => b[1].used - a[1].used)
      for (const [sha] of order.slice(COMMITS_MAX)) delete s[sha]
    }
    const text = JSON.stringify({
      kind: HEADER,
      root: kept.root,
      build: buildId(),
      sections: kept.sections,
    })
    if (text.length > KEPT_MAX_BYTES) continue
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
    try {
      await mkdir(dirname(file), { recursive: true })
      await writeFile(tmp, text)
      await rename(tmp, file)
    } catch {
      await unlink(tmp).catch(() => undefined)
    }
  }
}
