/**
 * One repository's facts, written by hand, for the pure checks and verdicts of src/core/audit:
 * a rename, a deletion and a later edit in history; words, scripts and quotes found.
 */
import { buildHistoryIndex } from '../../../../src/core/git/parse'
import { extractReferences } from '../../../../src/core/audit/references'
import { checkReference } from '../../../../src/core/audit/check-reference'
import type { CheckedReference } from '../../../../src/core/audit/checked-reference'
import type { RepoFacts } from '../../../../src/core/audit/repo-facts'
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
export const facts: RepoFacts = {
  root: '/r',
  git: true,
  shallow: false,
  exists: (p) => files.has(p) || p === 'src' || p === 'docs',
  isDir: (p) => p === 'src' || p === 'docs',
  ignored: (p) => p === 'dist' || p === '.env' || p.startsWith('dist/'),
  bySuffix: (name) =>
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

export const check = (
  text: string,
  noteDir: string | null = '/mem',
): (CheckedReference | { skipped: string })[] =>
  extractReferences(text).map((r) => checkReference(r, facts, noteDir))
export const checked = (text: string, noteDir: string | null = '/mem'): CheckedReference[] =>
  check(text, noteDir).filter((c): c is CheckedReference => !('skipped' in c))
export const march10: WrittenAt = {
  iso: '2026-03-10T00:00:00.000Z',
  ms: Date.parse('2026-03-10T00:00:00Z'),
  source: 'frontmatter',
  key: 'updated',
}
