/**
 * The one API contract between the window and the back end (architecture.md habit 1).
 * Three transports implement it from one handler table: Electron IPC (main + preload),
 * the `serve` HTTP transport, and direct calls in tests. Every method returns a Promise;
 * every argument is validated at run time with the schema of its method below.
 */
import { z } from 'zod'
import type {
  AuditResult,
  CutoffResult,
  LoadOrderResult,
  ProvenanceResult,
  ScanResult,
} from '../core/model'

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
  | { readonly ok: true; readonly path: string; readonly text: string; readonly hash: string; readonly bytes: number }
  | { readonly ok: false; readonly path: string; readonly reason: string }

/** "Something changed on disk": the paths that changed, under the scanned roots. */
export interface ChangeEvent {
  readonly kind: 'changed'
  readonly paths: readonly string[]
}

/** The methods every transport offers, with their argument schemas (run-time validation). */
const pathArg = z.string().min(1).max(4096).refine((s) => !s.includes('\0'), 'NUL in path')

export const apiSchemas = {
  getContext: z.tuple([]),
  scan: z.tuple([]),
  cutoff: z.tuple([pathArg]),
  readFile: z.tuple([pathArg]),
  loadOrder: z.tuple([pathArg]),
  audit: z.tuple([pathArg, pathArg.nullable()]),
  provenance: z.tuple([pathArg]),
} as const

export type ApiMethod = keyof typeof apiSchemas
export const API_METHODS = Object.keys(apiSchemas) as ApiMethod[]

/** The contract itself. */
export interface CuratorApi {
  getContext(): Promise<AppContext>
  scan(): Promise<ScanResult>
  cutoff(file: string): Promise<CutoffResult>
  readFile(path: string): Promise<FileContent>
  loadOrder(cwd: string): Promise<LoadOrderResult>
  audit(memoryDir: string, repo: string | null): Promise<AuditResult>
  provenance(memoryDir: string): Promise<ProvenanceResult>
}

/** The API plus its event channel, as the window sees it. */
export interface CuratorClient extends CuratorApi {
  /** Subscribe to "something changed on disk"; returns the unsubscribe function (fits a React effect). */
  onDidChange(listener: (event: ChangeEvent) => void): () => void
}

/** An error the back end reports on purpose (bad argument, path outside the roots, …). */
export interface ApiErrorBody {
  readonly error: string
  readonly code: 'bad-request' | 'forbidden' | 'not-found' | 'internal'
}

export { API_PREFIX, IPC_EVENT_CHANNEL, TOKEN_HEADER, ipcChannel } from './channels'

/** Validate raw arguments for `method`; throws a ZodError with a readable message. */
export function parseArgs<M extends ApiMethod>(method: M, args: unknown): z.infer<(typeof apiSchemas)[M]> {
  return apiSchemas[method].parse(args) as z.infer<(typeof apiSchemas)[M]>
}
