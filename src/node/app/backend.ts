/**
 * The back end's handler table: one object whose methods are the API contract
 * (src/shared/api.ts), implemented over the disk. Electron IPC, `serve` and tests
 * all call this same table; transports only validate, authorise and carry.
 */
import { EventEmitter } from 'node:events'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { keepHistoryIn } from '../git/history-store'
import type { AuditResult, ScanResult } from '../../shared/model'
import type { AppContext, CuratorApi } from '../../shared/api-contract'
import type { AccessPurpose } from '../../core/access-policy'
import { isInside, PathGuard } from '../fs/path-guard'
import { auditMemory } from '../audit/audit'
import { AuditFactsCache } from '../audit/audit-cache'
import { noteDiffs } from '../audit/note-diffs'
import { createCuration, type KeyValueStore } from '../edits/edit-actions'
import { createAuditJobs } from './backend-audit-jobs'
import { createReview } from '../edits/review-snapshots'
import { readForEdit, type TrashFn } from '../edits/safe-write'
import { provenance, writtenAtProvider } from '../transcripts/provenance'
import { cutoffFile } from '../memory/cutoff-file'
import { scanClaudeHome } from '../memory/scan'
import { createScanCache } from '../memory/scan-cache'
import { createScanWitness } from '../memory/scan-witness'
import { findRepo } from '../git/repo'
import { loadOrder } from '../load-order/load-order'
import { checkWithAgent, installedAgents } from '../agents/agent-check'
import {
  builtHeavyWorker,
  createIsolatedRunner,
  IsolatedJobError,
  type LaunchFn,
} from '../jobs/isolated'
import { BackendError } from './errors'
import type { AppSetup } from './setup'
import { allowNamedLaunchDirs } from './named-launch-dirs'
import { createStartupScan, type WitnessedScan } from './startup-scan'
import { CacheSaves } from './cache-saves'
import { createHookHandlers, type HookConfig, type HookHandlers } from './backend-hooks'
import { evidenceHandlers } from './backend-evidence'
import { createShell } from './backend-shell'
import { editHandlers } from './backend-edits'
import { fitHandlers, LastAudits } from './backend-fit'

/**
 * What the window is told (AppContext: version, homes, demo, transport), the state folder setup
 * chose (AppSetup: caches, backups, snapshots; never inside the Claude home), and the machinery.
 */
export interface BackendConfig extends AppContext, AppSetup, HookConfig {
  readonly env?: Readonly<Record<string, string | undefined>>
  /** Moves a file to the OS trash (Electron: shell.trashItem; serve: the freedesktop trash). */
  readonly trash: TrashFn | null
  /** Where verification stamps are kept (Electron: electron-store; serve: a JSON file). */
  readonly stampStore: KeyValueStore
  /** Worker script for heavy jobs (isolated.ts); default: the built one beside this bundle, if any. */
  readonly heavyWorker?: URL | null
  /** How a job's process starts (Electron: a utility process, src/main/utility-launch.ts); default Node's fork. */
  readonly heavyLaunch?: LaunchFn
  /** Launch directories the person named (the CLI's `--cwd`; never the page): no scan needed. */
  readonly namedLaunchDirs?: readonly string[]
}

export { BackendError }

/** The handler table: the contract (src/shared/api-contract.ts) plus what the transports need. */
export interface Backend extends CuratorApi, Pick<HookHandlers, 'onMemoryNotice'> {
  /** "Something changed on disk" (the event channel of the contract). */
  onDidChange(listener: (event: { kind: 'changed'; paths: readonly string[] }) => void): () => void
  /** Tell listeners that paths changed (the watcher calls this). */
  emitChange(paths: readonly string[]): void
  /**
   * Scan now and keep the result for the next `scan()` call, unless something changes on disk
   * first (the watcher's startup scan: the window's first load then draws without a second walk).
   */
  prefetchScan(): Promise<ScanResult>
  /**
   * Once the watcher is ready: report the memory folders and files that changed since the startup
   * scan read them (its record, scan-witness.ts), as the watcher would have (it starts after that
   * scan, so it saw nothing before).
   */
  recheckStartupScan(): Promise<void>
  /** A second after the first `scan()` was answered, or 5 s after the ask (startup-scan.ts). */
  firstScanAnswered(): Promise<void>
  /** Called after every scan with its result (the watcher adds folders that appeared). */
  onScanned(listener: (scan: ScanResult) => void): () => void
  /** The guard every path argument passes through. */
  readonly guard: PathGuard
  dispose(): Promise<void>
}

/** Build the handler table for one Claude home. */
export async function createBackend(config: BackendConfig): Promise<Backend> {
  const guard = new PathGuard()
  await guard.setClaudeHome(config.claudeHome)
  await allowNamedLaunchDirs(guard, config.namedLaunchDirs ?? [])
  const events = new EventEmitter()
  let lastScan: ScanResult | null = null
  // Issue 7: one walk of a heavy home takes seconds, so a scan is shared. A scan still running
  // is joined when nothing changed since it started; the startup scan (prefetchScan) answers the
  // window's first scan() when nothing changed since and it is recent.
  let changeGeneration = 0
  let running: { readonly generation: number; readonly result: Promise<WitnessedScan> } | null =
    null
  // Issue 16: transcript heads and memory files unchanged since the last scan are not read again.
  const scanCache = createScanCache(config.stateDir)
  const cacheSaves = new CacheSaves()
  const cacheDir = join(config.stateDir, 'provenance-cache')
  // Issue 11 item 8: replaying transcripts runs in a worker, so a hostile line can neither stall
  // other requests nor crash this process (in-process only when run from the sources).
  const heavyScript = config.heavyWorker === undefined ? builtHeavyWorker() : config.heavyWorker
  const heavy =
    heavyScript === null
      ? null
      : createIsolatedRunner({ script: heavyScript, launch: config.heavyLaunch })
  // The last audits' repository facts, for a click on a note (issue 7; audit.ts says when they hold).
  const auditCache = new AuditFactsCache()
  // Issue 16: each repository's history log and searches of commits, kept between starts as the
  // command line keeps them (docs/cli.md), so the first audit after a start is not a cold one.
  keepHistoryIn(join(config.stateDir, 'history'))
  const curation = createCuration({
    stateDir: config.stateDir,
    trash: config.trash,
    stamps: config.stampStore,
  })
  // Issue 15 items 3, 7: audits as jobs; verifications that override verdicts.
  const jobs = createAuditJobs({
    resolve: async (dir, repo) => {
      await ensureScanned()
      return { dir: await allowed('memory-folder', dir), repo: await repoArg(repo) }
    },
    resolveFile: (file) => allowed('read-note-file', file),
    writtenAt: (dir) => writtenAt(dir),
    stampStore: config.stampStore,
    facts: auditCache,
    onAudit: (dir, result) => audited(dir, result),
  })
  const review = createReview({
    stateDir: config.stateDir,
    claudeHome: config.claudeHome,
    writeFile: curation.writeFile,
  })
  // "When was the note written": the transcript write that last touched its lines (most precise).
  // One provider per memory folder, kept between calls (issue 7: building one lists and stats
  // every transcript, and a note's diff after a click must not wait for that). Its per-file cache
  // must not outlive edits: a change on disk in the folder, or our own write, drops it.
  const providers = new Map<string, ReturnType<typeof writtenAtProvider>>()
  const writtenAt = (memoryDir: string): ReturnType<typeof writtenAtProvider> => {
    let provider = providers.get(memoryDir)
    if (!provider) {
      provider = writtenAtProvider({ claudeHome: config.claudeHome, cacheDir })
      providers.set(memoryDir, provider)
    }
    return provider
  }
  const forgetProviders = (paths: readonly string[] | null): void => {
    if (paths === null) return providers.clear()
    for (const dir of [...providers.keys()]) {
      if (paths.some((p) => p === dir || isInside(dir, p))) providers.delete(dir)
    }
  }
  /** Run a write and forget the dates of every folder (undo may touch any of them). */
  const afterWrite = async <T>(work: Promise<T>): Promise<T> => {
    try {
      return await work
    } finally {
      forgetProviders(null)
    }
  }

  /** A scan with what it saw (scan-witness.ts: the startup scan's recheck compares it with the disk). */
  function runScan(): Promise<WitnessedScan> {
    if (running && running.generation === changeGeneration) return running.result
    const mine = {
      generation: changeGeneration,
      result: (async () => {
        const cache = await scanCache.begin(config.claudeHome)
        const witness = createScanWitness()
        const result = await scanClaudeHome(config.claudeHome, { cache, witness })
        cacheSaves.later(cache)
        await guard.rememberProjects(result)
        lastScan = result
        events.emit('scanned', result)
        return { scan: result, seen: witness.seen }
      })(),
    }
    running = mine
    const clear = (): void => {
      if (running === mine) running = null
    }
    mine.result.then(clear, clear)
    return mine.result
  }

  /**
   * Require `p` to serve `purpose` (src/core/access-policy.ts; each method names its own, the
   * window never does); the error names the path and the reason.
   */
  async function allowed(purpose: AccessPurpose, p: string): Promise<string> {
    const v = await guard.check(purpose, p)
    if (!v.ok) throw new BackendError('forbidden', v.reason)
    return v.path
  }
  const repoArg = (repo: string | null): Promise<string | null> =>
    repo === null ? Promise.resolve(null) : allowed('repository', repo)

  async function ensureScanned(): Promise<ScanResult> {
    return lastScan ?? (await runScan()).scan
  }
  /** A launch directory the person named (the CLI), else a scanned project's (scan first if need be). */
  async function launchDir(cwd: string): Promise<string> {
    const named = await guard.check('launch-dir', cwd)
    if (named.ok) return named.path
    await ensureScanned()
    return allowed('launch-dir', cwd)
  }
  /** What the agents load in `dir`; MEMORY.md found as the agent finds it (homes.ts). */
  const orderIn = (dir: string, env = config.env): ReturnType<typeof loadOrder> =>
    loadOrder({ ...config, cwd: dir, env })
  const shell = createShell({ ...config, ensureScanned, allowed })

  const hooks = createHookHandlers(config, { launchDir, events, ensureScanned }, () => backend)
  const lastAudits = new LastAudits()
  /** Kept for the SessionStart hook, for search's verdicts and for the fit plan's judged notes. */
  const audited = async (dir: string, result: AuditResult): Promise<AuditResult> =>
    lastAudits.remember(dir, shell.rememberAudit(dir, await hooks.auditDone(dir, result)))
  const startup = createStartupScan({
    runScan,
    generation: () => changeGeneration,
    emitChange: (paths) => backend.emitChange(paths),
  })
  const backend: Backend = {
    ...shell.api,
    ...fitHandlers({ allowed, ensureScanned, lastAudits, review }),
    guard,
    ...evidenceHandlers({ ...config, cacheDir, allowed, ensureScanned }),
    async getContext() {
      return {
        version: config.version,
        claudeHome: config.claudeHome,
        codexHome: config.codexHome,
        managedDir: config.managedDir,
        demo: config.demo,
        demoReason: config.demoReason,
        transport: config.transport,
      }
    },
    scan: startup.scan,
    prefetchScan: startup.prefetchScan,
    firstScanAnswered: startup.firstScanAnswered,
    recheckStartupScan: startup.recheckStartupScan,
    onScanned(listener) {
      events.on('scanned', listener)
      return () => events.off('scanned', listener)
    },
    async cutoff(file) {
      await ensureScanned()
      return cutoffFile(await allowed('read-note-file', file))
    },
    async readFile(path) {
      await ensureScanned()
      const abs = await allowed('read-note-file', path)
      const r = await readForEdit(abs)
      if ('text' in r && typeof r.text === 'string') {
        return { ok: true, path: abs, text: r.text, hash: r.hash, bytes: r.bytes }
      }
      return { ok: false, path: abs, reason: 'reason' in r ? String(r.reason) : 'cannot read' }
    },
    async loadOrder(cwd) {
      const dir = await launchDir(cwd)
      const repo = await findRepo(dir)
      const result = await orderIn(dir)
      // The chain shown becomes what the window may open (and edit, for instruction files).
      const places = [dir, config.claudeHome, config.codexHome, config.managedDir]
      if (repo) places.push(repo.toplevel, repo.mainRoot)
      await guard.rememberChain(result, places)
      return result
    },
    async installedAgents() {
      return installedAgents(config.env?.PATH ?? process.env.PATH)
    },
    async checkWithAgent(agent, cwd) {
      const dir = await launchDir(cwd)
      const env = config.env ?? process.env
      return checkWithAgent({
        agent,
        cwd: dir,
        claudeHome: config.claudeHome,
        codexHome: config.codexHome,
        homeDir: env.HOME && env.HOME !== '' ? env.HOME : homedir(),
        ours: await orderIn(dir, env),
        path: env.PATH ?? process.env.PATH,
      })
    },
    async audit(memoryDir, repo) {
      await ensureScanned()
      const dir = await allowed('memory-folder', memoryDir)
      const repoDir = await repoArg(repo)
      const args = {
        memoryDir: dir,
        repo: repoDir,
        writtenAtFor: writtenAt(dir),
        cache: auditCache,
      }
      return audited(dir, await auditMemory(args))
    },
    async noteDiffs(memoryDir, repo, file, line, knownWrittenAt) {
      await ensureScanned()
      const dir = await allowed('memory-folder', memoryDir)
      const repoDir = await repoArg(repo)
      // The window passes the date the audit already found; only without it are transcripts read.
      const at = knownWrittenAt && !Number.isNaN(Date.parse(knownWrittenAt)) ? knownWrittenAt : null
      const writtenAtFor = at ? async () => ({ at, source: 'transcript' as const }) : writtenAt(dir)
      return noteDiffs({
        memoryDir: dir,
        repo: repoDir,
        file: await allowed('read-note-file', file),
        line,
        writtenAtFor,
        cache: auditCache,
      })
    },
    ...editHandlers({ ensureScanned, allowed, repoArg, afterWrite, curation, review }),
    ...jobs,
    async provenance(memoryDir) {
      await ensureScanned()
      const dir = await allowed('memory-folder', memoryDir)
      const args = { claudeHome: config.claudeHome, memoryDir: dir, cacheDir }
      if (heavy === null) {
        const r = await provenance(args)
        return { files: r.files, problems: r.problems }
      }
      // A job whose process died is run once more in a new one (a start or a reply lost to a
      // loaded machine: the window once showed an empty History under two CI runs); a job that
      // hung past its limit is not.
      let err: unknown
      for (let attempt = 0; attempt < 2; attempt++) {
        try {
          return (await heavy.run('provenance', args)) as Awaited<ReturnType<Backend['provenance']>>
        } catch (e) {
          err = e
          if (e instanceof IsolatedJobError && e.reason.startsWith('still running')) break
        }
      }
      // The job died twice (out of memory, crash): a problem with its reason, the server lives on.
      return {
        files: [],
        problems: [
          {
            path: dir,
            reason: `history not read: ${err instanceof Error ? err.message : String(err)}`,
          },
        ],
      }
    },
    ...hooks,
    onDidChange(listener) {
      events.on('change', listener)
      return () => events.off('change', listener)
    },
    emitChange(paths) {
      changeGeneration++
      startup.forget()
      forgetProviders(paths)
      shell.forget(paths)
      events.emit('change', { kind: 'changed', paths })
    },
    async dispose() {
      hooks.stopMonitor()
      events.removeAllListeners()
      auditCache.close()
      await cacheSaves.flush()
      await heavy?.close()
    },
  }
  return backend
}
