import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  notesFromInstructionFile,
  notesFromMemory,
  splitBlocks,
} from '../../../../src/core/memory/notes'
import { CORPUS_ROOT, needsCorpus } from '../../../helpers/corpus'
import { extractReferences } from '../../../../src/core/audit/references'

const corpus = `${CORPUS_ROOT}/instructions`

describe('notesFromMemory', () => {
  const index = [
    '---',
    'tags:',
    '- [not](an-entry.md)',
    '---',
    '# Memory',
    '',
    '- [Auth flow](auth.md) — how `login()` works',
    '- [Gone](gone.md) — dangling',
    '- Plain fact without a link',
    '',
    'Free text that names `src/x.ts`.',
  ].join('\n')
  const auth =
    '---\nname: auth\ndescription: Login goes through `src/auth.ts`\nupdated: 2026-03-10\n---\nBody line.\n**Why:** because.\n'
  const orphan = '---\nname: Orphan note\n---\nNobody links me.\n'
  const notes = notesFromMemory({
    indexPath: '/m/MEMORY.md',
    indexText: index,
    topics: [
      { name: 'auth.md', path: '/m/auth.md', text: auth },
      { name: 'sub/orphan.md', path: '/m/sub/orphan.md', text: orphan },
    ],
  })

  it('pairs each entry with its topic file, on the entry line', () => {
    expect(notes.map((n) => [n.kind, n.file, n.line, n.endLine, n.title])).toEqual([
      ['index-entry', '/m/MEMORY.md', 7, 7, 'Auth flow'],
      ['index-entry', '/m/MEMORY.md', 8, 8, 'Gone'],
      ['index-entry', '/m/MEMORY.md', 9, 9, 'Plain fact without a link'],
      ['index-text', '/m/MEMORY.md', 11, 11, 'Free text that names `src/x.ts`.'],
      ['topic', '/m/sub/orphan.md', 1, 4, 'Orphan note'],
    ])
    const [a] = notes
    expect(a.text).toBe(
      '- [Auth flow](auth.md) — how `login()` works\n\nBody line.\n**Why:** because.\n',
    )
    expect(a.checkText).toBe(
      'Auth flow how `login()` works\n\nLogin goes through `src/auth.ts`\n\nBody line.\n**Why:** because.\n',
    )
    expect(a.topicFile).toBe('/m/auth.md')
    expect(a.bodyLine).toBe(6)
    expect(a.frontmatter).toEqual({
      name: 'auth',
      description: 'Login goes through `src/auth.ts`',
      updated: '2026-03-10',
    })
  })

  it('marks dangling entries and keeps link targets out of the checked text', () => {
    expect(notes[1].danglingTarget).toBe('gone.md')
    expect(notes[1].checkText).toBe('Gone dangling')
    expect(notes[0].danglingTarget).toBeNull()
  })

  it('reads a dangling entry labelled with its own file name as a link, not as a path to look up', () => {
    // Agents often title an entry with the topic file's name; once that file is gone (or, in an
    // audit of a copy, not beside the index), the label must not become a repository reference.
    const [entry, other] = notesFromMemory({
      indexPath: '/m/MEMORY.md',
      indexText:
        '- [feedback_workflow.md](feedback_workflow.md) — push to main\n' +
        '- [Setup](setup.md) — see `docs/setup.md` and `scripts/setup.sh`\n',
      topics: [],
    })
    expect(entry.danglingTarget).toBe('feedback_workflow.md')
    expect(entry.checkText).toBe(' push to main')
    expect(extractReferences(entry.checkText).map((r) => r.text)).toEqual([])
    // Other names in a dangling entry are still the note's references.
    expect(other.danglingTarget).toBe('setup.md')
    expect(extractReferences(other.checkText).map((r) => r.text)).toEqual([
      'docs/setup.md',
      'scripts/setup.sh',
    ])
  })

  it('works without an index', () => {
    const only = notesFromMemory({
      indexPath: '/m/MEMORY.md',
      indexText: null,
      topics: [{ name: 'a.md', path: '/m/a.md', text: 'x\ny\n' }],
    })
    expect(only.map((n) => [n.kind, n.line, n.endLine, n.title])).toEqual([['topic', 1, 2, 'a.md']])
  })
})

describe('splitBlocks / notesFromInstructionFile', () => {
  it('splits list items and paragraphs, keeps code with the sentence before it, skips headings and comments', () => {
    const text = [
      '<!-- a comment',
      'spanning lines -->',
      '# Title',
      '',
      'Intro paragraph',
      'continues here.',
      '',
      '- item one',
      '  continued',
      '- item two',
      '',
      'Run tests like this:',
      '',
      '    npm test',
      '',
      'Build:',
      '```bash',
      'npm run build',
      '```',
      '',
      'Setext heading',
      '==============',
    ].join('\n')
    const blocks = splitBlocks(text)
    expect(blocks.map((b) => [b.line, b.endLine, b.lines])).toEqual([
      [5, 6, ['Intro paragraph', 'continues here.']],
      [8, 9, ['- item one', '  continued']],
      [10, 10, ['- item two']],
      [12, 14, ['Run tests like this:', '', '    npm test']],
      [16, 19, ['Build:', '```bash', 'npm run build', '```']],
    ])
    expect(blocks[3].checkLines).toEqual(['Run tests like this:', '', '```\nnpm test\n```'])
  })

  it('reads the real simonw AGENTS.md into notes with disk line numbers', (ctx) => {
    needsCorpus(ctx)
    const path = `${corpus}/simonw-AGENTS.md`
    const notes = notesFromInstructionFile(path, readFileSync(path, 'utf8'))
    expect(notes.slice(0, 3).map((n) => [n.line, n.endLine, n.title])).toEqual([
      [1, 3, 'Uses uv. Run tests like this:'],
      [5, 7, 'Run the development version of the tool like this:'],
      [9, 9, 'Always practice TDD: write a faliing test, watch it fail, then make it pass.'],
    ])
    expect(notes.every((n) => n.kind === 'instruction' && n.file === path)).toBe(true)
  })

  it('skips the leading block comment of the easytrade CLAUDE.md', (ctx) => {
    needsCorpus(ctx)
    const path = `${corpus}/easytrade-CLAUDE.md`
    const notes = notesFromInstructionFile(path, readFileSync(path, 'utf8'))
    expect(notes[0].line).toBe(8)
    expect(notes[0].title).toBe(
      'This file provides guidance to Claude Code (claude.ai/code) when working with c…',
    )
  })
})

describe('long index lines', () => {
  it('checks the whole line, not the 80-character title', () => {
    const long = `- ${'word '.repeat(20)}then run \`npm run db:migrate\` before seeding`
    const notes = notesFromMemory({ indexPath: '/m/MEMORY.md', indexText: `${long}\n`, topics: [] })
    expect(notes).toHaveLength(1)
    expect(notes[0]!.title.length).toBeLessThanOrEqual(80)
    expect(notes[0]!.checkText).toContain('npm run db:migrate')
  })
})

describe('continuation lines of an index entry (one note model for every feature)', () => {
  const index = [
    '# Memory',
    '- [Deploy](deploy.md) — run `scripts/deploy.sh`',
    '  from the repository root, after `npm run build`',
    '\tand never on Fridays',
    '  - a nested item is a note of its own',
    '- Plain fact',
    '',
    '    not a continuation after a blank line',
  ].join('\n')
  const notes = notesFromMemory({
    indexPath: '/m/MEMORY.md',
    indexText: index,
    topics: [{ name: 'deploy.md', path: '/m/deploy.md', text: 'Body.\n' }],
  })

  it('belong to the entry: its range, its text and the text checked for references', () => {
    const deploy = notes.find((n) => n.title === 'Deploy')!
    expect([deploy.line, deploy.endLine]).toEqual([2, 4])
    expect(deploy.text.split('\n').slice(0, 3)).toEqual(index.split('\n').slice(1, 4))
    expect(deploy.checkText).toContain('`npm run build`')
    expect(deploy.topicFile).toBe('/m/deploy.md')
  })

  it('stop at a nested item and at a blank line, so no two notes share a line', () => {
    expect(notes.map((n) => [n.title, n.line, n.endLine])).toEqual([
      ['Deploy', 2, 4],
      ['a nested item is a note of its own', 5, 5],
      ['Plain fact', 6, 6],
    ])
  })
})

describe('links and mentions of the folder’s own notes (memory-links.ts)', () => {
  const notes = notesFromMemory({
    indexPath: '/m/MEMORY.md',
    indexText: [
      '- [Cart](cart.md) totals in cents, see also [auth](auth.md) and `src/cart.ts`',
      '- [Deep](sub/deep.md) the deep one',
      '',
      'Keep MEMORY.md short; `docs/auth.md` is the repository’s own page.',
    ].join('\n'),
    topics: [
      {
        name: 'cart.md',
        path: '/m/cart.md',
        text: 'See [auth notes](auth.md), feedback_testing.md and `auth.md`.\n',
      },
      {
        name: 'auth.md',
        path: '/m/auth.md',
        text: 'Tokens live in `src/auth.ts`; index: [back](MEMORY.md).\n',
      },
      {
        name: 'sub/deep.md',
        path: '/m/sub/deep.md',
        text: 'Next to [its sibling](other.md) and [up](../cart.md).\n',
      },
      { name: 'sub/other.md', path: '/m/sub/other.md', text: 'Other.\n' },
    ],
  })
  const refs = (title: string): string[] => {
    const n = notes.find((x) => x.title === title)
    expect(n, title).toBeDefined()
    return extractReferences(n!.checkText).map((r) => r.text)
  }

  it('reads a link to another note as its label, and passes over bare and quoted note names', () => {
    expect(refs('Cart')).toEqual(['src/cart.ts', 'feedback_testing.md'])
    expect(refs('auth.md')).toEqual(['src/auth.ts'])
  })

  it('resolves links from the folder of the file they are in', () => {
    expect(refs('Deep')).toEqual([])
  })

  it('keeps repository paths that only end like a note’s name', () => {
    const free = notes.find((n) => n.kind === 'index-text')!
    expect(extractReferences(free.checkText).map((r) => r.text)).toEqual(['docs/auth.md'])
  })
})
