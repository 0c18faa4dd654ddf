/**
 * Generate a Claude home the size of a heavy user's, deterministically from a seed: project
 * folders keyed by launch directory (real git repositories, linked worktrees, sub-folders and
 * plain folders, memory-facts §1), memory folders with an index and topic files (§2), and JSONL
 * transcripts with realistic noise and memory writes (§5). A finished home is recorded in
 * `manifest.json` and reused by the next run with the same seed and scale.
 */
import { spawnSync } from 'node:child_process'
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import { encodeProjectDir } from '../../src/core/memory/project-path'
import type { BenchScale } from './options'
import { createRng, skewedSplit, type Rng } from './prng'

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

interface MemoryFolder {
  readonly dir: string
  readonly index: string
  readonly topics: readonly { readonly file: string; readonly content: string }[]
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
const LOREM =
  'The build runs through electron-vite; tests use vitest with real git repositories in temp ' +
  'folders. When the index grows past its cutoff the newest notes fall off first, so keep the ' +
  'loaded head small. Retry the flaky upload twice before failing the job; the staging bucket ' +
  'is eventually consistent. Prefer small pull requests and run the linter before pushing. '

/** A long deterministic text to slice filler from without building strings per line. */
const FILLER = LOREM.repeat(Math.ceil((96 * KiB) / LOREM.length))

function filler(rng: Rng, min: number, max: number): string {
  const n = rng.int(min, max)
  const start = rng.int(0, FILLER.length - n - 1)
  return FILLER.slice(start, start + n)
}

function uuid(rng: Rng): string {
  const hex = (n: number): string =>
    Array.from({ length: n }, () => Math.floor(rng.next() * 16).toString(16)).join('')
  return `${hex(8)}-${hex(4)}-4${hex(3)}-8${hex(3)}-${hex(12)}`
}

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

  // ---- memory folders: keyed by the main worktree's path (memory-facts §1) ----------------
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
    // One entry per topic, grouped by type (memory-facts §2 "Index format"); a few orphans
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

interface SessionSpec {
  readonly sessionId: string
  readonly cwd: string
  readonly branch: string
  readonly bytes: number
  readonly day: number
  readonly memory: MemoryFolder | null
  readonly agentId: string | null
}

/** Write one transcript of about `spec.bytes`; returns the bytes written and memory writes. */
function writeSession(
  rng: Rng,
  path: string,
  spec: SessionSpec,
): { bytes: number; memoryWrites: number } {
  const fd = openSync(path, 'w')
  const chunk: string[] = []
  let pending = 0
  let bytes = 0
  const emit = (obj: unknown): void => {
    const line = JSON.stringify(obj) + '\n'
    chunk.push(line)
    const n = Buffer.byteLength(line)
    pending += n
    bytes += n
    if (pending > 1024 * KiB) flush()
  }
  const flush = (): void => {
    if (chunk.length > 0) writeSync(fd, chunk.join(''))
    chunk.length = 0
    pending = 0
  }
  const base = {
    isSidechain: spec.agentId !== null,
    userType: 'external',
    cwd: spec.cwd,
    sessionId: spec.sessionId,
    version: '2.1.70',
    gitBranch: spec.branch,
    ...(spec.agentId ? { agentId: spec.agentId } : {}),
  }
  const t0 = Date.UTC(2026, 0, 1) + spec.day * 3_600_000
  let n = 0
  const at = (): string => new Date(t0 + n * 1000).toISOString()
  // Many real transcripts open with a snapshot line that names no cwd (memory-facts §5).
  if (rng.chance(0.3)) {
    emit({
      type: 'file-history-snapshot',
      messageId: uuid(rng),
      snapshot: { trackedFileBackups: {} },
    })
  }
  emit({
    ...base,
    type: 'user',
    parentUuid: null,
    uuid: uuid(rng),
    timestamp: at(),
    message: { role: 'user', content: filler(rng, 40, 400) },
  })
  // Memory writes: a topic file and sometimes the index, written with their final text.
  const writes: { file: string; content: string }[] = []
  if (spec.memory && spec.memory.topics.length > 0 && rng.chance(0.3)) {
    const t = rng.pick(spec.memory.topics)
    writes.push({ file: join(spec.memory.dir, t.file), content: t.content })
  }
  if (spec.memory && rng.chance(0.1)) {
    writes.push({ file: join(spec.memory.dir, 'MEMORY.md'), content: spec.memory.index })
  }
  const planned = writes.length
  const emitWrite = (w: { file: string; content: string }): void => {
    const id = `toolu_${uuid(rng).replace(/-/g, '').slice(0, 24)}`
    emit({
      ...base,
      type: 'assistant',
      parentUuid: `p-${n}`,
      uuid: uuid(rng),
      timestamp: at(),
      message: {
        id: `msg_w${n}`,
        role: 'assistant',
        content: [
          { type: 'tool_use', id, name: 'Write', input: { file_path: w.file, content: w.content } },
        ],
      },
    })
    emit({
      ...base,
      type: 'user',
      parentUuid: `p-${n}`,
      uuid: uuid(rng),
      timestamp: at(),
      message: {
        role: 'user',
        content: [
          {
            tool_use_id: id,
            type: 'tool_result',
            content: `File created successfully at: ${w.file}`,
          },
        ],
      },
      toolUseResult: { type: 'create', filePath: w.file, content: w.content, structuredPatch: [] },
    })
  }
  let writeAt = writes.length > 0 ? rng.next() : 2
  while (bytes < spec.bytes) {
    n++
    const done = bytes / spec.bytes
    const w = writes.length > 0 && done >= writeAt ? writes.shift() : undefined
    if (w) {
      emitWrite(w)
      writeAt = done + rng.next() * (1 - done)
      continue
    }
    const tool = rng.pick(['Bash', 'Read', 'Grep', 'Glob'])
    const id = `toolu_${uuid(rng).replace(/-/g, '').slice(0, 24)}`
    const input =
      tool === 'Bash'
        ? { command: 'npm test -- --run', description: 'Run tests' }
        : tool === 'Read'
          ? { file_path: `${spec.cwd}/src/file${n % 50}.ts` }
          : { pattern: 'export function' }
    const result = filler(rng, 300, tool === 'Read' ? 9000 : 2500)
    const msgId = `msg_${n}`
    emit({
      ...base,
      type: 'assistant',
      parentUuid: `p-${n}`,
      uuid: uuid(rng),
      timestamp: at(),
      message: {
        id: msgId,
        type: 'message',
        role: 'assistant',
        model: 'claude-opus-4-5',
        content: [{ type: 'text', text: filler(rng, 80, 900) }],
        usage: { input_tokens: 5, output_tokens: 120 },
      },
    })
    emit({
      ...base,
      type: 'assistant',
      parentUuid: `p-${n}`,
      uuid: uuid(rng),
      timestamp: at(),
      message: {
        id: msgId,
        type: 'message',
        role: 'assistant',
        model: 'claude-opus-4-5',
        content: [{ type: 'tool_use', id, name: tool, input }],
      },
    })
    emit({
      ...base,
      type: 'user',
      parentUuid: `p-${n}`,
      uuid: uuid(rng),
      timestamp: at(),
      message: {
        role: 'user',
        content: [{ tool_use_id: id, type: 'tool_result', content: result }],
      },
      toolUseResult: { stdout: result, stderr: '', interrupted: false, isImage: false },
    })
    if (rng.chance(0.5))
      emit({
        type: 'progress',
        sessionId: spec.sessionId,
        timestamp: at(),
        data: { type: 'hook_progress', hookEvent: 'PostToolUse' },
      })
  }
  // A write planned past the last exchange still happens, at the very end.
  for (const w of writes) emitWrite(w)
  flush()
  closeSync(fd)
  return { bytes, memoryWrites: planned }
}
