/**
 * Timing and peak memory: in-process work sampled every 50 ms (`process.memoryUsage.rss`), child
 * processes through `/proc/<pid>/status` (VmHWM, the kernel's own high-water mark).
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'

export const SAMPLE_MS = 50
const MiB = 1024 * 1024

export interface Measured<T> {
  readonly value: T
  readonly ms: number
  readonly rssBeforeMiB: number
  /** Highest RSS sampled while the work ran (and at its end). */
  readonly peakRssMiB: number
}

/** Run `fn` in this process, timing it and sampling RSS every SAMPLE_MS. */
export async function measureInProcess<T>(fn: () => Promise<T>): Promise<Measured<T>> {
  const before = process.memoryUsage.rss()
  let peak = before
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss())
  }, SAMPLE_MS)
  const t0 = performance.now()
  try {
    const value = await fn()
    const ms = performance.now() - t0
    peak = Math.max(peak, process.memoryUsage.rss())
    return { value, ms, rssBeforeMiB: before / MiB, peakRssMiB: peak / MiB }
  } finally {
    clearInterval(timer)
  }
}

/**
 * The fastest of `runs` measurements of `fn` (the others are disturbed by whatever else the
 * machine did), with the highest peak of all; `before` runs ahead of each (e.g. clearing caches).
 */
export async function bestOf<T>(
  runs: number,
  fn: () => Promise<T>,
  before: () => void = () => undefined,
): Promise<Measured<T> & { readonly allMs: readonly number[] }> {
  const all: Measured<T>[] = []
  for (let i = 0; i < runs; i++) {
    before()
    all.push(await measureInProcess(fn))
  }
  const best = all.reduce((a, b) => (b.ms < a.ms ? b : a))
  return {
    ...best,
    peakRssMiB: Math.max(...all.map((m) => m.peakRssMiB)),
    allMs: all.map((m) => Math.round(m.ms)),
  }
}

/** The fastest of `runs` runs of a command, with the highest peak RSS seen. */
export async function bestChildOf(
  runs: number,
  cmd: string,
  args: readonly string[],
  opts: { readonly cwd?: string; readonly env?: NodeJS.ProcessEnv } = {},
): Promise<ChildRun & { readonly allMs: readonly number[] }> {
  const all: ChildRun[] = []
  for (let i = 0; i < runs; i++) all.push(await runChild(cmd, args, opts))
  const best = all.reduce((a, b) => (b.ms < a.ms ? b : a))
  const peaks = all.map((r) => r.peakRssMiB).filter((p): p is number => p !== null)
  return {
    ...best,
    peakRssMiB: peaks.length > 0 ? Math.max(...peaks) : null,
    allMs: all.map((r) => Math.round(r.ms)),
  }
}

/** Peak resident memory of a live process (Linux), or null where /proc is not there. */
export function processPeakRssMiB(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const m = /^VmHWM:\s+(\d+) kB/m.exec(status)
    return m ? Number(m[1]) / 1024 : null
  } catch {
    return null
  }
}

export interface ChildRun {
  readonly code: number | null
  readonly ms: number
  readonly peakRssMiB: number | null
  readonly stdoutBytes: number
  /** The first 64 KiB of stdout, for callers that read a count from it. */
  readonly stdoutHead: string
  readonly stderr: string
}

/**
 * Run a command to its end, draining stdout (counted, not kept) and polling its peak RSS.
 * Never throws: a command that cannot start comes back with code null and the reason in stderr.
 */
export function runChild(
  cmd: string,
  args: readonly string[],
  opts: { readonly cwd?: string; readonly env?: NodeJS.ProcessEnv; readonly input?: string } = {},
): Promise<ChildRun> {
  return new Promise((done) => {
    const t0 = performance.now()
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    // What a parent hands the process on stdin (Claude Code's hook JSON), then end of input.
    // A process may exit before it reads its input: EPIPE then is its answer, not ours to throw.
    child.stdin.on('error', () => undefined)
    child.stdin.end(opts.input ?? '')
    let peak: number | null = null
    const poll = (): void => {
      if (child.pid === undefined) return
      const p = processPeakRssMiB(child.pid)
      if (p !== null) peak = Math.max(peak ?? 0, p)
    }
    const timer = setInterval(poll, SAMPLE_MS)
    let stdoutBytes = 0
    let head = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => {
      stdoutBytes += d.length
      if (head.length < 64 * 1024) head += d.toString('utf8')
      // The process is still alive while it writes: a good moment to read its high-water mark.
      poll()
    })
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < 16 * 1024) stderr += d.toString('utf8')
    })
    child.on('error', (err) => {
      clearInterval(timer)
      done({
        code: null,
        ms: performance.now() - t0,
        peakRssMiB: peak,
        stdoutBytes,
        stdoutHead: head,
        stderr: String(err),
      })
    })
    child.on('close', (code) => {
      clearInterval(timer)
      done({
        code,
        ms: performance.now() - t0,
        peakRssMiB: peak,
        stdoutBytes,
        stdoutHead: head,
        stderr,
      })
    })
  })
}

/** Run at most `n` tasks at once over `items`, in order of start. */
export async function forEachLimited<T>(
  items: readonly T[],
  n: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++])
  }
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker))
}

export type BestChild = ChildRun & { readonly allMs: readonly number[] }

function best(all: readonly ChildRun[]): BestChild {
  const fastest = all.reduce((a, b) => (b.ms < a.ms ? b : a))
  const peaks = all.map((r) => r.peakRssMiB).filter((p): p is number => p !== null)
  return {
    ...fastest,
    peakRssMiB: peaks.length > 0 ? Math.max(...peaks) : null,
    allMs: all.map((r) => Math.round(r.ms)),
  }
}

/**
 * Two commands side by side (issue 16): `runs` rounds, alternating which goes first, so a
 * change in the machine's load hits both alike; the fastest run of each and its highest peak.
 * `before` runs ahead of every run of `a` (e.g. emptying a cache for a cold run).
 */
export async function sideBySide(
  runs: number,
  a: () => Promise<ChildRun>,
  b: () => Promise<ChildRun>,
  before: () => void = () => undefined,
): Promise<{ a: BestChild; b: BestChild }> {
  const as: ChildRun[] = []
  const bs: ChildRun[] = []
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      before()
      as.push(await a())
      bs.push(await b())
    } else {
      bs.push(await b())
      before()
      as.push(await a())
    }
  }
  return { a: best(as), b: best(bs) }
}
