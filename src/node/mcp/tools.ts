/**
 * What the MCP tools answer (issue 18 item 3), built only from calls of the one API contract
 * (src/shared/api.ts) through `dispatch`, so `serve`'s path rules apply: a launch directory,
 * memory folder or file the guard refuses is refused here too, with its reason.
 */
import { dirname, resolve } from 'node:path'
import type { CuratorApi } from '../../shared/api-contract'
import type { ApiMethod } from '../../shared/api'
import type { ProjectInfo } from '../../shared/model'
import { isInside } from '../fs/path-guard'
import { sessionExcerpt } from './session-excerpt'

/** One API call with raw arguments, validated and answered as every transport does. */
export type ApiCall = <M extends ApiMethod>(
  method: M,
  args: Parameters<CuratorApi[M]>,
) => Promise<Awaited<ReturnType<CuratorApi[M]>>>

/** Stale notes whose code change is shown in one answer. */
const DIFFS_MAX = 5
/** Characters of one side of a code change in an answer. */
const DIFF_SIDE_MAX_CHARS = 1500

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n)}…` : s)

interface Located {
  readonly cwd: string
  readonly memoryDir: string | null
  readonly memoryFile: string | null
  readonly repo: string | null
  readonly why: string | null
}

/** The memory folder of a launch directory: where the agent loads MEMORY.md from, else the scan's. */
export async function locate(call: ApiCall, cwd: string): Promise<Located> {
  const order = await call('loadOrder', [cwd])
  const loaded = order.claude.startup.find((f) => f.scope === 'memory')
  const off = order.claude.warnings.find((w) => w.code === 'auto-memory-off')
  const scan = await call('scan', [])
  const dir = resolve(order.cwd)
  const project: ProjectInfo | undefined =
    scan.projects.find((p) => loaded?.path && p.memoryDir === dirname(loaded.path)) ??
    scan.projects.find((p) => p.cwds.some((c) => resolve(c) === dir) && p.memoryDir !== null)
  const memoryDir = loaded ? dirname(loaded.path) : (project?.memoryDir ?? null)
  return {
    cwd: dir,
    memoryDir,
    memoryFile: loaded?.path ?? (memoryDir ? `${memoryDir}/MEMORY.md` : null),
    repo: project?.repoRoot ?? null,
    why: off ? off.message : memoryDir ? null : `no memory folder for ${dir} yet`,
  }
}

export async function memoryStatus(call: ApiCall, cwd: string): Promise<unknown> {
  const at = await locate(call, cwd)
  if (!at.memoryFile) return { cwd: at.cwd, memoryFile: null, reason: at.why }
  const c = await call('cutoff', [at.memoryFile])
  return {
    cwd: at.cwd,
    memoryFile: c.file,
    totalLines: c.totalLines,
    loadedLines: c.loadedLines,
    loadedChars: c.loadedChars,
    limitHit: c.limitHit,
    firstUnloadedLine: c.firstUnloadedLine,
    entriesNotLoaded: c.entries
      .filter((e) => !e.loaded)
      .map((e) => ({ line: e.line, title: e.title, target: e.target })),
    danglingLinks: c.dangling,
    orphanTopicFiles: c.orphans,
    problems: c.problems,
  }
}

export async function auditNotes(
  call: ApiCall,
  cwd: string,
  includeFresh: boolean,
): Promise<unknown> {
  const at = await locate(call, cwd)
  if (!at.memoryDir) return { cwd: at.cwd, memoryDir: null, reason: at.why }
  const r = await call('audit', [at.memoryDir, at.repo])
  const notes = r.notes.filter((n) => includeFresh || n.verdict !== 'fresh')
  const changed = r.notes.filter((n) => n.verdict === 'stale').slice(0, DIFFS_MAX)
  const codeChanges: Record<string, unknown> = {}
  for (const n of changed) {
    const diffs = await call('noteDiffs', [at.memoryDir, at.repo, n.file, n.line, n.writtenAt])
    codeChanges[`${n.file}:${n.line}`] = diffs.map((d) => ({
      reference: d.reference.text,
      summary: d.summary,
      then: d.before ? clip(d.before.text, DIFF_SIDE_MAX_CHARS) : null,
      now: d.after ? clip(d.after.text, DIFF_SIDE_MAX_CHARS) : null,
    }))
  }
  return {
    memoryDir: at.memoryDir,
    repo: r.repo,
    summary: r.summary,
    notes: notes.map((n) => ({
      file: n.file,
      line: n.line,
      title: n.title,
      verdict: n.verdict,
      reasons: n.reasons,
      writtenAt: n.writtenAt,
      references: n.references.map((x) => ({ text: x.text, status: x.status, movedTo: x.movedTo })),
      codeChange: codeChanges[`${n.file}:${n.line}`] ?? null,
    })),
    problems: r.problems ?? [],
  }
}

export async function noteOrigin(
  call: ApiCall,
  cwd: string,
  file: string,
  line: number,
): Promise<unknown> {
  const scan = await call('scan', [])
  const abs = resolve(cwd, file)
  const memoryDir =
    scan.projects.find((p) => p.memoryDir !== null && abs.startsWith(`${p.memoryDir}/`))
      ?.memoryDir ?? null
  if (!memoryDir) return { file: abs, reason: 'not a file of a known memory folder' }
  const [review, prov] = await Promise.all([
    call('reviewDiff', [memoryDir, abs]),
    call('provenance', [memoryDir]),
  ])
  const text = review.current?.text.split(/\r?\n/)[line - 1] ?? null
  const who = review.attributions.find((a) => a.line === line) ?? null
  const writes = prov.files.find((f) => f.path === abs)?.writes ?? []
  const bySession = who?.sessionId ? writes.filter((w) => w.sessionId === who.sessionId) : []
  // The excerpt of the write that added the line: read only from transcripts under the home.
  const { claudeHome } = await call('getContext', [])
  const write = bySession.find((w) => w.timestamp === who?.timestamp) ?? bySession.at(-1)
  const excerpt =
    write?.toolUseId && isInside(resolve(claudeHome, 'projects'), resolve(write.transcript))
      ? await sessionExcerpt(write.transcript, write.toolUseId)
      : null
  return {
    file: abs,
    line,
    text,
    writtenBy: who && who.sessionId ? who : null,
    reason: who && who.sessionId ? null : 'no surviving transcript records the write of this line',
    excerpt,
    writesOfThatSession: bySession.map((w) => ({
      timestamp: w.timestamp,
      tool: w.tool,
      gitBranch: w.gitBranch,
      cwd: w.cwd,
      transcript: w.transcript,
    })),
    recentWritesOfTheFile: writes.slice(-5).map((w) => ({
      sessionId: w.sessionId,
      timestamp: w.timestamp,
      tool: w.tool,
    })),
  }
}

export async function loadOrderSummary(call: ApiCall, cwd: string): Promise<unknown> {
  const r = await call('loadOrder', [cwd])
  return {
    cwd: r.cwd,
    claude: {
      atStart: r.claude.startup.map((f) => ({
        path: f.path,
        scope: f.scope,
        lines: f.lines,
        chars: f.chars,
        importedBy: f.importedBy,
      })),
      onDemand: r.claude.onDemand,
      warnings: r.claude.warnings.map((w) => `${w.path}: ${w.message}`),
    },
    codex: {
      budgetBytes: r.codex.budgetBytes,
      files: r.codex.files,
      dropped: r.codex.dropped,
    },
  }
}
