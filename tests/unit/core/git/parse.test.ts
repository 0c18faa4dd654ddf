import { describe, expect, it } from 'vitest'
import {
  buildHistoryIndex,
  commitAtOrBefore,
  followDir,
  followPath,
  parseBlamePorcelain,
  parseGrepOnlyMatching,
  parseLogNameStatus,
  parseNulList,
  parseDiffRawZ,
  parseWorktreeList,
} from '../../../../src/core/git/parse'
import type { LogCommit } from '../../../../src/core/git/parse'

const sha = (c: string): string => c.repeat(40)
const rec = (s: string, t: number, date: string, parents = 'p'): string =>
  `\x1e${s}\x1f${t}\x1f${date}\x1f${parents}\0\n`

describe('parseLogNameStatus', () => {
  it('reads records, renames with scores, and paths with spaces, unicode and newlines', () => {
    const out =
      rec(sha('c'), 300, '2026-03-05T12:00:00+00:00') +
      'R087\0src/b.ts\0src/c.ts\0D\0src/old.ts\0M\0docs/my guide/ünï\ncode.md\0' +
      rec(sha('b'), 200, '2026-02-01T12:00:00+00:00') +
      'R100\0src/a.ts\0src/b.ts\0' +
      rec(sha('e'), 150, '2026-01-15T12:00:00+00:00') +
      rec(sha('a'), 100, '2026-01-01T12:00:00+00:00', '') +
      'A\0src/a.ts\0A\0src/old.ts\0'
    expect(parseLogNameStatus(out)).toEqual<LogCommit[]>([
      {
        sha: sha('c'),
        time: 300,
        date: '2026-03-05T12:00:00+00:00',
        parents: ['p'],
        changes: [
          { status: 'R', from: 'src/b.ts', path: 'src/c.ts', score: 87 },
          { status: 'D', path: 'src/old.ts' },
          { status: 'M', path: 'docs/my guide/ünï\ncode.md' },
        ],
      },
      {
        sha: sha('b'),
        time: 200,
        date: '2026-02-01T12:00:00+00:00',
        parents: ['p'],
        changes: [{ status: 'R', from: 'src/a.ts', path: 'src/b.ts', score: 100 }],
      },
      { sha: sha('e'), time: 150, date: '2026-01-15T12:00:00+00:00', parents: ['p'], changes: [] },
      {
        sha: sha('a'),
        time: 100,
        date: '2026-01-01T12:00:00+00:00',
        parents: [],
        changes: [
          { status: 'A', path: 'src/a.ts' },
          { status: 'A', path: 'src/old.ts' },
        ],
      },
    ])
    expect(parseLogNameStatus('')).toEqual([])
  })
})

describe('small parsers', () => {
  it('parses NUL lists, grep -o -z output, raw diff -z and blame porcelain', () => {
    expect(parseNulList('a b.ts\0ü/x.md\0')).toEqual(['a b.ts', 'ü/x.md'])
    expect(
      parseGrepOnlyMatching('src/a b.ts\0computeTotal\nsrc/a b.ts\0x\nlib/ü.ts\0computeTotal\n'),
    ).toEqual([
      { path: 'src/a b.ts', text: 'computeTotal' },
      { path: 'src/a b.ts', text: 'x' },
      { path: 'lib/ü.ts', text: 'computeTotal' },
    ])
    const z = '0'.repeat(40)
    expect(
      parseDiffRawZ(
        `:100644 100644 ${sha('a')} ${z} M\0src/a.ts\0:100644 100644 ${sha('b')} ${sha('c')} R100\0old.ts\0new.ts\0:100644 000000 ${sha('d')} ${z} D\0b c.ts\0`,
      ),
    ).toEqual([
      { oldMode: '100644', newMode: '100644', oldSha: sha('a'), status: 'M', path: 'src/a.ts' },
      { oldMode: '100644', newMode: '100644', oldSha: sha('b'), status: 'R', path: 'new.ts' },
      { oldMode: '100644', newMode: '000000', oldSha: sha('d'), status: 'D', path: 'b c.ts' },
    ])
    const blame = [
      `${sha('a')} 1 1 2`,
      'author t',
      'committer-time 1767268800',
      '\tline one',
      `${sha('a')} 2 2`,
      'committer-time 1767268800',
      '\tline two',
      `${'0'.repeat(40)} 3 3 1`,
      'committer-time 1780000000',
      '\tnew line',
    ].join('\n')
    expect([...parseBlamePorcelain(blame)]).toEqual([
      [1, { sha: sha('a'), time: 1767268800 }],
      [2, { sha: sha('a'), time: 1767268800 }],
      [3, null],
    ])
  })
})

describe('history index', () => {
  const log: LogCommit[] = [
    {
      sha: sha('d'),
      time: 400,
      date: '2026-04-01T00:00:00Z',
      parents: ['c'],
      changes: [
        { status: 'M', path: 'src/c.ts' },
        { status: 'R', from: 'core/stores/a.ts', path: 'core/state/a.ts', score: 100 },
        { status: 'R', from: 'core/stores/b.ts', path: 'core/runtime/b.ts', score: 100 },
      ],
    },
    {
      sha: sha('c'),
      time: 300,
      date: '2026-03-05T00:00:00Z',
      parents: ['b'],
      changes: [
        { status: 'R', from: 'src/b.ts', path: 'src/c.ts', score: 90 },
        { status: 'D', path: 'src/old.ts' },
        { status: 'R', from: 'lib/x/one.ts', path: 'pkg/x/one.ts', score: 100 },
        { status: 'R', from: 'lib/x/two.ts', path: 'pkg/x/two.ts', score: 100 },
      ],
    },
    {
      sha: sha('b'),
      time: 200,
      date: '2026-02-01T00:00:00Z',
      parents: ['a'],
      changes: [{ status: 'R', from: 'src/a.ts', path: 'src/b.ts', score: 100 }],
    },
    {
      sha: sha('a'),
      time: 100,
      date: '2026-01-01T00:00:00Z',
      parents: [],
      changes: [
        { status: 'A', path: 'src/a.ts' },
        { status: 'A', path: 'src/old.ts' },
        { status: 'A', path: 'src/keep.ts' },
      ],
    },
  ]
  const index = buildHistoryIndex(log)
  const now = new Set(['src/c.ts', 'src/keep.ts', 'pkg/x/one.ts', 'pkg/x/two.ts', 'pkg/x'])
  for (const p of ['core/state', 'core/runtime', 'core/state/a.ts', 'core/runtime/b.ts']) now.add(p)
  const exists = (p: string): boolean => now.has(p)

  it('follows a rename chain to the current name', () => {
    expect(followPath(index, 'src/a.ts', exists)).toEqual({
      kind: 'moved',
      current: 'src/c.ts',
      steps: [
        { from: 'src/a.ts', to: 'src/b.ts', sha: sha('b'), date: '2026-02-01T00:00:00Z' },
        { from: 'src/b.ts', to: 'src/c.ts', sha: sha('c'), date: '2026-03-05T00:00:00Z' },
      ],
    })
  })

  it('finds deletions, and says unknown when history is silent', () => {
    expect(followPath(index, 'src/old.ts', exists)).toEqual({
      kind: 'deleted',
      path: 'src/old.ts',
      sha: sha('c'),
      date: '2026-03-05T00:00:00Z',
      steps: [],
    })
    expect(followPath(index, 'src/never.ts', exists)).toEqual({ kind: 'unknown' })
  })

  it('follows a folder whose files moved together', () => {
    expect(followDir(index, 'lib/x', exists)).toEqual({
      kind: 'moved',
      current: 'pkg/x',
      steps: [{ from: 'lib/x', to: 'pkg/x', sha: sha('c'), date: '2026-03-05T00:00:00Z' }],
    })
    expect(followDir(index, 'nothing', exists)).toEqual({ kind: 'unknown' })
  })

  it('calls a folder whose files went several ways gone, by the newest such commit (set AV)', () => {
    expect(followDir(index, 'core/stores', exists)).toEqual({
      kind: 'deleted',
      path: 'core/stores',
      sha: sha('d'),
      date: '2026-04-01T00:00:00Z',
      steps: [],
    })
  })

  it('keeps the newest touch per path and finds the commit at a time', () => {
    expect(index.lastTouch.get('src/c.ts')?.sha).toBe(sha('d'))
    expect(index.lastTouch.get('src/keep.ts')?.sha).toBe(sha('a'))
    expect(commitAtOrBefore(index, 350_000)?.sha).toBe(sha('c'))
    expect(commitAtOrBefore(index, 300_000)?.sha).toBe(sha('c'))
    expect(commitAtOrBefore(index, 50_000)).toBeNull()
  })

  it('ignores the cut edge of a shallow clone for last touches', () => {
    const shallow = buildHistoryIndex([log[0], { ...log[3], parents: [] }], true)
    expect(shallow.lastTouch.get('src/keep.ts')).toBeUndefined()
    expect(shallow.lastTouch.get('src/c.ts')?.sha).toBe(sha('d'))
  })

  it('stops on rename cycles', () => {
    const cyc = buildHistoryIndex([
      {
        sha: sha('2'),
        time: 2,
        date: 'd2',
        parents: ['1'],
        changes: [{ status: 'R', from: 'b', path: 'a', score: 100 }],
      },
      {
        sha: sha('1'),
        time: 1,
        date: 'd1',
        parents: [],
        changes: [{ status: 'R', from: 'a', path: 'b', score: 100 }],
      },
    ])
    expect(followPath(cyc, 'a', () => false)).toEqual({ kind: 'unknown' })
  })
})

describe('parseWorktreeList', () => {
  it('reads work trees with their branch, detached or bare', () => {
    const out =
      'worktree /r/main\0HEAD ' +
      sha('a') +
      '\0branch refs/heads/main\0\0' +
      'worktree /r/wt x\0HEAD ' +
      sha('b') +
      '\0branch refs/heads/feature/coupons\0locked\0\0' +
      'worktree /r/det\0HEAD ' +
      sha('c') +
      '\0detached\0\0' +
      'worktree /r/bare.git\0bare\0\0'
    expect(parseWorktreeList(out)).toEqual([
      { path: '/r/main', head: sha('a'), branch: 'main' },
      { path: '/r/wt x', head: sha('b'), branch: 'feature/coupons' },
      { path: '/r/det', head: sha('c'), branch: null },
      { path: '/r/bare.git', head: null, branch: null },
    ])
    expect(parseWorktreeList('')).toEqual([])
  })
})
