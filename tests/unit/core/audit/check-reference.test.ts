import { describe, expect, it } from 'vitest'
import { retired } from '../../../../src/core/audit/namesakes'
import { candidatePaths } from '../../../../src/core/audit/repo-paths'
import { judgeNote } from '../../../../src/core/audit/verdict'
import { check, checked, facts, march10 } from './facts-fixture'

describe('checkReference', () => {
  it('resolves paths, renames and deletions', () => {
    expect(
      checked('`src/stable.ts` `src/session.ts` `src/old.ts` `src/never.ts`').map((c) => [
        c.audit.status,
        c.audit.resolved,
        c.audit.movedTo,
        c.reason,
      ]),
    ).toEqual([
      ['ok', '/r/src/stable.ts', null, null],
      [
        'moved',
        '/r/src/token-session.ts',
        '/r/src/token-session.ts',
        '`src/session.ts` was renamed to `src/token-session.ts` in bbbbbbb on 2026-03-01',
      ],
      ['missing', null, null, '`src/old.ts` was deleted in bbbbbbb on 2026-03-01'],
      ['missing', null, null, '`src/never.ts` does not exist and git history has no record of it'],
    ])
  })

  it('tries the note file folder, and skips paths outside the repository', () => {
    expect(checked('`guide.md`', '/r/docs/sub')[0].audit.resolved).toBe('/r/docs/sub/guide.md')
    expect(check('`/etc/hosts.conf`')).toEqual([
      {
        skipped:
          '`/etc/hosts.conf` is outside the audited repository (another project or folder); not checked',
      },
    ])
    expect(candidatePaths('../x.ts', '/r', '/r/docs')).toEqual(['x.ts'])
    expect(candidatePaths('../../x.ts', '/r', '/r/docs')).toBeNull()
    // A Claude home's project folder (blind set M), not the repository's `.claude/`.
    expect(candidatePaths('.claude/projects/-Users-ro-app/memory/a.md', '/r', null)).toBeNull()
    expect(candidatePaths('.claude/rules/a.md', '/r', null)).toEqual(['.claude/rules/a.md'])
    for (const p of ['refs/heads/', '.git/worktrees/a/HEAD', 'packed-refs'])
      expect(candidatePaths(p, '/r', null)).toBeNull()
    expect(candidatePaths('src/refs/heads.ts', '/r', null)).toEqual(['src/refs/heads.ts'])
    // A home's checkout of this repository, by its folder's name (blind set BA).
    const root = '/w/haAutomation'
    expect(candidatePaths('~/haAutomation/inventory', root, null)).toEqual(['inventory'])
    expect(candidatePaths('/Users/me/dev/haAutomation/a/b.rs', root, null)).toEqual(['a/b.rs'])
    expect(candidatePaths('~/other/inventory', root, null)).toBeNull()
    expect(candidatePaths('/srv/haAutomation/x', root, null)).toBeNull()
    expect(candidatePaths('~/app/x', '/w/app', null)).toBeNull()
    // Claude Code's own file in the home (blind set AZ).
    expect(candidatePaths('.claude.json', '/r', null)).toBeNull()
  })

  it('skips git-ignored paths and build output instead of calling them missing', () => {
    expect(check('Emits to `dist/`; `dist/index.js` too; `.env` and `build/`.')).toEqual([
      { skipped: '`dist/` is ignored by git (build output); not checked' },
      { skipped: '`dist/index.js` is ignored by git (build output); not checked' },
      { skipped: '`.env` is ignored by git; not checked' },
      { skipped: '`build/` is a build or runtime output folder; not checked' },
    ])
    // The script still counts, so the note stays checkable.
    expect(judgeNote(checked('`npm run build` emits to `dist/`.'), march10, facts)).toEqual({
      verdict: 'fresh',
      reasons: [],
    })
  })

  it('resolves bare file names by basename, then through history', () => {
    expect(
      checked('`live.ts` `guide.md` `old.ts` `session.ts` `nowhere.ts`').map((c) => [
        c.audit.status,
        c.audit.resolved,
        c.reason,
      ]),
    ).toEqual([
      ['ok', '/r/src/live.ts', '`live.ts` resolved to `src/live.ts`'],
      ['ok', null, '`guide.md` matches 2 tracked files (`docs/guide.md`, `docs/sub/guide.md`)'],
      ['missing', null, '`src/old.ts` was deleted in bbbbbbb on 2026-03-01'],
      [
        'moved',
        '/r/src/token-session.ts',
        '`src/session.ts` was renamed to `src/token-session.ts` in bbbbbbb on 2026-03-01',
      ],
      ['missing', null, '`nowhere.ts` does not exist and git history has no record of it'],
    ])
    // The resolved file is what the note rests on; an ambiguous name rests on none.
    // A commit to it after the note no longer makes the note suspect (issue 12 item 4).
    expect(judgeNote(checked('Formatting lives in live.ts.'), march10, facts)).toEqual({
      verdict: 'fresh',
      reasons: ['`live.ts` resolved to `src/live.ts`'],
    })
    expect(judgeNote(checked('See guide.md.'), march10, facts).verdict).toBe('fresh')
  })

  it('checks symbols word by word, scripts, and snippets', () => {
    expect(
      checked('`computeTotal()` `Cart.addItem` `npm run build` `npm run lint`').map((c) => [
        c.audit.status,
        c.audit.resolved,
        c.reason,
      ]),
    ).toEqual([
      ['ok', '/r/src/live.ts', null],
      ['missing', null, '`Cart.addItem` is not found in the repository (`addItem` not found)'],
      ['ok', '/r/package.json', null],
      ['missing', null, '`npm run lint`: no `lint` script in any package.json'],
    ])
    expect(checked('`make x`')[0].reason).toBe('`make x`: there is no Makefile in the repository')
    // After a `cd`, the folder's own package.json runs it (blind set BT); a folder without one
    // leaves the repository's.
    const cd = (text: string): string[][] =>
      checked(text).map((c) => [c.ref.kind, c.audit.status, c.audit.resolved ?? '', c.reason ?? ''])
    expect(cd('```bash\ncd pkg/a && npm run build\n```').map((r) => r.slice(0, 3))).toEqual([
      ['path', 'missing', ''], // the fixture knows files only
      ['command', 'ok', '/r/pkg/a/package.json'],
      ['path', 'missing', ''], // its manifest: a `maybe` path (cd-manifests), the same fixture
    ])
    expect(cd('```bash\ncd pkg/a && npm run lint\n```')[1]).toEqual([
      'command',
      'missing',
      '',
      '`npm run lint`: no `lint` script in `pkg/a/package.json`, where the note runs it',
    ])
    expect(cd('```bash\ncd src && npm run build\n```')[1].slice(0, 3)).toEqual([
      'command',
      'ok',
      '/r/package.json',
    ])
    expect(
      checked('`const a = 1` `const b = 2` `const c = 3`').map((c) => [c.audit.status, c.reason]),
    ).toEqual([
      ['ok', null],
      [
        'changed',
        'quoted code `const b = 2` now appears only with changes in `src/live.ts` (lines 4–4, 80% alike)',
      ],
      ['missing', 'quoted code `const c = 3` is not found in the repository'],
    ])
  })
})

describe('retired (a file moved to an archive folder)', () => {
  it('takes archive folder names the path then did not have', () => {
    expect(retired('db/migrations/x.sql', 'db/migrations-legacy/x.sql')).toBe(true)
    expect(retired('src/a.ts', 'src/_archive/a.ts')).toBe(true)
    expect(retired('src/a.ts', 'old/src/a.ts')).toBe(true)
    expect(retired('api/a.ts', 'api/deprecated/a.ts')).toBe(true)
  })

  it('leaves other moves, and files already archived, alone', () => {
    expect(retired('db/migrations/x.sql', 'db/sql/x.sql')).toBe(false)
    expect(retired('legacy/a.ts', 'legacy/v1/a.ts')).toBe(false)
    expect(retired('src/a.ts', 'src/golden/a.ts')).toBe(false)
    // Only folders count: a file called `old.ts` is not an archive.
    expect(retired('src/new.ts', 'src/old.ts')).toBe(false)
  })
})
