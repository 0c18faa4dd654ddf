/** `hooks install|uninstall|status` as a real process on temp homes: diff first, --yes, refusal without a terminal. */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTempHomes, type TempHomes } from '../../../helpers/temp-homes'
import { initialCommit } from '../../../helpers/git'
import { cliBuilt, runCli } from '../../../helpers/run-cli'

const built = cliBuilt
let h: TempHomes
let env: Record<string, string>
beforeEach(() => {
  h = createTempHomes('mc-hooks-cli-')
  env = { HOME: h.home, CLAUDE_CONFIG_DIR: h.claudeHome, XDG_STATE_HOME: h.stateDir }
})
afterEach(() => rmSync(h.root, { recursive: true, force: true }))

describe.skipIf(!built)('hooks install|uninstall (built CLI)', () => {
  it('shows the diff and refuses to apply without --yes when not interactive', async () => {
    const file = join(h.claudeHome, 'settings.json')
    writeFileSync(file, '{ "model": "opus" }\n')
    const r = await runCli(['hooks', 'install', '--user'], env, '')
    expect(r.code).toBe(1)
    expect(r.stdout).toContain('+  "hooks": {')
    expect(r.stderr).toContain('run again with --yes')
    expect(readFileSync(file, 'utf8')).toBe('{ "model": "opus" }\n')
  })

  it('installs with --yes (running this CLI file), never twice, and uninstalls to the same bytes', async () => {
    const file = join(h.claudeHome, 'settings.json')
    const before = '{\n  "model": "opus"\n}\n'
    writeFileSync(file, before)
    const r = await runCli(['hooks', 'install', '--yes'], env, '')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('hook added')
    const settings = JSON.parse(readFileSync(file, 'utf8')) as {
      hooks: { SessionStart: { hooks: { command: string }[] }[] }
    }
    const command = settings.hooks.SessionStart[0]!.hooks[0]!.command
    expect(command).toContain('cli/index.js')
    expect(command.endsWith(' hook session-start')).toBe(true)
    const again = await runCli(['hooks', 'install', '--yes'], env, '')
    expect(again.stdout).toContain('already there')
    const status = await runCli(['hooks', 'status', '--json'], env, '')
    expect(JSON.parse(status.stdout)).toMatchObject({
      states: [{ scope: 'user', installed: true }],
    })
    const un = await runCli(['hooks', 'uninstall', '--user', '--yes'], env, '')
    expect(un.code).toBe(0)
    expect(readFileSync(file, 'utf8')).toBe(before)
    expect(existsSync(join(h.stateDir, 'memory-curator', 'backups'))).toBe(true)
  })

  it('--project writes the repository settings of --cwd', async () => {
    const repo = join(h.root, 'repo')
    initialCommit(repo, { 'a.txt': 'a\n' })
    const r = await runCli(['hooks', 'install', '--project', '--cwd', repo, '--yes'], env, '')
    expect(r.code).toBe(0)
    expect(existsSync(join(repo, '.claude', 'settings.json'))).toBe(true)
    expect(existsSync(join(h.claudeHome, 'settings.json'))).toBe(false)
  })

  it('leaves a settings file it cannot edit alone, with the reason', async () => {
    writeFileSync(join(h.claudeHome, 'settings.json'), '{ "hooks": 1 }')
    const r = await runCli(['hooks', 'install', '--yes'], env, '')
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('"hooks" is not an object; nothing changed')
  })
})
