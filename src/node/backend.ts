/**
 * The back end's handler table: one object whose methods are the API contract
 * (src/shared/api.ts), implemented over the disk. Electron IPC, `serve` and tests
 * all call this same table; transports only validate, authorise and carry.
 */
import { EventEmitter } from 'node:events'
import { join } from 'node:path'
import type {
  AuditResult,
  CutoffResult,
  EditOutcome,
  EditPlan,
  EditPlanRequest,
  LoadOrderResult,
  NoteStamp,
  NoteStampStatus,
  OperationInfo,
  ProvenanceResult,
  ReviewDiff,
  ScanResult,
} from '../core/model'
import type { NoteDiff } from '../core/verdict'
import { encodeProjectDir } from '../core/project-path'
import { auditMemory, noteDiffs } from './audit'
import { createCuration, type KeyValueStore } from './curation'
import { createReview } from './review'
import type { TrashFn } from './safe-write'
import { writtenAtProvider } from './provenance'
import { BackendError } from './errors'
import { cutoffFile } from './cutoff-file'
import { findRepo } from './git-repo'
import { loadOrder } from './load-order'
import { PathGuard } from './path-guard'
import { provenance } from './provenance'
import { readForEdit } from './safe-write'
import { scanClaudeHome } from './scan'

export interface BackendConfig {
  readonly version: string
  readonly claudeHome: string
  readonly codexHome: string
  readonly managedDir: string
  readonly demo: boolean
  readonly demoReason: string | null
  /** Folder for our own state: caches, backups, snapshots. Never inside the Claude home. */
  readonly stateDir: string
  /** Extra roots the window may read (e.g. the demo repository). */
  readonly extraRoots?: readonly string[]
  readonly transport: 'ipc' | 'http' | 'direct'
  readonly env?: Readonly<Record<string, string | undefined>>
  /** Moves a file to the OS trash (Electron: shell.trashItem; serve: the freedesktop trash). */
  readonly trash: TrashFn | null
  /** Where verification stamps are kept (Electron: electron-store; serve: a JSON file). */
  readonly stampStore: KeyValueStore
}

export { BackendError }

export type FileContentResult =
  | { readonly ok: true; readonly path: string; readonly text: string; readonly hash: string; readonly bytes: number }
  | { readonly ok: false; readonly path: string; readonly reason: string }

export interface Backend {
  getContext(): Promise<{
    version: string
    claudeHome: string
    codexHome: string
    managedDir: string
    demo: boolean
    demoReason: string | null
    transport: 'ipc' | 'http' | 'direct'
  }>
  scan(): Promise<ScanResult>
  cutoff(file: string): Promise<CutoffResult>
  readFile(path: string): Promise<FileContentResult>
  loadOrder(cwd: string): Promise<LoadOrderResult>
  audit(memoryDir: string, repo: string | null): Promise<AuditResult>
  provenance(memoryDir: string): Promise<ProvenanceResult>
  noteDiffs(memoryDir: string, repo: string | null, file: string, line: number): Promise<NoteDiff[]>
  writeFile(path: string, expectedHash: string | null, newText: string, reason: string): Promise<EditOutcome>
  deleteFile(path: string, expectedHash: string, reason: string): Promise<EditOutcome>
  listOperations(): Promise<OperationInfo[]>
  undo(operationId: string | null): Promise<EditOutcome>
  verifyNote(memoryDir: string, repo: string | null, file: string, line: number): Promise<NoteStamp>
  listStamps(memoryDir: string, repo: string | null): Promise<NoteStampStatus[]>
  markReviewed(file: string, hash: string): Promise<{ at: string; hash: string }>
  reviewDiff(memoryDir: string, file: string): Promise<ReviewDiff>
  restoreLostLine(memoryDir: string, file: string, text: string, expectedHash: string): Promise<EditOutcome>
  planEdit(request: EditPlanRequest): Promise<EditPlan>
  /** "Something changed on disk" (the event channel of the contract). */
  onDidChange(listener: (event: { kind: 'changed'; paths: readonly string[] }) => void): () => void
  /** Tell listeners that paths changed (the watcher calls this). */
  emitChange(paths: readonly string[]): void
  /** The guard every path argument passes through. */
  readonly guard: PathGuard
  dispose(): Promise<void>
}

/** Build the handler table for one Claude home. */
export async function createBackend(config: BackendConfig): Promise<Backend> {
  const guard = new PathGuard()
  for (const root of [config.claudeHome, config.codexHome, config.managedDir, ...(config.extraRoots ?? [])]) {
    await guard.addRoot(root)
  }
  const events = new EventEmitter()
  let lastScan: ScanResult | null = null
  const cacheDir = join(config.stateDir, 'provenance-cache')
  const curation = createCuration({ stateDir: config.stateDir, trash: config.trash, stamps: config.stampStore })
  const review = createReview({ stateDir: config.stateDir, claudeHome: config.claudeHome, writeFile: curation.writeFile })
  // "When was the note written": the transcript write that last touched its lines (most precise).
  // A fresh provider per call: its per-file cache must not outlive edits to the files.
  const writtenAt = () => writtenAtProvider({ claudeHome: config.claudeHome, cacheDir })

  /** Require `p` inside the scanned roots; the error names the path. */
  async function inside(p: string): Promise<string> {
    const ok = await guard.check(p)
    if (!ok) throw new BackendError('forbidden', `path outside the scanned roots: ${p}`)
    return ok
  }

  /** Launch directories and repositories found by a scan become readable roots. */
  async function rememberRoots(result: ScanResult): Promise<void> {
    for (const project of result.projects) {
      for (const cwd of project.cwds) await guard.addRoot(cwd)
      if (project.repoRoot) await guard.addRoot(project.repoRoot)
    }
  }

  async function ensureScanned(): Promise<ScanResult> {
    if (!lastScan) {
      lastScan = await scanClaudeHome(config.claudeHome)
      await rememberRoots(lastScan)
    }
    return lastScan
  }

  const backend: Backend = {
    guard,
    async getContext() {
      return {
        version: config.version,
        claudeHome: config.claudeHome,
        codexHome: config.codexHome,
        managedDir: config.managedDir,
        demo: config.demo,
        demoReason: config.demoReason,
        transport: config.transport,
      }
    },
    async scan() {
      lastScan = await scanClaudeHome(config.claudeHome)
      await rememberRoots(lastScan)
      return lastScan
    },
    async cutoff(file) {
      await ensureScanned()
      return cutoffFile(await inside(file))
    },
    async readFile(path) {
      await ensureScanned()
      const abs = await inside(path)
      const r = await readForEdit(abs)
      if ('text' in r && typeof r.text === 'string') {
        return { ok: true, path: abs, text: r.text, hash: r.hash, bytes: r.bytes }
      }
      return { ok: false, path: abs, reason: 'reason' in r ? String(r.reason) : 'cannot read' }
    },
    async loadOrder(cwd) {
      await ensureScanned()
      const dir = await inside(cwd)
      const repo = await findRepo(dir)
      const memoryPath = join(config.claudeHome, 'projects', encodeProjectDir(repo?.mainRoot ?? dir), 'memory', 'MEMORY.md')
      const cut = await cutoffFile(memoryPath)
      const memoryFile = cut.problems.length === 0 || cut.totalBytes > 0
        ? { path: memoryPath, lines: cut.loadedLines, chars: cut.loadedChars }
        : null
      return loadOrder({
        cwd: dir,
        claudeHome: config.claudeHome,
        codexHome: config.codexHome,
        managedDir: config.managedDir,
        env: config.env,
        memoryFile,
      })
    },
    async audit(memoryDir, repo) {
      await ensureScanned()
      const dir = await inside(memoryDir)
      const repoDir = repo === null ? null : await inside(repo)
      return auditMemory({ memoryDir: dir, repo: repoDir, writtenAtFor: writtenAt() })
    },
    async noteDiffs(memoryDir, repo, file, line) {
      await ensureScanned()
      const dir = await inside(memoryDir)
      const repoDir = repo === null ? null : await inside(repo)
      return noteDiffs({ memoryDir: dir, repo: repoDir, file: await inside(file), line, writtenAtFor: writtenAt() })
    },
    async writeFile(path, expectedHash, newText, reason) {
      await ensureScanned()
      return curation.writeFile(await inside(path), expectedHash, newText, reason)
    },
    async deleteFile(path, expectedHash, reason) {
      await ensureScanned()
      return curation.deleteFile(await inside(path), expectedHash, reason)
    },
    listOperations: () => curation.listOperations(),
    undo: (operationId) => curation.undo(operationId),
    async verifyNote(memoryDir, repo, file, line) {
      await ensureScanned()
      return curation.verifyNote(await inside(memoryDir), repo === null ? null : await inside(repo), await inside(file), line)
    },
    async listStamps(memoryDir, repo) {
      await ensureScanned()
      return curation.listStamps(await inside(memoryDir), repo === null ? null : await inside(repo))
    },
    async markReviewed(file, hash) {
      await ensureScanned()
      return review.markReviewed(await inside(file), hash)
    },
    async reviewDiff(memoryDir, file) {
      await ensureScanned()
      return review.reviewDiff(await inside(memoryDir), await inside(file))
    },
    async planEdit(request) {
      await ensureScanned()
      return curation.planEdit({ ...request, file: await inside(request.file) })
    },
    async restoreLostLine(memoryDir, file, text, expectedHash) {
      await ensureScanned()
      return review.restoreLostLine(await inside(memoryDir), await inside(file), text, expectedHash)
    },
    async provenance(memoryDir) {
      await ensureScanned()
      const dir = await inside(memoryDir)
      const r = await provenance({ claudeHome: config.claudeHome, memoryDir: dir, cacheDir })
      return { files: r.files, problems: r.problems }
    },
    onDidChange(listener) {
      events.on('change', listener)
      return () => events.off('change', listener)
    },
    emitChange(paths) {
      events.emit('change', { kind: 'changed', paths })
    },
    async dispose() {
      events.removeAllListeners()
    },
  }
  return backend
}
