/**
 * Issue 12 items 4 and 5 on a real git repository: a note is suspect for what its names lost
 * since it was written (a line that held the name then is gone or changed now), never for
 * added code (a new call site), a move, a comment, a test, or a mention in docs; the reason
 * names the commit and quotes the line then and now, and the diff basis points at those lines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { git } from '../../../helpers/git'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('suspect from what a note’s names lost (issue 12 items 4 and 5)', () => {
  const { repo, mem, sha, commit } = historyCase('nl')
  let notes: readonly AuditNote[] = []
  const WRITTEN = '2026-02-15T00:00:00Z'

  beforeAll(async () => {
    write(
      repo,
      'src/pay.ts',
      'export function chargeCard(amount) {\n  return gateway.charge(amount)\n}\n',
    )
    write(
      repo,
      'src/limits.ts',
      'export const MAX_RETRIES = 3\nexport function retryLater() {\n  return MAX_RETRIES\n}\n',
    )
    write(repo, 'src/moved.ts', 'export function movingPart() {\n  return 42\n}\n')
    write(
      repo,
      'src/quiet.ts',
      '// quietHelper keeps the logs short\nexport function quietHelper() {\n  return 0\n}\n',
    )
    write(repo, 'src/tested.ts', 'export function testedThing() {\n  return 1\n}\n')
    write(
      repo,
      'tests/tested.test.ts',
      "import { testedThing } from '../src/tested'\ntest('a', () => testedThing())\n",
    )
    write(repo, 'docs/guide.md', 'Call `docsOnlyName` to start.\n')
    commit('c1', '2026-01-01T12:00:00Z')
    // After the note:
    // a new call site of chargeCard in another file (added code only);
    write(repo, 'src/checkout.ts', "import { chargeCard } from './pay'\nchargeCard(10)\n")
    commit('new-caller', '2026-03-01T12:00:00Z')
    // the line defining MAX_RETRIES changes its value;
    write(
      repo,
      'src/limits.ts',
      'export const MAX_RETRIES = 5\nexport function retryLater() {\n  return MAX_RETRIES\n}\n',
    )
    commit('retries', '2026-03-05T12:00:00Z')
    // movingPart moves to another file unchanged; quietHelper's comment changes;
    // testedThing's test changes; the doc naming docsOnlyName changes.
    git(repo, 'rm', '-q', 'src/moved.ts')
    write(repo, 'src/parts/moving.ts', 'export function movingPart() {\n  return 42\n}\n')
    write(
      repo,
      'src/quiet.ts',
      '// quietHelper keeps the logs very short\nexport function quietHelper() {\n  return 0\n}\n',
    )
    write(
      repo,
      'tests/tested.test.ts',
      "import { testedThing } from '../src/tested'\ntest('b', () => expect(testedThing()).toBe(1))\n",
    )
    write(repo, 'docs/guide.md', 'Call `docsOnlyName` first.\n')
    commit('noise', '2026-03-10T12:00:00Z')

    const notesBy: [string, string][] = [
      ['caller', 'Payments go through `chargeCard()`.'],
      ['retries', 'Retries stop at `MAX_RETRIES`.'],
      ['moved', 'The answer comes from `movingPart()`.'],
      ['quiet', 'Logs are trimmed by `quietHelper()`.'],
      ['tested', 'Use `testedThing()` for the thing.'],
      ['docs', 'Start with `docsOnlyName`.'],
    ]
    notes = await auditTopics(repo, mem, notesBy, WRITTEN)
  }, 120_000)

  it('keeps a note fresh when a new call site of its name was added after it', () => {
    const n = byTitle(notes, 'caller')
    expect(n.verdict).toBe('fresh')
    expect(n.reasons.join('\n')).not.toContain(sha['new-caller'])
  })

  it('calls a note suspect when a line holding its name changed, naming the commit and the line then and now', () => {
    const n = byTitle(notes, 'retries')
    expect(n.verdict).toBe('suspect')
    expect(n.reasons[0]).toBe(
      `a code line with \`MAX_RETRIES\` changed in ${sha.retries} on 2026-03-05, after the note was written: then \`export const MAX_RETRIES = 3\` (\`src/limits.ts\`:1); now \`export const MAX_RETRIES = 5\` (\`src/limits.ts\`:1)`,
    )
    // Item 5: the diff compares the lines around the change at the note's commit and now.
    const compare = n.references.find((r) => r.text === 'MAX_RETRIES')?.compare
    expect(compare).toMatchObject({ then: 'src/limits.ts', now: 'src/limits.ts' })
    expect(compare?.thenLines?.[0]).toBe(1)
    expect(compare?.nowLines?.[0]).toBe(1)
    expect(compare?.commit).toMatch(/^[0-9a-f]{40}$/)
    expect(compare?.commit?.startsWith(sha.c1)).toBe(true)
  })

  it('does not count a name moved to another file, a changed comment or a changed test', () => {
    for (const t of ['moved', 'quiet', 'tested']) expect(byTitle(notes, t).verdict, t).toBe('fresh')
  })

  it('does not count a name found only in docs as code', () => {
    const n = byTitle(notes, 'docs')
    expect(n.verdict).not.toBe('suspect')
    expect(n.reasons.join('\n')).not.toContain(sha.noise)
  })
})
