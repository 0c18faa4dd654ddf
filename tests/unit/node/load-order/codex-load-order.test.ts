/** codexLoadOrder on an in-memory disk, and parseCodexConfig. */
import { describe, expect, test } from 'vitest'
import { codexLoadOrder } from '../../../../src/core/load-order/codex'
import { parseCodexConfig } from '../../../../src/node/load-order/codex-config'
import { memPort } from './in-memory-disk'

describe('codexLoadOrder (in memory)', () => {
  test('global apart; root from .git; one file per folder; empty override wins its folder', async () => {
    const port = memPort({
      '/c/AGENTS.override.md': 'global override\n',
      '/c/AGENTS.md': 'global\n',
      '/AGENTS.md': 'above the root: never\n',
      '/r/.git': { kind: 'dir' },
      '/r/AGENTS.md': 'root\n',
      '/r/a/AGENTS.override.md': '',
      '/r/a/AGENTS.md': 'hidden by the empty override\n',
      '/r/a/b/AGENTS.md': { kind: 'dir' },
      '/r/a/b/TEAM.md': 'team\n',
    })
    const r = await codexLoadOrder(
      { cwd: '/r/a/b', codexHome: '/c', fallbackFilenames: ['TEAM.md'] },
      port,
    )
    expect(r.projectRoot).toBe('/r')
    expect(r.budgetBytes).toBe(32_768)
    expect(r.files).toEqual([
      {
        path: '/c/AGENTS.override.md',
        scope: 'global',
        bytes: 16,
        includedBytes: 16,
        truncated: false,
      },
      { path: '/r/AGENTS.md', scope: 'project', bytes: 5, includedBytes: 5, truncated: false },
      { path: '/r/a/b/TEAM.md', scope: 'project', bytes: 5, includedBytes: 5, truncated: false },
    ])
    expect(r.dropped.map((d) => [d.path, d.reason])).toEqual([
      ['/c/AGENTS.md', 'shadowed'],
      ['/r/a/AGENTS.md', 'shadowed'],
      ['/r/a/AGENTS.override.md', 'empty'],
      ['/r/a/b/AGENTS.md', 'not-a-file'],
    ])
  })

  test('an empty global override falls back to the global AGENTS.md', async () => {
    const port = memPort({
      '/c/AGENTS.override.md': '  \n',
      '/c/AGENTS.md': 'global\n',
      '/r/x': 'x',
    })
    const r = await codexLoadOrder({ cwd: '/r', codexHome: '/c' }, port)
    expect(r.files).toEqual([
      { path: '/c/AGENTS.md', scope: 'global', bytes: 7, includedBytes: 7, truncated: false },
    ])
    expect(r.dropped.map((d) => [d.path, d.reason])).toEqual([['/c/AGENTS.override.md', 'empty']])
  })

  test('budget: the crossing file is cut mid-character, later files dropped; blanks use none', async () => {
    const port = memPort({
      '/r/.git': { kind: 'dir' },
      '/r/AGENTS.md': 'aaaa', // 4 bytes
      '/r/a/AGENTS.md': ' \n\t\n', // whitespace only: no budget
      '/r/a/b/AGENTS.md': 'bé', // 3 bytes: 'b' + 2-byte 'é'
      '/r/a/b/c/AGENTS.md': 'c',
    })
    const r = await codexLoadOrder({ cwd: '/r/a/b/c', codexHome: '/c', budgetBytes: 6 }, port)
    expect(r.budgetBytes).toBe(6)
    expect(r.files).toEqual([
      { path: '/r/AGENTS.md', scope: 'project', bytes: 4, includedBytes: 4, truncated: false },
      // 'b' and half of 'é' fit: the model gets 'b' then U+FFFD (docs/memory-rules.md §4.4 [agent]).
      {
        path: '/r/a/b/AGENTS.md',
        scope: 'project',
        bytes: 3,
        includedBytes: 1,
        truncated: true,
        brokenChar: true,
      },
    ])
    expect(r.dropped.map((d) => [d.path, d.reason])).toEqual([
      ['/r/a/AGENTS.md', 'empty'],
      ['/r/a/b/c/AGENTS.md', 'budget-exhausted'],
    ])
  })

  test('budget exactly used: the next file is dropped', async () => {
    const port = memPort({
      '/r/.git': 'gitdir: elsewhere\n',
      '/r/AGENTS.md': 'abc',
      '/r/a/AGENTS.md': 'd',
    })
    const r = await codexLoadOrder({ cwd: '/r/a', codexHome: '/c', budgetBytes: 3 }, port)
    expect(r.files.map((f) => [f.path, f.includedBytes, f.truncated])).toEqual([
      ['/r/AGENTS.md', 3, false],
    ])
    expect(r.dropped.map((d) => [d.path, d.reason])).toEqual([
      ['/r/a/AGENTS.md', 'budget-exhausted'],
    ])
  })

  test('budget 0 turns project docs off but keeps the global file', async () => {
    const port = memPort({
      '/c/AGENTS.md': 'g',
      '/r/.git': { kind: 'dir' },
      '/r/AGENTS.md': 'root',
    })
    const r = await codexLoadOrder({ cwd: '/r', codexHome: '/c', budgetBytes: 0 }, port)
    expect(r.files.map((f) => [f.path, f.scope])).toEqual([['/c/AGENTS.md', 'global']])
    expect(r.dropped.map((d) => [d.path, d.reason])).toEqual([['/r/AGENTS.md', 'project-docs-off']])
  })

  test('without a root marker only the launch directory counts', async () => {
    const port = memPort({ '/r/AGENTS.md': 'parent', '/r/a/AGENTS.md': 'here' })
    const r = await codexLoadOrder({ cwd: '/r/a', codexHome: '/c' }, port)
    expect(r.projectRoot).toBeNull()
    expect(r.files.map((f) => f.path)).toEqual(['/r/a/AGENTS.md'])
    expect(r.dropped).toEqual([])
  })
})

describe('parseCodexConfig', () => {
  test('reads the two keys at top level, ignores tables and other keys', () => {
    const text = [
      'model = "o3" # comment',
      'project_doc_max_bytes = 65_536 # bigger',
      'project_doc_fallback_filenames = [',
      '  "TEAM.md", # first',
      "  'GUIDE#1.md',",
      ']',
      '[profiles.x]',
      'project_doc_max_bytes = 1',
    ].join('\n')
    expect(parseCodexConfig(text, '/c/config.toml')).toEqual({
      budgetBytes: 65_536,
      fallbackFilenames: ['TEAM.md', 'GUIDE#1.md'],
      problems: [],
    })
  })

  test('unreadable values are problems and leave the defaults', () => {
    expect(
      parseCodexConfig(
        'project_doc_max_bytes = "big"\nproject_doc_fallback_filenames = [1]\n',
        '/c/config.toml',
      ),
    ).toEqual({
      problems: [
        {
          path: '/c/config.toml',
          reason: 'line 1: project_doc_max_bytes is not a non-negative integer',
        },
        {
          path: '/c/config.toml',
          reason: 'line 2: project_doc_fallback_filenames is not a list of strings',
        },
      ],
    })
  })
})

// ---- real temp trees through src/node/load-order/load-order.ts ------------------------------
