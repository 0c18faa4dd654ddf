/**
 * The API contract's types: what the window may ask of the back end (docs/architecture.md
 * §4.1). Types only, so the back end (src/node) can implement exactly this interface;
 * src/shared/api.ts re-exports it with the run-time schemas every transport validates with.
 */
import type {
  AgentCheckResult,
  AgentName,
  InstalledAgent,
  AuditResult,
  CutoffResult,
  EditOutcome,
  EditPlan,
  EditPlanRequest,
  NoteDiff,
  LoadOrderResult,
  NoteStamp,
  NoteStampStatus,
  OperationInfo,
  PlannedChange,
  ProvenanceResult,
  ReviewDiff,
  ScanResult,
} from './model'
import type { AuditJobStatus } from './audit-view'

/** What the window needs to know about the back end it talks to. */
export interface AppContext {
  readonly version: string
  readonly claudeHome: string
  readonly codexHome: string
  readonly managedDir: string
  /** True when the built-in demo home is shown instead of the user's own. */
  readonly demo: boolean
  /** Why the demo is shown (e.g. "no Claude folder at /home/u/.claude"), null otherwise. */
  readonly demoReason: string | null
  readonly transport: 'ipc' | 'http' | 'direct'
}

/** A text file as read for display or edit: its content and the hash an edit starts from. */
export type FileContent =
  | {
      readonly ok: true
      readonly path: string
      readonly text: string
      readonly hash: string
      readonly bytes: number
    }
  | { readonly ok: false; readonly path: string; readonly reason: string }

/** "Something changed on disk": the paths that changed, under the scanned roots. */
export interface ChangeEvent {
  readonly kind: 'changed'
  readonly paths: readonly string[]
}

/** One change of a plan as sent to be applied (its `before` text is not needed). */
export type PlanChange = Pick<PlannedChange, 'path' | 'expectedHash' | 'after'>

/** What applying a plan did: all of it, nothing, or part of it and then undid that part. */
export interface PlanOutcome {
  /**
   * `applied`: every change was made. `refused`: nothing was written (a file changed since
   * the plan, or the plan cannot be applied). `rolled-back`: a change failed midway and the
   * changes made before it were undone. `partial`: as rolled-back, but some could not be undone.
   */
  readonly kind: 'applied' | 'refused' | 'rolled-back' | 'partial'
  /** The changes made, in the order made (each with its undo-log entry). */
  readonly outcomes: readonly EditOutcome[]
  /** The change refused or failed (a conflict or an error); null when applied. */
  readonly failure: EditOutcome | null
  /** The undo of each change made before the failure, newest first. */
  readonly rollback: readonly EditOutcome[]
}

/** The contract itself. */
export interface CuratorApi {
  getContext(): Promise<AppContext>
  scan(): Promise<ScanResult>
  cutoff(file: string): Promise<CutoffResult>
  readFile(path: string): Promise<FileContent>
  loadOrder(cwd: string): Promise<LoadOrderResult>
  /** The agents on PATH that "Check with the installed agent" can run (issue 13 item 4). */
  installedAgents(): Promise<readonly InstalledAgent[]>
  /**
   * Run the installed agent on a temporary copy of what loads in `cwd` (a launch directory the
   * window shows), with a stand-in model server on loopback, and compare with loadOrder.
   */
  checkWithAgent(agent: AgentName, cwd: string): Promise<AgentCheckResult>
  audit(memoryDir: string, repo: string | null): Promise<AuditResult>
  provenance(memoryDir: string): Promise<ProvenanceResult>
  /**
   * For the note starting at file:line, each reference then (note time) and now. `writtenAt`
   * (ISO, from the audit result) saves reading transcripts again to date the note.
   */
  noteDiffs(
    memoryDir: string,
    repo: string | null,
    file: string,
    line: number,
    writtenAt?: string | null,
  ): Promise<NoteDiff[]>
  /** Write a file through the one safe path: compare-and-swap on `expectedHash` (null = must not exist), backup, atomic. */
  writeFile(
    path: string,
    expectedHash: string | null,
    newText: string,
    reason: string,
  ): Promise<EditOutcome>
  /** Move a file to the trash (with our own backup); refused when its hash is not `expectedHash`. */
  deleteFile(path: string, expectedHash: string, reason: string): Promise<EditOutcome>
  /** The undo log, newest first. */
  listOperations(): Promise<OperationInfo[]>
  /** Undo one operation (null = the newest not yet undone). */
  undo(operationId: string | null): Promise<EditOutcome>
  /** Stamp the note at file:line as verified (kept until it or what it rests on changes). */
  verifyNote(memoryDir: string, repo: string | null, file: string, line: number): Promise<NoteStamp>
  /** Every stamp of a memory folder, with whether it still holds. */
  listStamps(memoryDir: string, repo: string | null): Promise<NoteStampStatus[]>
  /** Keep a snapshot of a memory file as reviewed now (refused unless `hash` is its current hash). */
  markReviewed(file: string, hash: string): Promise<{ at: string; hash: string }>
  /** The file against its last reviewed snapshot, changed lines attributed to sessions. */
  reviewDiff(memoryDir: string, file: string): Promise<ReviewDiff>
  /** Re-insert a line a parallel session removed, through the safe write path. */
  restoreLostLine(
    memoryDir: string,
    file: string,
    text: string,
    expectedHash: string,
  ): Promise<EditOutcome>
  /** Compute a change to preview (nothing is written); apply it with applyPlan. */
  planEdit(request: EditPlanRequest): Promise<EditPlan>
  /**
   * Apply a plan's changes in the order of `planSteps`: every file's hash is checked before
   * any is written, and a write failing midway undoes the changes already made.
   */
  applyPlan(changes: readonly PlanChange[], reason: string): Promise<PlanOutcome>
  /**
   * The state of a memory folder and its repository as one string (issue 15 item 7): equal
   * tokens mean the last audit still holds; the window audits again only when it differs.
   */
  auditToken(memoryDir: string, repo: string | null): Promise<string>
  /** Start an audit as a job (answered at once from the last audit when nothing changed). */
  startAudit(memoryDir: string, repo: string | null): Promise<{ jobId: string }>
  /** A job's progress (n of N notes), or its result with verifications applied, or how it ended. */
  auditJob(jobId: string): Promise<AuditJobStatus>
  /** Stop an audit job (its result is dropped). */
  cancelAudit(jobId: string): Promise<void>
}
