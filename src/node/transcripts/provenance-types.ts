/**
 * The shapes of a provenance report and of a line attribution, and the per-file histories both
 * are built from (provenance-collect.ts).
 */
import type { Problem, ProvenanceFile, ProvenanceResult, ProvenanceWrite } from '../../shared/model'
import type {
  ReplayResult,
  ReplayStep,
  StepOutcome,
  StepStatus,
} from '../../core/transcripts/replay'
import type { ToolResultEvent, WriteCallEvent } from '../../core/transcripts/line'

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
export interface Call {
  readonly call: WriteCallEvent
  readonly path: string
  readonly transcript: string
  readonly result: ToolResultEvent | null
}

export interface FileHistory {
  readonly path: string
  readonly calls: readonly Call[]
  readonly steps: readonly ReplayStep[]
  readonly replay: ReplayResult
}

export interface Collected {
  readonly histories: Map<string, FileHistory>
  /** Existing memory files in the target folders. */
  readonly existing: readonly string[]
  readonly memoryDirs: readonly string[]
  readonly stats: ProvenanceStats
  readonly problems: Problem[]
  /** Names what the histories were built from (targets, and every transcript's size, mtime and offset). */
  readonly signature: string
}
