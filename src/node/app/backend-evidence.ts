/**
 * The handlers of a note's evidence (issue 12 items 9 and 10): the transcript excerpts that
 * wrote a note and which notes have any, with the evidence archive in our state folder (never
 * the Claude home). Part of the handler table of backend.ts; every path passes its guard.
 */
import type { CuratorApi } from '../../shared/api-contract'
import type { AccessPurpose } from '../../core/access-policy'
import { noteEvidence, noteOrigin } from '../transcripts/note-evidence'

export interface EvidenceDeps {
  readonly claudeHome: string
  readonly stateDir: string
  /** The transcript index cache the other transcript readers share. */
  readonly cacheDir: string
  /** Resolve `p` for `purpose`, or throw the back end's forbidden error. */
  readonly allowed: (purpose: AccessPurpose, p: string) => Promise<string>
  readonly ensureScanned: () => Promise<unknown>
}

export function evidenceHandlers(
  deps: EvidenceDeps,
): Pick<CuratorApi, 'noteOrigin' | 'noteEvidence'> {
  const base = { claudeHome: deps.claudeHome, stateDir: deps.stateDir, cacheDir: deps.cacheDir }
  return {
    async noteOrigin(memoryDir, file, line) {
      await deps.ensureScanned()
      const dir = await deps.allowed('memory-folder', memoryDir)
      const path = await deps.allowed('read-note-file', file)
      return noteOrigin({ ...base, memoryDir: dir, file: path, line })
    },
    async noteEvidence(memoryDir) {
      await deps.ensureScanned()
      return noteEvidence({ ...base, memoryDir: await deps.allowed('memory-folder', memoryDir) })
    },
  }
}
