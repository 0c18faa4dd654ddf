/**
 * `npm run bench` options: the scale of the generated home and repository (issue 7), the seed,
 * and where to build. Pure parsing, no I/O, so the smoke test can check it.
 */

const MiB = 1024 * 1024

export interface BenchScale {
  /** Project folders under `<claude home>/projects`. */
  readonly projects: number
  /** Memory files (MEMORY.md indexes and topic files) over every memory folder. */
  readonly memoryFiles: number
  /** Bytes of transcripts over every project folder. */
  readonly transcriptBytes: number
  /** The audit repository: files, commits and notes (scripts/bench-audit.ts). */
  readonly repoFiles: number
  readonly repoCommits: number
  readonly notes: number
}

/** The heavy user of issue 7. */
export const DEFAULT_SCALE: BenchScale = {
  projects: 300,
  memoryFiles: 8000,
  transcriptBytes: 1024 * MiB,
  repoFiles: 20_000,
  repoCommits: 10_000,
  notes: 300,
}

/** A smoke run: every job runs, in seconds. */
export const SMALL_SCALE: BenchScale = {
  projects: 12,
  memoryFiles: 120,
  transcriptBytes: 4 * MiB,
  repoFiles: 200,
  repoCommits: 100,
  notes: 20,
}

export type JobName =
  'startup' | 'scan' | 'cutoff' | 'provenance' | 'pathological' | 'ccusage' | 'audit' | 'window'
export const ALL_JOBS: readonly JobName[] = [
  'startup',
  'scan',
  'cutoff',
  'provenance',
  'pathological',
  'ccusage',
  'audit',
  'window',
]

export interface BenchOptions {
  readonly seed: number
  readonly scale: BenchScale
  readonly scaleName: string
  /** Where the home is generated; reused when it already holds a home of this seed and scale. */
  readonly dir: string | null
  /** Regenerate even when a matching home is cached. */
  readonly fresh: boolean
  /** Remove the generated folders at the end (default for a temp folder of the smoke test). */
  readonly clean: boolean
  readonly jobs: readonly JobName[]
  /** Folder for the JSON results (default `bench-results`). */
  readonly resultsDir: string
  readonly chromium: string
  /** The built CLI that `serve` and the process rows run (default out/cli/index.js). */
  readonly cli: string
  /** The peer `ccusage` to time beside provenance (optional; never installed by the bench). */
  readonly ccusage: string | null
  /** Cap on the MEMORY.md files of the cutoff process row (0: every one). */
  readonly cutoffFiles: number
}

export const USAGE = `npm run bench -- [options]
  --scale default|small     preset (default: 300 projects, 8,000 memory files, 1 GiB transcripts,
                            a 20,000-file / 10,000-commit repository, 300 notes)
  --projects N --memory-files N --transcripts-mb N --repo-files N --repo-commits N --notes N
  --seed N                  generator seed (default 7); a home of the same seed and scale is reused
  --dir DIR                 build here (default: <tmp>/memory-curator-bench/<seed and scale>)
  --fresh                   regenerate even when a matching home exists
  --clean                   remove the generated home afterwards
  --jobs startup,scan,cutoff,provenance,pathological,ccusage,audit,window   run only these
                            (startup: --help/--version against node -e 0; pathological: 30,000
                            topic files, a 2 GiB sparse transcript, 512 MiB of transcripts)
  --cutoff-files N          the cutoff process row runs every MEMORY.md, or the first N
  --ccusage PATH            the ccusage command to time beside provenance (default $CCUSAGE,
                            else ccusage on PATH; skipped when absent, never installed)
  --results DIR             JSON results folder (default bench-results)
  --chromium PATH           default $CHROMIUM_PATH, else /usr/bin/chromium
  --cli PATH                the built CLI for the process rows and the window (out/cli/index.js)
  --fresh-cli               bundle src/cli into bench-results/build first (about a second), so the
                            window times the current sources; the renderer still comes from out/`

const NUMBER_FLAGS: Readonly<Record<string, keyof BenchScale>> = {
  '--projects': 'projects',
  '--memory-files': 'memoryFiles',
  '--transcripts-mb': 'transcriptBytes',
  '--repo-files': 'repoFiles',
  '--repo-commits': 'repoCommits',
  '--notes': 'notes',
}

/** Parse `npm run bench` arguments; throws an Error naming the bad option. */
export function parseBenchArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): BenchOptions {
  let scale: BenchScale = DEFAULT_SCALE
  let scaleName = 'default'
  const overrides: Partial<Record<keyof BenchScale, number>> = {}
  let seed = 7
  let dir: string | null = null
  let fresh = false
  let clean = false
  let jobs: readonly JobName[] = ALL_JOBS
  let resultsDir = 'bench-results'
  let chromium = env.CHROMIUM_PATH ?? '/usr/bin/chromium'
  let cli = 'out/cli/index.js'
  let ccusage: string | null = env.CCUSAGE ?? null
  let cutoffFiles = 0
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]
    const value = (): string => {
      const v = argv[++i]
      if (v === undefined || v.startsWith('--')) throw new Error(`${flag} needs a value`)
      return v
    }
    const count = (): number => {
      const raw = value()
      const n = Number(raw)
      if (!Number.isInteger(n) || n < 0) throw new Error(`${flag}: not a whole number: ${raw}`)
      return n
    }
    if (flag in NUMBER_FLAGS) {
      const key = NUMBER_FLAGS[flag]
      const n = count()
      overrides[key] = key === 'transcriptBytes' ? n * 1024 * 1024 : n
    } else if (flag === '--scale') {
      const v = value()
      if (v === 'small') scale = SMALL_SCALE
      else if (v === 'default') scale = DEFAULT_SCALE
      else throw new Error(`--scale: expected default or small, got ${v}`)
      scaleName = v
    } else if (flag === '--seed') seed = count()
    else if (flag === '--dir') dir = value()
    else if (flag === '--fresh') fresh = true
    else if (flag === '--clean') clean = true
    else if (flag === '--results') resultsDir = value()
    else if (flag === '--chromium') chromium = value()
    else if (flag === '--cli') cli = value()
    else if (flag === '--ccusage') ccusage = value()
    else if (flag === '--cutoff-files') cutoffFiles = count()
    // Handled by scripts/bench.mjs before the run; the path it builds arrives as --cli.
    else if (flag === '--fresh-cli') continue
    else if (flag === '--jobs') {
      const names = value()
        .split(',')
        .filter((s) => s !== '')
      for (const n of names) {
        if (!ALL_JOBS.includes(n as JobName)) throw new Error(`--jobs: unknown job ${n}`)
      }
      jobs = names as JobName[]
    } else throw new Error(`unknown option ${flag}\n${USAGE}`)
  }
  if (Object.keys(overrides).length > 0) {
    scale = { ...scale, ...overrides }
    scaleName = 'custom'
  }
  if (scale.projects < 1) throw new Error('--projects must be at least 1')
  return {
    seed,
    scale,
    scaleName,
    dir,
    fresh,
    clean,
    jobs,
    resultsDir,
    chromium,
    cli,
    ccusage,
    cutoffFiles,
  }
}

/** A folder name for a seed and the parts of the scale the home depends on. */
export function homeKey(seed: number, scale: BenchScale): string {
  const mb = Math.round(scale.transcriptBytes / (1024 * 1024))
  return `s${seed}-p${scale.projects}-m${scale.memoryFiles}-t${mb}mb`
}
