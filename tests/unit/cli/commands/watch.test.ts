/** `memory-curator watch` as a real process: a session writing MEMORY.md past the cutoff gets a line on stderr. */
import { spawn, type ChildProcess } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFixtureHome, memoryIndex, type FixtureHome } from '../../../helpers/fixture-home'
import { CLI, cliBuilt } from '../../../helpers/run-cli'
import { noticeLine } from '../../../../src/cli/commands/watch'

let f: FixtureHome
let child: ChildProcess
let stderr = ''

function waitFor(re: RegExp): Promise<void> {
  return new Promise((ok, fail) => {
    const check = (): void => {
      if (re.test(stderr)) ok()
    }
    child.stderr!.on('data', check)
    child.once('exit', () => fail(new Error(`watch exited; stderr: ${stderr}`)))
    check()
  })
}

describe('noticeLine', () => {
  it('names the file, the count, the newest entry and the fix', () => {
    expect(
      noticeLine({
        id: 1,
        kind: 'past-cutoff',
        at: '',
        memoryDir: '/m',
        file: '/m/MEMORY.md',
        entriesNotLoaded: 1234,
        newest: { line: 1500, title: 'Deploy' },
        firstUnloadedLine: 201,
      }),
    ).toBe(
      'memory-curator: /m/MEMORY.md: 1,234 entries do not load at session start (cutoff at line 201); the newest is "Deploy" (line 1,500). Fix: open it in the app (memory-curator serve), Memory tab, "Move above the cutoff".',
    )
    expect(
      noticeLine({
        id: 2,
        kind: 'line-lost',
        at: '',
        memoryDir: '/m',
        file: '/m/a.md',
        text: '- x',
        addedBy: 'A',
        removedBy: 'B',
      }),
    ).toContain('session B removed a line session A wrote: "- x". Fix: restore it')
  })
})

describe.skipIf(!cliBuilt)('watch (built CLI)', () => {
  beforeAll(async () => {
    f = createFixtureHome()
    writeFileSync(join(f.memoryDir, 'MEMORY.md'), memoryIndex(100))
    child = spawn(process.execPath, [CLI, 'watch'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: f.home,
        CLAUDE_CONFIG_DIR: f.claudeHome,
        XDG_STATE_HOME: f.stateDir,
        MEMORY_CURATOR_POLL: process.env.MEMORY_CURATOR_POLL ?? '',
      },
    })
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
    await waitFor(/watching the memory folders/)
  }, 30_000)
  afterAll(async () => {
    // The process must end: SIGTERM, then SIGKILL if it has not exited after 10 s.
    const c = child
    if (c && c.exitCode === null && c.signalCode === null) {
      const exited = new Promise<void>((ok) => c.once('exit', () => ok()))
      c.kill('SIGTERM')
      const killer = setTimeout(() => c.kill('SIGKILL'), 10_000)
      await exited
      clearTimeout(killer)
    }
    f?.cleanup()
  }, 30_000)

  it('says on stderr when a session writes the index past the cutoff', async () => {
    writeFileSync(join(f.memoryDir, 'MEMORY.md'), memoryIndex(240))
    await waitFor(/MEMORY\.md: \d+ entries do not load at session start/)
    expect(stderr).toContain('the newest is "Note 240"')
    expect(stderr).toContain('Move above the cutoff')
  }, 30_000)
})
