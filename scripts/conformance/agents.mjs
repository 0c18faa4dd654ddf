/**
 * The agents the conformance stage runs: installed once per pinned version into a cache folder
 * outside the repository, asked for their version (proof the binary runs), and run to their
 * exit with a hang limit. See run.mjs for the safety rules every run follows.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

/** Generous hang limit for one agent run (busy CI machines). */
const RUN_LIMIT_MS = 60_000

function cacheRoot() {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache')
  return join(base, 'memory-curator', 'agents')
}

/** Install `pkg@version` once into its own cache folder; returns the folder. */
export function install(pkg, version) {
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
export function agentVersion(bin, base) {
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

/** Run one agent to its exit (or until `enough()` holds a moment after, or the hang limit). */
export async function runAgent(bin, args, cwd, env, enough) {
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
