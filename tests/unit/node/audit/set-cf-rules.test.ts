/**
 * Rules blind sets CE to CG (docs/eval-audit.md) showed were missing, on a real git repository:
 * a capitalised product in prose (`Context7`) whose lower-case form (`context7`) the code still
 * holds where it held it when the note was written has not left the code, though its capitalised
 * spelling left every file that held it (set CE).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('set CE to CG rules on a real repository', () => {
  const { repo, mem, commit } = historyCase('scf')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(repo, '.mcp.json', '{\n  "mcpServers": {\n    "context7": { "command": "npx" }\n  }\n}\n')
    write(
      repo,
      'config/policy.yaml',
      'tools:\n  audit: Context7 library docs lookup\n  lint: Stylo3 style check\n',
    )
    commit('c1', '2026-01-01T12:00:00Z')
    write(repo, 'config/policy.yaml', 'tools:\n  audit: library docs lookup\n  lint: style check\n')
    write(repo, 'reports/plan.html', '<p>Context7 and Stylo3 were reviewed.</p>\n')
    // The lower-case form arriving only now, in a new file, is not the product staying.
    write(repo, 'src/lint.ts', "export const linter = 'stylo3'\n")
    commit('change', '2026-02-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Docs lookup', 'Look up library docs with Context7 before guessing an API.'],
        ['Style', 'Style checks run through Stylo3 before each commit.'],
      ],
      '2026-01-10T00:00:00Z',
    )
  }, 120_000)

  it('reads a product the code still holds in lower case as staying (CE)', () => {
    const docs = byTitle(notes, 'Docs lookup')
    expect(['fresh', 'unverifiable'], docs.reasons.join('\n')).toContain(docs.verdict)
    // Its capitalised spelling left the code, and no lower-case form held then stays: suspect.
    const style = byTitle(notes, 'Style')
    expect(style.verdict, style.reasons.join('\n')).toBe('suspect')
    expect(style.reasons.join('\n')).toContain('`Stylo3` left every code file')
  })
})
