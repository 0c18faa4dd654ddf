/**
 * Discovery: every project folder under `<claude home>/projects/`, what launch
 * directories its transcripts name, and what its memory folder holds (memory-facts §1).
 */
import type { Dirent } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { TRANSCRIPT_HEAD_MAX_BYTES } from '../../core/limits'
import type { MemoryFileInfo, ProjectInfo, Problem, ScanResult } from '../../shared/model'
import { parseFrontmatter, frontmatterString } from '../../core/markdown/frontmatter'
import { countLines } from '../../core/text'
import { findRepo, refusedRepo } from '../git/repo'
import { escapesFolder, realpathLoose } from '../fs/path-guard'
import { readTextFile } from '../fs/safe-read'
import type { TranscriptHeadRead } from '../transcripts/head'
import { readTranscriptHead } from '../transcripts/head'
import { SCAN_PROJECT_CONCURRENCY, SCAN_FILE_CONCURRENCY } from '../../core/limits'
import { mapLimited, createLimiter, type Limiter } from '../jobs/concurrency'

export interface ScanOptions {
  /** Called with the number of project folders finished and their total. */
  readonly onProgress?: (done: number, total: number) => void
  /** Aborting rejects the scan with the signal's reason. */
  readonly signal?: AbortSignal
}

/** Project folders scanned at once (each may start a `git` process). */
/** Files open at once across the whole scan, so 300 projects don't open 3,000 files. */

const INDEX_NAME = 'MEMORY.md'
const MEMORY_DIR_NAME = 'memory'
const SUBAGENTS_DIR_NAME = 'subagents'
/** Older layout: sub-agent transcripts beside the sessions (memory-facts §1, "Transcripts"). */
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
    const project = await scanProject(join(projectsDir, id), id, files)
    done++
    opts.onProgress?.(done, total)
    return project
  })
  opts.signal?.throwIfAborted()
  projects.sort((a, b) => compareNames(a.name, b.name) || compareStrings(a.id, b.id))
  return { claudeHome: home, projects, problems: [] }
}

// ---- one project -------------------------------------------------------------

/** A path from a directory listing; `listed` when the listing said regular file (not a symlink). */
interface Listed {
  readonly path: string
  readonly listed: boolean
}

interface Transcripts {
  readonly sessions: Listed[]
  readonly subagents: Listed[]
  readonly problems: Problem[]
  /** True when the listing showed `memory` as a real folder (not a symlink). */
  readonly memoryIsDir: boolean
}

async function scanProject(dir: string, id: string, files: Limiter): Promise<ProjectInfo> {
  const problems: Problem[] = []
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
      // Memory is keyed by the main worktree, not the launch directory (memory-facts §1).
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

  const memory = await scanMemory(join(dir, MEMORY_DIR_NAME), files, found.memoryIsDir)
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
  }
}

/** Session transcripts (`*.jsonl` directly in the folder) and sub-agent transcripts (memory-facts §1). */
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

async function readHead(item: Listed): Promise<Head> {
  return { path: item.path, read: await readTranscriptHead(item.path, { listedFile: item.listed }) }
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

/** Distinct cwds, the one of the most recently modified transcript first. */
function distinctCwds(heads: readonly Head[]): string[] {
  const ordered = heads
    .filter((h) => h.read.cwd !== null)
    .sort((a, b) => b.read.mtimeMs - a.read.mtimeMs || compareStrings(a.path, b.path))
  const seen = new Set<string>()
  for (const h of ordered) seen.add(h.read.cwd as string)
  return [...seen]
}

// ---- memory folder -------------------------------------------------------------

interface MemoryScan {
  readonly dir: string | null
  readonly files: MemoryFileInfo[]
  readonly problems: Problem[]
}

async function scanMemory(
  memoryDir: string,
  files: Limiter,
  listedAsDir: boolean,
): Promise<MemoryScan> {
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
  const paths: Listed[] = []
  await walkMarkdown(memoryDir, paths, problems)
  const indexPath = join(memoryDir, INDEX_NAME)
  // Only entries that are not plain files (symlinks, unknown kinds) need the real folder.
  let realDir: Promise<string> | null = null
  const realMemoryDir = (): Promise<string> => (realDir ??= realpathLoose(memoryDir))
  paths.sort((a, b) => compareStrings(a.path, b.path))
  const results = await Promise.all(
    paths.map((p) =>
      files(() => memoryFileInfo(p, p.path === indexPath ? 'index' : 'topic', realMemoryDir)),
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

/**
 * Collect `*.md` paths under `dir`. Directory symlinks are never followed, so a
 * symlink loop can't recurse; hidden folders (`.git`, editor state) hold no notes.
 */
async function walkMarkdown(dir: string, out: Listed[], problems: Problem[]): Promise<void> {
  let entries: Dirent[]
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch (err) {
    problems.push({ path: dir, reason: `cannot read folder: ${codeOf(err)}` })
    return
  }
  entries.sort((a, b) => compareStrings(a.name, b.name))
  for (const e of entries) {
    const path = join(dir, e.name)
    if (e.isDirectory()) {
      if (e.name === INDEX_NAME)
        problems.push({ path, reason: 'MEMORY.md is a directory, not a file' })
      if (!e.name.startsWith('.')) await walkMarkdown(path, out, problems)
    } else if (e.name.endsWith('.md')) {
      out.push({ path, listed: e.isFile() })
    }
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
): Promise<MemoryFileResult> {
  const { path } = item
  if (item.listed) {
    // A plain file reached through plain folders (walkMarkdown follows no symlink) is inside the
    // memory folder: no escape check. Anything unusual takes the full path below.
    const read = await readTextFile(path)
    if (read.ok) return { info: textInfo(path, role, read.text, read.bytes), problem: null }
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
    const code = codeOf(err)
    const reason =
      code === 'ENOENT'
        ? 'dangling symlink'
        : code === 'ELOOP'
          ? 'symlink loop'
          : `cannot stat: ${code}`
    return { info: null, problem: { path, reason } }
  }
  const read = await readTextFile(path)
  if (!read.ok)
    return { info: { path, role, lines: 0, bytes: size }, problem: { path, reason: read.reason } }
  return { info: textInfo(path, role, read.text, size), problem: null }
}

function textInfo(
  path: string,
  role: MemoryFileInfo['role'],
  text: string,
  bytes: number,
): MemoryFileInfo {
  return {
    path,
    role,
    lines: countLines(text),
    bytes,
    frontmatter: role === 'topic' ? topicFields(text) : null,
  }
}

// ---- helpers --------------------------------------------------------------------

/** name / description / type of a topic file's frontmatter, when it has one. */
function topicFields(text: string): MemoryFileInfo['frontmatter'] {
  const fm = parseFrontmatter(text)
  if (fm.kind !== 'ok') return null
  const pick = (k: string): string | undefined => frontmatterString(fm, k) ?? undefined
  return { name: pick('name'), description: pick('description'), type: pick('type') }
}

type DirKind = 'dir' | 'missing' | 'not-a-folder' | { readonly unreadable: string }

async function dirKind(path: string): Promise<DirKind> {
  try {
    return (await stat(path)).isDirectory() ? 'dir' : 'not-a-folder'
  } catch (err) {
    const code = codeOf(err)
    return code === 'ENOENT' ? 'missing' : { unreadable: code }
  }
}

function describe(kind: Exclude<DirKind, 'dir'>): string {
  if (kind === 'missing') return 'does not exist'
  if (kind === 'not-a-folder') return 'is not a folder'
  return `cannot be read: ${kind.unreadable}`
}

/** Last path segment, for either separator (cwds may come from Windows machines). */
function lastSegment(path: string): string {
  const parts = path.split(/[\\/]/).filter((s) => s !== '')
  return parts.length > 0 ? parts[parts.length - 1] : path
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** Names sort case-insensitively for a person, with a stable tie-break. */
function compareNames(a: string, b: string): number {
  return compareStrings(a.toLowerCase(), b.toLowerCase()) || compareStrings(a, b)
}

function codeOf(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? String(err)
}
