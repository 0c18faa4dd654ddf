/**
 * Rules blind set CQ (docs/eval-audit.md) showed were missing, on a real git repository:
 * - a Claude Code import written in prose (`See @.cursor/commands.md for …`; imports:
 *   docs/memory-rules.md §3.4) names the file after its `@`: deleted since, the note is stale;
 *   still there, it holds. Before, the `@` stayed in the path, which no repository ever had, so
 *   the note was "wrong from the start" either way (CQ me-t02, me-t03; BY ar-r09; CA go-r05);
 * - a quoted block that declares only types the code did not have when the note was written
 *   (`public class ChallengerCommandService implements …`) is an example: a name it uses that
 *   the code has since dropped (`getUserId`) makes nothing stale, and its quote is "not a
 *   reference" (CQ um-r05 to um-r07). A block declaring a type the code had is read as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase, verdictChecks } from './topic-audit'
import { rmSync } from 'node:fs'
import { join } from 'node:path'

afterAll(removeBase)

const JWT = (call: string): string =>
  `package app;\n\npublic class JwtFilter {\n  Long read(String token) {\n    return provider.${call}(token);\n  }\n}\n`
/** A quoted Java block declaring `type`, which calls `getUserId`. */
const java = (type: string): string =>
  [
    '```java',
    '@Service',
    `public class ${type} implements RegisterUseCase {`,
    '    public Long register(String token) {',
    '        Long id = provider.getUserId(token);',
    '        return repository.save(id);',
    '    }',
    '}',
    '```',
  ].join('\n')

describe('set CQ rules on a real repository', () => {
  const { repo, mem, sha, commit } = historyCase('scq')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(repo, '.cursor/commands.md', '# Commands\n\n- `pytest -q`\n')
    write(repo, 'docs/architecture.md', '# Architecture\n')
    write(repo, 'src/app.py', 'print("app")\n')
    write(repo, 'src/main/java/app/JwtFilter.java', JWT('getUserId'))
    commit('c1', '2026-01-01T12:00:00Z')
    rmSync(join(repo, '.cursor/commands.md'))
    write(repo, 'src/main/java/app/JwtFilter.java', JWT('getMemberId'))
    commit('drop', '2026-02-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Commands', 'See @.cursor/commands.md for quick test commands and examples.'],
        ['Architecture', 'Read @docs/architecture.md before changing the layers.'],
        ['Package', 'The UI imports its types from @acme/types and its client from @/lib/api.'],
        ['Example', `Services look like this:\n\n${java('ChallengerCommandService')}`],
        ['Filter', `The filter reads the user:\n\n${java('JwtFilter')}`],
      ],
      '2026-01-10T00:00:00Z',
    )
  }, 120_000)

  const { called, quiet } = verdictChecks(() => notes)

  it('reads a prose import as the file after its `@` (CQ me-t02)', () => {
    called('Commands', 'stale', '`.cursor/commands.md`', `deleted in ${sha.drop}`)
    quiet('Architecture')
    const refs = byTitle(notes, 'Architecture').references.map((r) => r.text)
    expect(refs).toContain('@docs/architecture.md')
  })

  it('reads a block declaring only types the code did not have then as an example (CQ um-r05)', () => {
    quiet('Example', true)
    const n = byTitle(notes, 'Example')
    expect(n.reasons.join('\n')).toContain(
      'it declares `ChallengerCommandService`, which the code did not have when the note was written',
    )
    expect(n.reasons.join('\n')).not.toContain('getUserId')
    // The same block declaring a type the code had: its dropped call is a claim.
    called('Filter', 'stale', '`getUserId` was in the code', `removed in ${sha.drop}`)
  })

  it('leaves a scoped package or an alias without an extension as it was read before', () => {
    const n = byTitle(notes, 'Package')
    expect(n.verdict, n.reasons.join('\n')).not.toBe('stale')
    expect(n.reasons.join('\n')).not.toContain('acme/types` was')
  })
})
