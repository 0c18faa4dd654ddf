/**
 * A folder tree drawn under one top folder names its entries in that folder when the repository
 * has one of that name (blind set Z: `rodski-web/` over `src/`, read as the root `src/` a later
 * commit deleted while `rodski-web/src/` stayed); a top folder the repository never had is its
 * own name, and the entries are the root's.
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

const tree = (top: string): string =>
  [
    '```',
    `${top}/`,
    '├── src/            # Flask app',
    '│   └── app.py',
    '├── static/',
    '└── run.sh',
    '```',
  ].join('\n')

describe('a tree under a top folder', () => {
  const { repo, mem, commit } = historyCase('tree-top')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    for (const top of ['', 'web/']) {
      write(repo, `${top}src/app.py`, 'app = 1\n')
      write(repo, `${top}static/site.css`, 'a {}\n')
      write(repo, `${top}run.sh`, 'python src/app.py\n')
    }
    commit('c1', '2026-04-01T12:00:00Z')
    rmSync(join(repo, 'src'), { recursive: true })
    commit('drop the root copy', '2026-04-20T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Web', `The web app:\n\n${tree('web')}`],
        ['Project', `The project:\n\n${tree('my-project')}`],
      ],
      '2026-04-05T12:00:00Z',
    )
  }, 120_000)

  it('reads the entries in the top folder the repository has', () => {
    const n = byTitle(notes, 'Web')
    expect(n.verdict, n.reasons.join('\n')).not.toBe('stale')
    expect(n.verdict, n.reasons.join('\n')).not.toBe('never-matched')
  })

  it("reads them at the root under a top folder that is the repository's own name", () => {
    const n = byTitle(notes, 'Project')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons.join('\n')).toContain('was deleted')
  })
})
