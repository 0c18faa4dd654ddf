/** Our hook in real settings files: the diff first, the safe write, never a duplicate, undo. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTempHomes, type TempHomes } from '../../../helpers/temp-homes'
import { initialCommit } from '../../../helpers/git'
import {
  applyHookChange,
  hookState,
  planHookChange,
  settingsPathFor,
} from '../../../../src/node/hooks/hook-settings'
import { undoOutcome } from '../../../../src/node/edits/undo'
import { rmSync } from 'node:fs'

const CMD = 'memory-curator hook session-start'
let h: TempHomes
let backups: string
beforeEach(() => {
  h = createTempHomes('mc-hooks-')
  backups = join(h.stateDir, 'backups')
})
afterEach(() => rmSync(h.root, { recursive: true, force: true }))

describe('hook settings on disk', () => {
  it('adds the hook to the user settings after showing the diff, keeps the rest, and undoes', async () => {
    const file = join(h.claudeHome, 'settings.json')
    const before = '{\n  "model": "opus",\n  "permissions": { "allow": ["Bash(ls)"] }\n}\n'
    writeFileSync(file, before)
    const t = { claudeHome: h.claudeHome, cwd: null }
    expect(await hookState('user', t)).toMatchObject({
      installed: false,
      problem: null,
      path: file,
    })
    const plan = await planHookChange('user', 'install', t, CMD)
    expect(plan.changed).toBe(true)
    expect(plan.diff).toContain('+  "hooks": {')
    expect(plan.diff).toContain(`"command": "${CMD}"`)
    expect(readFileSync(file, 'utf8')).toBe(before) // planning writes nothing
    const r = await applyHookChange(
      'user',
      'install',
      t,
      CMD,
      plan.expectedHash,
      plan.afterHash ?? '',
      backups,
    )
    expect(r.kind).toBe('written')
    const after = readFileSync(file, 'utf8')
    expect(
      after.startsWith('{\n  "model": "opus",\n  "permissions": { "allow": ["Bash(ls)"] }'),
    ).toBe(true)
    expect(await hookState('user', t)).toMatchObject({ installed: true })
    // Never a duplicate.
    const again = await planHookChange('user', 'install', t, CMD)
    expect(again.changed).toBe(false)
    // Undo puts the old bytes back.
    if (r.kind !== 'written') return
    const u = await undoOutcome(backups, r.operationId, { trash: null })
    expect(u.kind).toBe('written')
    expect(readFileSync(file, 'utf8')).toBe(before)
  })

  it('refuses to apply over a file changed since the diff', async () => {
    const file = join(h.claudeHome, 'settings.json')
    writeFileSync(file, '{}\n')
    const t = { claudeHome: h.claudeHome, cwd: null }
    const plan = await planHookChange('user', 'install', t, CMD)
    // A change other than the one shown is refused.
    const other = await applyHookChange(
      'user',
      'install',
      t,
      CMD,
      plan.expectedHash,
      'b'.repeat(64),
      backups,
    )
    expect(other).toMatchObject({
      kind: 'error',
      reason: 'the change differs from the one shown; nothing written',
    })
    expect(readFileSync(file, 'utf8')).toBe('{}\n')
    writeFileSync(file, '{ "model": "sonnet" }\n')
    const r = await applyHookChange(
      'user',
      'install',
      t,
      CMD,
      plan.expectedHash,
      plan.afterHash ?? '',
      backups,
    )
    expect(r.kind).toBe('conflict')
    expect(readFileSync(file, 'utf8')).toBe('{ "model": "sonnet" }\n')
  })

  it('creates the project settings at the repository top level, and removes the hook again', async () => {
    const repo = join(h.root, 'repo')
    initialCommit(repo, { 'a.txt': 'a\n' })
    const sub = join(repo, 'pkg')
    mkdirSync(sub)
    const t = { claudeHome: h.claudeHome, cwd: sub }
    const file = await settingsPathFor('project', t)
    expect(file).toBe(join(repo, '.claude', 'settings.json'))
    const plan = await planHookChange('project', 'install', t, CMD)
    expect(plan.expectedHash).toBeNull()
    expect(
      (await applyHookChange('project', 'install', t, CMD, null, plan.afterHash ?? '', backups))
        .kind,
    ).toBe('written')
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ hooks: { SessionStart: [{}] } })
    const un = await planHookChange('project', 'uninstall', t, CMD)
    expect(un.changed).toBe(true)
    const r = await applyHookChange(
      'project',
      'uninstall',
      t,
      CMD,
      un.expectedHash,
      un.afterHash ?? '',
      backups,
    )
    expect(r.kind).toBe('written')
    expect(readFileSync(file, 'utf8')).toBe('{}\n')
  })

  it('says why a broken settings file is left alone', async () => {
    const file = join(h.claudeHome, 'settings.json')
    writeFileSync(file, '{ "hooks": [] }')
    const t = { claudeHome: h.claudeHome, cwd: null }
    expect((await hookState('user', t)).problem).toContain('"hooks" is not an object')
    const plan = await planHookChange('user', 'install', t, CMD)
    expect(plan.problem).toContain('"hooks" is not an object')
    const r = await applyHookChange(
      'user',
      'install',
      t,
      CMD,
      plan.expectedHash,
      plan.afterHash ?? '',
      backups,
    )
    expect(r.kind).toBe('error')
    expect(readFileSync(file, 'utf8')).toBe('{ "hooks": [] }')
    expect(existsSync(backups)).toBe(false)
  })
})
