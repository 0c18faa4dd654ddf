/**
 * The handlers of the window's shell (issue 15): its settings, kept in the state folder so they
 * survive restarts of the app and of `serve`, and search across every memory folder, with
 * verdicts from the audits the window already ran.
 */
import { join } from 'node:path'
import type { AccessPurpose } from '../../core/access-policy'
import type { CuratorApi } from '../../shared/api-contract'
import type { AuditNote, AuditResult, ScanResult } from '../../shared/model'
import type { AppSettings, ThemeSetting } from '../../shared/shell-model'
import { createJsonFileStore } from '../fs/json-store'
import { readTextFile } from '../fs/safe-read'
import { isInside } from '../fs/path-guard'
import { BoundedCache } from '../cache/bounded-cache'
import { searchMemory } from '../memory/search'

/** Memory folders whose last audit is kept for search verdicts. */
const AUDITS_KEPT = 64
const THEMES: readonly ThemeSetting[] = ['system', 'light', 'dark']
const DEFAULT_SETTINGS: AppSettings = { theme: 'system' }

export type ShellApi = Pick<CuratorApi, 'getSettings' | 'setSettings' | 'searchMemory'>

export interface ShellDeps {
  readonly stateDir: string
  readonly ensureScanned: () => Promise<ScanResult>
  /** The path if it may serve `purpose` (src/core/access-policy.ts); throws otherwise. */
  readonly allowed: (purpose: AccessPurpose, path: string) => Promise<string>
}

export interface Shell {
  readonly api: ShellApi
  /** Keep an audit's notes for search; returns the result unchanged. */
  rememberAudit<T extends AuditResult>(memoryDir: string, result: T): T
  /** Forget the audits of folders a change touched (all of them on an unspecific change). */
  forget(paths: readonly string[]): void
}

export function createShell(deps: ShellDeps): Shell {
  const settingsFile = join(deps.stateDir, 'settings.json')
  let store: ReturnType<typeof createJsonFileStore> | null = null
  const settings = (): ReturnType<typeof createJsonFileStore> =>
    (store ??= createJsonFileStore(settingsFile))
  const audits = new BoundedCache<string, readonly AuditNote[]>(AUDITS_KEPT)
  const current = (): AppSettings => {
    const theme = settings().get('theme')
    return {
      theme: THEMES.includes(theme as ThemeSetting)
        ? (theme as ThemeSetting)
        : DEFAULT_SETTINGS.theme,
    }
  }
  const known = new Set<string>()

  return {
    api: {
      async getSettings() {
        return current()
      },
      async setSettings(patch) {
        if (patch.theme !== undefined) settings().set('theme', patch.theme)
        return current()
      },
      async searchMemory(query) {
        const scan = await deps.ensureScanned()
        return searchMemory(query, {
          scan,
          notesFor: (dir) => audits.get(dir) ?? null,
          read: async (path) => {
            try {
              const r = await readTextFile(await deps.allowed('read-note-file', path))
              return r.ok ? { text: r.text } : { reason: r.reason }
            } catch (err) {
              return { reason: (err as Error).message }
            }
          },
        })
      },
    },
    rememberAudit(memoryDir, result) {
      audits.set(memoryDir, result.notes)
      known.add(memoryDir)
      return result
    },
    forget(paths) {
      for (const dir of [...known]) {
        if (paths.length === 0 || paths.some((p) => p === dir || isInside(dir, p))) {
          audits.delete(dir)
          known.delete(dir)
        }
      }
    },
  }
}
