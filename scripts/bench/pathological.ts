/**
 * Pathological sizes (issue 16), each job as a whole process within 2× its minimal-I/O
 * baseline and with flat memory: a memory folder of 30,000 topic files (`scan`, `cutoff`), one
 * 2 GiB sparse transcript (`provenance` cold: one line of 2 GiB of NUL bytes between real
 * lines, streamed past, never held), and 512 MiB of transcripts (`provenance` cold, and its peak
 * memory against the heavy home's). The homes are built once under `root` and reused.
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import { encodeProjectDir } from '../../src/core/memory/project-path'
import {
  benchCutoffProcess,
  benchProvenanceProcess,
  benchScanProcess,
  busiestProject,
  type CliTarget,
} from './cli-jobs'
import { generateHome } from './generate-home'
import type { BenchScale } from './options'
import type { BenchRow } from './report'

const MiB = 1024 * 1024

/** Peak memory of the bigger run within this factor of the smaller one's: "flat". */
export const FLAT_MEMORY_RATIO = 1.25

export interface PathologicalScale {
  readonly topicFiles: number
  readonly sparseBytes: number
  readonly transcriptBytes: number
}

export const PATHOLOGICAL_DEFAULT: PathologicalScale = {
  topicFiles: 30_000,
  sparseBytes: 2048 * MiB,
  transcriptBytes: 512 * MiB,
}

export const PATHOLOGICAL_SMALL: PathologicalScale = {
  topicFiles: 300,
  sparseBytes: 64 * MiB,
  transcriptBytes: 8 * MiB,
}

/** A transcript line of a session launched in `cwd`. */
function line(cwd: string, n: number, extra: Record<string, unknown>): string {
  return (
    JSON.stringify({
      type: 'user',
      parentUuid: n === 0 ? null : `u-${n - 1}`,
      uuid: `u-${n}`,
      sessionId: '00000000-0000-4000-8000-000000000001',
      cwd,
      gitBranch: '',
      version: '2.1.70',
      timestamp: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(),
      message: { role: 'user', content: 'pathological' },
      ...extra,
    }) + '\n'
  )
}

/** One project whose memory folder holds `n` topic files and an index linking the first 150. */
export function topicsHome(root: string, n: number): { claudeHome: string; index: string } {
  const claudeHome = join(root, 'claude')
  const cwd = join(root, 'code', 'topics')
  const project = join(claudeHome, 'projects', encodeProjectDir(cwd))
  const memory = join(project, 'memory')
  const index = join(memory, 'MEMORY.md')
  const done = join(root, `done-${n}`)
  if (existsSync(done)) return { claudeHome, index }
  rmSync(root, { recursive: true, force: true })
  mkdirSync(memory, { recursive: true })
  mkdirSync(cwd, { recursive: true })
  writeFileSync(join(project, '00000000-0000-4000-8000-000000000001.jsonl'), line(cwd, 0, {}))
  const links: string[] = []
  for (let i = 0; i < n; i++) {
    const name = `topic-${String(i).padStart(5, '0')}.md`
    writeFileSync(
      join(memory, name),
      `---\nname: topic ${i}\ndescription: a note among many\ntype: project\n---\n\nNote ${i}: the build runs \`npm run build\` before the tests.\n`,
    )
    if (i < 150) links.push(`- [Topic ${i}](${name}) — a note among many`)
  }
  writeFileSync(index, `# Memory\n\n${links.join('\n')}\n`)
  writeFileSync(done, '')
  return { claudeHome, index }
}

/**
 * One project with a transcript of `bytes` bytes, sparse: real lines (one a memory write),
 * then NUL bytes up to a last real line at the end.
 */
export function sparseHome(root: string, bytes: number): { claudeHome: string; project: string } {
  const claudeHome = join(root, 'claude')
  const cwd = join(root, 'code', 'sparse')
  const id = encodeProjectDir(cwd)
  const project = join(claudeHome, 'projects', id)
  const memory = join(project, 'memory')
  const done = join(root, `done-${bytes}`)
  if (existsSync(done)) return { claudeHome, project: id }
  rmSync(root, { recursive: true, force: true })
  mkdirSync(memory, { recursive: true })
  mkdirSync(cwd, { recursive: true })
  const note = join(memory, 'build.md')
  writeFileSync(note, 'The build runs first.\n')
  writeFileSync(join(memory, 'MEMORY.md'), '- [Build](build.md) — how it builds\n')
  const write = {
    type: 'assistant',
    message: {
      role: 'assistant',
      content: [
        {
          type: 'tool_use',
          id: 'toolu_p1',
          name: 'Write',
          input: { file_path: note, content: 'The build runs first.\n' },
        },
      ],
    },
  }
  const result = {
    message: {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_p1', content: 'File created' }],
    },
  }
  const head = line(cwd, 0, {}) + line(cwd, 1, write) + line(cwd, 2, result)
  const tail = '\n' + line(cwd, 3, {})
  const fd = openSync(join(project, '00000000-0000-4000-8000-000000000001.jsonl'), 'w')
  try {
    writeSync(fd, head, 0)
    // Nothing written in between: the file system keeps the hole as NUL bytes.
    writeSync(fd, tail, bytes - Buffer.byteLength(tail))
  } finally {
    closeSync(fd)
  }
  writeFileSync(done, '')
  return { claudeHome, project: id }
}

/**
 * The pathological rows. `heavyColdRssMiB` is the heavy home's cold provenance peak, for the
 * memory-flat row against the 512 MiB home.
 */
export async function benchPathological(
  t: CliTarget,
  root: string,
  seed: number,
  scale: PathologicalScale,
  heavy: { readonly transcriptBytes: number; readonly coldPeakRssMiB: number | null },
  log: (line: string) => void,
): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  const n = scale.topicFiles.toLocaleString('en-US')
  log(`bench: pathological: ${n} topic files`)
  const topics = topicsHome(join(root, 'topics'), scale.topicFiles)
  rows.push(await benchScanProcess(t, topics.claudeHome, `scan, ${n} topic files (process)`))
  rows.push(
    await benchCutoffProcess(
      t,
      topics.claudeHome,
      [topics.index],
      `cutoff, ${n} topic files (process)`,
    ),
  )

  const gib = `${Math.round((scale.sparseBytes / 1024 ** 3) * 10) / 10} GiB`
  log(`bench: pathological: a ${gib} sparse transcript`)
  const sparse = sparseHome(join(root, 'sparse'), scale.sparseBytes)
  const s = await benchProvenanceProcess(
    t,
    sparse.claudeHome,
    sparse.project,
    `, a ${gib} sparse transcript`,
    'wc',
  )
  rows.push(s.rows[0])

  const mb = Math.round(scale.transcriptBytes / MiB)
  log(`bench: pathological: ${mb} MiB of transcripts`)
  const big = generateHome({
    root: join(root, `transcripts-${mb}`),
    seed,
    scale: {
      projects: 40,
      memoryFiles: 400,
      transcriptBytes: scale.transcriptBytes,
    } as BenchScale,
    log,
  }).home
  const p = await benchProvenanceProcess(
    t,
    big.claudeHome,
    busiestProject(big.memoryDirs),
    `, ${mb} MiB`,
  )
  rows.push(p.rows[0])
  rows.push(
    memoryRow(
      `provenance peak RSS, ${mb} MiB vs ${Math.round(heavy.transcriptBytes / MiB)} MiB of transcripts`,
      p.coldPeakRssMiB,
      heavy.coldPeakRssMiB,
    ),
  )
  rows.push(
    memoryRow(
      `provenance peak RSS, a ${gib} transcript vs ${mb} MiB`,
      s.coldPeakRssMiB,
      p.coldPeakRssMiB,
    ),
  )
  return rows
}

/** Peak memory of a bigger input against a smaller one's: flat when within FLAT_MEMORY_RATIO. */
export function memoryRow(job: string, peak: number | null, smaller: number | null): BenchRow {
  const ratio = peak !== null && smaller !== null ? peak / smaller : null
  return {
    job,
    ms: null,
    baseline: 'peak RSS of the smaller input',
    baselineMs: null,
    ratio,
    peakRssMiB: peak,
    baselinePeakRssMiB: smaller,
    target: `memory flat (≤ ${FLAT_MEMORY_RATIO}×)`,
    pass: ratio === null ? null : ratio <= FLAT_MEMORY_RATIO,
    note: ratio === null ? 'not measured' : null,
    details: {},
  }
}
