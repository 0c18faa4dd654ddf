/**
 * The result shapes of the public interface (docs/cli.md). The CLI
 * prints them as JSON and the window receives them through the API: one shape, one home.
 * Fields may be added; none may be renamed or dropped without a README version note.
 */

/** A problem found while reading something: always a path and a plain reason. */
export interface Problem {
  readonly path: string
  readonly reason: string
}

// ---- scan -----------------------------------------------------------------

export interface MemoryFileInfo {
  readonly path: string
  readonly role: 'index' | 'topic'
  readonly lines: number
  readonly bytes: number
  /** A topic file's frontmatter fields (docs/memory-rules.md §2.6 "Index format"), when present. */
  readonly frontmatter?: {
    readonly name?: string
    readonly description?: string
    readonly type?: string
  } | null
  /** Added field: the index's first heading (`# old-prototype`), a name when no transcript is left. */
  readonly heading?: string | null
}

export interface ProjectInfo {
  /** The project folder's name (never decoded into a path). */
  readonly id: string
  readonly dir: string
  /** Distinct `cwd` values found in the heads of the folder's transcripts. */
  readonly cwds: readonly string[]
  /** Main worktree root of the git repository a cwd belongs to, when there is one. */
  readonly repoRoot: string | null
  /** Number of session transcripts (`*.jsonl` directly in the folder). */
  readonly sessions: number
  readonly memoryDir: string | null
  readonly memoryFiles: readonly MemoryFileInfo[]
  /** Name to show a person: last segment of the first cwd, else the folder id. */
  readonly name: string
  /** Problems met while scanning this project (unreadable transcripts, bad lines, …). */
  readonly problems: readonly Problem[]
  /** Added field: when its newest transcript was last written (ISO), null without transcripts. */
  readonly lastActivity?: string | null
}

export interface ScanResult {
  readonly claudeHome: string
  readonly projects: readonly ProjectInfo[]
  /** Problems not tied to one project (missing or unreadable Claude home, …). */
  readonly problems: readonly Problem[]
}

// ---- cutoff ---------------------------------------------------------------

export interface CutoffEntry {
  /** 1-based line of the file on disk. */
  readonly line: number
  readonly title: string
  /** Link target as written, or null for an entry without a link. */
  readonly target: string | null
  readonly loaded: boolean
}

export interface CutoffResult {
  readonly file: string
  readonly totalLines: number
  readonly totalBytes: number
  /** UTF-16 code units of the whole file. */
  readonly totalChars: number
  readonly loadedLines: number
  /** UTF-16 code units Claude receives (after stripping). */
  readonly loadedChars: number
  /** UTF-8 bytes Claude receives (after stripping); shown beside the characters. */
  readonly loadedBytes: number
  readonly limitHit: 'lines' | 'chars' | null
  readonly firstUnloadedLine: number | null
  readonly entries: readonly CutoffEntry[]
  readonly dangling: readonly { readonly line: number; readonly target: string }[]
  readonly orphans: readonly string[]
  /** Problems with the file itself (unclosed frontmatter, invalid UTF-8, …). */
  readonly problems: readonly Problem[]
}

// ---- load-order -----------------------------------------------------------

export type ClaudeScope = 'managed' | 'user' | 'project' | 'local' | 'rule' | 'import' | 'memory'

export interface ClaudeStartupFile {
  readonly path: string
  readonly scope: ClaudeScope
  readonly importedBy: string | null
  readonly lines: number
  readonly chars: number
}

export interface ClaudeOnDemandFile {
  readonly path: string
  readonly scope: string
  /** What makes it load, e.g. `paths: src/**\/*.ts` or `reading a file under /r/sub`. */
  readonly trigger: string
}

export interface LoadOrderWarning {
  readonly path: string
  readonly code: string
  readonly message: string
}

export interface CodexFile {
  readonly path: string
  readonly scope: 'global' | 'project'
  readonly bytes: number
  /** Bytes of the file that reach the model (whole characters). */
  readonly includedBytes: number
  readonly truncated: boolean
  /**
   * The budget cut broke a multi-byte character: the model receives `includedBytes` of the
   * file, then U+FFFD (docs/memory-rules.md §4.4 [agent]).
   */
  readonly brokenChar?: boolean
}

export interface LoadOrderResult {
  readonly cwd: string
  readonly claude: {
    readonly startup: readonly ClaudeStartupFile[]
    readonly onDemand: readonly ClaudeOnDemandFile[]
    /** `reason` is a code (e.g. `agents-md-shadowed`); added fields: a plain detail, the importer. */
    readonly skipped: readonly SkippedProblem[]
    readonly warnings: readonly LoadOrderWarning[]
  }
  readonly codex: {
    readonly budgetBytes: number
    readonly files: readonly CodexFile[]
    /** `reason` is a code (e.g. `budget-exhausted`); added field: a plain detail. */
    readonly dropped: readonly SkippedProblem[]
  }
}

/** A file that does not load: the reason code, and (added fields) a plain detail and its importer. */
export interface SkippedProblem extends Problem {
  readonly detail?: string
  readonly importedBy?: string
}

// ---- audit ----------------------------------------------------------------

export type Verdict = 'fresh' | 'suspect' | 'stale' | 'never-matched' | 'unverifiable'
export type ReferenceKind = 'path' | 'symbol' | 'command' | 'snippet' | 'url' | 'branch'
export type ReferenceStatus = 'ok' | 'missing' | 'moved' | 'changed'

export interface AuditReference {
  readonly text: string
  readonly kind: ReferenceKind
  readonly status: ReferenceStatus
  readonly resolved: string | null
  readonly movedTo: string | null
  /** Added field (issue 12 item 8): what the note's diff compares, kept by the audit. */
  readonly compare?: DiffBasis
}

/** What a reference's diff compares (issue 12 item 8); a click reads it, never audits again. */
export interface DiffBasis {
  /** Repository-relative path at `commit` (null: none), and now (null: gone). */
  readonly then: string | null
  readonly now: string | null
  /** The commit at or before the note (`sha^`: before the path's deletion); null: unknown. */
  readonly commit: string | null
  readonly commitDate?: string
  /** What the audit said about the reference. */
  readonly reason?: string
  /** Lines a quote matched then and matches now. */
  readonly thenLines?: readonly [number, number]
  readonly nowLines?: readonly [number, number]
}

export interface AuditNote {
  readonly file: string
  readonly line: number
  readonly endLine: number
  readonly title: string
  readonly verdict: Verdict
  readonly writtenAt: string | null
  /** Added field: how `writtenAt` is known (the transcript write is precise; mtime is coarse). */
  readonly writtenAtSource?: 'transcript' | 'frontmatter' | 'git-blame' | 'mtime' | null
  readonly references: readonly AuditReference[]
  /**
   * Added field: names the note gives in plain prose that its verdict rests on (one that left
   * every code file holding it), each with its diff basis like a reference. Absent: none.
   */
  readonly proseReferences?: readonly AuditReference[]
  readonly reasons: readonly string[]
}

export interface AuditResult {
  readonly repo: string | null
  /** Files or git queries that could not be read, with the reason (added field). */
  readonly problems?: readonly Problem[]
  readonly notes: readonly AuditNote[]
  readonly summary: Readonly<Record<Verdict, number>>
}

// ---- provenance -----------------------------------------------------------

export interface ProvenanceWrite {
  readonly sessionId: string
  readonly timestamp: string
  readonly cwd: string
  readonly gitBranch: string
  readonly tool: 'Write' | 'Edit' | 'MultiEdit'
  readonly transcript: string
  readonly ok: boolean
  /** Added fields: whether the replay could apply it, and why not. */
  readonly status?: 'ok' | 'failed' | 'unknown'
  readonly replay?: 'applied' | 'not-applied' | 'cannot-apply'
  readonly reason?: string | null
  readonly toolUseId?: string
  readonly agentId?: string | null
}

export interface ProvenanceFile {
  readonly path: string
  readonly writes: readonly ProvenanceWrite[]
  readonly lost: readonly {
    readonly text: string
    readonly addedBy: string
    readonly removedBy: string
    /** Added fields: when, by which tool, and whether the replay was exact. */
    readonly addedAt?: string
    readonly removedAt?: string
    readonly removedByTool?: string
    readonly exact?: boolean
  }[]
  /** Added fields: whether the file is on disk now, and how often its text drifted from the replay. */
  readonly exists?: boolean
  readonly drifts?: number
}

export interface ProvenanceResult {
  readonly files: readonly ProvenanceFile[]
  /** Transcripts that could not be read, lines skipped, with reasons (added field). */
  readonly problems?: readonly Problem[]
}

// ---- editing, stamps, review (the window's API; not CLI output) -----------

/** The result of every change the window asks for: written, refused on a conflict, or failed. */
export type EditOutcome =
  | {
      readonly kind: 'written'
      readonly path: string
      readonly hash: string
      readonly operationId: string | null
    }
  | {
      readonly kind: 'deleted'
      readonly path: string
      readonly trashed: boolean
      readonly operationId: string | null
      readonly warning: string | null
    }
  | {
      readonly kind: 'conflict'
      readonly path: string
      readonly currentHash: string | null
      readonly currentText: string | null
    }
  | { readonly kind: 'error'; readonly path: string; readonly reason: string }

/** One entry of the undo log (survives restarts). */
export interface OperationInfo {
  readonly id: string
  readonly op: 'write' | 'delete' | 'create' | string
  readonly path: string
  readonly time: string
  readonly reason: string
  /** True once undone (an undo is itself an operation). */
  readonly undone: boolean
  /** Added field: the id of the operation this one reversed, when it is an undo. */
  readonly undoes?: string
}

/** A note someone verified: its text and the content of what it rests on, at that moment. */
export interface NoteStamp {
  readonly key: string
  readonly file: string
  readonly title: string
  readonly noteHash: string
  /** Content hash of each referenced file (absolute path → hash, null when missing). */
  readonly references: Readonly<Record<string, string | null>>
  readonly at: string
  /**
   * Added field (issue 15 item 3): what the audit found for each reference when the note was
   * verified (core/audit/note-review.ts `referenceState`); the verification lapses when it differs.
   */
  readonly referenceState?: string
}

export interface NoteStampStatus {
  readonly stamp: NoteStamp
  /** `valid` while the note and everything it rests on are unchanged; `expired` otherwise, with why. */
  readonly state: 'valid' | 'expired'
  readonly reasons: readonly string[]
}

/** A memory file against the snapshot taken when a person last marked it reviewed. */
export interface ReviewDiff {
  readonly file: string
  readonly snapshot: { readonly text: string; readonly at: string; readonly hash: string } | null
  readonly current: { readonly text: string; readonly hash: string } | null
  /** For each changed (added) line of the current text: who wrote it, when the transcripts say. */
  readonly attributions: readonly {
    readonly line: number
    readonly sessionId: string | null
    readonly timestamp: string | null
    readonly gitBranch: string | null
    readonly cwd: string | null
  }[]
  readonly problems: readonly Problem[]
}

/** A change the window can preview before applying (rules computed in core, never in the UI). */
export type EditPlanRequest =
  /** Move a MEMORY.md entry (and nothing else) to just above the load cutoff. */
  | { readonly kind: 'move-entry-above-cutoff'; readonly file: string; readonly line: number }
  /** Remove an index entry line; with `deleteTopic`, also delete the topic file it links. */
  | {
      readonly kind: 'delete-entry'
      readonly file: string
      readonly line: number
      readonly deleteTopic: boolean
    }
  /** Move the detail of an index entry (its hook and indented continuation lines) into a new topic file, leaving a one-line link. */
  | {
      readonly kind: 'extract-to-topic'
      readonly file: string
      readonly line: number
      readonly topicName: string
    }
  /** Replace `from` with `to` in the note starting at file:line (e.g. a renamed path). */
  | {
      readonly kind: 'replace-text'
      readonly file: string
      readonly line: number
      readonly from: string
      readonly to: string
    }

export interface PlannedChange {
  readonly path: string
  /** Hash the file must still have when the change is applied (null: the file must not exist). */
  readonly expectedHash: string | null
  readonly before: string | null
  /** New content, or null to delete the file. */
  readonly after: string | null
}

export interface EditPlan {
  readonly title: string
  readonly changes: readonly PlannedChange[]
  readonly problems: readonly Problem[]
  /** Lines that load at session start now and would not after the plan (added field). */
  readonly falls?: readonly FallingLine[]
}

/** One side of a note's diff: the referenced code then or now. */
export interface DiffSide {
  readonly label: string
  readonly text: string
}

/** What a reference looked like when the note was written, and now. */
export interface NoteDiff {
  readonly reference: AuditReference
  readonly before: DiffSide | null
  readonly after: DiffSide | null
  readonly summary: string
}

// ---- check with the installed agent (issue 13 item 4): agent-model.ts ----
export type { AgentName, InstalledAgent, AgentCheckRow, AgentCheckResult } from './agent-model'

/** A line that loads now and would not after a change (a plan names them; issue 15 item 8). */
export interface FallingLine {
  /** Disk line before the change. */
  readonly line: number
  readonly text: string
  readonly entry: boolean
}
