/** PLACEHOLDER — being written by a helper (issue 6). Signatures are final. */
import type { EditOutcome, EditPlan, EditPlanRequest, NoteStamp, NoteStampStatus, OperationInfo } from '../core/model'
import type { TrashFn } from './safe-write'

/** A small persistent key-value store (electron-store in the window, a JSON file in `serve`). */
export interface KeyValueStore {
  get(key: string): unknown
  set(key: string, value: unknown): void
  delete(key: string): void
  keys(): string[]
}

export interface CurationDeps {
  /** Our state folder: backups and the undo log live under it. */
  readonly stateDir: string
  /** Moves a file to the OS trash; null when none is available (the file then stays, and the person is told). */
  readonly trash: TrashFn | null
  /** Where verification stamps are kept. */
  readonly stamps: KeyValueStore
}

export interface Curation {
  writeFile(path: string, expectedHash: string | null, newText: string, reason: string): Promise<EditOutcome>
  deleteFile(path: string, expectedHash: string, reason: string): Promise<EditOutcome>
  listOperations(): Promise<OperationInfo[]>
  undo(operationId: string | null): Promise<EditOutcome>
  verifyNote(memoryDir: string, repo: string | null, file: string, line: number): Promise<NoteStamp>
  listStamps(memoryDir: string, repo: string | null): Promise<NoteStampStatus[]>
  planEdit(request: EditPlanRequest): Promise<EditPlan>
}

export function createCuration(_deps: CurationDeps): Curation {
  const no = (): never => {
    throw new Error('not implemented yet')
  }
  return { writeFile: no, deleteFile: no, listOperations: no, undo: no, verifyNote: no, listStamps: no, planEdit: no }
}
