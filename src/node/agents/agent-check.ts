/**
 * "Check with the installed agent" (issue 13 item 4): run the person's own `claude` or `codex`
 * the way `npm run conformance` does (docs/conformance.md), on a temporary copy of the files
 * involved in one launch directory, and put what it sent to the model beside our model.
 *
 * Decisions:
 * - Nothing of the real homes is written or handed over: the copy holds the instruction files,
 *   the MEMORY.md folder and only the memory keys of settings (never hooks, env, helpers or
 *   credentials); the agent gets a temporary HOME, CLAUDE_CONFIG_DIR and CODEX_HOME, PATH, a
 *   dummy key and the stand-in server on 127.0.0.1; telemetry, updates and error reports off.
 * - Paths are mirrored under the copy (`<tmp>/fs/<real path>`), so every path the agent
 *   reports maps back to a real one; the home folders map to the temporary home.
 * - The copy is a fresh git repository where the real folder is in one (the agent looks for
 *   the git root); a repository's own config and hooks are never copied.
 */
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, dirname, join, relative, resolve, sep } from 'node:path'
import type { AgentCheckResult, AgentName } from '../../shared/model'
import { compareLoads, leadingLinesSent, type AgentSide } from '../../core/load-order/agent-compare'
import { encodeProjectDir } from '../../core/memory/project-path'
import { READ_MAX_BYTES, RULES_LIST_MAX_FILES } from '../../core/limits'
import { findRepo } from '../git/repo'
import { runGit } from '../git/run'
import { listMemoryFolder } from '../memory/memory-folder'
import type { LoadOrderReport } from '../load-order/load-order'
import { findOnPath, runAgentProcess } from './agent-process'
import {
  claudeFilesSent,
  claudeMainRequests,
  codexFilesSent,
  codexRequests,
  strings,
} from './agent-request.mjs'
import { startStandin } from './standin.mjs'

export interface AgentCheckOptions {
  readonly agent: AgentName
  readonly cwd: string
  readonly claudeHome: string
  readonly codexHome: string
  readonly homeDir: string
  /** Our model for `cwd` with the same homes (the backend's loadOrder). */
  readonly ours: LoadOrderReport
  /** PATH to find the agent on (default process.env.PATH). */
  readonly path?: string
  readonly limitMs?: number
}

const RUN_LIMIT_MS = 90_000
/** Settings keys that decide where memory lives or whether it loads; nothing else is copied. */
const SETTINGS_KEYS = ['autoMemoryEnabled', 'claudeMdExcludes'] as const
const INSTRUCTION_NAMES = ['CLAUDE.md', 'CLAUDE.local.md', 'AGENTS.md', 'AGENTS.override.md']

/** The agents installed on PATH, with what a check would run. */
export async function installedAgents(
  path = process.env.PATH,
): Promise<{ agent: AgentName; path: string }[]> {
  const out: { agent: AgentName; path: string }[] = []
  for (const agent of ['claude', 'codex'] as const) {
    const bin = await findOnPath(agent, path)
    if (bin) out.push({ agent, path: bin })
  }
  return out
}

/** A temporary copy mirroring real paths, and the way back. */
class Sandbox {
  readonly fs: string
  readonly home: string
  constructor(
    readonly root: string,
    private readonly realClaudeHome: string,
    private readonly realCodexHome: string,
    private readonly realHome: string,
  ) {
    this.fs = join(root, 'fs')
    this.home = join(root, 'home')
  }
  get claudeHome(): string {
    return join(this.home, '.claude')
  }
  get codexHome(): string {
    return join(this.home, '.codex')
  }
  /** Where a real path lives in the copy. */
  map(real: string): string {
    for (const [from, to] of [
      [this.realClaudeHome, this.claudeHome],
      [this.realCodexHome, this.codexHome],
      [this.realHome, this.home],
    ] as const) {
      if (real === from || real.startsWith(from + sep)) return join(to, relative(from, real))
    }
    return join(this.fs, real)
  }
  /** The real path of a path in the copy, or null when it is not in the copy. */
  unmap(copy: string): string | null {
    for (const [to, from] of [
      [this.claudeHome, this.realClaudeHome],
      [this.codexHome, this.realCodexHome],
      [this.home, this.realHome],
      [this.fs, '/'],
    ] as const) {
      if (copy === to || copy.startsWith(to + sep)) return join(from, relative(to, copy))
    }
    return null
  }
  /** Copy one regular file (at most READ_MAX_BYTES); false when it is not one. */
  async copy(real: string, to = this.map(real)): Promise<boolean> {
    try {
      const s = await stat(real)
      if (!s.isFile() || s.size > READ_MAX_BYTES) return false
      await mkdir(dirname(to), { recursive: true })
      await copyFile(real, to)
      return true
    } catch {
      return false
    }
  }
}

/** Markdown files of a rules folder, at most RULES_LIST_MAX_FILES. */
async function ruleFiles(dir: string, out: string[] = []): Promise<string[]> {
  let entries
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch {
    return out
  }
  for (const e of entries) {
    if (out.length >= RULES_LIST_MAX_FILES) break
    const p = join(dir, e.name)
    if (e.isDirectory()) await ruleFiles(p, out)
    else if (e.isFile() && e.name.endsWith('.md')) out.push(p)
  }
  return out
}

/** Only the memory keys of a settings file, or null. */
async function memorySettings(file: string): Promise<string | null> {
  try {
    const data = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>
    const kept = Object.fromEntries(SETTINGS_KEYS.filter((k) => k in data).map((k) => [k, data[k]]))
    return Object.keys(kept).length > 0 ? JSON.stringify(kept) : null
  } catch {
    return null
  }
}

/** Folders from `top` down to `cwd` (both included). */
function chain(top: string, cwd: string): string[] {
  const out = [cwd]
  let d = cwd
  while (d !== top && dirname(d) !== d) {
    d = dirname(d)
    out.unshift(d)
  }
  return out
}

/** Build the copy for one check; returns the launch dir in the copy and the files copied. */
async function buildCopy(sb: Sandbox, opts: AgentCheckOptions): Promise<string[]> {
  const copied: string[] = []
  const add = async (real: string): Promise<void> => {
    if (!copied.includes(real) && (await sb.copy(real))) copied.push(real)
  }
  const repo = await findRepo(opts.cwd)
  const top = repo?.toplevel ?? opts.cwd
  // What our model loads (imports outside the tree included), and every file an agent could
  // load here that our model might have missed.
  for (const f of opts.ours.claude.startup) if (f.scope !== 'memory') await add(f.path)
  for (const f of opts.ours.claude.onDemand) await add(f.path)
  for (const f of opts.ours.codex.files) await add(f.path)
  for (const dir of chain(top, opts.cwd)) {
    for (const name of INSTRUCTION_NAMES) await add(join(dir, name))
    await add(join(dir, '.claude', 'CLAUDE.md'))
    for (const r of await ruleFiles(join(dir, '.claude', 'rules'))) await add(r)
    for (const s of ['settings.json', 'settings.local.json']) {
      const kept = await memorySettings(join(dir, '.claude', s))
      if (kept) await writeAt(sb.map(join(dir, '.claude', s)), kept)
    }
  }
  await add(join(opts.claudeHome, 'CLAUDE.md'))
  for (const r of await ruleFiles(join(opts.claudeHome, 'rules'))) await add(r)
  for (const name of ['AGENTS.md', 'AGENTS.override.md']) await add(join(opts.codexHome, name))
  const userSettings = await memorySettings(join(opts.claudeHome, 'settings.json'))
  await writeAt(join(sb.claudeHome, 'settings.json'), userSettings ?? '{}')
  // The memory folder, under the name the agent computes for the copied project root.
  const memory = opts.ours.claude.startup.find((f) => f.scope === 'memory')
  if (memory) {
    const root = sb.map(repo?.mainRoot ?? top)
    const dest = join(sb.claudeHome, 'projects', encodeProjectDir(root), 'memory')
    // The index and every topic file the one memory-folder reader lists, at any depth (issue 12
    // item 7): the agent reads a topic file wherever the index points.
    const folder = dirname(memory.path)
    const { files } = await listMemoryFolder(folder)
    for (const rel of [basename(memory.path), ...files]) {
      const real = join(folder, ...rel.split('/'))
      if (await sb.copy(real, join(dest, ...rel.split('/')))) copied.push(real)
    }
  }
  if (repo) {
    await mkdir(sb.map(top), { recursive: true })
    await runGit(['init', '-q'], { cwd: sb.map(top) })
  }
  await mkdir(sb.map(opts.cwd), { recursive: true })
  return copied
}

async function writeAt(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  await writeFile(file, text)
}

/** Run the installed agent on a copy of what loads in `opts.cwd`, and compare. */
export async function checkWithAgent(opts: AgentCheckOptions): Promise<AgentCheckResult> {
  const bin = await findOnPath(opts.agent, opts.path ?? process.env.PATH)
  if (!bin) throw new Error(`${opts.agent} is not installed (not found on PATH)`)
  const root = await mkdtemp(join(tmpdir(), 'mc-agent-check-'))
  const sb = new Sandbox(root, opts.claudeHome, opts.codexHome, opts.homeDir)
  const server = await startStandin()
  try {
    await mkdir(sb.claudeHome, { recursive: true })
    await mkdir(sb.codexHome, { recursive: true })
    const copied = await buildCopy(sb, opts)
    const env: Record<string, string> = {
      PATH: opts.path ?? process.env.PATH ?? '/usr/bin:/bin',
      HOME: sb.home,
      CLAUDE_CONFIG_DIR: sb.claudeHome,
      CODEX_HOME: sb.codexHome,
      TMPDIR: join(root, 'tmp'),
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      CODEX_DISABLE_UPDATE_CHECK: '1',
    }
    await mkdir(env.TMPDIR!, { recursive: true })
    const limitMs = opts.limitMs ?? RUN_LIMIT_MS
    const version = (await runAgentProcess(bin, ['--version'], { cwd: root, env, limitMs })).output
      .trim()
      .split('\n')[0]!
    const cwd = sb.map(opts.cwd)
    let args: string[]
    let runEnv: Record<string, string>
    let sent: () => boolean
    if (opts.agent === 'claude') {
      args = ['-p', 'hi']
      runEnv = { ...env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'sk-ant-standin-0000' }
      sent = () => claudeMainRequests(server.requests).length > 0
    } else {
      await writeFile(join(sb.codexHome, 'config.toml'), codexConfig(server.url))
      args = ['exec', '--skip-git-repo-check', 'hi']
      runEnv = { ...env, STANDIN_API_KEY: 'standin' }
      sent = () => codexRequests(server.requests).length > 0
    }
    const run = await runAgentProcess(bin, args, { cwd, env: runEnv, limitMs, enough: sent })
    const command = `${bin} ${args.join(' ')}`
    const base = { agent: opts.agent, binary: bin, version, command, copiedFiles: copied.length }
    if (!sent()) {
      const why = run.hung ? `no request within ${limitMs / 1000} s` : `exit ${run.code}`
      return {
        ...base,
        ok: false,
        error: `${why}: ${run.output.trim().slice(0, 400)}`,
        rows: [],
        memory: null,
      }
    }
    return opts.agent === 'claude'
      ? { ...base, ...(await compareClaude(sb, opts, server.requests)) }
      : { ...base, ...(await compareCodex(opts, server.requests)) }
  } finally {
    await server.close()
    await rm(root, { recursive: true, force: true })
  }
}

function codexConfig(url: string): string {
  return [
    'model = "standin"',
    'model_provider = "standin"',
    '[model_providers.standin]',
    'name = "standin"',
    `base_url = "${url}/v1"`,
    'wire_api = "responses"',
    'env_key = "STANDIN_API_KEY"',
    '',
  ].join('\n')
}

type Compared = Pick<AgentCheckResult, 'ok' | 'error' | 'rows' | 'memory'>

async function compareClaude(
  sb: Sandbox,
  opts: AgentCheckOptions,
  requests: Parameters<typeof claudeMainRequests>[0],
): Promise<Compared> {
  const body = claudeMainRequests(requests)[0]!.body
  const isMemory = (p: string): boolean => /\/MEMORY\.md$/.test(p)
  const sentPaths = claudeFilesSent(body)
  const agent: AgentSide[] = sentPaths
    .filter((p) => !isMemory(p))
    .map((p) => ({ path: sb.unmap(p) ?? p }))
  const ours: AgentSide[] = opts.ours.claude.startup
    .filter((f) => f.scope !== 'memory')
    .map((f) => ({ path: f.path }))
  const memoryFile = opts.ours.claude.startup.find((f) => f.scope === 'memory')
  let memory: AgentCheckResult['memory'] = null
  if (memoryFile) {
    const text = await readFile(memoryFile.path, 'utf8').catch(() => '')
    const agentLines = sentPaths.some(isMemory)
      ? leadingLinesSent(text, strings(body).join('\n'))
      : 0
    memory = { path: memoryFile.path, agentLines, ourLines: memoryFile.lines }
  }
  return { ok: true, error: null, rows: compareLoads(agent, ours), memory }
}

async function compareCodex(
  opts: AgentCheckOptions,
  requests: Parameters<typeof codexRequests>[0],
): Promise<Compared> {
  const body = codexRequests(requests)[0]!.body
  const texts: Record<string, string> = {}
  const candidates = new Set(opts.ours.codex.files.map((f) => f.path))
  for (const dir of chain((await findRepo(opts.cwd))?.toplevel ?? opts.cwd, opts.cwd)) {
    for (const name of ['AGENTS.md', 'AGENTS.override.md']) candidates.add(join(dir, name))
  }
  for (const name of ['AGENTS.md', 'AGENTS.override.md']) candidates.add(join(opts.codexHome, name))
  for (const p of candidates) {
    const text = await readFile(p, 'utf8').catch(() => null)
    if (text !== null && text.trim() !== '') texts[resolve(p)] = text
  }
  const agent: AgentSide[] = codexFilesSent(body, texts).map((f) => ({
    path: f.name,
    amount: f.bytes === Buffer.byteLength(texts[f.name]!, 'utf8') ? null : f.bytes,
    unit: 'bytes',
  }))
  const ours: AgentSide[] = opts.ours.codex.files.map((f) => ({
    path: f.path,
    amount: f.truncated ? f.includedBytes : null,
    unit: 'bytes',
  }))
  return { ok: true, error: null, rows: compareLoads(agent, ours), memory: null }
}
