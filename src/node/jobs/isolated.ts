/**
 * Heavy work off the request path (issue 11, item 8): a job runs in its own child process with
 * a capped heap, so one hostile file can neither block other requests (the event loop stays
 * free) nor take down `serve` or the Electron main process. A process, not a worker thread:
 * some V8 failures (e.g. "Fatal JavaScript invalid size error" from the old replay's
 * split/join) abort the whole process, worker threads included — measured in
 * tests/unit/reliability/isolated.test.ts.
 */
import { fork, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** What a job script sends back: the job's value, or why it failed. */
export type JobReply =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string }

/** The one message a job script receives. */
export interface JobRequest {
  readonly job: string
  readonly args: unknown
}

/** Starts the process that runs `script` with an IPC channel (Node's fork by default). */
export type LaunchFn = (script: string, heapMb: number) => ChildProcess

export interface IsolatedRunnerOptions {
  /** The job script (an ES module): see heavy-worker.ts. */
  readonly script: URL
  /** Heap of one job; past it the job fails, the caller's process lives on. */
  readonly maxHeapMb?: number
  /** Jobs running at once; the rest wait their turn. */
  readonly concurrency?: number
  /** A job still running after this is stopped (a hang limit, generous on purpose). */
  readonly hangMs?: number
  readonly launch?: LaunchFn
}

/** A job that failed in its process (crash, out of memory, hang limit, or its own error). */
export class IsolatedJobError extends Error {
  constructor(
    readonly job: string,
    readonly reason: string,
  ) {
    super(`${job} failed: ${reason}`)
    this.name = 'IsolatedJobError'
  }
}

export interface IsolatedRunner {
  run(job: string, args: unknown): Promise<unknown>
  /** Jobs started so far and how they ended (for tests and the reliability figures). */
  readonly stats: { started: number; ok: number; failed: number }
  close(): Promise<void>
}

export const DEFAULT_JOB_HEAP_MB = 1024
export const DEFAULT_JOB_HANG_MS = 10 * 60 * 1000

const nodeFork: LaunchFn = (script, heapMb) =>
  fork(script, [], {
    execArgv: [`--max-old-space-size=${heapMb}`],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
  })

export function createIsolatedRunner(options: IsolatedRunnerOptions): IsolatedRunner {
  const concurrency = Math.max(1, options.concurrency ?? 2)
  const heapMb = options.maxHeapMb ?? DEFAULT_JOB_HEAP_MB
  const hangMs = options.hangMs ?? DEFAULT_JOB_HANG_MS
  const launch = options.launch ?? nodeFork
  const waiting: (() => void)[] = []
  /** Running jobs: each process and how to end its job. */
  const live = new Map<ChildProcess, (reply: JobReply) => void>()
  let running = 0
  let closed = false
  const stats = { started: 0, ok: 0, failed: 0 }

  const turn = async (): Promise<void> => {
    if (running < concurrency) {
      running++
      return
    }
    await new Promise<void>((go) => waiting.push(go))
  }
  const release = (): void => {
    const next = waiting.shift()
    if (next) next()
    else running--
  }

  function once(job: string, args: unknown): Promise<unknown> {
    return new Promise((resolvePromise, reject) => {
      stats.started++
      let child: ChildProcess
      try {
        child = launch(fileURLToPath(options.script), heapMb)
      } catch (err) {
        stats.failed++
        reject(new IsolatedJobError(job, `cannot start its process: ${String(err)}`))
        return
      }
      let settled = false
      const finish = (reply: JobReply): void => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        live.delete(child)
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
        if (reply.ok) {
          stats.ok++
          resolvePromise(reply.value)
        } else {
          stats.failed++
          reject(new IsolatedJobError(job, reply.reason))
        }
      }
      live.set(child, finish)
      const timer = setTimeout(
        () =>
          finish({
            ok: false,
            reason: `still running after ${Math.round(hangMs / 1000)} s; stopped`,
          }),
        hangMs,
      )
      timer.unref()
      child.once('message', (reply: JobReply) => finish(reply))
      child.once('error', (err) => finish({ ok: false, reason: `cannot run: ${err.message}` }))
      child.once('exit', (code, signal) =>
        finish({
          ok: false,
          reason:
            // V8 aborts (SIGABRT/SIGTRAP) on a fatal error, and exits 134 when out of heap.
            signal !== null
              ? `crashed (${signal}): out of memory or a fatal V8 error (heap limit ${heapMb} MB)`
              : `its process stopped (exit code ${code}) without an answer`,
        }),
      )
      const request: JobRequest = { job, args }
      child.send(request, (err) => {
        if (err) finish({ ok: false, reason: `cannot send the job: ${err.message}` })
      })
    })
  }

  return {
    stats,
    async run(job, args) {
      if (closed) throw new IsolatedJobError(job, 'the runner is closed')
      await turn()
      try {
        return await once(job, args)
      } finally {
        release()
      }
    },
    async close() {
      closed = true
      const ends = [...live].map(([child, finish]) => {
        const exited = new Promise((r) => child.once('exit', r))
        finish({ ok: false, reason: 'stopped: the back end is closing' })
        return exited
      })
      await Promise.all(ends)
    },
  }
}

/**
 * The built job script beside this module (out/cli/heavy-worker.js, out/main/heavy-worker.js),
 * or null when running from the TypeScript sources (unit tests), where jobs run in-process.
 */
export function builtHeavyWorker(): URL | null {
  if (!import.meta.url.startsWith('file:')) return null
  // Beside the entry, or one folder up when the bundler put this module in a chunk folder.
  for (const rel of ['./heavy-worker.js', '../heavy-worker.js']) {
    const url = new URL(rel, import.meta.url)
    if (existsSync(fileURLToPath(url))) return url
  }
  return null
}
