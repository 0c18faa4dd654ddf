/**
 * Generate a Claude home the size of a heavy user's, deterministically from a seed: project
 * folders keyed by launch directory (real git repositories, linked worktrees, sub-folders and
 * plain folders, docs/memory-rules.md §1), memory folders with an index and topic files (§2), and JSONL
 * transcripts with realistic noise and memory writes (§5). A finished home is recorded in
 * `manifest.json` and reused by the next run with the same seed and scale.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { encodeProjectDir } from '../../src/core/memory/project-path'
import type { BenchScale } from './options'
import { createRng, skewedSplit } from './prng'
import { filler, uuid, writeSession, type MemoryFolder } from './session-writer'

/** Bump when the generated shape changes, so old caches are rebuilt. */
const GENERATOR_VERSION = 1
const MANIFEST = 'manifest.json'
const KiB = 1024

export interface GeneratedHome {
  readonly version: number
  readonly seed: number
  readonly scale: Pick<BenchScale, 'projects' | 'memoryFiles' | 'transcriptBytes'>
  readonly root: string
  readonly claudeHome: string
  readonly codeDir: string
  readonly projectDirs: readonly string[]
  readonly memoryDirs: readonly string[]
  /** Every MEMORY.md. */
  readonly memoryIndexes: readonly string[]
  /** Every memory file (indexes and topics). */
  readonly memoryFiles: readonly string[]
  /** Every transcript (sessions and sub-agents). */
  readonly transcripts: readonly string[]
  readonly transcriptBytes: number
  /** Write tool calls on memory files inside the transcripts. */
  readonly memoryWrites: number
  readonly gitRepos: number
  readonly worktrees: number
  readonly generateMs: number
}

export interface GenerateOptions {
  readonly root: string
  readonly seed: number
  readonly scale: BenchScale
  /** Regenerate even when `root` holds a matching home. */
  readonly fresh?: boolean
  readonly log?: (line: string) => void
}

export interface GenerateResult {
  readonly home: GeneratedHome
  /** True when an existing home was reused. */
  readonly reused: boolean
}

type ProjectKind = 'repo' | 'worktree' | 'subdir' | 'plain'

interface PlannedProject {
  readonly kind: ProjectKind
  readonly name: string
  readonly cwd: string
  /** The project whose memory folder this one's sessions write (itself, or its main repository). */
  readonly memoryOwner: number
  readonly parent: number | null
  readonly branch: string
}

const WORDS = [
  'shop',
  'api',
  'billing',
  'web',
  'infra',
  'docs',
  'mobile',
  'search',
  'auth',
  'etl',
  'cli',
  'ml',
  'gateway',
  'admin',
  'chat',
  'maps',
  'ledger',
  'notify',
  'sync',
  'render',
]
const TYPES = ['user', 'feedback', 'project', 'reference'] as const

function git(cwd: string, args: readonly string[]): void {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd,
    env: {
      ...process.env,
      GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
      GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
    },
  })
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} in ${cwd}: ${r.stderr?.toString()}`)
}

/** Load the manifest of a finished home of this seed and scale, or null. */
function loadManifest(root: string, seed: number, scale: BenchScale): GeneratedHome | null {
  const path = join(root, MANIFEST)
  if (!existsSync(path)) return null
  try {
    const m = JSON.parse(readFileSync(path, 'utf8')) as GeneratedHome
    const same =
      m.version === GENERATOR_VERSION &&
      m.seed === seed &&
      m.scale.projects === scale.projects &&
      m.scale.memoryFiles === scale.memoryFiles &&
      m.scale.transcriptBytes === scale.transcriptBytes
    return same ? m : null
  } catch {
    return null
  }
}

/** Generate (or reuse) a Claude home of `scale` under `root`. */
export function generateHome(opts: GenerateOptions): GenerateResult {
  const log = opts.log ?? (() => undefined)
  mkdirSync(opts.root, { recursive: true })
  const root = realpathSync(opts.root)
  if (!opts.fresh) {
    const cached = loadManifest(root, opts.seed, opts.scale)
    if (cached) return { home: cached, reused: true }
  }
  const started = performance.now()
  rmSync(join(root, MANIFEST), { force: true })
  const claudeHome = join(root, 'claude')
  const codeDir = join(root, 'code')
  rmSync(claudeHome, { recursive: true, force: true })
  rmSync(codeDir, { recursive: true, force: true })
  mkdirSync(join(claudeHome, 'projects'), { recursive: true })
  mkdirSync(codeDir, { recursive: true })
  const rng = createRng(opts.seed)

  // ---- projects: launch directories, mostly git repositories -----------------------------
  const projects: PlannedProject[] = []
  for (let i = 0; i < opts.scale.projects; i++) {
    const repos = projects.map((p, k) => ({ p, k })).filter((x) => x.p.kind === 'repo')
    const r = rng.next()
    const word = rng.pick(WORDS)
    if (i > 0 && r < 0.1 && repos.length > 0) {
      const parent = rng.pick(repos)
      projects.push({
        kind: 'worktree',
        name: `${parent.p.name}-wt-${i}`,
        cwd: join(codeDir, `${parent.p.name}-wt-${i}`),
        memoryOwner: parent.p.memoryOwner,
        parent: parent.k,
        branch: `feature-${i}`,
      })
    } else if (i > 0 && r < 0.16 && repos.length > 0) {
      const parent = rng.pick(repos)
      projects.push({
        kind: 'subdir',
        name: `${word}-pkg-${i}`,
        cwd: join(parent.p.cwd, 'packages', `${word}-pkg-${i}`),
        memoryOwner: parent.p.memoryOwner,
        parent: parent.k,
        branch: 'main',
      })
    } else {
      const kind: ProjectKind = i > 0 && r > 0.9 ? 'plain' : 'repo'
      projects.push({
        kind,
        name: `${word}-${i}`,
        cwd: join(codeDir, `${word}-${i}`),
        memoryOwner: i,
        parent: null,
        branch: kind === 'repo' ? 'main' : '',
      })
    }
  }
  let gitRepos = 0
  let worktrees = 0
  const committed = new Set<number>()
  for (const p of projects) {
    if (p.kind === 'worktree') continue
    mkdirSync(p.cwd, { recursive: true })
    if (p.kind === 'repo') {
      git(p.cwd, ['init', '-q', '-b', 'main'])
      gitRepos++
    }
  }
  for (const p of projects) {
    if (p.kind !== 'worktree' || p.parent === null) continue
    const main = projects[p.parent]
    if (!committed.has(p.parent)) {
      git(main.cwd, ['commit', '-q', '--allow-empty', '-m', 'init'])
      committed.add(p.parent)
    }
    git(main.cwd, ['worktree', 'add', '-q', '-b', p.branch, p.cwd])
    worktrees++
  }
  log(`generate: ${projects.length} projects (${gitRepos} repositories, ${worktrees} worktrees)`)

  // ---- memory folders: keyed by the main worktree's path (docs/memory-rules.md §1.5) ----------------
  const projectDir = (p: PlannedProject): string =>
    join(claudeHome, 'projects', encodeProjectDir(p.cwd))
  const owners = projects
    .map((p, k) => ({ p, k }))
    .filter((x) => (x.p.kind === 'repo' || x.p.kind === 'plain') && (x.k === 0 || rng.chance(0.85)))
  const topicCounts = skewedSplit(
    rng,
    Math.max(0, opts.scale.memoryFiles - owners.length),
    owners.length,
  )
  const memory = new Map<number, MemoryFolder>()
  const memoryFiles: string[] = []
  const memoryIndexes: string[] = []
  owners.forEach(({ p, k }, n) => {
    const dir = join(projectDir(p), 'memory')
    mkdirSync(dir, { recursive: true })
    const topics: { file: string; content: string; title: string; type: string }[] = []
    for (let t = 0; t < topicCounts[n]; t++) {
      const type = rng.pick(TYPES)
      const title = `${rng.pick(WORDS)} ${type} note ${t}`
      const file = `${type}-${rng.pick(WORDS)}-${t}.md`
      const content =
        `---\nname: ${title}\ndescription: ${filler(rng, 40, 120)}\ntype: ${type}\n` +
        `originSessionId: ${uuid(rng)}\n---\n\n${filler(rng, 200, 2400)}\n\n` +
        `**Why:** ${filler(rng, 60, 300)}\n\n**How to apply:** ${filler(rng, 60, 300)}\n`
      writeFileSync(join(dir, file), content)
      memoryFiles.push(join(dir, file))
      topics.push({ file, content, title, type })
    }
    // One entry per topic, grouped by type (docs/memory-rules.md §2.6 "Index format"); a few orphans
    // (linked by nothing) and dangling entries (linking nothing), as real indexes have.
    const lines = ['# Memory', '']
    for (const type of TYPES) {
      const ofType = topics.filter((t) => t.type === type)
      if (ofType.length === 0) continue
      lines.push(`## ${type[0].toUpperCase()}${type.slice(1)}`, '')
      for (const t of ofType) {
        if (rng.chance(0.03)) continue
        lines.push(`- [${t.title}](${t.file}) — ${filler(rng, 30, 110).trim()}`)
        if (rng.chance(0.02)) lines.push(`- [Gone ${t.title}](gone-${t.file}) — removed by hand`)
      }
      lines.push('')
    }
    const index = lines.join('\n')
    writeFileSync(join(dir, 'MEMORY.md'), index)
    memoryIndexes.push(join(dir, 'MEMORY.md'))
    memoryFiles.push(join(dir, 'MEMORY.md'))
    memory.set(k, { dir, index, topics })
  })
  log(`generate: ${memoryFiles.length} memory files in ${memory.size} folders`)

  // ---- transcripts ----------------------------------------------------------------------
  const shares = skewedSplit(rng, opts.scale.transcriptBytes, projects.length)
  const transcripts: string[] = []
  let transcriptBytes = 0
  let memoryWrites = 0
  let lastLogged = 0
  projects.forEach((p, k) => {
    const dir = projectDir(p)
    mkdirSync(dir, { recursive: true })
    const mem = memory.get(p.memoryOwner) ?? null
    let left = Math.max(shares[k], 4 * KiB)
    let day = 0
    while (left > 0) {
      // Sessions from a few KB to tens of MB; the mean near 300 KB.
      const size = Math.min(
        left,
        Math.max(4 * KiB, Math.floor(-Math.log(1 - rng.next()) * 300 * KiB)),
      )
      left -= size
      const sessionId = uuid(rng)
      const path = join(dir, `${sessionId}.jsonl`)
      const written = writeSession(rng, path, {
        sessionId,
        cwd: p.cwd,
        branch: p.branch,
        bytes: size,
        day: day++,
        memory: mem,
        agentId: null,
      })
      transcripts.push(path)
      transcriptBytes += written.bytes
      memoryWrites += written.memoryWrites
      if (rng.chance(0.08)) {
        const agentId = uuid(rng).slice(0, 8)
        const sub = join(dir, sessionId, 'subagents')
        mkdirSync(sub, { recursive: true })
        const agentPath = join(sub, `agent-${agentId}.jsonl`)
        const a = writeSession(rng, agentPath, {
          sessionId,
          cwd: p.cwd,
          branch: p.branch,
          bytes: Math.max(4 * KiB, Math.floor(size / 5)),
          day,
          memory: null,
          agentId,
        })
        transcripts.push(agentPath)
        transcriptBytes += a.bytes
      }
      if (transcriptBytes - lastLogged > 128 * KiB * KiB) {
        lastLogged = transcriptBytes
        log(`generate: ${Math.round(transcriptBytes / KiB / KiB)} MiB of transcripts`)
      }
    }
  })

  const home: GeneratedHome = {
    version: GENERATOR_VERSION,
    seed: opts.seed,
    scale: {
      projects: opts.scale.projects,
      memoryFiles: opts.scale.memoryFiles,
      transcriptBytes: opts.scale.transcriptBytes,
    },
    root,
    claudeHome,
    codeDir,
    projectDirs: [...new Set(projects.map(projectDir))].sort(),
    memoryDirs: [...memory.values()].map((m) => m.dir).sort(),
    memoryIndexes: memoryIndexes.sort(),
    memoryFiles: memoryFiles.sort(),
    transcripts: transcripts.sort(),
    transcriptBytes,
    memoryWrites,
    gitRepos,
    worktrees,
    generateMs: performance.now() - started,
  }
  writeFileSync(join(root, MANIFEST), JSON.stringify(home))
  log(
    `generate: ${transcripts.length} transcripts, ${Math.round(transcriptBytes / KiB / KiB)} MiB, in ${Math.round(home.generateMs / 1000)} s`,
  )
  return { home, reused: false }
}
