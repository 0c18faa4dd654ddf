/**
 * One memory folder as the scan reports it: the files of the one listing (memory-folder.ts,
 * the same the audit reads), with their size, line count and, for topic files, the
 * frontmatter fields (docs/memory-rules.md §1).
 */
import type { Stats } from 'node:fs'
import { lstat, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { MemoryFileInfo, Problem } from '../../shared/model'
import { parseFrontmatter, frontmatterString } from '../../core/markdown/frontmatter'
import { countLines } from '../../core/text'
import { escapesFolder, realpathLoose } from '../fs/path-guard'
import { readTextFile } from '../fs/safe-read'
import type { Limiter } from '../jobs/concurrency'
import { statsIdentity, type Identity } from '../cache/file-identity'
import type { MemoryFacts, ScanCacheSession } from './scan-cache'
import type { ScanWitness } from './scan-witness'
import { listMemoryFolder, statProblem } from './memory-folder'
import { codeOf, compareStrings, describe, dirKind, type Listed } from './scan-fs'

const INDEX_NAME = 'MEMORY.md'

interface MemoryScan {
  readonly dir: string | null
  readonly files: MemoryFileInfo[]
  readonly problems: Problem[]
}

export async function scanMemory(
  memoryDir: string,
  files: Limiter,
  listedAsDir: boolean,
  seen: {
    readonly cache?: ScanCacheSession | null
    readonly witness?: ScanWitness | null
  } = {},
): Promise<MemoryScan> {
  const cache = seen.cache ?? null
  const witness = seen.witness ?? null
  const kind = listedAsDir ? 'dir' : await dirKind(memoryDir)
  if (kind === 'missing') return { dir: null, files: [], problems: [] }
  if (kind !== 'dir') {
    return {
      dir: null,
      files: [],
      problems: [{ path: memoryDir, reason: `memory folder ${describe(kind)}` }],
    }
  }
  const problems: Problem[] = []
  // The one listing every feature uses (memory-folder.ts): the same files as the audit's.
  const listing = await listMemoryFolder(memoryDir, INDEX_NAME, witness)
  problems.push(...listing.problems)
  const paths: Listed[] = listing.files.map((name) => ({
    path: join(memoryDir, ...name.split('/')),
    listed: !listing.linked.has(name),
  }))
  const indexPath = join(memoryDir, INDEX_NAME)
  // An index the listing could not list (a folder, a FIFO, a dangling link) is reported there.
  const index = listing.problems.some((p) => p.path === indexPath)
    ? null
    : await indexEntry(memoryDir)
  if (index) paths.push(index)
  // Only entries that are not plain files (symlinks, unknown kinds) need the real folder.
  let realDir: Promise<string> | null = null
  const realMemoryDir = (): Promise<string> => (realDir ??= realpathLoose(memoryDir))
  paths.sort((a, b) => compareStrings(a.path, b.path))
  const results = await Promise.all(
    paths.map((p) =>
      files(() =>
        memoryFileInfo(p, p.path === indexPath ? 'index' : 'topic', realMemoryDir, {
          cache,
          witness,
        }),
      ),
    ),
  )
  const found: MemoryFileInfo[] = []
  for (const r of results) {
    if (r.info) found.push(r.info)
    if (r.problem) problems.push(r.problem)
  }
  found.sort((a, b) =>
    a.role === b.role ? compareStrings(a.path, b.path) : a.role === 'index' ? -1 : 1,
  )
  return { dir: memoryDir, files: found, problems }
}

/** The index as a listed path, when the folder has a `MEMORY.md` that is not a folder. */
async function indexEntry(memoryDir: string): Promise<Listed | null> {
  const path = join(memoryDir, INDEX_NAME)
  try {
    const st = await lstat(path)
    return st.isDirectory() ? null : { path, listed: st.isFile() }
  } catch {
    return null
  }
}

interface MemoryFileResult {
  /** Null when the path is not a regular file, so it is no memory file at all. */
  readonly info: MemoryFileInfo | null
  readonly problem: Problem | null
}

/** Size and line count of one memory file (0 lines when it can't be read as text). */
async function memoryFileInfo(
  item: Listed,
  role: MemoryFileInfo['role'],
  realMemoryDir: () => Promise<string>,
  { cache, witness }: { cache: ScanCacheSession | null; witness: ScanWitness | null },
): Promise<MemoryFileResult> {
  const { path } = item
  let id: Identity | null = null
  const onStat = (st: Stats): void => void (id = statsIdentity(st))
  if (item.listed) {
    // A plain file reached through plain folders (walkMarkdown follows no symlink) is inside the
    // memory folder: no escape check. Anything unusual takes the full path below.
    const kept = cache ? await cache.memory(path, role) : null
    if (kept) {
      witness?.file(path, kept.id)
      return { info: infoOf(path, kept.facts), problem: null }
    }
    const read = await readTextFile(path, { onStat })
    witness?.file(path, id)
    if (read.ok) {
      const facts = textFacts(role, read.text, read.bytes)
      if (cache && id !== null) cache.keepMemory(path, id, facts)
      return { info: infoOf(path, facts), problem: null }
    }
  }
  let size: number
  if (await escapesFolder(path, await realMemoryDir())) {
    return {
      info: null,
      problem: { path, reason: 'symlink leads outside the memory folder; not followed' },
    }
  }
  try {
    const st = await stat(path)
    // A symlink to a folder is never followed (see walkMarkdown).
    if (st.isDirectory())
      return { info: null, problem: { path, reason: 'symlink to a folder, not followed' } }
    if (!st.isFile()) {
      return {
        info: null,
        problem: { path, reason: 'not a regular file (FIFO, socket or device)' },
      }
    }
    size = st.size
  } catch (err) {
    return { info: null, problem: { path, reason: statProblem(codeOf(err)) } }
  }
  id = null
  const read = await readTextFile(path, { onStat })
  witness?.file(path, id)
  if (!read.ok)
    return { info: { path, role, lines: 0, bytes: size }, problem: { path, reason: read.reason } }
  return { info: infoOf(path, textFacts(role, read.text, size)), problem: null }
}

/** What a memory file's text says (kept by the scan cache while the file is unchanged). */
function textFacts(role: MemoryFileInfo['role'], text: string, bytes: number): MemoryFacts {
  return {
    role,
    lines: countLines(text),
    bytes,
    frontmatter: role === 'topic' ? topicFields(text) : null,
    heading: role === 'index' ? firstHeading(text) : null,
  }
}

/** The scan's entry for a memory file; the same shape whether its facts were read or kept. */
function infoOf(path: string, f: MemoryFacts): MemoryFileInfo {
  const fm = f.frontmatter
  return {
    path,
    role: f.role,
    lines: f.lines,
    bytes: f.bytes,
    frontmatter:
      f.role === 'topic' && fm
        ? { name: fm.name, description: fm.description, type: fm.type }
        : null,
    ...(f.role === 'index' ? { heading: f.heading } : {}),
  }
}

/** Longest index heading kept as a project's name. */
const HEADING_MAX = 80

/** The first ATX heading of the index's first lines, trimmed, or null. */
function firstHeading(text: string): string | null {
  const head = text.slice(0, 4096).split(/\r?\n/, 40)
  for (const line of head) {
    const m = /^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$/.exec(line)
    if (m) return m[1].trim().slice(0, HEADING_MAX) || null
  }
  return null
}

// ---- helpers --------------------------------------------------------------------

/** name / description / type of a topic file's frontmatter, when it has one. */
function topicFields(text: string): MemoryFileInfo['frontmatter'] {
  const fm = parseFrontmatter(text)
  if (fm.kind !== 'ok') return null
  const pick = (k: string): string | undefined => frontmatterString(fm, k) ?? undefined
  return { name: pick('name'), description: pick('description'), type: pick('type') }
}
