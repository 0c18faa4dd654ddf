/**
 * Blind set R, on a real repository: a note that tells of a folder's move made before it was
 * written (the old folder, the new place, and a file of the old folder the move deleted) is not
 * "wrong from the start" (src/core/audit/verdict.ts `toldMove`, `underMove`).
 */
import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { git } from '../../../helpers/git'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('a move the note tells of (blind set R)', () => {
  const { repo, mem, commit } = historyCase('told-move')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    const page = (n: number): string =>
      Array.from({ length: 30 }, (_, i) => `<p>monitor ${n} line ${i}</p>`).join('\n') + '\n'
    write(repo, 'apps/monitor/index.html', page(1))
    write(repo, 'apps/monitor/main.js', 'export function startMonitor() {}\n')
    write(repo, 'apps/monitor/remote.html', page(2))
    write(repo, 'apps/site/main.js', 'export const site = 1\n')
    commit('c1', '2026-01-01T12:00:00Z')
    mkdirSync(join(repo, 'packages'))
    git(repo, 'mv', 'apps/monitor', 'packages/cli-web')
    rmSync(join(repo, 'packages/cli-web/remote.html'))
    commit('move', '2026-02-01T12:00:00Z')
    write(repo, 'apps/site/main.js', 'export const site = 2\n')
    commit('later', '2026-04-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        [
          'told',
          'Dissolved `apps/monitor` (its `apps/monitor/remote.html` page is gone): the SPA now lives in `packages/cli-web`.',
        ],
        [
          'bare',
          'Dissolved `apps/monitor` (its `remote.html` page is gone): the SPA is in `packages/cli-web`.',
        ],
        ['wrong', 'The monitor SPA lives in `apps/monitor`.'],
        ['symbol', 'The monitor starts in `apps/monitor/main.js` with `startMonitor()`.'],
      ],
      '2026-03-01T00:00:00Z',
    )
  }, 120_000)

  it('reads the old folder and its deleted file as told, not wrong from the start', () => {
    const n = byTitle(notes, 'told')
    expect(n.verdict, n.reasons.join('\n')).toBe('fresh')
    expect(n.reasons[0]).toMatch(/^the note tells of the move: `apps\/monitor` was renamed/)
    expect(n.reasons.join('\n')).toMatch(
      /the note tells of the move of `apps\/monitor`: .*`apps\/monitor\/remote\.html`/,
    )
  })

  it('finds a bare file name under the folder by the path it resolved to', () => {
    const n = byTitle(notes, 'bare')
    expect(n.verdict, n.reasons.join('\n')).toBe('fresh')
  })

  it('a note that names only the old folder still was wrong from the start', () => {
    expect(byTitle(notes, 'wrong').verdict).toBe('never-matched')
    // A symbol found now in the file the old path became is not the note naming the new place.
    expect(byTitle(notes, 'symbol').verdict).toBe('never-matched')
  })
})
