/**
 * A package committed with the code (`node_modules/<pkg>/package.json`) is not a manifest of the
 * repository: its name and keywords never make a word of a note a dependency (blind set U).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { git } from '../../../helpers/git'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('a vendored package.json', () => {
  const { repo, mem, commit } = historyCase('vendored-manifest')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(
      repo,
      'web/package.json',
      '{\n  "name": "web",\n  "dependencies": {\n    "react": "^18.0.0"\n  }\n}\n',
    )
    write(
      repo,
      'web/node_modules/leftpad/package.json',
      '{\n  "name": "leftpad",\n  "keywords": [\n    "leftpad",\n    "strings"\n  ]\n}\n',
    )
    write(repo, 'web/src/app.js', 'export const app = 1\n')
    commit('c1', '2026-01-01T12:00:00Z')
    git(repo, 'rm', '-r', '-q', 'web/node_modules')
    commit('untrack node_modules', '2026-03-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [['Pads', '- **leftpad** - pads the labels']],
      '2026-02-01T00:00:00Z',
    )
  }, 120_000)

  it('is not read as a manifest the note named a dependency from', () => {
    const n = byTitle(notes, 'Pads')
    expect(n.verdict, n.reasons.join('\n')).not.toBe('stale')
    expect(n.reasons.join('\n')).not.toContain('node_modules')
  })
})
