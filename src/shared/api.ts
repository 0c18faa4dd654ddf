/**
 * The one API contract between the window and the back end (docs/architecture.md §4.1).
 * Three transports implement it from one handler table: Electron IPC (main + preload),
 * the `serve` HTTP transport, and direct calls in tests. Every method returns a Promise;
 * every argument is validated at run time with the schema of its method below.
 */
import { z } from 'zod'
import type { ChangeEvent, CuratorApi } from './api-contract'
import { API_METHOD_NAMES } from './channels'

export type {
  AppContext,
  ChangeEvent,
  CuratorApi,
  FileContent,
  HookScope,
  HookSettingsPlan,
  HookSettingsState,
  HooksStatus,
  MemoryNotice,
  PlanChange,
  PlanOutcome,
} from './api-contract'
export type {
  EditOutcome,
  EditPlan,
  EditPlanRequest,
  NoteDiff,
  NoteStamp,
  NoteStampStatus,
  OperationInfo,
  ReviewDiff,
} from './model'
export type {
  ExcerptItem,
  NoteEvidence,
  NoteEvidenceEntry,
  NoteEvidenceResult,
  NoteOrigin,
  NoteOriginWrite,
} from './evidence-model'
export type { AppSettings, SearchHit, SearchResult, ThemeSetting } from './shell-model'
export type { FitChoices, FitPlan, RestorePreview } from './model-fit'
export type {
  AuditJobStatus,
  AuditSummary,
  AuditView,
  NoteReview,
  ReviewReason,
} from './audit-view'
export { API_PREFIX, IPC_EVENT_CHANNEL, TOKEN_HEADER, ipcChannel } from './channels'

/** The methods every transport offers, with their argument schemas (run-time validation). */
const pathArg = z
  .string()
  .min(1)
  .max(4096)
  .refine((s) => !s.includes('\0'), 'NUL in path')
const hashArg = z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 hex content hash')
/** Largest text the window may write in one call (a MEMORY.md is far smaller). */
const textArg = z.string().max(8 * 1024 * 1024)
const reasonArg = z.string().min(1).max(500)
const lineArg = z.number().int().min(1).max(10_000_000)
/** An audit job's id as startAudit gave it. */
const jobIdArg = z.string().regex(/^[0-9a-f-]{36}$/, 'an audit job id')
/** One change of a plan: a create has no expected hash; a delete (no `after`) must have one. */
const planChangeArg = z
  .object({ path: pathArg, expectedHash: hashArg.nullable(), after: textArg.nullable() })
  .refine((c) => c.after !== null || c.expectedHash !== null, {
    message: 'a deletion needs the hash of the file it deletes',
  })

export const apiSchemas = {
  getContext: z.tuple([]),
  scan: z.tuple([]),
  cutoff: z.tuple([pathArg]),
  readFile: z.tuple([pathArg]),
  loadOrder: z.tuple([pathArg]),
  installedAgents: z.tuple([]),
  checkWithAgent: z.tuple([z.enum(['claude', 'codex']), pathArg]),
  audit: z.tuple([pathArg, pathArg.nullable()]),
  provenance: z.tuple([pathArg]),
  noteDiffs: z.tuple([
    pathArg,
    pathArg.nullable(),
    pathArg,
    lineArg,
    z.string().max(64).nullable().optional(),
  ]),
  writeFile: z.tuple([pathArg, hashArg.nullable(), textArg, reasonArg]),
  deleteFile: z.tuple([pathArg, hashArg, reasonArg]),
  listOperations: z.tuple([]),
  undo: z.tuple([z.string().min(1).max(200).nullable()]),
  verifyNote: z.tuple([pathArg, pathArg.nullable(), pathArg, lineArg]),
  listStamps: z.tuple([pathArg, pathArg.nullable()]),
  markReviewed: z.tuple([pathArg, hashArg]),
  reviewDiff: z.tuple([pathArg, pathArg]),
  restoreLostLine: z.tuple([pathArg, pathArg, z.string().min(1).max(100_000), hashArg]),
  planEdit: z.tuple([
    z.discriminatedUnion('kind', [
      z
        .object({ kind: z.literal('move-entry-above-cutoff'), file: pathArg, line: lineArg })
        .strict(),
      z
        .object({
          kind: z.literal('delete-entry'),
          file: pathArg,
          line: lineArg,
          deleteTopic: z.boolean(),
        })
        .strict(),
      z
        .object({
          kind: z.literal('extract-to-topic'),
          file: pathArg,
          line: lineArg,
          topicName: z.string().min(1).max(200),
        })
        .strict(),
      z
        .object({
          kind: z.literal('replace-text'),
          file: pathArg,
          line: lineArg,
          from: z.string().min(1).max(10_000),
          to: z.string().max(10_000),
        })
        .strict(),
    ]),
  ]),
  hooksStatus: z.tuple([pathArg.nullable()]),
  planHookInstall: z.tuple([
    z.enum(['user', 'project']),
    z.enum(['install', 'uninstall']),
    pathArg.nullable(),
  ]),
  applyHookInstall: z.tuple([
    z.enum(['user', 'project']),
    z.enum(['install', 'uninstall']),
    pathArg.nullable(),
    hashArg.nullable(),
    hashArg,
  ]),
  memoryNotices: z.tuple([z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)]),
  noteOrigin: z.tuple([pathArg, pathArg, lineArg]),
  noteEvidence: z.tuple([pathArg]),
  getSettings: z.tuple([]),
  setSettings: z.tuple([
    z.object({ theme: z.enum(['system', 'light', 'dark']).optional() }).strict(),
  ]),
  searchMemory: z.tuple([z.string().max(500)]),
  // A fit plan may shorten entries of up to 199 topic files at once (issue 15 item 8).
  applyPlan: z.tuple([z.array(planChangeArg).min(1).max(200), reasonArg]),
  fitPlan: z.tuple([
    pathArg,
    z
      .object({
        chosen: z.array(z.string().min(1).max(40)).max(200_000),
        move: z.array(lineArg).max(200_000),
      })
      .strict()
      .nullable(),
  ]),
  previewRestore: z.tuple([
    pathArg,
    pathArg,
    z.string().min(1).max(100_000),
    z.enum(['in-place', 'above-cutoff']),
  ]),
  auditToken: z.tuple([pathArg, pathArg.nullable()]),
  startAudit: z.tuple([pathArg, pathArg.nullable()]),
  auditJob: z.tuple([jobIdArg]),
  cancelAudit: z.tuple([jobIdArg]),
} as const

export type ApiMethod = keyof typeof apiSchemas
export const API_METHODS: readonly ApiMethod[] = API_METHOD_NAMES

// The name list of channels.ts, the schemas above and the interface below must agree exactly.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const _namesMatchSchemas: Same<(typeof API_METHOD_NAMES)[number], ApiMethod> = true
const _namesMatchInterface: Same<(typeof API_METHOD_NAMES)[number], keyof CuratorApi> = true
void _namesMatchSchemas
void _namesMatchInterface

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
