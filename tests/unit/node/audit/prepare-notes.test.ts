/**
 * Issue 12 item 2 on a real git repository: bare names and partial paths resolve by suffix
 * against the tracked files and folders and, when gone, against the rename and delete history;
 * a path written with placeholders is a pattern, never stale.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { auditMemory } from '../../../../src/node/audit/audit'
import { clearHistoryCache } from '../../../../src/node/git/history'
import { clearPickaxeCache } from '../../../../src/node/audit/pickaxe'
import { git, gitAt } from '../../../helpers/git'
import { base, byTitle, removeBase, topic, write } from './scripted-repo'

afterAll(removeBase)

describe('partial paths resolve by suffix, now and through history (issue 12 item 2)', () => {
  const repo = join(base, 'pp-repo')
  const mem = join(base, 'pp-mem')
  const sha: Record<string, string> = {}
  let notes: readonly AuditNote[] = []
  const WRITTEN = '2026-02-15T00:00:00Z'

  beforeAll(async () => {
    mkdirSync(repo)
    git(repo, 'init', '-q', '-b', 'main')
    const commit = (label: string, date: string): void => {
      git(repo, 'add', '-A')
      gitAt(date, repo, 'commit', '-q', '-m', label)
      sha[label] = git(repo, 'rev-parse', 'HEAD').trim().slice(0, 7)
    }
    write(repo, 'src/game/character/hero.ts', 'export const hero = 1\n')
    write(repo, 'src/features/ai/work-evaluators/eat.ts', 'export const eat = 1\n')
    write(repo, 'src/old/thing.ts', 'export const thing = 1\n')
    write(repo, 'materials/base/one.md', 'one\n')
    write(repo, 'early/gone.ts', 'export const gone = 1\n')
    commit('c1', '2026-01-01T12:00:00Z')
    git(repo, 'rm', '-q', 'early/gone.ts')
    commit('early-gone', '2026-02-01T12:00:00Z')
    git(repo, 'rm', '-q', 'src/old/thing.ts')
    commit('thing-gone', '2026-03-01T12:00:00Z')
    git(repo, 'rm', '-q', '-r', 'materials/base')
    commit('base-gone', '2026-03-02T12:00:00Z')

    mkdirSync(mem)
    const notesBy: [string, string][] = [
      ['partial', 'The hero lives in `game/character/hero.ts`.'],
      ['folder', 'Evaluators are in `work-evaluators/`.'],
      ['thing', 'The thing is `old/thing.ts`.'],
      ['base', 'Templates are kept in `base/`.'],
      ['early', 'Gone is in `early/gone.ts` (already deleted).'],
      ['pattern', 'Tailored resumes go in `batch-NN/` folders.'],
    ]
    for (const [name, body] of notesBy)
      writeFileSync(
        join(mem, `${name}.md`),
        topic(body, WRITTEN).replace('name: t', `name: ${name}`),
      )
    writeFileSync(
      join(mem, 'MEMORY.md'),
      `# Memory\n\n${notesBy.map(([n]) => `- [${n}](${n}.md) — ${n}`).join('\n')}\n`,
    )
    clearHistoryCache()
    clearPickaxeCache()
    const r = await auditMemory({ memoryDir: mem, repo })
    expect(r.problems).toEqual([])
    notes = r.notes
  })

  it('resolves a partial file path by suffix against the tracked files', () => {
    const n = byTitle(notes, 'partial')
    expect(n.verdict).toBe('fresh')
    expect(n.reasons[0]).toBe('`game/character/hero.ts` resolved to `src/game/character/hero.ts`')
  })

  it('resolves a folder named by its last segment', () => {
    const n = byTitle(notes, 'folder')
    expect(n.verdict).toBe('fresh')
    expect(n.reasons[0]).toBe('`work-evaluators/` resolved to `src/features/ai/work-evaluators`')
  })

  it('calls a partial path deleted after the note stale, naming the commit', () => {
    const n = byTitle(notes, 'thing')
    expect(n.verdict).toBe('stale')
    expect(n.reasons[0]).toBe(
      `\`src/old/thing.ts\` was deleted in ${sha['thing-gone']} on 2026-03-01`,
    )
  })

  it('calls a folder whose files were deleted after the note stale', () => {
    const n = byTitle(notes, 'base')
    expect(n.verdict).toBe('stale')
    expect(n.reasons[0]).toBe(`\`materials/base\` was deleted in ${sha['base-gone']} on 2026-03-02`)
  })

  it('keeps a partial path deleted before the note never-matched', () => {
    expect(byTitle(notes, 'early').verdict).toBe('never-matched')
  })

  it('does not check a path with placeholders', () => {
    const n = byTitle(notes, 'pattern')
    expect(n.verdict).toBe('unverifiable')
    expect(n.reasons[0]).toBe(
      '`batch-NN/` is a pattern with placeholders, not one path; not checked',
    )
  })
})
