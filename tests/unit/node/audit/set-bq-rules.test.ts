/**
 * Rules blind sets BQ and BR (docs/eval-audit.md) showed were missing, on a real git repository:
 * a field given a value in a literal or an initializer (`client_id: userId,`) is a use of a name
 * many files hold, not its definition; a setting written in another syntax elsewhere
 * (`QYL_PORT: 5100` in a deleted compose file, `- QYL_PORT=5100` in its new one) is the same
 * setting (set BQ: both read as suspect). A script's path alone on a shell block's line runs it,
 * and a solution file (`App.slnx`) is a file: deleted since, the command the note gives is gone
 * (set BR).
 */
import { join } from 'node:path'
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('set BQ and BR rules on a real repository', () => {
  const { repo, mem, sha, commit } = historyCase('sbq')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(repo, 'compose.yaml', 'services:\n  app:\n    environment:\n      QYL_PORT: 5100\n')
    write(repo, 'src/port.cs', 'var port = config["QYL_PORT"] ?? "5100";\n')
    const page = (v: string): string =>
      `export async function save() {\n  await db.from("food_log").insert({\n    client_id: ${v},\n  })\n}\n`
    write(repo, 'web/nutrition/page.tsx', page('selectedClientId'))
    for (const f of ['a', 'b', 'c', 'd'])
      write(repo, `web/${f}.ts`, `export const ${f} = (row) => row.client_id\n`)
    write(repo, 'App.slnx', '<Solution>\n  <Project Path="src/App/App.csproj" />\n</Solution>\n')
    write(repo, 'src/App/App.csproj', '<Project Sdk="Microsoft.NET.Sdk" />\n')
    write(repo, 'scripts/test-impacted.ps1', 'dotnet test src/App/App.csproj\n')
    commit('c1', '2026-01-01T12:00:00Z')
    rmSync(join(repo, 'compose.yaml'))
    write(repo, 'eng/compose.yaml', 'services:\n  app:\n    environment:\n      - QYL_PORT=5100\n')
    // The insert left the page; the field is still written elsewhere.
    write(repo, 'web/nutrition/page.tsx', 'export async function save() {\n  await sync()\n}\n')
    write(repo, 'mobile/chat.ts', page('userId'))
    rmSync(join(repo, 'App.slnx'))
    write(repo, 'dirs.proj', '<Project Sdk="Microsoft.Build.Traversal" />\n')
    commit('change', '2026-02-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Port', '| `QYL_PORT` | 5100 | Dashboard port |'],
        ['Food', '- **`food_log` uses `client_id`**, not `user_id`.'],
        ['Full', 'The full suite:\n\n```shell\ndotnet test App.slnx --nologo\n```'],
        ['Impacted', 'Before a push:\n\n```shell\nscripts/test-impacted.ps1\n```'],
      ],
      '2026-01-10T00:00:00Z',
    )
  }, 120_000)

  it('reads a setting written in another syntax elsewhere as the same setting (BQ)', () => {
    const n = byTitle(notes, 'Port')
    expect(n.verdict, n.reasons.join('\n')).toBe('fresh')
  })

  it("reads a field's value in a literal as a use of a name many files hold (BQ)", () => {
    const n = byTitle(notes, 'Food')
    expect(n.verdict, n.reasons.join('\n')).toBe('fresh')
  })

  it("reads a shell block's solution file and lone script path as files (BR)", () => {
    const full = byTitle(notes, 'Full')
    expect(full.verdict, full.reasons.join('\n')).toBe('stale')
    expect(full.reasons.join('\n')).toContain('App.slnx')
    expect(full.reasons.join('\n')).toContain(sha.change)
    const impacted = byTitle(notes, 'Impacted')
    expect(impacted.verdict, impacted.reasons.join('\n')).toBe('fresh')
    expect(impacted.references.map((r) => r.text)).toContain('scripts/test-impacted.ps1')
  })
})
