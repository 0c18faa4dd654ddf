/**
 * A rule blind set AS (docs/eval-audit.md) showed was missing, on a real git repository: a path
 * with two lives, the first there when the note was written and moved away after it, the second
 * added and deleted later, was "wrong from the start" (it came only after the note); it was there.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { git } from '../../../helpers/git'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('set AS rules on a real repository', () => {
  const { repo, mem, sha, commit } = historyCase('sas')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(repo, 'tailwind.config.js', 'module.exports = { theme: {} }\n')
    write(repo, 'src/app.js', 'export const app = 1\n')
    commit('c1', '2026-01-01T12:00:00Z')
    // After the note: the old app moves into alpha/, a new one comes with its own config, which
    // a later commit deletes.
    mkdirSync(join(repo, 'alpha'))
    git(repo, 'mv', 'tailwind.config.js', 'alpha/tailwind.config.js')
    git(repo, 'mv', 'src', 'alpha/src')
    commit('to-alpha', '2026-01-10T12:00:00Z')
    write(repo, 'tailwind.config.js', 'export default { content: [] }\n')
    commit('next-init', '2026-01-12T12:00:00Z')
    git(repo, 'rm', '-q', 'tailwind.config.js')
    commit('drop-config', '2026-01-20T12:00:00Z')
    // A file that came only after the note, and went: never there when the note was written.
    write(repo, 'middleware.js', 'export const m = 1\n')
    commit('mw-added', '2026-01-21T12:00:00Z')
    git(repo, 'rm', '-q', 'middleware.js')
    commit('mw-gone', '2026-01-22T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Styling', '- Theme colours live in `tailwind.config.js`.'],
        ['Middleware', '- Auth runs in `middleware.js`.'],
      ],
      '2026-01-05T00:00:00Z',
    )
  }, 120_000)

  it('calls a path there when the note was written, with a later second life, stale', () => {
    const n = byTitle(notes, 'Styling')
    expect(n.verdict, n.reasons.join('\n')).not.toBe('never-matched')
    expect(['stale', 'suspect']).toContain(n.verdict)
  })

  it('still calls a path that came only after the note wrong from the start', () => {
    const n = byTitle(notes, 'Middleware')
    expect(n.verdict).toBe('never-matched')
    expect(n.reasons[0]).toContain(`it came only in ${sha['mw-added']}`)
  })
})
