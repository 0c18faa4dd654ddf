/**
 * The handler table's methods for our Claude Code hook (issue 18 item 2): status, plan and
 * apply, over src/node/hooks/hook-settings.ts. The project scope's launch directory passes the
 * guard like every other (`launchDir` of backend.ts); the user scope's file is the Claude
 * home's own settings, never a path the caller names.
 */
import type { EventEmitter } from 'node:events'
import { join } from 'node:path'
import type { CuratorApi, HookScope, MemoryNotice } from '../../shared/api-contract'
import { BackendError } from './errors'
import type { AuditResult, ScanResult } from '../../shared/model'
import { cutoffFile } from '../memory/cutoff-file'
import { saveAuditDigest } from '../hooks/audit-digest'
import { builtCliScript, hookCommand } from '../hooks/hook-command'
import { applyHookChange, hookState, planHookChange } from '../hooks/hook-settings'
import { createMemoryMonitor } from '../hooks/memory-monitor'

/** Configuration of the hook side (part of BackendConfig). */
export interface HookConfig {
  /**
   * Where audit digests are saved for the SessionStart hook (default the state folder). The app
   * passes the CLI's state folder, where `memory-curator hook session-start` looks.
   */
  readonly auditDigestDir?: string
}

export interface HookHandlerConfig extends HookConfig {
  readonly claudeHome: string
  readonly stateDir: string
  readonly env?: Readonly<Record<string, string | undefined>>
}

export interface HookHandlerDeps {
  /** A launch directory the caller may use (the guard's check), its checked path. */
  readonly launchDir: (cwd: string) => Promise<string>
  /** The back end's event emitter: the monitor follows its `change` events. */
  readonly events: EventEmitter
  readonly ensureScanned: () => Promise<ScanResult>
}

export interface HookHandlers extends Pick<
  CuratorApi,
  'hooksStatus' | 'planHookInstall' | 'applyHookInstall' | 'memoryNotices'
> {
  /** A notice as it is found (the app shows a desktop notification). */
  onMemoryNotice(listener: (n: MemoryNotice) => void): () => void
  /** Keep the findings of an audit for the SessionStart hook; resolves to the result. */
  auditDone<R extends AuditResult>(memoryDir: string, result: R): Promise<R>
  stopMonitor(): void
}

/** `backend` gives the handler table once built (the monitor asks it for provenance). */
export function createHookHandlers(
  config: HookHandlerConfig,
  deps: HookHandlerDeps,
  backend: () => Pick<CuratorApi, 'provenance'>,
): HookHandlers {
  const monitor = createMemoryMonitor({
    cutoff: (file) => cutoffFile(file),
    provenance: (dir) => backend().provenance(dir),
    isMemoryDir: async (dir) =>
      (await deps.ensureScanned()).projects.some((p) => p.memoryDir === dir),
  })
  deps.events.on('change', (e: { paths: readonly string[] }) => monitor.changed(e.paths))
  const command = (): string =>
    hookCommand({ env: config.env ?? process.env, cliScript: builtCliScript() })
  const target = async (cwd: string | null, scope: HookScope = 'user') => {
    if (scope === 'project' && cwd === null)
      throw new BackendError('bad-request', "the project's settings need a launch directory")
    return {
      claudeHome: config.claudeHome,
      cwd: cwd === null ? null : await deps.launchDir(cwd),
    }
  }
  return {
    async hooksStatus(cwd) {
      const t = await target(cwd)
      return {
        command: command(),
        user: await hookState('user', t),
        project: t.cwd === null ? null : await hookState('project', t),
      }
    },
    async planHookInstall(scope, action, cwd) {
      const { after, ...plan } = await planHookChange(
        scope,
        action,
        await target(cwd, scope),
        command(),
      )
      void after
      return plan
    },
    async applyHookInstall(scope, action, cwd, expectedHash, afterHash) {
      return applyHookChange(
        scope,
        action,
        await target(cwd, scope),
        command(),
        expectedHash,
        afterHash,
        join(config.stateDir, 'backups'),
      )
    },
    memoryNotices: (afterId) => monitor.notices(afterId),
    onMemoryNotice: (listener) => monitor.onNotice(listener),
    async auditDone(memoryDir, result) {
      await saveAuditDigest(config.auditDigestDir ?? config.stateDir, memoryDir, result)
      return result
    },
    stopMonitor: () => monitor.stop(),
  }
}
