/**
 * Provenance benchmark: generate a Claude home holding `bytes` of realistic transcripts (mostly
 * lines that cannot matter, a few memory writes), then time the first run of `provenance`
 * against `grep -c '"tool_use"'` over the same files, the second (cached) run against the
 * first, and record peak RSS. Run through tests/unit/provenance-bench-smoke.test.ts
 * (`PROVENANCE_BENCH_MB=500 npx vitest run tests/unit/provenance-bench-smoke.test.ts`).
 */
import { execFile } from 'node:child_process'
import { mkdir, open } from 'node:fs/promises'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { encodeProjectDir } from '../src/core/project-path'
import { provenance } from '../src/node/provenance'

export interface BenchOptions {
  /** Approximate transcript bytes to generate. */
  readonly bytes: number
  /** An empty folder to build the Claude home and cache in. */
  readonly dir: string
}

export interface BenchResult {
  readonly generatedBytes: number
  readonly transcripts: number
  readonly lines: number
  readonly memoryWritesGenerated: number
  readonly memoryWritesFound: number
  readonly lostLines: number
  readonly firstMs: number
  readonly secondMs: number
  readonly grepMs: number
  readonly grepToolUseLines: number
  readonly firstBytesRead: number
  readonly secondBytesRead: number
  readonly linesParsed: number
  /** How many times longer our first run took than grep (lower is better). */
  readonly firstVsGrep: number
  /** Second run time as a fraction of the first. */
  readonly secondVsFirst: number
  /** MB/s of the first run. */
  readonly firstMBps: number
  /** Highest RSS sampled during the first run, and the process's lifetime peak (MiB). */
  readonly peakRssDuringFirstMiB: number
  readonly maxRssMiB: number
  readonly rssBeforeMiB: number
}

const FILE_BYTES = 48 * 1024 * 1024
const PROJECTS = 3
/** One memory write per this many exchanges (~1 MB of transcript). */
const WRITE_EVERY_EXCHANGES = 150

/** Deterministic pseudo-random numbers, so runs are comparable. */
function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

const LOREM =
  'The build runs through electron-vite; tests use vitest with real git repositories in temp folders. ' +
  'When the index grows past its cutoff the newest notes fall off first, so keep the loaded head small. '

function filler(r: () => number, min: number, max: number): string {
  const n = Math.floor(min + r() * (max - min))
  return LOREM.repeat(Math.ceil(n / LOREM.length)).slice(0, n)
}

interface Session {
  readonly id: string
  readonly cwd: string
  readonly branch: string
}

/** One realistic non-memory exchange: text, a Bash/Read/Grep call and its (often large) result. */
function noiseLines(s: Session, r: () => number, n: number, t: string): string[] {
  const base = {
    parentUuid: `p-${n}`,
    isSidechain: false,
    userType: 'external',
    cwd: s.cwd,
    sessionId: s.id,
    version: '2.1.70',
    gitBranch: s.branch,
  }
  const tool = ['Bash', 'Read', 'Grep', 'Glob'][Math.floor(r() * 4)]
  const id = `toolu_n${n.toString(36)}x${Math.floor(r() * 1e9).toString(36)}`
  const input =
    tool === 'Bash'
      ? { command: 'npm test -- --run', description: 'Run tests' }
      : tool === 'Read'
        ? { file_path: `${s.cwd}/src/file${n % 50}.ts` }
        : { pattern: 'export function' }
  const resultText = filler(r, 400, tool === 'Read' ? 9000 : 2500)
  return [
    JSON.stringify({
      ...base,
      type: 'assistant',
      uuid: `a-${n}`,
      timestamp: t,
      message: {
        id: `msg_${n}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-opus-4-5',
        content: [{ type: 'text', text: filler(r, 100, 900) }],
        usage: { input_tokens: 5, output_tokens: 120 },
      },
    }),
    JSON.stringify({
      ...base,
      type: 'assistant',
      uuid: `b-${n}`,
      timestamp: t,
      message: {
        id: `msg_${n}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-opus-4-5',
        content: [{ type: 'tool_use', id, name: tool, input }],
      },
    }),
    JSON.stringify({
      ...base,
      type: 'user',
      uuid: `c-${n}`,
      timestamp: t,
      message: {
        role: 'user',
        content: [{ tool_use_id: id, type: 'tool_result', content: resultText }],
      },
      toolUseResult: { stdout: resultText, stderr: '', interrupted: false, isImage: false },
    }),
    JSON.stringify({
      type: 'progress',
      sessionId: s.id,
      timestamp: t,
      data: { type: 'hook_progress', hookEvent: 'PostToolUse' },
    }),
  ]
}

function memoryWriteLines(
  s: Session,
  memory: string,
  n: number,
  t: string,
  content: string,
): string[] {
  const base = {
    parentUuid: `p-${n}`,
    isSidechain: false,
    userType: 'external',
    cwd: s.cwd,
    sessionId: s.id,
    version: '2.1.70',
    gitBranch: s.branch,
  }
  const id = `toolu_m${n.toString(36)}`
  return [
    JSON.stringify({
      ...base,
      type: 'assistant',
      uuid: `mw-${n}`,
      timestamp: t,
      message: {
        id: `msg_m${n}`,
        role: 'assistant',
        content: [{ type: 'tool_use', id, name: 'Write', input: { file_path: memory, content } }],
      },
    }),
    JSON.stringify({
      ...base,
      type: 'user',
      uuid: `mr-${n}`,
      timestamp: t,
      message: {
        role: 'user',
        content: [{ tool_use_id: id, type: 'tool_result', content: `File written: ${memory}` }],
      },
      toolUseResult: { type: 'update', filePath: memory, content, structuredPatch: [] },
    }),
  ]
}

function iso(ms: number): string {
  return new Date(Date.UTC(2026, 0, 1) + ms).toISOString()
}

/** `grep -c '"tool_use"'` over the files: the floor for "look at every byte once". */
function grepCount(files: readonly string[]): Promise<{ ms: number; count: number }> {
  const start = performance.now()
  return new Promise((resolvePromise, reject) => {
    execFile(
      'grep',
      ['-c', '"tool_use"', ...files],
      { maxBuffer: 16 * 1024 * 1024 },
      (err, stdout) => {
        // grep exits 1 when some file has no match; that is not an error here.
        if (err && (err as NodeJS.ErrnoException & { code?: number }).code !== 1) return reject(err)
        const count = stdout
          .trim()
          .split('\n')
          .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(':') + 1) || 0), 0)
        resolvePromise({ ms: performance.now() - start, count })
      },
    )
  })
}

/** Generate transcripts of about `bytes`, then measure grep, the first and the second run. */
export async function runProvenanceBench(options: BenchOptions): Promise<BenchResult> {
  const r = rng(42)
  const home = join(options.dir, 'claude')
  const cacheDir = join(options.dir, 'cache')
  const repo = '/home/dev/shop'
  const memDir = join(home, 'projects', encodeProjectDir(repo), 'memory')
  await mkdir(memDir, { recursive: true })
  const memory = join(memDir, 'MEMORY.md')
  const sessions: Session[] = Array.from({ length: PROJECTS }, (_, i) => ({
    id: `0000000${i}-1111-4222-8333-444444444444`,
    cwd: i === 0 ? repo : `/home/dev/shop-wt-${i}`,
    branch: i === 0 ? 'main' : `feature-${i}`,
  }))
  const files: string[] = []
  let generated = 0
  let lines = 0
  let memoryWrites = 0
  let n = 0
  const notes: string[] = ['# Memory']
  let fileIndex = 0
  while (generated < options.bytes) {
    const s = sessions[fileIndex % PROJECTS]
    const dir = join(home, 'projects', encodeProjectDir(s.cwd))
    await mkdir(dir, { recursive: true })
    const path = join(dir, `${s.id.slice(0, 8)}-${fileIndex}.jsonl`)
    files.push(path)
    const handle = await open(path, 'w')
    let fileBytes = 0
    const target = Math.min(FILE_BYTES, options.bytes - generated)
    let buf: string[] = []
    let bufLen = 0
    while (fileBytes < target) {
      n++
      const t = iso(n * 1000)
      let batch = noiseLines(s, r, n, t)
      if (n % WRITE_EVERY_EXCHANGES === 0) {
        // Each session writes the whole index from its own view, dropping one older note.
        notes.push(`- note ${n} from ${s.branch}`)
        if (notes.length > 6) notes.splice(1 + (n % 3), 1)
        batch = [...batch, ...memoryWriteLines(s, memory, n, t, notes.join('\n') + '\n')]
        memoryWrites++
      }
      for (const l of batch) {
        const line = l + '\n'
        buf.push(line)
        const len = Buffer.byteLength(line)
        bufLen += len
        fileBytes += len
        lines++
      }
      if (bufLen > 4 * 1024 * 1024) {
        await handle.write(buf.join(''))
        buf = []
        bufLen = 0
      }
    }
    if (buf.length) await handle.write(buf.join(''))
    await handle.close()
    generated += fileBytes
    fileIndex++
  }

  const grep = await grepCount(files)
  const rssBefore = process.memoryUsage.rss()
  let peak = rssBefore
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss())
  }, 10)
  const t0 = performance.now()
  const first = await provenance({ claudeHome: home, cacheDir })
  const firstMs = performance.now() - t0
  clearInterval(timer)
  peak = Math.max(peak, process.memoryUsage.rss())
  const t1 = performance.now()
  const second = await provenance({ claudeHome: home, cacheDir })
  const secondMs = performance.now() - t1
  const mem = first.files.find((f) => f.path === memory)
  const MiB = 1024 * 1024
  return {
    generatedBytes: generated,
    transcripts: files.length,
    lines,
    memoryWritesGenerated: memoryWrites,
    memoryWritesFound: mem?.writes.length ?? 0,
    lostLines: mem?.lost.length ?? 0,
    firstMs,
    secondMs,
    grepMs: grep.ms,
    grepToolUseLines: grep.count,
    firstBytesRead: first.stats.bytesRead,
    secondBytesRead: second.stats.bytesRead,
    linesParsed: first.stats.linesParsed,
    firstVsGrep: firstMs / Math.max(grep.ms, 0.001),
    secondVsFirst: secondMs / Math.max(firstMs, 0.001),
    firstMBps: generated / MiB / (firstMs / 1000),
    peakRssDuringFirstMiB: peak / MiB,
    // resourceUsage reports maxRSS in KiB.
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
    rssBeforeMiB: rssBefore / MiB,
  }
}
