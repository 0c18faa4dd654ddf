/**
 * Rules that unseen notes (hidden set A, docs/eval-audit.md "Hidden set A") showed were missing,
 * on a real git repository: a slash command rests on the file defining it; a path from a web
 * root (`/images/logo.jpg`) is the repository's `public/` file; a name found only in committed
 * build output was never in the code; a line a formatter wrapped over several lines is the same
 * code; a folder tree in a fenced block names paths under their parent folders.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { git } from '../../../helpers/git'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('set A rules on a real repository', () => {
  const { repo, mem, sha, commit } = historyCase('sa')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(repo, '.claude/skills/new-migration.md', '# New migration\n')
    write(repo, '.claude/commands/review.md', '# Review\n')
    write(repo, 'public/images/crest.jpg', 'jpg\n')
    write(
      repo,
      'index.html',
      '<head>\n  <link rel="preload" as="image" href="/images/crest.jpg" fetchpriority="high" />\n</head>\n',
    )
    write(repo, 'static/assets/index-CEoIcGrV.js', 'var e=ECharts.init(el);export{e as chart};\n')
    write(repo, 'app/state.py', 'STATE = {}\n')
    write(repo, 'app/main.py', 'APP = 1\n')
    write(repo, 'db/schema.sql', 'create table t (id int);\n')
    commit('c1', '2026-01-01T12:00:00Z')
    git(repo, 'rm', '-q', '.claude/skills/new-migration.md')
    write(repo, 'static/assets/index-Dq3xYz9A.js', 'var e=1;export{e as chart};\n')
    git(repo, 'rm', '-q', 'static/assets/index-CEoIcGrV.js')
    write(
      repo,
      'index.html',
      '<head>\n  <title>x</title>\n  <link\n    rel="preload"\n    as="image"\n    href="/images/crest.jpg"\n    fetchpriority="high"\n  />\n</head>\n',
    )
    git(repo, 'mv', 'app/state.py', 'app/state_old.py')
    commit('later', '2026-03-01T12:00:00Z')

    notes = await auditTopics(
      repo,
      mem,
      [
        ['Skill flow', 'After a schema change run `/skill new-migration`.'],
        ['Command flow', 'Before a merge run `/review`, then `/clear`.'],
        [
          'Hero preload',
          'Preload of the hero image (`/images/crest.jpg`) with `fetchpriority="high"`.',
        ],
        ['Chart stack', '| ECharts | charts |'],
        [
          'Layout',
          [
            '```',
            'project/',
            '├── app/          # backend',
            '│   ├── state.py  # state',
            '│   └── main.py   # entry',
            '└── db/',
            '    └── schema.sql',
            '```',
          ].join('\n'),
        ],
      ],
      '2026-02-15T00:00:00Z',
    )
  }, 120_000)

  it('calls a note stale when the skill its slash command runs was deleted since', () => {
    const n = byTitle(notes, 'Skill flow')
    expect(n.verdict).toBe('stale')
    expect(n.reasons[0]).toContain('`.claude/skills/new-migration.md`')
    expect(n.reasons[0]).toContain(sha.later)
  })

  it('keeps a custom command whose file is there, and says nothing of a built-in one', () => {
    const n = byTitle(notes, 'Command flow')
    expect(n.verdict).toBe('fresh')
    expect(n.reasons.join('\n')).not.toMatch(/outside the audited repository/)
  })

  it('finds a web-root path in the repository, and a reflowed line is no change', () => {
    const n = byTitle(notes, 'Hero preload')
    expect(n.verdict).toBe('fresh')
    expect(n.reasons.join('\n')).not.toMatch(/outside the audited repository|changed in/)
  })

  it('does not count a name only a committed bundle held as code that went away', () => {
    const n = byTitle(notes, 'Chart stack')
    expect(n.verdict).not.toBe('stale')
    expect(n.reasons.join('\n')).not.toMatch(/ECharts` was in the code/)
  })

  it('reads a drawn tree under one top folder as paths below it: a moved file is stale', () => {
    const n = byTitle(notes, 'Layout')
    expect(n.verdict).toBe('stale')
    expect(n.reasons[0]).toContain('app/state.py')
    expect(n.reasons.join('\n')).not.toMatch(/`project\/`/)
  })
})
