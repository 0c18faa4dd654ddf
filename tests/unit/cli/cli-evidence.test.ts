/**
 * The built command line's `evidence` field (docs/cli.md §7, §8; issue 12 item 10): additive to
 * `audit --json` and `provenance --json`, archived in the state folder, surviving the transcript.
 */
import { execFile } from 'node:child_process'
import { existsSync, readdirSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEvidenceFixture, type EvidenceFixture } from '../../helpers/evidence-fixture'

const CLI = resolve('out/cli/index.js')
const built = existsSync(CLI)

function cli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string }> {
  return new Promise((ok) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { PATH: process.env.PATH ?? '', ...env }, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout) => ok({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout }),
    )
  })
}

let fx: EvidenceFixture
let env: Record<string, string>
beforeAll(() => {
  fx = createEvidenceFixture()
  env = { HOME: fx.home, XDG_STATE_HOME: fx.stateDir, CLAUDE_CONFIG_DIR: fx.claudeHome }
})
afterAll(() => fx.cleanup())

interface Ev {
  state: string
  never: string | null
  reason: string
  writes: number
}

describe.skipIf(!built)('evidence in the CLI (needs `npm run build`)', () => {
  it('audit --json and provenance --json carry it, and it survives the transcript', async () => {
    const audit = await cli(
      ['audit', '--json', '--memory-dir', fx.memoryDir, '--repo', fx.repo],
      env,
    )
    expect(audit.code).toBe(0)
    const a = JSON.parse(audit.stdout) as {
      notes: { title: string; verdict: string; references: unknown[]; evidence?: Ev }[]
      summary: Record<string, number>
    }
    const byTitle = new Map(a.notes.map((n) => [n.title, n]))
    // Existing fields are kept; evidence is added.
    expect(byTitle.get('Deploy')).toMatchObject({
      verdict: expect.any(String),
      references: expect.any(Array),
    })
    expect(byTitle.get('Deploy')?.evidence).toMatchObject({ state: 'live', never: null, writes: 2 })
    expect(byTitle.get('CSV export')?.evidence?.state).toBe('live')
    expect(byTitle.get('Old habit')?.evidence).toMatchObject({
      state: 'none',
      never: 'before-transcripts',
    })
    // The archive is in the state folder, never in the Claude home.
    expect(readdirSync(join(fx.stateDir, 'memory-curator', 'evidence', 'v1'))).toHaveLength(3)

    rmSync(fx.transcript) // what Claude Code's cleanupPeriodDays does
    const prov = await cli(['provenance', '--json', '--memory-dir', fx.memoryDir], env)
    expect(prov.code).toBe(0)
    const p = JSON.parse(prov.stdout) as {
      files: {
        path: string
        writes: unknown[]
        lost: unknown[]
        evidence: (Ev & { line: number; title: string })[]
      }[]
    }
    const deep = p.files.find((f) => f.path === fx.deepTopic)!
    expect(deep.writes).toEqual([])
    expect(deep.lost).toEqual([])
    expect(deep.evidence).toEqual([
      expect.objectContaining({ line: 1, title: 'CSV export', state: 'archived', writes: 1 }),
    ])
    const index = p.files.find((f) => f.path === fx.index)!
    expect(index.evidence.map((e) => [e.title, e.state])).toEqual([
      ['Deploy', 'archived'],
      ['Reviews happen on Fridays (typed by hand)', 'none'],
    ])
    const text = await cli(['provenance', '--memory-dir', fx.memoryDir], env)
    expect(text.stdout).toContain('evidence, line 1 "CSV export": archived')
  }, 60_000)

  it("keeps the repository's history log in the state folder; a second audit reads it alike (issue 16)", async () => {
    const args = ['audit', '--json', '--memory-dir', fx.memoryDir, '--repo', fx.repo]
    const verdicts = (out: string): unknown =>
      (
        JSON.parse(out) as { notes: { title: string; verdict: string; reasons: string[] }[] }
      ).notes.map((n) => [n.title, n.verdict, n.reasons])
    const first = await cli(args, env)
    expect(first.code).toBe(0)
    const kept = join(fx.stateDir, 'memory-curator', 'history')
    expect(readdirSync(kept).filter((n) => n.endsWith('.log'))).toHaveLength(1)
    const second = await cli(args, env)
    expect(second.code).toBe(0)
    expect(verdicts(second.stdout)).toEqual(verdicts(first.stdout))
  }, 60_000)
})
