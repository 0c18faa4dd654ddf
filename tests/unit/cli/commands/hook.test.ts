/**
 * `hook session-start` as Claude Code runs it: the built CLI as a real process, the hook's JSON
 * on stdin, a temp home. A notice when memory needs attention, nothing when all is well, and
 * exit 0 with a line in our log on any error.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFixtureHome, type FixtureHome } from '../../../helpers/fixture-home'
import { cliBuilt, runCli } from '../../../helpers/run-cli'

const built = cliBuilt

let f: FixtureHome
let env: Record<string, string>
beforeAll(() => {
  f = createFixtureHome()
  env = { HOME: f.home, CLAUDE_CONFIG_DIR: f.claudeHome, XDG_STATE_HOME: f.stateDir }
})
afterAll(() => f.cleanup())

const hookInput = (cwd: string) =>
  JSON.stringify({
    session_id: '33333333-3333-4333-8333-333333333333',
    transcript_path: join(f.claudeHome, 'x.jsonl'),
    cwd,
    hook_event_name: 'SessionStart',
    source: 'startup',
  })

describe.skipIf(!built)('hook session-start (built CLI; run `npm run build` first)', () => {
  it('prints the cutoff notice for the project of the cwd', async () => {
    const r = await runCli(['hook', 'session-start'], env, hookInput(f.repo))
    expect(r.code).toBe(0)
    expect(r.stderr).toBe('')
    expect(r.stdout).toContain(`MEMORY.md (${join(f.memoryDir, 'MEMORY.md')}) is past its`)
    expect(r.stdout).toContain('the newest is "Note 230"')
  })

  it('with --json, answers in the hook output format', async () => {
    const r = await runCli(['hook', 'session-start', '--json'], env, hookInput(f.repo))
    const out = JSON.parse(r.stdout) as {
      hookSpecificOutput: { hookEventName: string; additionalContext: string }
    }
    expect(out.hookSpecificOutput.hookEventName).toBe('SessionStart')
    expect(out.hookSpecificOutput.additionalContext).toContain('Note 230')
  })

  it('names the notes the last `audit` judged wrong, with the reason', async () => {
    writeFileSync(
      join(f.memoryDir, 'refunds.md'),
      '---\nname: Refunds\ndescription: where refunds live\ntype: project\n---\n\nRefunds are handled in `src/payments/refunds.ts`.\n',
    )
    const audit = await runCli(['audit', '--project', basename(f.projectDir), '--json'], env, null)
    expect(audit.code).toBe(0)
    const r = await runCli(['hook', 'session-start'], env, hookInput(f.repo))
    expect(r.stdout).toContain('the last audit')
    expect(r.stdout).toMatch(/"Refunds" \(.*refunds\.md:\d+\) — (stale|wrong from the start): /)
  })

  it('prints nothing when all is well', async () => {
    const quiet = join(f.root, 'quiet')
    mkdirSync(quiet, { recursive: true })
    const r = await runCli(['hook', 'session-start'], env, hookInput(quiet))
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' })
  })

  it('never fails the session: bad input is silence, exit 0, and a line in our log', async () => {
    for (const input of ['not json', '{"cwd": 5}', '']) {
      const r = await runCli(['hook', 'session-start'], env, input)
      expect(r).toEqual({ code: 0, stdout: '', stderr: '' })
    }
    const log = readFileSync(join(f.stateDir, 'memory-curator', 'hook.log'), 'utf8')
    expect(log.trim().split('\n')).toHaveLength(3)
    expect(log).toContain('hook session-start: ')
  })
})
