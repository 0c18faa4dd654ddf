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
import type { NoteEvidenceResult, NoteOrigin } from './evidence-model'
import type { AppSettings, SearchResult } from './shell-model'
import type { FitChoices, FitPlan, RestorePreview } from './model-fit'
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

/** Where our SessionStart hook can live (issue 18 item 2): the user's or the repository's settings. */
export type HookScope = 'user' | 'project'

/** One settings file and whether our SessionStart hook is in it. */
export interface HookSettingsState {
  readonly scope: HookScope
  readonly path: string
  readonly installed: boolean
  /** Why the file cannot be edited (not JSON, `hooks` of another type, …), null when it can. */
  readonly problem: string | null
}

/** Our hook in the user's settings and, for a launch directory, the project's. */
export interface HooksStatus {
  /** The command the hook runs. */
  readonly command: string
  readonly user: HookSettingsState
  readonly project: HookSettingsState | null
}

/** Adding or removing our hook, planned (nothing written): the diff a person reviews first. */
export interface HookSettingsPlan {
  readonly scope: HookScope
  readonly action: 'install' | 'uninstall'
  readonly path: string
  /** The hash to apply against (null: the file does not exist yet). */
  readonly expectedHash: string | null
  /** False when the file already is as asked. */
  readonly changed: boolean
  /** A unified diff of the change ('' when unchanged). */
  readonly diff: string
  /** The content hash of the text the change writes (null when unchanged): apply names it. */
  readonly afterHash: string | null
  /** Why the change cannot be made, null when it can. */
  readonly problem: string | null
}

/**
 * Something a session just did to memory that the person should fix (issue 18 item 4): an
 * index written past the load cutoff, or a line one session wrote and a parallel one removed.
 */
export type MemoryNotice =
  | {
      readonly id: number
      readonly kind: 'past-cutoff'
      readonly at: string
      readonly memoryDir: string
      readonly file: string
      /** Entries that do not load now. */
      readonly entriesNotLoaded: number
      /** The last of them in the file (the newest, as entries are appended), to move above. */
      readonly newest: { readonly line: number; readonly title: string } | null
      readonly firstUnloadedLine: number
    }
  | {
      readonly id: number
      readonly kind: 'line-lost'
      readonly at: string
      readonly memoryDir: string
      readonly file: string
      /** The removed line, to restore. */
      readonly text: string
      readonly addedBy: string
      readonly removedBy: string
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
  /** Whether our SessionStart hook is installed (the project's settings: of the launch directory `cwd`). */
  hooksStatus(cwd: string | null): Promise<HooksStatus>
  /** Plan adding or removing our hook; the change is computed here, never taken from the page. */
  planHookInstall(
    scope: HookScope,
    action: 'install' | 'uninstall',
    cwd: string | null,
  ): Promise<HookSettingsPlan>
  /**
   * Plan again and write through the safe write path, refused unless the file still has
   * `expectedHash` and the planned text still hashes to `afterHash` (the diff the person saw).
   */
  applyHookInstall(
    scope: HookScope,
    action: 'install' | 'uninstall',
    cwd: string | null,
    expectedHash: string | null,
    afterHash: string,
  ): Promise<EditOutcome>
  /** Notices newer than `afterId` (0: all kept), once the changes seen so far are looked at. */
  memoryNotices(afterId: number): Promise<MemoryNotice[]>
  /**
   * The transcript excerpts that wrote the note at file:line (the person's words and the tool
   * results before each write), live or from the evidence archive; null when no note is there.
   * Archives what it reads (issue 12 items 9 and 10).
   */
  noteOrigin(memoryDir: string, file: string, line: number): Promise<NoteOrigin | null>
  /** Which notes of a memory folder have evidence (live, archived) and which never will. */
  noteEvidence(memoryDir: string): Promise<NoteEvidenceResult>
  /** The window's settings (theme), as last saved; defaults when never saved (issue 15 item 12). */
  getSettings(): Promise<AppSettings>
  /** Save some settings; returns them all. */
  setSettings(patch: Partial<AppSettings>): Promise<AppSettings>
  /**
   * Search the memory files of every scanned project (issue 15 item 11): text (case-insensitive),
   * `verdict:stale`, `project:name`. Bounded; verdicts come from audits already run.
   */
  searchMemory(query: string): Promise<SearchResult>
  /**
   * "Fit under the cutoff" for a MEMORY.md (issue 15 item 8): what can free room, the choice
   * applied (null: the defaults), the load figures before and after, and the one plan to apply
   * with applyPlan. Nothing is written.
   */
  fitPlan(file: string, choices: FitChoices | null): Promise<FitPlan>
  /** Where restoreLostLine's line would go and whether it would load; or above the cutoff (apply with applyPlan). */
  previewRestore(
    memoryDir: string,
    file: string,
    text: string,
    placement: 'in-place' | 'above-cutoff',
  ): Promise<RestorePreview>
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
