/**
 * Who wrote each memory note, from the transcripts of every project folder (memory-facts §1,
 * §5): worktree sessions keep their transcripts in their own project folder while their memory
 * writes land in the main repository's memory folder, so all folders are read.
 */
import type { Dirent } from 'node:fs'
import { readdir, realpath } from 'node:fs/promises'
import { dirname, isAbsolute, join, resolve, sep } from 'node:path'
import type { Problem, ProvenanceFile, ProvenanceResult, ProvenanceWrite } from '../core/model'
import {
  attributeLines,
  findLostLines,
  orderByTime,
  replayWrites,
  type ReplayResult,
  type ReplayStep,
  type StepOutcome,
  type StepStatus,
} from '../core/replay'
import { countLines } from '../core/text'
import type { ToolResultEvent, WriteCallEvent } from '../core/transcript'
import { readTextFile } from './safe-read'
import { updateTranscriptIndex, type IndexScope } from './transcript-index'

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
}

/**
 * Provenance of every memory file in the target folder (or in every `<claudeHome>/projects/*\/memory/`
 * when none is given): its writes in time order and the lines parallel sessions lost.
 */
export async function provenance(options: ProvenanceOptions): Promise<ProvenanceReport> {
  const c = await collect(options, null)
  const paths = [...new Set([...c.histories.keys(), ...c.existing])].sort()
  const files: ProvenanceFileInfo[] = []
  for (const path of paths) {
    const history = c.histories.get(path)
    const current = await readTextFile(path, { lenient: true })
    if (!current.ok && current.problem !== 'missing')
      c.problems.push({ path, reason: current.reason })
    if (!history) {
      files.push({ path, writes: [], lost: [], exists: current.ok, drifts: 0 })
      continue
    }
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
    files.push({ path, writes, lost, exists: current.ok, drifts: history.replay.drifts })
  }
  return { files, memoryDirs: c.memoryDirs, stats: c.stats, problems: c.problems }
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

async function listDir(path: string): Promise<Dirent[] | null> {
  try {
    return await readdir(path, { withFileTypes: true })
  } catch {
    return null
  }
}

/** Every transcript of the Claude home: `<p>/*.jsonl` (sessions and legacy `agent-*`) and `<p>/<s>/subagents/*.jsonl`. */
async function listTranscripts(projectsDir: string, problems: Problem[]): Promise<string[]> {
  const out: string[] = []
  const projects = await listDir(projectsDir)
  if (projects === null) {
    problems.push({ path: projectsDir, reason: 'no readable projects folder' })
    return out
  }
  for (const p of projects) {
    // Symlinked folders are not followed: nothing Claude writes is one, and they could loop.
    if (!p.isDirectory()) continue
    const dir = join(projectsDir, p.name)
    const items = await listDir(dir)
    if (items === null) {
      problems.push({ path: dir, reason: 'unreadable project folder' })
      continue
    }
    for (const it of items) {
      if (it.isFile() && it.name.endsWith('.jsonl')) out.push(join(dir, it.name))
      else if (it.isDirectory() && it.name !== 'memory') {
        const subs = await listDir(join(dir, it.name, 'subagents'))
        for (const s of subs ?? []) {
          if (s.isFile() && s.name.endsWith('.jsonl'))
            out.push(join(dir, it.name, 'subagents', s.name))
        }
      }
    }
  }
  return out.sort()
}

/** Top-level `*.md` files of a memory folder (the index and topic files, memory-facts §1). */
async function memoryFiles(dir: string): Promise<string[]> {
  const items = await listDir(dir)
  return (items ?? [])
    .filter((i) => i.isFile() && i.name.endsWith('.md'))
    .map((i) => join(dir, i.name))
}

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
      return { histories: new Map(), existing: [], memoryDirs: [], stats: emptyStats(), problems }
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

  const transcripts = await listTranscripts(projectsDir, problems)
  const update = await updateTranscriptIndex({
    files: transcripts,
    scope,
    cacheDir: options.cacheDir,
    maxLineBytes: options.maxLineBytes,
    signal: options.signal,
    onProgress: options.onProgress,
  })
  problems.push(...update.problems)

  const results = new Map<string, ToolResultEvent>()
  for (const entry of update.entries) {
    for (const e of entry.events)
      if (e.kind === 'tool-result' && !results.has(e.toolUseId)) results.set(e.toolUseId, e)
  }
  const only = onlyFiles ? new Set(onlyFiles) : null
  const byFile = new Map<string, Call[]>()
  for (const entry of update.entries) {
    for (const e of entry.events) {
      if (e.kind !== 'write-call') continue
      const raw = callPath(e)
      if (raw === null) continue
      const path = targetNames ? inTargets(raw, targetNames) : inDefaultMemory(raw, homes)
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
    histories.set(path, { path, calls, steps, replay: replayWrites(steps) })
  }

  const existing: string[] = []
  if (onlyFiles === null) {
    if (targetNames)
      for (const names of targetNames) existing.push(...(await memoryFiles(names[0])))
    else {
      for (const p of (await listDir(projectsDir)) ?? []) {
        if (p.isDirectory())
          existing.push(...(await memoryFiles(join(projectsDir, p.name, 'memory'))))
      }
    }
  }
  const s = update.stats
  return {
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
