/**
 * The rules blind sets AL and AM asked for (issue 12): a compiled file under a build folder is
 * checked through its source (AM ho-t07: `node --test dist/tests/…/x.test.js` after `x.test.ts`
 * was deleted; ho-t08: one whose source is still there), and a sentence's first word read as a
 * product is no dependency a `scripts` entry of the same name dropped (AL cm-r11: "Start new
 * docs from …" and `"start": "mint dev"`), and a two-word back-ticked key (AL cs-r11: a feature
 * flag `session-artifacts` the code dropped), and a back-ticked tool no manifest lists now (AL
 * cm-t03: `turbo` after the move to nx); and from blind set AI, a count in words of what a named
 * function's file holds (g6-t01: "`create_app()` registers all 11 blueprints", 13 since). Real
 * git repositories in temp folders.
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { keySpans } from '../../../../src/core/audit/command-texts'
import { nounCountClaims } from '../../../../src/core/audit/noun-counts'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('a compiled file under a build folder (blind set AM)', () => {
  const { repo, mem, sha, commit } = historyCase('set-am-built')

  it('is checked through the source it is built from', async () => {
    write(repo, '.gitignore', 'dist/\n')
    write(repo, 'tests/unit/docs/health.test.ts', "test('docs', () => {})\n")
    write(repo, 'tests/integration/contracts.test.ts', "test('contracts', () => {})\n")
    write(repo, 'src/cli/main.ts', 'export const main = 1\n')
    commit('c1', '2026-06-01T12:00:00Z')
    rmSync(join(repo, 'tests/integration/contracts.test.ts'))
    commit('dropped', '2026-06-20T12:00:00Z')
    const notes = await auditTopics(
      repo,
      mem,
      [
        ['Health', '- Docs health: `node --test dist/tests/unit/docs/health.test.js`'],
        ['Contracts', '- Contracts: `node --test dist/tests/integration/contracts.test.js`'],
        // A `rootDir` of `src`: the build folder holds what `src/` holds.
        ['Main', '- The CLI runs from `dist/cli/main.js`'],
        ['Never', '- Bundle lands in `dist/bundle.js`'],
      ],
      '2026-06-10T12:00:00Z',
    )
    const health = byTitle(notes, 'Health')
    expect(health.verdict, health.reasons.join('\n')).toBe('fresh')
    expect(health.references[0].resolved).toBe(`${repo}/tests/unit/docs/health.test.ts`)
    const gone = byTitle(notes, 'Contracts')
    const text = gone.reasons.join('\n')
    expect(gone.verdict, text).toBe('stale')
    expect(text).toContain(
      'dist/tests/integration/contracts.test.js` is built from `tests/integration/contracts.test.ts`: ',
    )
    expect(text).toContain(sha.dropped)
    expect(byTitle(notes, 'Main').verdict).toBe('fresh')
    // No source for it: build output on one machine, as before.
    const never = byTitle(notes, 'Never')
    expect(never.verdict).toBe('unverifiable')
    expect(never.reasons[0]).toBe('`dist/bundle.js` is ignored by git (build output); not checked')
  }, 60_000)
})

describe('a script of the same name as a sentence first word (blind set AL)', () => {
  const { repo, mem, commit } = historyCase('set-al-script')

  it('is no dependency the repository dropped', async () => {
    const pkg = (start: string): string =>
      `{\n  "name": "docs",\n  "scripts": {\n${start}    "build": "mint build"\n  },\n  "dependencies": {\n    "mint": "^4.0.0"\n  }\n}\n`
    write(repo, 'apps/docs/package.json', pkg('    "start": "mint dev -p 6660 --no-open",\n'))
    write(repo, 'docs/_templates/page.md', '# Title\n')
    commit('c1', '2026-06-01T12:00:00Z')
    write(repo, 'apps/docs/package.json', pkg(''))
    commit('later', '2026-06-20T12:00:00Z')
    const notes = await auditTopics(
      repo,
      mem,
      [['Docs', '- Start new docs from `docs/_templates/` and copy them into place']],
      '2026-06-10T12:00:00Z',
    )
    const n = byTitle(notes, 'Docs')
    expect(n.verdict, n.reasons.join('\n')).toBe('fresh')
  }, 60_000)
})

describe('keySpans, two words (blind set AL)', () => {
  it('reads a longer two-word key, not a short class, option or name', () => {
    expect(
      keySpans('Behind the `session-artifacts` flag; `h-screen`, `dry-run`, `memory-sync`, `a-b`'),
    ).toEqual(['session-artifacts'])
  })
})

describe('a back-ticked tool the manifests dropped (blind set AL)', () => {
  const { repo, mem, sha, commit } = historyCase('set-al-ticked-tool')

  it('is stale once no manifest lists it, and says nothing while one does', async () => {
    const pkg = (runner: string, deps: string): string =>
      `{\n  "name": "mods",\n  "scripts": {\n    "build": "${runner} build"\n  },\n  "devDependencies": {\n${deps}    "zod": "^3.22.0"\n  }\n}\n`
    write(repo, 'package.json', pkg('turbo run', '    "turbo": "^2.0.4",\n'))
    commit('c1', '2026-06-01T12:00:00Z')
    write(repo, 'package.json', pkg('nx run-many -t', '    "nx": "^19.0.0",\n'))
    commit('nx', '2026-06-20T12:00:00Z')
    const notes = await auditTopics(
      repo,
      mem,
      [
        [
          'Scripts',
          '- Prefer root `turbo`-orchestrated scripts (via `turbo run ...` / root `package.json` scripts) for cross-workspace workflows (apps, multi-package builds).',
        ],
        ['Payloads', '- Validate every payload with `zod` before it reaches the store'],
        ['Format', '- Format with `prettier` before committing'],
      ],
      '2026-06-10T12:00:00Z',
    )
    const turbo = byTitle(notes, 'Scripts')
    const text = turbo.reasons.join('\n')
    expect(turbo.verdict, text).toBe('stale')
    expect(text).toContain('`turbo` was a dependency')
    expect(text).toContain(sha.nx)
    expect(byTitle(notes, 'Payloads').verdict).toBe('unverifiable')
    // Never a dependency here: says nothing.
    expect(byTitle(notes, 'Format').verdict).toBe('unverifiable')
  }, 60_000)
})

describe('nounCountClaims (blind set AI)', () => {
  it('reads a number of things beside one named piece of code', () => {
    expect(
      nounCountClaims('- `create_app()` — registers all 11 blueprints under `/api/v1/` prefix'),
    ).toEqual([{ count: 11, written: '11 blueprints', name: 'create_app', noun: 'blueprint' }])
    expect(nounCountClaims('`Registry.load` keeps 4 strategies and 3 policies.')).toEqual([
      { count: 4, written: '4 strategies', name: 'Registry.load', noun: 'strategy' },
      { count: 3, written: '3 policies', name: 'Registry.load', noun: 'policy' },
    ])
    // A measure, two names, or no name: nothing.
    expect(nounCountClaims('`retryLoop` waits 30 seconds, 3 times')).toEqual([])
    expect(nounCountClaims('`a_one` and `b_two` hold 5 handlers')).toEqual([])
    expect(nounCountClaims('The app registers 11 blueprints')).toEqual([])
    // A section's number (blind set AY: "so §3 holds" read as three holds).
    expect(nounCountClaims('Every view reads a `StellarState` field, so §3 holds.')).toEqual([])
  })
})

describe('a count of things in the file of a named function (blind set AI)', () => {
  const { repo, mem, commit } = historyCase('set-ai-noun-count')

  it('is suspect when the file (moved with the function) holds another number', async () => {
    const app = (bps: string[]): string =>
      [
        'def create_app():',
        '    app = Flask(__name__)',
        ...bps.map((b) => `    app.register_blueprint(${b}_bp)`),
        '    return app',
        '',
      ].join('\n')
    write(repo, 'src/app.py', app(['health', 'auth', 'user']))
    write(repo, 'src/wsgi.py', 'from app import create_app\napp = create_app()\n')
    commit('c1', '2026-06-01T12:00:00Z')
    rmSync(join(repo, 'src/app.py'))
    write(repo, 'backend/src/app.py', app(['health', 'auth', 'user', 'venues', 'reports']))
    commit('moved', '2026-06-20T12:00:00Z')
    const notes = await auditTopics(
      repo,
      mem,
      [
        ['Factory', '- `create_app()` — registers all 3 blueprints under `/api/v1/` prefix'],
        ['Wrong', '- `create_app()` registers 7 blueprints'],
      ],
      '2026-06-10T12:00:00Z',
    )
    const n = byTitle(notes, 'Factory')
    const text = n.reasons.join('\n')
    expect(n.verdict, text).toBe('suspect')
    expect(text).toContain(
      'the note counts 3 blueprints of `create_app`: `src/app.py` had 3 code lines with "blueprint" when the note was written',
    )
    expect(text).toContain(', 5 now (now `backend/src/app.py`)')
    // A count no file held then says nothing.
    expect(byTitle(notes, 'Wrong').reasons.join('\n')).not.toContain('the note counts')
  }, 60_000)
})
