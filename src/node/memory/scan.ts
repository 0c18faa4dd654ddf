/**
 * Discovery: every project folder under `<claude home>/projects/`, what launch
 * directories its transcripts name, and what its memory folder holds (docs/memory-rules.md §1;
 * the memory folder itself is read by memory-folder-scan.ts).
 */
import type { Dirent, Stats } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { TRANSCRIPT_HEAD_MAX_BYTES } from '../../core/limits'
import type { ProjectInfo, Problem, ScanResult } from '../../shared/model'
import { findRepo, refusedRepo } from '../git/repo'
import type { TranscriptHeadRead } from '../transcripts/head'
import { readTranscriptHead } from '../transcripts/head'
import { SCAN_PROJECT_CONCURRENCY, SCAN_FILE_CONCURRENCY } from '../../core/limits'
import { mapLimited, createLimiter, type Limiter } from '../jobs/concurrency'
import { statsIdentity, type Identity } from '../cache/file-identity'
import { scanMemory } from './memory-folder-scan'
import type { ScanCacheSession } from './scan-cache'
import type { ScanWitness } from './scan-witness'
import { codeOf, compareStrings, describe, dirKind, type Listed } from './scan-fs'

export interface ScanOptions {
  /** Called with the number of project folders finished and their total. */
  readonly onProgress?: (done: number, total: number) => void
  /** Aborting rejects the scan with the signal's reason. */
  readonly signal?: AbortSignal
  /** Readings kept from earlier scans (scan-cache.ts); the caller finishes the session. */
  readonly cache?: ScanCacheSession | null
  /** Told what the scan reads as it reads it (scan-witness.ts). */
  readonly witness?: ScanWitness | null
}

const MEMORY_DIR_NAME = 'memory'
const SUBAGENTS_DIR_NAME = 'subagents'
/** Older layout: sub-agent transcripts beside the sessions (docs/memory-rules.md §1.4 "Transcripts"). */
const LEGACY_AGENT_PREFIX = 'agent-'

/**
 * Scan `<claudeHome>/projects/`: one entry per project folder, sorted by name then id.
 * Never throws for bad input; problems come back as values with a path and a reason.
 */
export async function scanClaudeHome(
  claudeHome: string,
  opts: ScanOptions = {},
): Promise<ScanResult> {
  const home = resolve(claudeHome)
  const projectsDir = join(home, 'projects')
  opts.signal?.throwIfAborted()
  const witness = opts.witness ?? null
  witness?.folder(projectsDir)

  const homeKind = await dirKind(home)
  if (homeKind !== 'dir') {
    return {
      claudeHome: home,
      projects: [],
      problems: [{ path: home, reason: `Claude home ${describe(homeKind)}` }],
    }
  }
  const projKind = await dirKind(projectsDir)
  // Before Claude Code's first session there is no projects folder: no projects, not a problem (issue 14).
  if (projKind === 'missing') return { claudeHome: home, projects: [], problems: [] }
  if (projKind !== 'dir') {
    const reason = `projects folder ${describe(projKind)}`
    return { claudeHome: home, projects: [], problems: [{ path: projectsDir, reason }] }
  }
  let entries: Dirent[]
  try {
    entries = await readdir(projectsDir, { withFileTypes: true })
    witness?.listed(
      projectsDir,
      entries.map((e) => e.name),
    )
  } catch (err) {
    return {
      claudeHome: home,
      projects: [],
      problems: [{ path: projectsDir, reason: `cannot read projects folder: ${codeOf(err)}` }],
    }
  }

  const ids: string[] = []
  for (const e of entries) {
    if (
      e.isDirectory() ||
      (e.isSymbolicLink() && (await dirKind(join(projectsDir, e.name))) === 'dir')
    ) {
      ids.push(e.name)
    }
  }
  ids.sort(compareStrings)

  const files = createLimiter(SCAN_FILE_CONCURRENCY)
  const total = ids.length
  let done = 0
  opts.onProgress?.(0, total)
  const projects = await mapLimited(ids, SCAN_PROJECT_CONCURRENCY, async (id) => {
    opts.signal?.throwIfAborted()
    const project = await scanProject(join(projectsDir, id), id, files, opts.cache ?? null, witness)
    done++
    opts.onProgress?.(done, total)
    return project
  })
  opts.signal?.throwIfAborted()
  projects.sort((a, b) => compareNames(a.name, b.name) || compareStrings(a.id, b.id))
  return { claudeHome: home, projects, problems: [] }
}

// ---- one project -------------------------------------------------------------

interface Transcripts {
  readonly sessions: Listed[]
  readonly subagents: Listed[]
  readonly problems: Problem[]
  /** True when the listing showed `memory` as a real folder (not a symlink). */
  readonly memoryIsDir: boolean
}

async function scanProject(
  dir: string,
  id: string,
  files: Limiter,
  cache: ScanCacheSession | null,
  witness: ScanWitness | null,
): Promise<ProjectInfo> {
  const problems: Problem[] = []
  const readHead = (item: Listed): Promise<Head> => headOf(item, cache)
  witness?.folder(dir)
  const found = await listTranscripts(dir)
  problems.push(...found.problems)

  const sessionHeads = await Promise.all(found.sessions.map((p) => files(() => readHead(p))))
  const sessions = sessionHeads.filter((h) => h.read.isFile).length
  let heads = sessionHeads
  if (!heads.some((h) => h.read.cwd !== null)) {
    // No session names its cwd: fall back to sub-agent transcripts, which carry the same cwd.
    const agentHeads = await Promise.all(found.subagents.map((p) => files(() => readHead(p))))
    heads = [...sessionHeads, ...agentHeads]
  }
  for (const h of heads) problems.push(...headProblems(h))
  const cwds = distinctCwds(heads)
  if (found.sessions.length === 0 && found.subagents.length === 0) {
    problems.push({ path: dir, reason: 'no transcripts: the launch directory is unknown' })
  } else if (cwds.length === 0) {
    problems.push({
      path: dir,
      reason: 'no transcript names a cwd: the launch directory is unknown',
    })
  }

  let repoRoot: string | null = null
  for (const cwd of cwds) {
    const repo = await findRepo(cwd)
    if (repo) {
      // Memory is keyed by the main worktree, not the launch directory (docs/memory-rules.md §1.5).
      repoRoot = repo.mainRoot
      break
    }
  }
  // A repository git refuses (another owner, a config include, a foreign `.git` file) is not
  // audited; the project says why instead of looking like a folder outside git.
  if (repoRoot === null) {
    for (const cwd of cwds) {
      const refused = await refusedRepo(cwd)
      if (refused !== null) {
        problems.push({ path: cwd, reason: `its repository is not read: ${refused}` })
        break
      }
    }
  }

  const memory = await scanMemory(join(dir, MEMORY_DIR_NAME), files, found.memoryIsDir, {
    cache,
    witness,
  })
  problems.push(...memory.problems)

  return {
    id,
    dir,
    cwds,
    repoRoot,
    sessions,
    memoryDir: memory.dir,
    memoryFiles: memory.files,
    name: cwds.length > 0 ? lastSegment(cwds[0]) : id,
    problems,
    lastActivity: newestWrite(heads),
  }
}

/** Session transcripts (`*.jsonl` directly in the folder) and sub-agent transcripts (docs/memory-rules.md §1.4). */
async function listTranscripts(dir: string): Promise<Transcripts> {
  const sessions: Listed[] = []
  const problems: Problem[] = []
  let entries: Dirent[]
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch (err) {
    return {
      sessions,
      subagents: [],
      problems: [{ path: dir, reason: `cannot read project folder: ${codeOf(err)}` }],
      memoryIsDir: false,
    }
  }
  entries.sort((a, b) => compareStrings(a.name, b.name))
  // Sub-agent folders are listed at once; their results keep the order of the entries.
  const subagentGroups: Promise<Listed[]>[] = []
  let memoryIsDir = false
  for (const e of entries) {
    const path = join(dir, e.name)
    if (e.isDirectory()) {
      if (e.name === MEMORY_DIR_NAME) memoryIsDir = true
      else subagentGroups.push(listJsonl(join(path, SUBAGENTS_DIR_NAME)))
    } else if (e.name.endsWith('.jsonl')) {
      const item = { path, listed: e.isFile() }
      if (e.name.startsWith(LEGACY_AGENT_PREFIX)) subagentGroups.push(Promise.resolve([item]))
      else sessions.push(item)
    }
  }
  const subagents = (await Promise.all(subagentGroups)).flat()
  return { sessions, subagents, problems, memoryIsDir }
}

/** `*.jsonl` entries in a folder, or none when it is missing or unreadable. */
async function listJsonl(dir: string): Promise<Listed[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true })
    return entries
      .filter((e) => e.name.endsWith('.jsonl'))
      .sort((a, b) => compareStrings(a.name, b.name))
      .map((e) => ({ path: join(dir, e.name), listed: e.isFile() }))
  } catch {
    return []
  }
}

interface Head {
  readonly path: string
  readonly read: TranscriptHeadRead
}

/** The head of a transcript; a listed plain file's is kept between scans while unchanged. */
async function headOf(item: Listed, cache: ScanCacheSession | null): Promise<Head> {
  const { path, listed } = item
  if (!cache || !listed)
    return { path, read: await readTranscriptHead(path, { listedFile: listed }) }
  const kept = await cache.head(path)
  if (kept) return { path, read: kept }
  let id: Identity | null = null
  const onStat = (st: Stats): void => void (id = statsIdentity(st))
  const read = await readTranscriptHead(path, { listedFile: true, onStat })
  if (id !== null) cache.keepHead(path, id, read)
  return { path, read }
}

/** One problem per transcript: unreadable, or how many of its head lines are malformed. */
function headProblems(h: Head): Problem[] {
  if (h.read.problem) return [h.read.problem]
  const { badLines, linesRead, cut } = h.read
  if (badLines === 0) return []
  const noun = badLines === 1 ? 'line' : 'lines'
  // Only a first line can be both cut and counted (see cutTranscriptHeadLine).
  const why =
    cut && linesRead === 1 ? `, longer than the ${TRANSCRIPT_HEAD_MAX_BYTES}-byte head` : ''
  return [{ path: h.path, reason: `${badLines} malformed ${noun} in the first ${linesRead}${why}` }]
}

/** When the newest transcript was last written (ISO), or null without one. */
function newestWrite(heads: readonly Head[]): string | null {
  let newest = -Infinity
  for (const h of heads) if (h.read.isFile && h.read.mtimeMs > newest) newest = h.read.mtimeMs
  return Number.isFinite(newest) ? new Date(newest).toISOString() : null
}

/** Distinct cwds, the one of the most recently modified transcript first. */
function distinctCwds(heads: readonly Head[]): string[] {
  const ordered = heads
    .filter((h) => h.read.cwd !== null)
    .sort((a, b) => b.read.mtimeMs - a.read.mtimeMs || compareStrings(a.path, b.path))
  const seen = new Set<string>()
  for (const h of ordered) seen.add(h.read.cwd as string)
  return [...seen]
}

/** Last path segment, for either separator (cwds may come from Windows machines). */
function lastSegment(path: string): string {
  const parts = path.split(/[\\/]/).filter((s) => s !== '')
  return parts.length > 0 ? parts[parts.length - 1] : path
}

/** Names sort case-insensitively for a person, with a stable tie-break. */
function compareNames(a: string, b: string): number {
  return compareStrings(a.toLowerCase(), b.toLowerCase()) || compareStrings(a, b)
}
