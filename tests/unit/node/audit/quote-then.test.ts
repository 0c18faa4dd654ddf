/**
 * Issue 12 item 5 on a real git repository: quoted code whose names survive but whose lines
 * changed since the note is suspect (never stale), and says what it was then; quoted code that
 * differed from the code already when the note was written, unchanged since, is not counted.
 * And a quote whose first line never was code is still known by its other lines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

const DISPATCH = [
  'export function dispatch(word, stack) {',
  '  const op = lookupOperation(word)',
  '  return op.run(stack)',
  '}',
]
const HANDLERS = [
  'export function activateListeners(html) {',
  '  ItemDisplayHandlers.attach(html, this.actor)',
  '  WeaponHandlers.attach(html, this.actor, this)',
  '}',
]

describe('names intact, lines changed (issue 12 item 5)', () => {
  const { repo, mem, sha, commit } = historyCase('qt')
  let notes: readonly AuditNote[] = []
  const WRITTEN = '2026-02-15T00:00:00Z'

  beforeAll(async () => {
    write(repo, 'src/dispatch.ts', `${DISPATCH.join('\n')}\n`)
    write(
      repo,
      'src/para.ts',
      'export function paraphrased(items) {\n  let total = 0\n  for (const i of items) total += i.price\n  return total\n}\n',
    )
    write(repo, 'src/sheet.ts', `${HANDLERS.join('\n')}\n`)
    commit('c1', '2026-01-01T12:00:00Z')
    // After the note: a locals step now precedes the dispatch; the handlers are removed.
    write(
      repo,
      'src/dispatch.ts',
      'export function dispatch(word, stack) {\n  const locals = bindLocals(stack)\n  const op = lookupOperation(word)\n  return op.run(locals)\n}\n',
    )
    write(repo, 'src/sheet.ts', 'export function render(html) {\n  return html\n}\n')
    commit('after', '2026-03-01T12:00:00Z')

    const notesBy: [string, string][] = [
      ['dispatch', `Dispatch:\n\n\`\`\`ts\n${DISPATCH.join('\n')}\n\`\`\``],
      [
        'para',
        'Totals:\n\n```ts\nexport function paraphrased(items) {\n  let total = 0\n  for (const i of items) total += i.price * 1\n  return total\n}\n```',
      ],
      [
        'handlers',
        `Example:\n\n\`\`\`js\n// In the sheet's listeners\n${HANDLERS.slice(1, 3).join('\n')}\n\`\`\``,
      ],
    ]
    notes = await auditTopics(repo, mem, notesBy, WRITTEN)
  })

  it('calls a quote that matched exactly then and changed since suspect, not stale', () => {
    const n = byTitle(notes, 'dispatch')
    expect(n.verdict).toBe('suspect')
    expect(n.references.map((r) => r.status)).toEqual(['changed'])
    expect(n.reasons[0]).toMatch(
      new RegExp(
        `^quoted code \`export function dispatch\\(word, stack\\) \\{.*\` changed since the note: it matched \`src/dispatch.ts\` exactly at ${sha.c1} \\(2026-01-01\\), when the note was written; now \\d+% alike \\(lines 1–5\\)$`,
      ),
    )
  })

  it('does not count a quote that differed already when written, its lines unchanged since', () => {
    const n = byTitle(notes, 'para')
    expect(n.verdict).toBe('fresh')
    expect(n.reasons[0]).toBe(
      `quoted code \`export function paraphrased(items) {\` differs from \`src/para.ts\` as it already did when the note was written (${sha.c1} (2026-01-01)); those lines are unchanged since`,
    )
  })

  it('knows a quote by its other lines when its first line never was code', () => {
    const n = byTitle(notes, 'handlers')
    expect(n.verdict).toBe('stale')
    expect(n.reasons[0]).toMatch(new RegExp(`; removed in ${sha.after} on 2026-03-01$`))
  })
})
