#!/usr/bin/env node
/**
 * `npm run conformance`: runs the real Claude Code and Codex on our fixture trees
 * (tests/fixtures/conformance/cases.mjs) against a stand-in API server on loopback, reads
 * from the recorded requests what reached the model, and compares it with our own
 * `load-order` and `cutoff` (the built CLI). One line per case, then `N agree, N differ`;
 * exit 1 on any difference, 2 when it cannot run. See docs/conformance.md.
 *
 * Safety: the agents are installed at pinned versions into a cache folder outside the
 * repository; every run gets temporary HOME, CLAUDE_CONFIG_DIR and CODEX_HOME; telemetry,
 * auto-update and error reporting are off by environment; as root the runs happen in a
 * private network namespace holding only loopback (`unshare -n`).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CLAUDE_CASES, CODEX_CASES } from '../../tests/fixtures/conformance/cases.mjs'
import {
  claudeFilesSent,
  claudeMainRequests,
  codexFilesSent,
  codexRequests,
  memoryCutLine,
  memoryLinesSent,
} from '../../src/node/agents/agent-request.mjs'
import { startStandin } from '../../src/node/agents/standin.mjs'

/** Versions observed in memory-facts.md; 2.1.332 declares node >= 22 but ships a native binary. */
const DEFAULT_CLAUDE = '2.1.332'
const DEFAULT_CODEX = '0.171.0'
/** Generous hang limit for one agent run (busy CI machines). */
const RUN_LIMIT_MS = 60_000

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
/** The CLI under test; `--cli PATH` compares another build (e.g. an older commit's). */
let cli = join(repo, 'out/cli/index.js')

function parseArgs(argv) {
  const o = {
    claude: DEFAULT_CLAUDE,
    codex: DEFAULT_CODEX,
    only: null,
    filter: null,
    verbose: false,
  }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--claude-version') o.claude = argv[++i]
    else if (a === '--codex-version') o.codex = argv[++i]
    else if (a === '--only') o.only = argv[++i]
    else if (a === '--filter') o.filter = argv[++i]
    else if (a === '--verbose') o.verbose = true
    else if (a === '--cli') cli = resolve(argv[++i])
    else throw new Error(`unknown option ${a}`)
  }
  return o
}

function cacheRoot() {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache')
  return join(base, 'memory-curator', 'agents')
}

/** Install `pkg@version` once into its own cache folder; returns the folder. */
function install(pkg, version) {
  const dir = join(cacheRoot(), `${pkg.replace(/[@/]/g, '_')}-${version}`)
  const bin = join(dir, 'node_modules', '.bin')
  if (existsSync(join(dir, '.complete'))) return bin
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'package.json'), '{"private":true}\n')
  // Exact version; engine-strict off because npm would otherwise pick an older Claude Code on Node 20.
  const r = spawnSync(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--engine-strict=false',
      '--save-exact',
      `${pkg}@${version}`,
    ],
    {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
    },
  )
  if (r.status !== 0)
    throw new Error(`npm install ${pkg}@${version} failed: ${r.stderr.slice(-500)}`)
  writeFileSync(join(dir, '.complete'), `${version}\n`)
  return bin
}

/** The agent's version as it reports it (proves the binary runs). */
function agentVersion(bin, base) {
  const home = join(base, 'version-home')
  for (const d of ['.claude', '.codex']) mkdirSync(join(home, d), { recursive: true })
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    CODEX_HOME: join(home, '.codex'),
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
  }
  return execFileSync(bin, ['--version'], { encoding: 'utf8', env }).trim()
}

/** Our own reference of the agent's long-name hash, for placing memory folders (memory-facts §1). */
function encodeProjectDir(abs) {
  const enc = abs.replace(/[^A-Za-z0-9]/g, '-')
  if (enc.length <= 200) return enc
  let h = 0n
  for (let i = 0; i < abs.length; i++) h = BigInt.asIntN(32, h * 31n + BigInt(abs.charCodeAt(i)))
  return `${enc.slice(0, 200)}-${(h < 0n ? -h : h).toString(36)}`
}

function git(cwd, ...args) {
  execFileSync(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args],
    { cwd, stdio: 'pipe' },
  )
}

/** Build a case's tree under T; returns the launch dir and the env. */
function buildTree(T, c) {
  const put = (rel, text) => {
    mkdirSync(dirname(join(T, rel)), { recursive: true })
    writeFileSync(join(T, rel), text)
  }
  mkdirSync(join(T, 'home/.claude'), { recursive: true })
  mkdirSync(join(T, 'home/.codex'), { recursive: true })
  mkdirSync(join(T, 'proj'), { recursive: true })
  for (const [rel, text] of Object.entries(c.tree)) put(rel, text)
  for (const g of c.git ?? ['proj']) git(join(T, g), 'init', '-q')
  let mainRoot = (c.git ?? ['proj']).length > 0 ? join(T, 'proj') : null
  if (c.worktree) {
    git(join(T, 'proj'), 'add', '-A')
    git(join(T, 'proj'), 'commit', '-qm', 'init', '--allow-empty')
    git(join(T, 'proj'), 'worktree', 'add', '-q', '-b', 'feat', join(T, c.worktree.path))
  }
  const cwd = join(T, c.cwd ?? 'proj')
  mkdirSync(cwd, { recursive: true })
  if (c.memory !== undefined) {
    const root = mainRoot ?? cwd
    put(join('home/.claude/projects', encodeProjectDir(root), 'memory', 'MEMORY.md'), c.memory)
    put(join('home/.claude/projects', encodeProjectDir(root), 'memory', 'topic.md'), 'topic\n')
  }
  if (c.approve) {
    put(
      'home/.claude/.claude.json',
      JSON.stringify({
        projects: {
          [join(T, c.approve)]: {
            hasClaudeMdExternalIncludesApproved: true,
            hasClaudeMdExternalIncludesWarningShown: true,
          },
        },
      }),
    )
  }
  const env = {
    PATH: process.env.PATH,
    HOME: join(T, 'home'),
    CLAUDE_CONFIG_DIR: join(T, 'home/.claude'),
    CODEX_HOME: join(T, 'home/.codex'),
    XDG_CONFIG_HOME: join(T, 'home/.config'),
    XDG_CACHE_HOME: join(T, 'home/.cache'),
    TMPDIR: join(T, 'tmp'),
    // No telemetry, updates or error reports (both agents).
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CODEX_DISABLE_UPDATE_CHECK: '1',
    NO_COLOR: '1',
    ...(c.env ?? {}),
    // Values that name a path inside T.
    ...Object.fromEntries(Object.entries(c.envT ?? {}).map(([k, v]) => [k, join(T, v)])),
  }
  mkdirSync(env.TMPDIR, { recursive: true })
  return { cwd, env }
}

/** Run one agent to its exit (or until `enough()` holds a moment after, or the hang limit). */
async function runAgent(bin, args, cwd, env, enough) {
  const child = spawn(bin, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (d) => (output += d))
  child.stderr.on('data', (d) => (output += d))
  const exited = new Promise((r) => child.on('exit', (code) => r(code)))
  let hung = false
  const limit = setTimeout(() => {
    hung = true
    child.kill('SIGKILL')
  }, RUN_LIMIT_MS)
  const poll = setInterval(() => {
    if (enough()) child.kill('SIGTERM')
  }, 200)
  const code = await exited
  clearTimeout(limit)
  clearInterval(poll)
  return { code, output, hung }
}

/** Our CLI's JSON answer. */
function ours(args, env) {
  const r = spawnSync(process.execPath, [cli, ...args, '--json'], { env, encoding: 'utf8' })
  if (r.status !== 0)
    throw new Error(`memory-curator ${args.join(' ')}: exit ${r.status}: ${r.stderr}`)
  return JSON.parse(r.stdout)
}

/** Our load-order for the case's launch dir, with the same homes (managed: an empty temp folder). */
function ourLoadOrder(T, cwd, env) {
  const homes = ['--claude-home', env.CLAUDE_CONFIG_DIR, '--codex-home', env.CODEX_HOME]
  return ours(['load-order', '--cwd', cwd, ...homes, '--managed-dir', join(T, 'managed')], env)
}

/** How a run ended, for an error line. */
const ended = (run) => `exit ${run.code}${run.hung ? ', hung' : ''}: ${run.output.slice(0, 300)}`

const rel = (T, p) => (p.startsWith(T + '/') ? p.slice(T.length + 1) : null)

async function claudeCase(bin, T, c) {
  const { cwd, env } = buildTree(T, c)
  const server = await startStandin(c.readPath ? { readPath: join(T, c.readPath) } : {})
  const want = c.readPath ? 2 : 1
  const run = await runAgent(
    bin,
    ['-p', 'hi'],
    cwd,
    { ...env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'sk-ant-standin-0000' },
    () => claudeMainRequests(server.requests).length >= want,
  )
  await server.close()
  if (process.env.MC_CONFORMANCE_DUMP)
    writeFileSync(process.env.MC_CONFORMANCE_DUMP, JSON.stringify(server.requests, null, 1))
  const main = claudeMainRequests(server.requests)
  if (main.length < want)
    return {
      error: `${main.length} model requests (${ended(run)})`,
    }

  const lo = ourLoadOrder(T, cwd, env)
  const isMemory = (p) => /\/MEMORY\.md$/.test(p)
  const agentFiles = claudeFilesSent(main[0].body)
    .map((p) => rel(T, p))
    .filter((p) => p !== null && !isMemory(p))
  const ourFiles = lo.claude.startup
    .filter((s) => s.scope !== 'memory')
    .map((s) => rel(T, s.path))
    .filter((p) => p !== null)
  const mem = lo.claude.startup.find((s) => s.scope === 'memory')
  let ourMemory = []
  let ourCut = null
  if (mem) {
    const cut = ours(['cutoff', mem.path], env)
    ourCut = cut.firstUnloadedLine
    ourMemory = cut.entries
      .filter((e) => e.loaded)
      .map((e) => Number(/MEMLINE-(\d+)/.exec(e.title ?? '')?.[1]))
      .filter((n) => n > 0)
  }
  const agentMemory = memoryLinesSent(main[0].body)
  const lines = [
    ['startup', agentFiles, ourFiles],
    ['memory lines', summarise(agentMemory), summarise(ourMemory)],
    ['memory cut at line', memoryCutLine(main[0].body), ourCut],
  ]
  if (c.readPath) {
    const first = new Set(claudeFilesSent(main[0].body))
    const later = claudeFilesSent(main[1].body)
      .filter((p) => !first.has(p))
      .map((p) => rel(T, p))
      .filter((p) => p !== null)
    const read = join(T, c.readPath)
    const ourOnDemand = lo.claude.onDemand
      .filter(
        (o) =>
          o.trigger.startsWith('reading a file under ') &&
          read.startsWith(o.trigger.slice('reading a file under '.length) + '/'),
      )
      .map((o) => rel(T, o.path))
    lines.push(['on demand', later, ourOnDemand])
  }
  return { lines }
}

/** MEMORY.md lines as ranges (`1-200`), so a line per case stays short. */
function summarise(ns) {
  const out = []
  for (const n of ns) {
    const last = out[out.length - 1]
    if (last && last[1] === n - 1) last[1] = n
    else out.push([n, n])
  }
  return out.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`))
}

async function codexCase(bin, T, c) {
  const { cwd, env } = buildTree(T, c)
  const server = await startStandin()
  const config = [
    ...(c.config ? [c.config] : []),
    'model = "standin"',
    'model_provider = "standin"',
    '[model_providers.standin]',
    'name = "standin"',
    `base_url = "${server.url}/v1"`,
    'wire_api = "responses"',
    'env_key = "STANDIN_API_KEY"',
    '',
  ].join('\n')
  writeFileSync(join(env.CODEX_HOME, 'config.toml'), config)
  const run = await runAgent(
    bin,
    ['exec', '--skip-git-repo-check', 'hi'],
    cwd,
    { ...env, STANDIN_API_KEY: 'standin' },
    () => codexRequests(server.requests).length >= 1,
  )
  await server.close()
  const reqs = codexRequests(server.requests)
  if (reqs.length < 1)
    return {
      error: `no model request (${ended(run)})`,
    }
  const lo = ourLoadOrder(T, cwd, env)
  const texts = Object.fromEntries(
    Object.entries(c.tree).filter(([, v]) => v.startsWith('CODEXMARK-')),
  )
  const agent = codexFilesSent(reqs[0].body, texts).map(
    (f) => `${f.name}:${f.bytes}${f.brokenChar ? '+FFFD' : ''}`,
  )
  const our = lo.codex.files.map(
    (f) => `${rel(T, f.path)}:${f.includedBytes}${f.brokenChar ? '+FFFD' : ''}`,
  )
  return { lines: [['files', agent, our]] }
}

async function main() {
  const o = parseArgs(process.argv.slice(2))
  if (!existsSync(cli)) {
    console.error('conformance: out/cli/index.js is missing; run `npm run build` first')
    process.exit(2)
  }
  // Install outside the namespace (the registry needs the network), then re-run inside it.
  const claudeBin =
    o.only === 'codex' ? null : join(install('@anthropic-ai/claude-code', o.claude), 'claude')
  const codexBin = o.only === 'claude' ? null : join(install('@openai/codex', o.codex), 'codex')
  if (!process.env.MC_CONFORMANCE_IN_NS) {
    const canUnshare = process.getuid?.() === 0 && spawnSync('unshare', ['-n', 'true']).status === 0
    if (canUnshare) {
      const r = spawnSync(
        'unshare',
        [
          '-n',
          '--',
          'sh',
          '-c',
          'ip link set lo up && exec "$0" "$@"',
          process.execPath,
          ...process.argv.slice(1),
        ],
        {
          stdio: 'inherit',
          env: { ...process.env, MC_CONFORMANCE_IN_NS: '1' },
        },
      )
      process.exit(r.status ?? 2)
    }
    console.warn(
      'conformance: WARNING: no private network namespace (needs root and unshare); the agents run with the host network, pointed at 127.0.0.1',
    )
  } else {
    console.log('conformance: in a private network namespace (loopback only)')
  }
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'mc-conf-')))
  const versions = []
  if (claudeBin) versions.push(`claude ${agentVersion(claudeBin, base)}`)
  if (codexBin) versions.push(`codex ${agentVersion(codexBin, base)}`)
  console.log(`conformance: ${versions.join(', ')}`)

  const jobs = [
    ...(claudeBin ? CLAUDE_CASES.map((c) => ['claude', c]) : []),
    ...(codexBin ? CODEX_CASES.map((c) => ['codex', c]) : []),
  ].filter(([, c]) => !o.filter || c.name.includes(o.filter))
  let agree = 0
  let differ = 0
  let n = 0
  for (const [agent, c] of jobs) {
    const T = join(base, `c${++n}`)
    mkdirSync(T)
    let result
    try {
      result =
        agent === 'claude' ? await claudeCase(claudeBin, T, c) : await codexCase(codexBin, T, c)
    } catch (err) {
      result = { error: String(err.message ?? err) }
    }
    const diffs = result.error
      ? [result.error]
      : result.lines
          .filter(([, a, b]) => JSON.stringify(a) !== JSON.stringify(b))
          .map(([what, a, b]) => `${what}: agent ${JSON.stringify(a)} ours ${JSON.stringify(b)}`)
    if (diffs.length === 0) agree++
    else differ++
    console.log(
      `${diffs.length === 0 ? 'agree ' : 'DIFFER'} ${agent} ${c.name}${diffs.length ? '\n    ' + diffs.join('\n    ') : ''}`,
    )
    if (o.verbose && result.lines)
      for (const [what, a] of result.lines) console.log(`    ${what}: ${JSON.stringify(a)}`)
  }
  rmSync(base, { recursive: true, force: true })
  console.log(`${agree} agree, ${differ} differ`)
  process.exit(differ === 0 ? 0 : 1)
}

main().catch((err) => {
  console.error(`conformance: ${err.stack ?? err}`)
  process.exit(2)
})
