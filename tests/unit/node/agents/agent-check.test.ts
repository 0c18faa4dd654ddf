/**
 * "Check with the installed agent" (issue 13 item 4) on real folders: a recording agent
 * script stands in for `claude` to pin the plumbing (what it may see of the person's
 * environment and homes, how its request maps back to real paths, how differences show), and
 * the real pinned Claude Code and Codex run when `npm run conformance` has installed them.
 */
import { execFileSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkWithAgent, installedAgents } from '../../../../src/node/agents/agent-check'
import { loadOrder } from '../../../../src/node/load-order/load-order'
import { encodeProjectDir } from '../../../../src/core/memory/project-path'
import { fakeClaude } from '../../../helpers/fake-agent'

let T: string
let repo: string
let claudeHome: string
let codexHome: string
let home: string

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true })
  writeFileSync(path, text)
}

beforeAll(() => {
  T = mkdtempSync(join(tmpdir(), 'mc-agentcheck-test-'))
  home = join(T, 'home')
  claudeHome = join(home, '.claude')
  codexHome = join(home, '.codex')
  repo = join(T, 'work', 'shop')
  write(join(repo, 'CLAUDE.md'), '# Shop\nUse pnpm.\n')
  write(join(repo, '.claude', 'rules', 'style.md'), 'Prefer small functions.\n')
  write(join(repo, 'AGENTS.md'), '# Agents\nRun the tests.\n')
  write(join(repo, '.claude', 'settings.json'), '{"hooks":{"SessionStart":[]},"env":{"X":"1"}}')
  write(join(claudeHome, 'CLAUDE.md'), 'User-wide: be brief.\n')
  execFileSync('git', ['init', '-q'], { cwd: repo })
  const memory = join(claudeHome, 'projects', encodeProjectDir(repo), 'memory')
  write(join(memory, 'MEMORY.md'), '- [Cart](cart.md) totals in cents\n- [Auth](auth.md) tokens\n')
  write(join(memory, 'cart.md'), 'Cart totals are integer cents.\n')
  write(join(memory, 'topics', 'deep', 'auth.md'), 'Tokens live one hour.\n')
})
afterAll(() => rmSync(T, { recursive: true, force: true }))

async function ours() {
  return loadOrder({
    cwd: repo,
    claudeHome,
    codexHome,
    managedDir: join(T, 'managed'),
    env: { HOME: home },
  })
}

describe('check with the installed agent', () => {
  it('finds agents only on absolute PATH entries', async () => {
    const bin = join(T, 'bin-found')
    fakeClaude(bin, join(T, 'unused.json'))
    expect(await installedAgents(`relative/bin:${bin}`)).toEqual([
      { agent: 'claude', path: join(bin, 'claude') },
    ])
    expect(await installedAgents('.:relative')).toEqual([])
  })

  it('runs the agent in a temporary copy with a clean environment and shows where it differs', async () => {
    const bin = join(T, 'bin')
    const record = join(T, 'record.json')
    fakeClaude(bin, record)
    process.env.MC_TEST_SECRET = 'must-not-leak'
    const r = await checkWithAgent({
      agent: 'claude',
      cwd: repo,
      claudeHome,
      codexHome,
      homeDir: home,
      ours: await ours(),
      path: `${bin}:/usr/bin:/bin`,
    })
    delete process.env.MC_TEST_SECRET
    expect(r.ok, r.error ?? '').toBe(true)
    expect(r.version).toBe('9.9.9 (Stand-in)')
    const seen = JSON.parse(readFileSync(record, 'utf8')) as {
      env: Record<string, string>
      cwd: string
      memoryFiles: string[]
    }
    // Only what we set: no secret, no real home, a dummy key, the stand-in server on loopback.
    expect(seen.env.MC_TEST_SECRET).toBeUndefined()
    expect(seen.env.HOME).not.toBe(home)
    expect(seen.env.HOME).not.toBe(homedir())
    expect(seen.env.CLAUDE_CONFIG_DIR.startsWith(seen.env.HOME)).toBe(true)
    expect(seen.env.ANTHROPIC_API_KEY).toBe('sk-ant-standin-0000')
    expect(seen.env.ANTHROPIC_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(seen.cwd.endsWith(repo)).toBe(true)
    expect(seen.cwd).not.toBe(repo)
    // The memory folder as the one reader lists it: the index and topic files at any depth.
    expect(seen.memoryFiles).toEqual(['MEMORY.md', 'cart.md', 'topics/deep/auth.md'])
    // The copy is gone after the run; the real files are untouched.
    expect(existsSync(seen.env.HOME)).toBe(false)
    expect(readFileSync(join(repo, '.claude', 'settings.json'), 'utf8')).toContain('hooks')
    // Rows come back as real paths; the skipped rule shows as ours only.
    const byPath = Object.fromEntries(r.rows.map((row) => [row.path, row.status]))
    expect(byPath[join(claudeHome, 'CLAUDE.md')]).toBe('same')
    expect(byPath[join(repo, 'CLAUDE.md')]).toBe('same')
    expect(byPath[join(repo, '.claude', 'rules', 'style.md')]).toBe('only-ours')
    // It sent one line of the two-line index: a MEMORY.md difference.
    expect(r.memory).toMatchObject({ agentLines: 1, ourLines: 2 })
  })
})

/** The pinned agents `npm run conformance` installs into its cache, when present. */
function cachedAgent(pkg: string, name: string): string | null {
  const base = join(
    process.env.XDG_CACHE_HOME || join(homedir(), '.cache'),
    'memory-curator',
    'agents',
  )
  if (!existsSync(base)) return null
  for (const dir of readdirSync(base)) {
    const bin = join(base, dir, 'node_modules', '.bin')
    if (dir.startsWith(pkg) && existsSync(join(bin, name))) return bin
  }
  return null
}

/** The check of `agent` from the conformance cache folder `bin`, on the fixture project. */
async function realCheck(agent: 'claude' | 'codex', bin: string) {
  const r = await checkWithAgent({
    agent,
    cwd: repo,
    claudeHome,
    codexHome,
    homeDir: home,
    ours: await ours(),
    path: `${bin}:${process.env.PATH}`,
  })
  expect(r.ok, r.error ?? '').toBe(true)
  expect(r.rows.filter((row) => row.status !== 'same')).toEqual([])
  return r
}

describe('the real pinned agents (installed by npm run conformance)', () => {
  const claudeBin = cachedAgent('_anthropic-ai_claude-code', 'claude')
  it('Claude Code loads exactly what the app shows', async (ctx) => {
    if (!claudeBin)
      ctx.skip('Claude Code is not in the conformance cache (run `npm run conformance` once)')
    const r = await realCheck('claude', claudeBin!)
    expect(r.rows.length).toBeGreaterThanOrEqual(3)
    expect(r.memory).toMatchObject({ agentLines: 2, ourLines: 2 })
  })
  const codexBin = cachedAgent('_openai_codex', 'codex')
  it('Codex loads exactly what the app shows', async (ctx) => {
    if (!codexBin)
      ctx.skip('Codex is not in the conformance cache (run `npm run conformance` once)')
    const r = await realCheck('codex', codexBin!)
    expect(r.rows.map((row) => row.path)).toEqual([join(repo, 'AGENTS.md')])
  })
})
