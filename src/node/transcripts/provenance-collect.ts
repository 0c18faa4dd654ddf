/**
 * Reading the transcript index for a Claude home and grouping the kept write calls by memory
 * file, in time order, with their replay steps: the histories a provenance report and a line
 * attribution are built from. Which calls count is decided by path: a call is kept when the
 * file it wrote lies in a target memory folder (any spelling of it: symlinks, the home's alias).
 */
import { createHash } from 'node:crypto'
import { realpath, stat } from 'node:fs/promises'
import { dirname, isAbsolute, join, resolve, sep } from 'node:path'
import type { Problem } from '../../shared/model'
import {
  orderByTime,
  replayWrites,
  type ReplayResult,
  type ReplayStep,
} from '../../core/transcripts/replay'
import type { ToolResultEvent, WriteCallEvent } from '../../core/transcripts/line'
import { BoundedCache } from '../cache/bounded-cache'
import { mapLimited } from '../jobs/concurrency'
import { updateTranscriptIndex, type IndexEntry, type IndexScope } from './transcript-index'
import { LIST_CONCURRENCY, listTranscripts } from './transcript-listing'
import { listMemoryFolder, MEMORY_INDEX_NAME } from '../memory/memory-folder'
import type {
  Call,
  Collected,
  FileHistory,
  ProvenanceOptions,
  ProvenanceStats,
} from './provenance-types'

/**
 * Read the index for the Claude home and group the kept calls by file. `onlyFiles` restricts
 * the result to those files (line attribution); the index scope stays the shared default
 * whenever the targets lie in the Claude home's memory folders, so the cache is reused.
 */
export async function collect(
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
  knownHistories.set(signature, histories)

  const existing: string[] = []
  if (onlyFiles === null) {
    // The one listing of a memory folder (memory-folder.ts): topic files at any depth, as the audit sees them.
    const dirs = targetNames ? targetNames.map((names) => names[0]) : homeMemoryDirs
    const lists = await mapLimited(dirs, LIST_CONCURRENCY, noteFilesOf)
    for (const l of lists) existing.push(...l)
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

/**
 * Histories by collect signature (a long-lived back end collects again and again). The
 * signature names every transcript's identity in the index, so an entry never goes stale.
 */
const knownHistories = new BoundedCache<string, Map<string, FileHistory>>(4)

/** The index and topic files of a memory folder, absolute (none when it cannot be listed). */
async function noteFilesOf(dir: string): Promise<string[]> {
  const listing = await listMemoryFolder(dir)
  if (listing.problems.some((p) => p.path === dir)) return []
  const out = listing.files.map((name) => join(dir, ...name.split('/')))
  const index = join(dir, MEMORY_INDEX_NAME)
  if (await isFile(index)) out.push(index)
  return out
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile()
  } catch {
    return false
  }
}

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
