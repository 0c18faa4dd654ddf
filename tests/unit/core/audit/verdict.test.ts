import { describe, expect, it } from 'vitest'
import { buildHistoryIndex } from '../../../../src/core/git/parse'
import { extractReferences } from '../../../../src/core/audit/references'
import {
  distinctiveLines,
  lineSimilarity,
  matchSnippet,
} from '../../../../src/core/audit/snippet-match'
import { candidatePaths } from '../../../../src/core/audit/repo-paths'
import { checkReference } from '../../../../src/core/audit/check-reference'
import type { CheckedReference } from '../../../../src/core/audit/checked-reference'
import { capText, diffSummary } from '../../../../src/core/audit/diff-text'
import { judgeNote } from '../../../../src/core/audit/verdict'
import { parseMakeTargets, parsePackageScripts } from '../../../../src/core/audit/repo-facts'
import type { RepoFacts } from '../../../../src/core/audit/repo-facts'
import { frontmatterWrittenAt, writtenAtReason } from '../../../../src/core/audit/written-at'
import type { WrittenAt } from '../../../../src/core/audit/written-at'

const history = buildHistoryIndex([
  {
    sha: 'c'.repeat(40),
    time: Date.parse('2026-04-01T00:00:00Z') / 1000,
    date: '2026-04-01T00:00:00Z',
    parents: ['b'],
    changes: [{ status: 'M', path: 'src/live.ts' }],
  },
  {
    sha: 'b'.repeat(40),
    time: Date.parse('2026-03-01T00:00:00Z') / 1000,
    date: '2026-03-01T00:00:00Z',
    parents: ['a'],
    changes: [
      { status: 'R', from: 'src/session.ts', path: 'src/token-session.ts', score: 100 },
      { status: 'D', path: 'src/old.ts' },
    ],
  },
  {
    sha: 'a'.repeat(40),
    time: Date.parse('2026-01-01T00:00:00Z') / 1000,
    date: '2026-01-01T00:00:00Z',
    parents: [],
    changes: [
      { status: 'A', path: 'src/session.ts' },
      { status: 'A', path: 'src/old.ts' },
      { status: 'A', path: 'src/live.ts' },
      { status: 'A', path: 'src/stable.ts' },
    ],
  },
])

const files = new Set([
  'src/token-session.ts',
  'src/live.ts',
  'src/stable.ts',
  'docs/sub/guide.md',
  'package.json',
])
const facts: RepoFacts = {
  root: '/r',
  git: true,
  shallow: false,
  exists: (p) => files.has(p) || p === 'src' || p === 'docs',
  isDir: (p) => p === 'src' || p === 'docs',
  ignored: (p) => p === 'dist' || p === '.env' || p.startsWith('dist/'),
  byBasename: (name) =>
    ({ 'live.ts': ['src/live.ts'], 'guide.md': ['docs/sub/guide.md', 'docs/guide.md'] })[name] ??
    [],
  history,
  wordFiles: new Map([
    ['computeTotal', ['src/live.ts']],
    ['Cart', ['src/cart.ts']],
    ['addItem', []],
  ]),
  scripts: new Map([['build', ['package.json', 'pkg/a/package.json']]]),
  packageFiles: ['package.json', 'pkg/a/package.json'],
  makeTargets: new Map(),
  makefiles: [],
  snippets: new Map([
    [
      'const a = 1',
      {
        file: 'src/live.ts',
        match: { kind: 'exact', score: 1, startLine: 3, endLine: 3, lines: 1, truncated: false },
      },
    ],
    [
      'const b = 2',
      {
        file: 'src/live.ts',
        match: {
          kind: 'similar',
          score: 0.8,
          startLine: 4,
          endLine: 4,
          lines: 1,
          truncated: false,
        },
      },
    ],
    [
      'const c = 3',
      {
        file: null,
        match: { kind: 'none', score: 0, startLine: 0, endLine: 0, lines: 1, truncated: false },
      },
    ],
  ]),
  dirty: new Map(),
  mtimes: new Map(),
}

const check = (
  text: string,
  noteDir: string | null = '/mem',
): (CheckedReference | { skipped: string })[] =>
  extractReferences(text).map((r) => checkReference(r, facts, noteDir))
const checked = (text: string, noteDir: string | null = '/mem'): CheckedReference[] =>
  check(text, noteDir).filter((c): c is CheckedReference => !('skipped' in c))
const march10: WrittenAt = {
  iso: '2026-03-10T00:00:00.000Z',
  ms: Date.parse('2026-03-10T00:00:00Z'),
  source: 'frontmatter',
  key: 'updated',
}

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
      { skipped: '`/etc/hosts.conf` is outside the repository; not checked' },
    ])
    expect(candidatePaths('../x.ts', '/r', '/r/docs')).toEqual(['x.ts'])
    expect(candidatePaths('../../x.ts', '/r', '/r/docs')).toBeNull()
  })

  it('skips git-ignored paths and build output instead of calling them missing', () => {
    expect(check('Emits to `dist/`; `dist/index.js` too; `.env` and `build/`.')).toEqual([
      { skipped: '`dist/` is ignored by git (build output); not checked' },
      { skipped: '`dist/index.js` is ignored by git (build output); not checked' },
      { skipped: '`.env` is ignored by git; not checked' },
      { skipped: '`build/` is a build output folder; not checked' },
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
    expect(judgeNote(checked('Formatting lives in live.ts.'), march10, facts)).toEqual({
      verdict: 'suspect',
      reasons: [
        '`live.ts` resolved to `src/live.ts`',
        '`src/live.ts` changed in ccccccc on 2026-04-01, after the note was written',
      ],
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

describe('judgeNote', () => {
  it('gives each verdict', () => {
    expect(judgeNote(checked('`src/stable.ts`'), march10, facts)).toEqual({
      verdict: 'fresh',
      reasons: [],
    })
    expect(judgeNote(checked('`src/live.ts`'), march10, facts)).toEqual({
      verdict: 'suspect',
      reasons: ['`src/live.ts` changed in ccccccc on 2026-04-01, after the note was written'],
    })
    expect(judgeNote(checked('`src/live.ts` and `src/old.ts`'), march10, facts).verdict).toBe(
      'stale',
    )
    // A folder rests on its existence only: src/live.ts changing under it does not count.
    expect(judgeNote(checked('folder `src/`'), march10, facts)).toEqual({
      verdict: 'fresh',
      reasons: [],
    })
    expect(judgeNote([], march10, facts)).toEqual({
      verdict: 'unverifiable',
      reasons: ['nothing checkable: no path, symbol, command or quoted code'],
    })
    expect(judgeNote(checked('https://x.org and branch `a/b`'), march10, facts).verdict).toBe(
      'unverifiable',
    )
    expect(judgeNote(checked('`src/live.ts`'), null, facts).verdict).toBe('fresh')
    expect(judgeNote(checked('`src/live.ts`'), march10, null)).toEqual({
      verdict: 'unverifiable',
      reasons: ['no repository to check against'],
    })
  })

  it('counts uncommitted edits after the note', () => {
    const dirty = {
      ...facts,
      dirty: new Map([['src/stable.ts', Date.parse('2026-05-01T00:00:00Z')]]),
    }
    expect(judgeNote(checked('`src/stable.ts`'), march10, dirty)).toEqual({
      verdict: 'suspect',
      reasons: ['`src/stable.ts` has uncommitted changes made after the note was written'],
    })
  })
})

describe('repository file parsers and written-at', () => {
  it('reads package.json scripts and Makefile targets', () => {
    expect(parsePackageScripts('{"scripts":{"build":"tsc","test:unit":"vitest"}}')).toEqual([
      'build',
      'test:unit',
    ])
    expect(parsePackageScripts('{ not json')).toEqual([])
    expect(
      parseMakeTargets(
        '.PHONY: a\nVAR := 1\nX ?= 2\nbuild test: dep\n\techo\n%.o: %.c\ndeploy::\n# c: d\n',
      ),
    ).toEqual(['build', 'test', 'deploy'])
  })

  it('takes written-at from frontmatter keys, newest meaning first', () => {
    expect(
      frontmatterWrittenAt({ created: '2026-01-01', updated: '2026-03-10T08:00:00Z' }),
    ).toEqual({
      iso: '2026-03-10T08:00:00.000Z',
      ms: Date.parse('2026-03-10T08:00:00Z'),
      source: 'frontmatter',
      key: 'updated',
    })
    expect(frontmatterWrittenAt({ timestamp: 1767225600 })?.iso).toBe('2026-01-01T00:00:00.000Z')
    expect(frontmatterWrittenAt({ date: 'soon' })).toBeNull()
    expect(writtenAtReason({ iso: 'x', ms: 0, source: 'mtime' })).toBe(
      'written-at x from file mtime (coarse: any later edit moves it)',
    )
  })

  it('summarises and caps diffs', () => {
    expect(diffSummary('a\nb\n', 'a\nc\nd\n')).toBe('+2 −1 lines')
    expect(diffSummary('same', 'same')).toBe('no change')
    const big = Array.from({ length: 5000 }, (_, i) => `l${i}`).join('\n')
    expect(capText(big)).toEqual({
      text: big.split('\n').slice(0, 2000).join('\n'),
      cut: 'showing the first 2000 of 5000 lines',
    })
  })
})

describe('matchSnippet', () => {
  const file = [
    'import x',
    '',
    'function f() {',
    '    const a = 1',
    '    return a + 2',
    '}',
    '',
  ].join('\n')

  it('finds exact quotes whatever the indentation', () => {
    expect(matchSnippet('const a = 1\nreturn a + 2', file)).toMatchObject({
      kind: 'exact',
      startLine: 4,
      endLine: 5,
      score: 1,
    })
    expect(matchSnippet('a = 1', file)).toMatchObject({ kind: 'exact', startLine: 4 })
  })

  it('calls a lightly edited quote similar and a rewritten one gone', () => {
    expect(matchSnippet('function f() {\n  const a = 1\n  return a + 3\n}', file)).toMatchObject({
      kind: 'similar',
      startLine: 3,
      endLine: 6,
      score: 0.875,
    })
    expect(matchSnippet('while (true) {\n  sleep(1)\n}', file).kind).toBe('none')
    expect(matchSnippet('', file).kind).toBe('none')
  })

  it('picks distinctive lines and measures line similarity', () => {
    expect(distinctiveLines('}\nconst total = computeTotal(items)\nreturn total\n')).toEqual([
      'const total = computeTotal(items)',
      'return total',
    ])
    expect(lineSimilarity('abc', 'abc')).toBe(1)
    expect(lineSimilarity('const a = 1', 'let b = 2')).toBeLessThan(0.6)
  })
})
