/**
 * The rules blind set AE asked for (issue 12): the one package manager a repository locked with
 * gave way to another under a note that runs a third (AE is-t01, is-t03: `npm run build` in a
 * repository on `yarn.lock` that moved to `pnpm-lock.yaml`). The label "Path aliases:" read as
 * the npm package `path` (AE is-t05) is tested in tests/unit/core/audit/product-names.test.ts.
 * A default a note gives a setting that the code no longer gives it (AE ff-t03: the variable
 * still read, its default `30m` become `4h`).
 */
import { afterAll, describe, expect, it } from 'vitest'
import { lockFiles, managerSwitch } from '../../../../src/core/audit/package-managers'
import {
  defaultClaims,
  setsDefault,
  type DefaultClaim,
} from '../../../../src/core/audit/stated-defaults'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { byTitle, removeBase, write } from './scripted-repo'

afterAll(removeBase)
import { auditTopics, historyCase } from './topic-audit'

describe('package managers (blind set AE)', () => {
  it("says so when the repository's one manager gave way to another under a note's other one", () => {
    // Blind set AE: `npm run build` in a repository on yarn.lock, which moved to pnpm.
    const yarn = lockFiles(['yarn.lock'])
    const pnpm = lockFiles(['pnpm-lock.yaml'])
    expect(managerSwitch('npm', yarn, pnpm)).toEqual({
      from: 'yarn',
      was: 'yarn.lock',
      by: 'pnpm',
      lock: 'pnpm-lock.yaml',
    })
    // Two managers then, or two now, or the repository's one manager still there: nothing said.
    expect(managerSwitch('npm', lockFiles(['yarn.lock', 'bun.lock']), pnpm)).toBeNull()
    expect(managerSwitch('npm', yarn, lockFiles(['pnpm-lock.yaml', 'bun.lock']))).toBeNull()
    expect(managerSwitch('npm', yarn, lockFiles(['yarn.lock']))).toBeNull()
    expect(managerSwitch('npm', lockFiles([]), pnpm)).toBeNull()
    // The note's manager is the one the repository moved to: it holds.
    expect(managerSwitch('pnpm', yarn, pnpm)).toBeNull()
  })
})

describe("a repository's one manager replaced, on a real repository", () => {
  const { repo, mem, commit } = historyCase('set-ae-managers')

  it("flags a note's npm commands once yarn gave way to pnpm, not a note that runs pnpm", async () => {
    const pkg = `${JSON.stringify({ name: 'app', scripts: { build: 'vite build' } }, null, 2)}\n`
    write(repo, 'package.json', pkg)
    write(repo, 'yarn.lock', '# yarn lockfile v1\n')
    write(repo, 'src/main.js', 'export const main = 1\n')
    commit('c1', '2026-04-01T12:00:00Z')
    rmSync(join(repo, 'yarn.lock'))
    write(repo, 'pnpm-lock.yaml', "lockfileVersion: '9.0'\n")
    commit('later', '2026-04-20T12:00:00Z')
    const notes = await auditTopics(
      repo,
      mem,
      [
        ['Build', '- After editing `src/main.js`, rebuild via `npm run build`'],
        ['Pnpm', '- After editing `src/main.js`, rebuild via `pnpm build`'],
      ],
      '2026-04-10T12:00:00Z',
    )
    const n = byTitle(notes, 'Build')
    const text = n.reasons.join('\n')
    expect(n.verdict, text).toBe('suspect')
    expect(text).toContain('the repository used yarn when the note was written (`yarn.lock`')
    expect(text).toContain('`pnpm-lock.yaml` says it uses pnpm')
    expect(byTitle(notes, 'Pnpm').reasons.join('\n')).not.toContain('says it uses')
  }, 60_000)
})

describe('defaultClaims (blind set AE)', () => {
  it('reads a default given beside a named setting', () => {
    const got = (t: string): string[] => defaultClaims(t).map((c) => `${c.name}=${c.value}`)
    expect(got('Configure cadence with `HEARTBEAT_EVERY` (default `30m`).')).toEqual([
      'HEARTBEAT_EVERY=30m',
    ])
    expect(got('where `ASSISTANT_NAME` defaults to `FarmFriend` (see `src/config.ts`)')).toEqual([
      'ASSISTANT_NAME=FarmFriend',
    ])
    expect(got('- `PROFILE_PATH` (defaults to data/profile.json)')).toEqual([
      'PROFILE_PATH=data/profile.json',
    ])
    expect(got('- `APP_PORT`, default: 8080')).toEqual(['APP_PORT=8080'])
  })

  it('leaves out prose, trivial values, and a default not next to the name', () => {
    const got = (t: string): DefaultClaim[] => defaultClaims(t)
    expect(got('`MODE` defaults to the first one')).toEqual([])
    expect(got('`VERBOSE` (default `false`), `LEVEL` (default `1`)')).toEqual([])
    expect(got('`src/a.ts` (default `30m`)')).toEqual([])
    expect(got('Set `TIMEOUT` in the env. The default `30m` is long.')).toEqual([])
  })

  it('takes a code line as setting the default when it holds the name and the value', () => {
    const [c] = defaultClaims('`HEARTBEAT_EVERY` (default `30m`)')
    expect(setsDefault(c, "parse(process.env.HEARTBEAT_EVERY || '30m')")).toBe(true)
    expect(setsDefault(c, "parse(process.env.MY_HEARTBEAT_EVERY || '30m')")).toBe(false)
    expect(setsDefault(c, 'parse(process.env.HEARTBEAT_EVERY)')).toBe(false)
  })
})

describe('a default the code no longer gives, on a real repository', () => {
  const { repo, mem, commit } = historyCase('set-ae-defaults')

  it('flags a default that left every file holding the name, not one that moved with it', async () => {
    write(
      repo,
      'src/index.ts',
      [
        "const every = parse(process.env.HEARTBEAT_EVERY || '30m')",
        "const port = Number(process.env.APP_PORT || '8080')",
        "const host = process.env.APP_HOST || 'localhost'",
        "const mode = process.env.LEGACY_MODE || 'v1'",
        '',
      ].join('\n'),
    )
    commit('c1', '2026-04-01T12:00:00Z')
    write(repo, 'src/index.ts', "import { config } from './config'\nstart(config)\n")
    write(
      repo,
      'src/config.ts',
      [
        "const DEFAULTS = { every: '4h' }",
        'export const config = {',
        '  every: process.env.HEARTBEAT_EVERY ?? DEFAULTS.every,',
        "  port: Number(process.env.APP_PORT || '8080'),",
        "  host: process.env.APP_HOST || '0.0.0.0',",
        '}',
        '',
      ].join('\n'),
    )
    commit('later', '2026-04-20T12:00:00Z')
    const notes = await auditTopics(
      repo,
      mem,
      [
        ['Beat', '- Configure the heartbeat with `HEARTBEAT_EVERY` (default `30m`).'],
        ['Port', '- The server listens on `APP_PORT` (default `8080`).'],
        ['Never', '- The timeout is `APP_TIMEOUT` (default `90s`).'],
        ['Gone', '- Old clients set `LEGACY_MODE` (default `v1`).'],
      ],
      '2026-04-10T12:00:00Z',
    )
    const n = byTitle(notes, 'Beat')
    const text = n.reasons.join('\n')
    expect(n.verdict, text).toBe('suspect')
    expect(text).toContain('the note gives `HEARTBEAT_EVERY` the default `30m`: `src/index.ts`:1')
    expect(text).toContain('(`src/config.ts`)')
    expect(byTitle(notes, 'Port').reasons.join('\n')).not.toContain('the default')
    expect(byTitle(notes, 'Never').reasons.join('\n')).not.toContain('the default')
    // A name no code file holds now is name-loss's to report, not this rule's.
    expect(byTitle(notes, 'Gone').reasons.join('\n')).not.toContain('the default')
  }, 60_000)
})
