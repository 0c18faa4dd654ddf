/** The mapping scripts/docs/recite.mjs applies to old citations: right targets, idempotent. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { anchorsOf, docsCitations } from '../../../scripts/docs/citations.mjs'
import { reciteComment } from '../../../scripts/docs/recite-map.mjs'

const docs = join(__dirname, '..', '..', '..', 'docs')
const anchors = (page: string): Set<string> => anchorsOf(readFileSync(join(docs, page), 'utf8'))

/** Old citation → new, as they stand in the code. */
const CASES: readonly (readonly [string, string])[] = [
  ['/** Lines (memory-facts §2, step 2). */', '/** Lines (docs/memory-rules.md §2.2 step 2). */'],
  ['(memory-facts §2 steps 1–4)', '(docs/memory-rules.md §2.2 steps 1–4)'],
  ['(memory-facts §3, "Size")', '(docs/memory-rules.md §3.11 "Size")'],
  ['(memory-facts §3, "`paths`")', '(docs/memory-rules.md §3.3 "`paths`")'],
  ['(memory-facts §2\n * "Index format")', '(docs/memory-rules.md §2.6\n * "Index format")'],
  [
    '(memory-facts §6 "One writer per\n * page")',
    '(docs/memory-rules.md §6.4 "One writer per\n * page")',
  ],
  [
    '(memory-facts §1 shared memory folder, §6 one writer per page)',
    '(docs/memory-rules.md §1.5 shared memory folder, §6.4 one writer per page)',
  ],
  [
    '// never sorted (memory-facts §3 [agent]).',
    '// never sorted (docs/memory-rules.md §3.5 [agent]).',
  ],
  [
    '/** Codex default root markers (memory-facts §4). */',
    '/** Codex default root markers (docs/memory-rules.md §4.2). */',
  ],
  ['/** The cutoff (memory-facts §1, §2). */', '/** The cutoff (docs/memory-rules.md §1, §2). */'],
  ['(memory-facts §1–§4, [agent] marks)', '(docs/memory-rules.md §1–§4, [agent] marks)'],
  ['`shared/docs/memory-facts.md`', '`docs/memory-rules.md`'],
  ['(cli-contract `audit`; x)', '(docs/cli.md §7 `audit`; x)'],
  ['(cli-contract.md `audit`)', '(docs/cli.md §7 `audit`)'],
  ['The command line (shared/docs/cli-contract.md): x', 'The command line (docs/cli.md): x'],
  ['`serve`: for machines (cli-contract.md)', '`serve`: for machines (docs/cli.md §9)'],
  ['(architecture.md habit 6)', '(docs/architecture.md §4.6)'],
  ['(architecture.md, habit 4)', '(docs/architecture.md §4.4)'],
  [
    'back end (architecture.md\n * habit 1). Types',
    'back end (docs/architecture.md\n * §4.1). Types',
  ],
  ['/** Layer arrows of docs/architecture.md. */', '/** Layer arrows of docs/architecture.md. */'],
  [
    'Monaco, never from a CDN (stack-notes.md "Configuration that mattered")',
    'Monaco, never from a CDN (docs/stack.md §4)',
  ],
  [
    '// A sandboxed preload must be CommonJS (stack-notes.md).',
    '// A sandboxed preload must be CommonJS (docs/stack.md §5).',
  ],
  [
    '/** no `ready` from chokidar (stack-notes.md) */',
    '/** no `ready` from chokidar (docs/stack.md §6) */',
  ],
  ['/** nothing to go on (stack-notes.md) */', '/** nothing to go on (docs/stack.md) */'],
]

describe('reciteComment', () => {
  it.each(CASES)('%s', (before, after) => {
    expect(reciteComment(before)).toBe(after)
  })

  it('changes nothing the second time', () => {
    for (const [before] of CASES) {
      const once = reciteComment(before)
      expect(reciteComment(once), before).toBe(once)
    }
  })

  it('keeps a chapter when the words near it name two sections', () => {
    const text = '/** its transcripts name, and what its memory folder holds (memory-facts §1). */'
    expect(reciteComment(text)).toContain('docs/memory-rules.md §1)')
  })

  it('points only at pages and sections that exist', () => {
    const habits = Array.from({ length: 10 }, (_, i) => `(architecture.md habit ${i + 1})`)
    for (const text of [...CASES.map(([b]) => b), ...habits]) {
      for (const c of docsCitations(reciteComment(text))) {
        const known = anchors(c.page)
        for (const s of c.sections) expect(known.has(s), `${c.page} §${s}`).toBe(true)
      }
    }
  })
})
