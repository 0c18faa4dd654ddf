/**
 * `provenance` keeps its printed result with the identity of its inputs (node/cache/run-cache.ts):
 * a second run over unchanged inputs prints the same bytes without recomputing, and any change
 * of a transcript, a memory file or the evidence archive gives what a fresh computation gives.
 */
import { execFile, spawn } from 'node:child_process'
import { appendFileSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RACY_MS } from '../../../src/node/cache/run-cache'
import { createEvidenceFixture, type EvidenceFixture } from '../../helpers/evidence-fixture'

const CLI = resolve('out/cli/index.js')
const built = existsSync(CLI)

function cli(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((ok, fail) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { PATH: process.env.PATH ?? '', ...env }, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => (err ? fail(new Error(`${err.message}\n${stderr}`)) : ok(stdout)),
    )
  })
}

/** A run whose stdout reader is gone before it prints (`| head` that has had enough). */
function closedPipe(args: string[], env: Record<string, string>): Promise<[number | null, string]> {
  return new Promise((ok) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child.stdout.destroy()
    let stderr = ''
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('close', (code) => ok([code, stderr]))
  })
}

let fx: EvidenceFixture
let env: Record<string, string>
let runs: string
beforeAll(async () => {
  fx = createEvidenceFixture()
  env = { HOME: fx.home, XDG_STATE_HOME: fx.stateDir, CLAUDE_CONFIG_DIR: fx.claudeHome }
  runs = join(fx.stateDir, 'memory-curator', 'provenance-cache', 'runs')
  // Inputs changed within RACY_MS of a run are never trusted: let the fixture's files age.
  if (built) await new Promise((r) => setTimeout(r, RACY_MS + 500))
}, 30_000)
afterAll(() => fx.cleanup())

const cacheFile = (): string => {
  const names = readdirSync(runs)
  expect(names).toHaveLength(1)
  return join(runs, names[0])
}
const inode = (): number => statSync(cacheFile()).ino

describe.skipIf(!built)('provenance run cache (needs `npm run build`)', () => {
  it('a reader that closes stdout early: no error, exit 0, cold and warm alike', async () => {
    const args = ['provenance', '--json', '--memory-dir', fx.memoryDir]
    rmSync(runs, { recursive: true, force: true })
    expect(await closedPipe(args, env)).toEqual([0, ''])
    // (First in the file: the fixture's inputs have aged, so the cold run keeps its result.)
    // The warm run prints the kept result into the same closed pipe.
    const saved = inode()
    expect(await closedPipe(args, env)).toEqual([0, ''])
    expect(inode()).toBe(saved)
    expect(await closedPipe(['provenance', '--memory-dir', fx.memoryDir], env)).toEqual([0, ''])
  }, 120_000)

  it('a warm run prints what a fresh run prints, and any change of an input recomputes', async () => {
    const args = ['provenance', '--json', '--memory-dir', fx.memoryDir]
    const fresh = async (): Promise<string> => {
      rmSync(runs, { recursive: true, force: true })
      return cli(args, env)
    }
    const cold = await cli(args, env)
    const saved = inode()
    // Warm: the same bytes, and nothing saved again (a save renames a new file in).
    expect(await cli(args, env)).toBe(cold)
    expect(inode()).toBe(saved)
    // Text output from the same saved result.
    const text = await cli(['provenance', '--memory-dir', fx.memoryDir], env)
    expect(text).toContain('evidence, line 1 "CSV export"')

    // A transcript grows: recomputed (same as a fresh run), the new write is seen.
    appendFileSync(fx.transcript, '{"type":"summary","summary":"later"}\n')
    const afterAppend = await cli(args, env)
    expect(afterAppend).toBe(await fresh())

    // A memory file changes: its lines and evidence follow.
    await cli(args, env)
    appendFileSync(fx.index, '- A line typed later\n')
    const afterEdit = await cli(args, env)
    expect(afterEdit).not.toBe(afterAppend)
    expect(afterEdit).toBe(await fresh())

    // The transcript is deleted (cleanupPeriodDays): the archive answers, as a fresh run says.
    rmSync(fx.transcript)
    const afterDelete = await cli(args, env)
    expect(afterDelete).toContain('"archived"')
    expect(afterDelete).toBe(await fresh())
  }, 120_000)
})
