/**
 * Who wrote each memory note, from the transcripts of every project folder (memory-facts §1,
 * §5): worktree sessions keep their transcripts in their own project folder while their memory
 * writes land in the main repository's memory folder, so all folders are read.
 */
import { createHash, randomBytes } from 'node:crypto'
import { readdirSync, statSync, type Dirent } from 'node:fs'
import { mkdir, realpath, rename, unlink, writeFile } from 'node:fs/promises'
import { dirname, isAbsolute, join, resolve, sep } from 'node:path'
import type { Problem, ProvenanceFile, ProvenanceResult, ProvenanceWrite } from '../../shared/model'
import {
  attributeLines,
  findLostLines,
  orderByTime,
  replayWrites,
  type ReplayResult,
  type ReplayStep,
  type StepOutcome,
  type StepStatus,
} from '../../core/transcripts/replay'
import { countLines } from '../../core/text'
import type { ToolResultEvent, WriteCallEvent } from '../../core/transcripts/line'
import { TRANSCRIPT_INDEX_MAX_BYTES } from '../../core/limits'
import { readTextFile } from '../fs/safe-read'
import {
  mapWithWorkers,
  updateTranscriptIndex,
  type IndexEntry,
  type IndexScope,
} from './transcript-index'
import { syncSliceUsed, yieldIfSliceUsed, yieldToLoop } from './stream'

/** Memory files read at once for the report (only those with recorded writes are read). */
const MEMORY_READ_CONCURRENCY = 16
/** Folders listed at once when finding transcripts and memory files. */
const LIST_CONCURRENCY = 16

export interface ProvenanceOptions {
  readonly claudeHome: string
  /** The memory folder to report on. */
  readonly memoryDir?: string
  /** A project folder name under `<claudeHome>/projects`; its `memory/` is reported on. */
  readonly projectId?: string
  /** Folder for the transcript index cache; without it every run reads all transcripts. */
  readonly cacheDir?: string
  readonly onProgress?: (doneBytes: number, totalBytes: number) => void
  readonly signal?: AbortSignal
  /** Longest transcript line held in memory (default: the stream's cap). */
  readonly maxLineBytes?: number
}

export interface ProvenanceStats {
  /** Transcript files considered. */
  readonly files: number
  readonly bytesRead: number
  readonly linesParsed: number
  readonly skippedLines: number
  readonly cacheHits: number
}

export interface ProvenanceWriteInfo extends ProvenanceWrite {
  readonly toolUseId: string
  readonly agentId: string | null
  /** `ok` result, `failed` result, or `unknown` (no result in the transcript). */
  readonly status: StepStatus
  /** What the replay made of the call, with the reason when it was not applied. */
  readonly replay: StepOutcome['kind']
  readonly reason: string | null
}

export interface LostLineInfo {
  readonly text: string
  readonly addedBy: string
  readonly removedBy: string
  readonly addedAt: string
  readonly removedAt: string
  readonly removedByTool: ProvenanceWrite['tool']
  /** False when seen in replayed text that was a best guess (after an edit that could not be replayed). */
  readonly exact: boolean
}

export interface ProvenanceFileInfo extends ProvenanceFile {
  readonly writes: readonly ProvenanceWriteInfo[]
  readonly lost: readonly LostLineInfo[]
  /** Whether the file exists on disk now. */
  readonly exists: boolean
  /** Times the recorded `originalFile` disagreed with the replay: writes made outside any transcript found. */
  readonly drifts: number
}

export interface ProvenanceReport extends ProvenanceResult {
  readonly files: readonly ProvenanceFileInfo[]
  /** The memory folders reported on (empty when all of the Claude home's were). */
  readonly memoryDirs: readonly string[]
  readonly stats: ProvenanceStats
  readonly problems: readonly Problem[]
}

/** Who wrote one line of a memory file: the write that added it. */
export interface LineAttribution {
  /** 1-based line of the file on disk. */
  readonly line: number
  readonly sessionId: string
  readonly timestamp: string
  readonly transcript: string
  readonly tool: ProvenanceWrite['tool']
  readonly cwd: string
  readonly gitBranch: string
}

export interface LineAttributionResult {
  readonly file: string
  /** One item per line of the file on disk; null where no recorded write explains the line. */
  readonly lines: readonly (LineAttribution | null)[]
  readonly problems: readonly Problem[]
  readonly stats: ProvenanceStats
}

/** A recorded call with everything replay and reporting need. */
interface Call {
  readonly call: WriteCallEvent
  readonly path: string
  readonly transcript: string
  readonly result: ToolResultEvent | null
}

interface FileHistory {
  readonly path: string
  readonly calls: readonly Call[]
  readonly steps: readonly ReplayStep[]
  readonly replay: ReplayResult
}

interface Collected {
  readonly histories: Map<string, FileHistory>
  /** Existing memory files in the target folders. */
  readonly existing: readonly string[]
  readonly memoryDirs: readonly string[]
  readonly stats: ProvenanceStats
  readonly problems: Problem[]
  /** Names what the histories were built from (targets, and every transcript's size, mtime and offset). */
  readonly signature: string
}

/**
 * Provenance of every memory file in the target folder (or in every `<claudeHome>/projects/*\/memory/`
 * when none is given): its writes in time order and the lines parallel sessions lost.
 */
export async function provenance(options: ProvenanceOptions): Promise<ProvenanceReport> {
  const c = await collect(options, null)
  const paths = [...new Set([...c.histories.keys(), ...c.existing])].sort()
  // In its own subfolder: the cache folder's top level holds the transcript indexes.
  const reportDir =
    options.cacheDir !== undefined ? join(options.cacheDir, 'provenance-reports') : null
  const reportName = c.memoryDirs.length > 0 ? hashText(c.memoryDirs.join('\n')) : 'home'
  const cachePath =
    reportDir !== null && c.signature !== ''
      ? join(reportDir, `report-v${REPORT_CACHE_VERSION}-${reportName}.json`)
      : null
  const cached = cachePath
    ? await loadReportCache(cachePath, c.signature)
    : new Map<string, CachedFile>()
  const fresh = new Map<string, CachedFile>()
  // Only files with recorded writes need their text (to find lost lines); for the others the
  // folder listing already says they exist (issue 7: reading all 8,000 was 49% of a warm run).
  const files: { info: ProvenanceFileInfo; problem: Problem | null }[] = new Array(paths.length)
  const misses: { index: number; path: string; key: string | null; history: FileHistory }[] = []
  for (let index = 0; index < paths.length; index++) {
    if (syncSliceUsed()) await yieldToLoop()
    const path = paths[index]
    const history = c.histories.get(path)
    if (!history) {
      files[index] = {
        info: { path, writes: [], lost: [], exists: true, drifts: 0 },
        problem: null,
      }
      continue
    }
    // Same histories and the file unchanged since the last report: its result is reused.
    const key = fileKey(path)
    const hit = key !== null ? cached.get(path) : undefined
    if (hit && hit.key === key) {
      fresh.set(path, hit)
      files[index] = { info: hit.info, problem: hit.problem }
    } else misses.push({ index, path, key, history })
  }
  await mapWithWorkers(misses, MEMORY_READ_CONCURRENCY, async ({ index, path, key, history }) => {
    const current = await readTextFile(path, { lenient: true })
    const problem =
      !current.ok && current.problem !== 'missing' ? { path, reason: current.reason } : null
    const writes = history.calls.map((x, i) =>
      writeInfo(x, history.steps[i], history.replay.outcomes[i]),
    )
    const lost = findLostLines(history.replay, current.ok ? current.text : null).map(
      (l): LostLineInfo => ({
        text: l.text,
        addedBy: l.addedBy,
        removedBy: l.removedBy,
        addedAt: history.steps[l.addedStep].timestamp,
        removedAt: history.steps[l.removedStep].timestamp,
        removedByTool: history.steps[l.removedStep].input.tool,
        exact: l.exact,
      }),
    )
    const info = { path, writes, lost, exists: current.ok, drifts: history.replay.drifts }
    // The key is taken before the read: a file changed meanwhile is recomputed next time.
    if (key !== null) fresh.set(path, { key, info, problem })
    files[index] = { info, problem }
  })
  for (const f of files) if (f.problem) c.problems.push(f.problem)
  if (cachePath && reportDir !== null && (misses.length > 0 || fresh.size !== cached.size))
    await saveReportCache(reportDir, cachePath, c.signature, fresh, c.problems)
  return {
    files: files.map((f) => f.info),
    memoryDirs: c.memoryDirs,
    stats: c.stats,
    problems: c.problems,
  }
}

/** Bump when a report file's result or the cache layout changes. */
const REPORT_CACHE_VERSION = 1

interface CachedFile {
  /** `fileKey` of the memory file when its result was computed. */
  readonly key: string
  readonly info: ProvenanceFileInfo
  readonly problem: Problem | null
}

function hashText(text: string): string {
  return createHash('sha1').update(text).digest('hex').slice(0, 16)
}

/**
 * What a memory file's result depends on besides its history: size, mtime and ctime of what
 * the path names (symlinks followed, as the read does), or `missing`; null when unknown.
 */
function fileKey(path: string): string | null {
  try {
    const st = statSync(path)
    return st.isFile() ? `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}` : null
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : null
  }
}

/** Report caches this process last loaded or saved, by path, with the file's identity. */
const knownReports = new Map<
  string,
  { readonly id: string; readonly signature: string; readonly files: Map<string, CachedFile> }
>()

/** Size, mtime, ctime and inode of a report cache file (each save renames in a new one), or null. */
function reportFileId(path: string): string | null {
  try {
    const st = statSync(path)
    return st.isFile() ? `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}` : null
  } catch {
    return null
  }
}

/** The per-file results of the last report, if it was built from the same histories. */
async function loadReportCache(path: string, signature: string): Promise<Map<string, CachedFile>> {
  const id = reportFileId(path)
  const known = knownReports.get(path)
  if (id !== null && known?.id === id)
    return known.signature === signature ? known.files : new Map()
  const map = new Map<string, CachedFile>()
  const read = await readTextFile(path, { maxBytes: TRANSCRIPT_INDEX_MAX_BYTES })
  if (!read.ok) return map
  try {
    const data = JSON.parse(read.text) as {
      version?: unknown
      signature?: unknown
      files?: unknown
    }
    if (
      data.version !== REPORT_CACHE_VERSION ||
      data.signature !== signature ||
      !Array.isArray(data.files)
    )
      return map
    for (const f of data.files as CachedFile[]) {
      if (typeof f?.key === 'string' && typeof f.info?.path === 'string') map.set(f.info.path, f)
    }
    if (id !== null) knownReports.set(path, { id, signature, files: map })
  } catch {
    // A broken cache is rebuilt.
  }
  return map
}

/** Write the report cache atomically (temp file, then rename); a failure is a problem, not an error. */
async function saveReportCache(
  dir: string,
  path: string,
  signature: string,
  files: ReadonlyMap<string, CachedFile>,
  problems: Problem[],
): Promise<void> {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  const body = { version: REPORT_CACHE_VERSION, signature, files: [...files.values()] }
  try {
    await mkdir(dir, { recursive: true })
    await writeFile(tmp, JSON.stringify(body))
    await rename(tmp, path)
    const id = reportFileId(path)
    if (id !== null) knownReports.set(path, { id, signature, files: new Map(files) })
    else knownReports.delete(path)
  } catch (err) {
    problems.push({
      path,
      reason: `cache not saved: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
    })
    await unlink(tmp).catch(() => undefined)
  }
}

/**
 * Per line of a memory file on disk, the write that added it — the most precise answer to
 * "when was this note written" (memory-facts §1: transcripts are perishable, the file is not).
 */
export async function lineAttribution(
  options: ProvenanceOptions & { readonly file: string },
): Promise<LineAttributionResult> {
  const map = await lineAttributions({ ...options, files: [options.file] })
  const only = map.results[0]
  return { ...only, problems: [...map.problems, ...only.problems], stats: map.stats }
}

/** `lineAttribution` for several files with one pass over the transcripts. */
export async function lineAttributions(
  options: ProvenanceOptions & { readonly files: readonly string[] },
): Promise<{
  readonly results: readonly Omit<LineAttributionResult, 'stats'>[]
  readonly problems: readonly Problem[]
  readonly stats: ProvenanceStats
}> {
  const files = options.files.map((f) => resolve(f))
  const c = await collect(options, files)
  const results: Omit<LineAttributionResult, 'stats'>[] = []
  for (const file of files) results.push(await attributeFile(file, c))
  return { results, problems: c.problems, stats: c.stats }
}

/** Per line of `file` as it is on disk, the write that added it, from collected histories. */
async function attributeFile(
  file: string,
  c: Collected,
): Promise<Omit<LineAttributionResult, 'stats'>> {
  const current = await readTextFile(file, { lenient: true })
  if (!current.ok) return { file, lines: [], problems: [{ path: file, reason: current.reason }] }
  const history = c.histories.get(file)
  const owners = history ? attributeLines(current.text, history.replay) : null
  const count = owners?.length ?? countLines(current.text)
  const lines: (LineAttribution | null)[] = []
  for (let i = 0; i < count; i++) {
    const o = owners?.[i] ?? null
    if (o === null || !history) {
      lines.push(null)
      continue
    }
    const x = history.calls[o]
    lines.push({
      line: i + 1,
      sessionId: x.call.sessionId,
      timestamp: x.call.timestamp,
      transcript: x.transcript,
      tool: x.call.input.tool,
      cwd: x.call.cwd,
      gitBranch: x.call.gitBranch,
    })
  }
  return { file, lines, problems: [] }
}

/**
 * A "when was this line written" lookup for the audit (its `WrittenAtProvider` shape): the
 * timestamp of the write that added the line, from one attribution pass per file.
 */
export function writtenAtProvider(
  options: ProvenanceOptions,
): (
  file: string,
  line: number,
) => Promise<{ readonly at: string; readonly source: 'transcript' } | null> {
  // One pass over the transcripts per folder, not per file: a folder of 12,000 topic files
  // must not index the transcripts 12,000 times (issue 8, bad input).
  const perDir = new Map<string, Promise<Collected>>()
  const perFile = new Map<string, Promise<Omit<LineAttributionResult, 'stats'>>>()
  return async (file, line) => {
    const key = resolve(file)
    let hit = perFile.get(key)
    if (!hit) {
      const dir = dirname(key)
      let collected = perDir.get(dir)
      if (!collected) {
        collected = collect({ ...options, memoryDir: options.memoryDir ?? dir }, null)
        perDir.set(dir, collected)
      }
      hit = collected.then((c) => attributeFile(key, c))
      perFile.set(key, hit)
    }
    const owner = (await hit).lines[line - 1] ?? null
    return owner ? { at: owner.timestamp, source: 'transcript' } : null
  }
}

function writeInfo(x: Call, step: ReplayStep, outcome: StepOutcome): ProvenanceWriteInfo {
  return {
    sessionId: x.call.sessionId,
    timestamp: x.call.timestamp,
    cwd: x.call.cwd,
    gitBranch: x.call.gitBranch,
    tool: x.call.input.tool,
    transcript: x.transcript,
    // A call without a result counts as written only when a later anchor proved it took effect.
    ok: step.status === 'ok' || outcome.kind === 'applied',
    toolUseId: x.call.toolUseId,
    agentId: x.call.agentId,
    status: step.status,
    replay: outcome.kind,
    reason: outcome.kind === 'applied' ? null : outcome.reason,
  }
}

/** Path prefixes (with a trailing separator) under which a Claude home may be named. */
async function aliases(dir: string): Promise<string[]> {
  const out = [resolve(dir)]
  try {
    const real = await realpath(dir)
    if (real !== out[0]) out.push(real)
  } catch {
    // A folder that does not exist yet has only its resolved name.
  }
  return out
}

function withSep(p: string): string {
  return p.endsWith(sep) ? p : p + sep
}

/** The absolute path a call wrote, or null when it can't be known (relative path, no cwd). */
function callPath(call: WriteCallEvent): string | null {
  if (isAbsolute(call.filePath)) return resolve(call.filePath)
  return call.cwd !== '' && isAbsolute(call.cwd) ? resolve(call.cwd, call.filePath) : null
}

/** Is `p` inside `<home>/projects/<one folder>/memory/`? Returns the path under the canonical home. */
function inDefaultMemory(p: string, homes: readonly string[]): string | null {
  for (const home of homes) {
    const projects = withSep(join(home, 'projects'))
    if (!p.startsWith(projects)) continue
    const parts = p.slice(projects.length).split(sep)
    if (parts.length >= 3 && parts[0] !== '' && parts[1] === 'memory')
      return join(homes[0], 'projects', ...parts)
  }
  return null
}

/** Map `p` to the canonical spelling of the first target folder containing it, else null. */
function inTargets(p: string, targets: readonly (readonly string[])[]): string | null {
  for (const names of targets) {
    for (const name of names) {
      const prefix = withSep(name)
      if (p.startsWith(prefix)) return join(names[0], p.slice(prefix.length))
    }
  }
  return null
}

/** A needle for the prefilter only when the folder name is plain ASCII (JSON escapes nothing in it). */
function plainNeedle(name: string): string | null {
  return /^[A-Za-z0-9._ -]+$/.test(name) ? name : null
}

/**
 * A folder's entries, or null when it can't be listed (synchronous, a slice at a time: issue 7).
 * A folder listed before is only stat'ed: adding, removing or renaming an entry changes its
 * mtime. A listing is remembered only when the folder's mtime was already `RACY_MS` old when
 * it was taken, so a change in the same clock tick as the listing is never missed.
 */
async function listDir(path: string): Promise<Dirent[] | null> {
  await yieldIfSliceUsed()
  try {
    const before = statSync(path)
    const id = `${before.mtimeMs}:${before.ctimeMs}:${before.ino}:${before.dev}`
    const known = listings.get(path)
    if (known && known.id === id) return known.entries
    const entries = readdirSync(path, { withFileTypes: true })
    if (Date.now() - before.mtimeMs > RACY_MS) {
      if (listings.size >= LISTINGS_MAX) listings.clear()
      listings.set(path, { id, entries })
    } else listings.delete(path)
    return entries
  } catch {
    listings.delete(path)
    return null
  }
}

/** Listings by folder (a warm run lists ~800 folders again: a fifth of its time, issue 7). */
const listings = new Map<string, { readonly id: string; readonly entries: Dirent[] }>()
const LISTINGS_MAX = 50_000
/** How old a folder's mtime must be for its listing to be trusted later (coarse clocks, skew). */
const RACY_MS = 3000

/** Every transcript of the Claude home: `<p>/*.jsonl` (sessions and legacy `agent-*`) and `<p>/<s>/subagents/*.jsonl`. */
async function listTranscripts(
  projectsDir: string,
  problems: Problem[],
): Promise<{ transcripts: string[]; memoryDirs: string[] }> {
  const projects = await listDir(projectsDir)
  if (projects === null) {
    problems.push({ path: projectsDir, reason: 'no readable projects folder' })
    return { transcripts: [], memoryDirs: [] }
  }
  // Symlinked folders are not followed: nothing Claude writes is one, and they could loop.
  const dirs = projects.filter((p) => p.isDirectory()).map((p) => join(projectsDir, p.name))
  // Folders are listed concurrently; problems keep the folder order.
  const listed = await mapWithWorkers(dirs, LIST_CONCURRENCY, async (dir) => {
    const items = await listDir(dir)
    // An unlistable folder may still let its memory folder be listed: try it.
    if (items === null)
      return {
        paths: [],
        memory: true,
        problem: { path: dir, reason: 'unreadable project folder' },
      }
    const memory = items.some((it) => it.name === 'memory')
    const sessions = items.filter((it) => it.isDirectory() && it.name !== 'memory')
    const subs: (Dirent[] | null)[] = []
    for (const it of sessions) subs.push(await listDir(join(dir, it.name, 'subagents')))
    // The same listings as last time (same arrays): the same transcripts.
    const known = derivedTranscripts.get(items)
    if (
      known?.dir === dir &&
      known.subs.length === subs.length &&
      known.subs.every((x, i) => x === subs[i])
    )
      return { paths: known.paths, memory, problem: null }
    const paths: string[] = []
    let next = 0
    for (const it of items) {
      if (it.isFile() && it.name.endsWith('.jsonl')) paths.push(join(dir, it.name))
      else if (it.isDirectory() && it.name !== 'memory') {
        for (const s of subs[next++] ?? []) {
          if (s.isFile() && s.name.endsWith('.jsonl'))
            paths.push(join(dir, it.name, 'subagents', s.name))
        }
      }
    }
    derivedTranscripts.set(items, { dir, subs, paths })
    return { paths, memory, problem: null }
  })
  const out: string[] = []
  const memoryDirs: string[] = []
  listed.forEach((l, i) => {
    if (l.problem) problems.push(l.problem)
    out.push(...l.paths)
    // Listed once here instead of listing every project folder again (issue 7).
    if (l.memory) memoryDirs.push(join(dirs[i], 'memory'))
  })
  return { transcripts: out.sort(), memoryDirs }
}

/** Top-level `*.md` files of a memory folder (the index and topic files, memory-facts §1). */
async function memoryFiles(dir: string): Promise<string[]> {
  const items = await listDir(dir)
  if (items === null) return []
  // A remembered listing (the same array) gives the same files.
  const known = derivedFiles.get(items)
  if (known?.dir === dir) return known.files
  const files = items
    .filter((i) => i.isFile() && i.name.endsWith('.md'))
    .map((i) => join(dir, i.name))
  derivedFiles.set(items, { dir, files })
  return files
}

/** What was derived from a remembered listing (`listDir` returns the same array while it holds). */
const derivedFiles = new WeakMap<Dirent[], { readonly dir: string; readonly files: string[] }>()
const derivedTranscripts = new WeakMap<
  Dirent[],
  { readonly dir: string; readonly subs: readonly (Dirent[] | null)[]; readonly paths: string[] }
>()

/**
 * Read the index for the Claude home and group the kept calls by file. `onlyFiles` restricts
 * the result to those files (line attribution); the index scope stays the shared default
 * whenever the targets lie in the Claude home's memory folders, so the cache is reused.
 */
async function collect(
  options: ProvenanceOptions,
  onlyFiles: readonly string[] | null,
): Promise<Collected> {
  const problems: Problem[] = []
  const homes = await aliases(options.claudeHome)
  const projectsDir = join(homes[0], 'projects')
  let targetDirs: string[] | null = null
  if (options.memoryDir !== undefined) targetDirs = [resolve(options.memoryDir)]
  else if (options.projectId !== undefined) {
    const id = options.projectId
    if (id === '' || id === '.' || id === '..' || id.includes('/') || id.includes(sep)) {
      problems.push({
        path: projectsDir,
        reason: `not a project folder name: ${JSON.stringify(id)}`,
      })
      return {
        histories: new Map(),
        existing: [],
        memoryDirs: [],
        stats: emptyStats(),
        problems,
        signature: '',
      }
    }
    targetDirs = [join(projectsDir, id, 'memory')]
  } else if (onlyFiles !== null) targetDirs = [...new Set(onlyFiles.map((f) => dirname(f)))]

  const targetNames = targetDirs ? await Promise.all(targetDirs.map(aliases)) : null
  const allDefault =
    targetNames === null ||
    targetNames.every((names) => inDefaultMemory(withSep(names[0]) + 'x', homes) !== null)
  const scope: IndexScope = allDefault
    ? {
        key: JSON.stringify({ kind: 'claude-memory', homes }),
        pathNeedle: jsonPathNeedle('memory'),
        isTarget: (call) => {
          const p = callPath(call)
          return p !== null && inDefaultMemory(p, homes) !== null
        },
      }
    : {
        key: JSON.stringify({ kind: 'dirs', dirs: targetNames }),
        pathNeedle: commonNeedle(targetNames ?? []),
        isTarget: (call) => {
          const p = callPath(call)
          return p !== null && inTargets(p, targetNames ?? []) !== null
        },
      }

  const { transcripts, memoryDirs: homeMemoryDirs } = await listTranscripts(projectsDir, problems)
  const update = await updateTranscriptIndex({
    files: transcripts,
    scope,
    cacheDir: options.cacheDir,
    maxLineBytes: options.maxLineBytes,
    signal: options.signal,
    onProgress: options.onProgress,
  })
  problems.push(...update.problems)

  // The same index entries as a run before in this process: the same histories (issue 7).
  const sig = createHash('sha1').update(JSON.stringify([scope.key, targetNames, onlyFiles]))
  for (const e of update.entries) sig.update(`\n${e.path}\0${e.size}\0${e.mtimeMs}\0${e.offset}`)
  const signature = sig.digest('hex')
  const only = onlyFiles ? new Set(onlyFiles) : null
  const histories =
    knownHistories.get(signature) ??
    buildHistories(
      update.entries,
      (raw) => (targetNames ? inTargets(raw, targetNames) : inDefaultMemory(raw, homes)),
      only,
    )
  knownHistories.delete(signature)
  knownHistories.set(signature, histories)
  while (knownHistories.size > HISTORIES_MAX)
    knownHistories.delete(knownHistories.keys().next().value as string)

  const existing: string[] = []
  if (onlyFiles === null) {
    if (targetNames)
      for (const names of targetNames) existing.push(...(await memoryFiles(names[0])))
    else {
      const lists = await mapWithWorkers(homeMemoryDirs, LIST_CONCURRENCY, memoryFiles)
      for (const l of lists) existing.push(...l)
    }
  }
  const s = update.stats
  return {
    signature,
    histories,
    existing,
    memoryDirs: targetNames ? targetNames.map((n) => n[0]) : [],
    stats: {
      files: s.files,
      bytesRead: s.bytesRead,
      linesParsed: s.linesParsed,
      skippedLines: s.skippedLines,
      cacheHits: s.cacheHits,
    },
    problems,
  }
}

/** Histories by collect signature, newest last (a long-lived back end collects again and again). */
const knownHistories = new Map<string, Map<string, FileHistory>>()
const HISTORIES_MAX = 4

/** Group the kept calls by file, in time order, with their replay steps. */
function buildHistories(
  entries: readonly IndexEntry[],
  target: (raw: string) => string | null,
  only: ReadonlySet<string> | null,
): Map<string, FileHistory> {
  const results = new Map<string, ToolResultEvent>()
  for (const entry of entries) {
    for (const e of entry.events)
      if (e.kind === 'tool-result' && !results.has(e.toolUseId)) results.set(e.toolUseId, e)
  }
  const byFile = new Map<string, Call[]>()
  for (const entry of entries) {
    for (const e of entry.events) {
      if (e.kind !== 'write-call') continue
      const raw = callPath(e)
      if (raw === null) continue
      const path = target(raw)
      if (path === null || (only && !only.has(path))) continue
      const list = byFile.get(path) ?? []
      list.push({ call: e, path, transcript: entry.path, result: results.get(e.toolUseId) ?? null })
      byFile.set(path, list)
    }
  }

  const histories = new Map<string, FileHistory>()
  for (const [path, list] of byFile) {
    const calls = orderByTime(list.map((x) => ({ ...x, timestamp: x.call.timestamp })))
    const steps = calls.map((x): ReplayStep => ({
      sessionId: x.call.sessionId,
      timestamp: x.call.timestamp,
      input: x.result?.applied ?? x.call.input,
      status: x.result === null ? 'unknown' : x.result.ok ? 'ok' : 'failed',
      originalFile: x.result?.originalFile ?? null,
    }))
    // Replayed on first use: a warm report reuses most files' results without replaying them.
    let replay: ReplayResult | null = null
    histories.set(path, {
      path,
      calls,
      steps,
      get replay(): ReplayResult {
        replay ??= replayWrites(steps)
        return replay
      },
    })
  }
  return histories
}

/** The prefilter needle shared by all target folders: `/<their common last name>/`, if plain. */
function commonNeedle(targets: readonly (readonly string[])[]): string | null {
  const names = new Set(targets.map((n) => n[0].split(sep).filter(Boolean).pop() ?? ''))
  if (names.size !== 1) return null
  const name = plainNeedle([...names][0])
  return name === null ? null : jsonPathNeedle(name)
}

/** `<sep>name<sep>` as it appears inside a JSON string (a Windows `\\` is escaped there). */
function jsonPathNeedle(name: string): string {
  return JSON.stringify(`${sep}${name}${sep}`).slice(1, -1)
}

function emptyStats(): ProvenanceStats {
  return { files: 0, bytesRead: 0, linesParsed: 0, skippedLines: 0, cacheHits: 0 }
}
