import { describe, expect, it } from 'vitest'
import { computeCutoff } from '../../../../src/core/memory/cutoff'
import { MEMORY_MAX_CHARS, MEMORY_MAX_LINES } from '../../../../src/core/limits'
import {
  planDeleteEntry,
  planExtractToTopic,
  planMoveEntryAboveCutoff,
  planReplaceText,
  planSteps,
  shortHook,
  topicNameProblem,
  type EditSource,
} from '../../../../src/core/memory/edit-plan'

const INDEX = '/m/MEMORY.md'
const src = (text: string, path = INDEX): EditSource => ({ path, text, hash: `hash-of-${path}` })

/** `n` entries `- [E1](e1.md) — hook 1` … as lines (no breaks). */
function entries(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `- [E${i + 1}](e${i + 1}.md) — hook ${i + 1}`)
}

function loads(text: string, line: number): boolean {
  const c = computeCutoff({ file: INDEX, text, totalBytes: 0, topicFiles: [] })
  return c.entries.find((e) => e.line === line)?.loaded ?? false
}

describe('planMoveEntryAboveCutoff', () => {
  const head = entries(MEMORY_MAX_LINES - 1) // lines 1–199
  const lines = [
    ...head,
    '- [Last](last.md) — last to load',
    '- [New](new.md) — new',
    '- [Newer](newer.md) — newest',
  ]

  it('moves the entry to the last loaded line and names the line it pushes out', () => {
    const text = lines.join('\n') + '\n'
    expect(loads(text, 202)).toBe(false)
    const plan = planMoveEntryAboveCutoff(src(text), 202)
    expect(plan.problems).toEqual([])
    expect(plan.title).toBe(
      'Move “Newer” above the load cutoff (line 202 to line 200); “Last” (now line 201) falls below it',
    )
    const expected = [
      ...head,
      '- [Newer](newer.md) — newest',
      '- [Last](last.md) — last to load',
      '- [New](new.md) — new',
    ]
    expect(plan.changes).toEqual([
      {
        path: INDEX,
        expectedHash: `hash-of-${INDEX}`,
        before: text,
        after: expected.join('\n') + '\n',
      },
    ])
    expect(loads(plan.changes[0].after as string, 200)).toBe(true)
    // The line that stops loading is named for the window, which asks before applying.
    expect(plan.falls).toEqual([
      { line: 200, text: '- [Last](last.md) — last to load', entry: true },
    ])
  })

  it('keeps \\r\\n line breaks and a missing final newline', () => {
    const text = lines.join('\r\n') // no final newline; the moved entry was the last line
    const plan = planMoveEntryAboveCutoff(src(text), 202)
    const expected = [
      ...head,
      '- [Newer](newer.md) — newest',
      '- [Last](last.md) — last to load',
      '- [New](new.md) — new',
    ]
    expect(plan.changes[0].after).toBe(expected.join('\r\n'))
  })

  it('keeps mixed breaks of untouched lines as they were', () => {
    const text = lines.map((l, i) => l + (i === 5 ? '\n' : '\r\n')).join('')
    const after = planMoveEntryAboveCutoff(src(text), 201).changes[0].after as string
    expect(after.split('\n')[5]).toBe(lines[5])
    expect(after.split('\r\n').length).toBe(lines.length) // 202 lines, one plain \n among them
    expect(after.endsWith('- [Newer](newer.md) — newest\r\n')).toBe(true)
  })

  it('is a problem when the entry already loads', () => {
    const text = lines.join('\n') + '\n'
    expect(planMoveEntryAboveCutoff(src(text), 5)).toEqual({
      title: 'Move “E5” above the load cutoff',
      changes: [],
      problems: [
        { path: INDEX, reason: 'it already loads at session start (the cutoff is at line 201)' },
      ],
    })
    expect(planMoveEntryAboveCutoff(src('- [A](a.md)\n'), 1).problems[0].reason).toBe(
      'it already loads at session start: the whole file is within the limits',
    )
    expect(planMoveEntryAboveCutoff(src(text), 300).problems[0].reason).toBe(
      'line 300 is not an index entry',
    )
  })

  it('under the character limit, puts a short entry just above the first unloaded line, pushing nothing', () => {
    const big = Array.from({ length: 10 }, () => 'a'.repeat(2400)) // 24,009 chars with breaks
    const text = [...big, 'b'.repeat(1000), '- [S](s.md)'].join('\n') + '\n'
    expect(big.join('\n').length).toBeLessThan(MEMORY_MAX_CHARS)
    const plan = planMoveEntryAboveCutoff(src(text), 12)
    expect(plan.title).toBe('Move “S” above the load cutoff (line 12 to line 11)')
    expect(plan.changes[0].after).toBe([...big, '- [S](s.md)', 'b'.repeat(1000)].join('\n') + '\n')
  })

  it('moves continuation lines with the entry, and never into a code block', () => {
    const text =
      [
        ...entries(196), // lines 1–196
        '- [Held](held.md) — with detail', // 197
        '  detail one', // 198
        '```', // 199
        'code', // 200
        '```', // 201
        '- [Late](late.md) — late', // 202
        '  late detail', // 203
      ].join('\n') + '\n'
    const plan = planMoveEntryAboveCutoff(src(text), 202)
    // Before line 201 or 200 would be inside the fence; before its opening line is fine.
    expect(plan.title).toBe(
      'Move “Late” above the load cutoff (lines 202–203 to lines 199–200); “```” (now line 201) and “code” (now line 202) fall below it',
    )
    const after = plan.changes[0].after as string
    expect(after.split('\n').slice(196, 204)).toEqual([
      '- [Held](held.md) — with detail',
      '  detail one',
      '- [Late](late.md) — late',
      '  late detail',
      '```',
      'code',
      '```',
      '',
    ])
    expect(loads(after, 199)).toBe(true)
  })

  it('never separates another entry from its continuation lines', () => {
    const text =
      [
        ...entries(197), // lines 1–197
        '- [Held](held.md) — with detail', // 198
        '  detail one', // 199
        '  detail two', // 200
        '- [Late](late.md) — late', // 201
      ].join('\n') + '\n'
    const plan = planMoveEntryAboveCutoff(src(text), 201)
    expect(plan.title).toBe(
      'Move “Late” above the load cutoff (line 201 to line 198); “detail two” (now line 201) falls below it',
    )
    expect((plan.changes[0].after as string).split('\n').slice(197)).toEqual([
      '- [Late](late.md) — late',
      '- [Held](held.md) — with detail',
      '  detail one',
      '  detail two',
      '',
    ])
  })
})

describe('planDeleteEntry', () => {
  const text =
    '# Memory\n- [A](a.md) — first\n  more\n- [B](b.md) — second\n- [Shared](s.md)\n- [Again](s.md)\n- plain note\n'
  const topicA = { name: 'a.md', path: '/m/a.md', current: { text: 'A body\n', hash: 'ha' } }

  it('removes the entry and its continuation lines; with deleteTopic also the topic file', () => {
    expect(planDeleteEntry(src(text), 2, true, topicA)).toEqual({
      title: 'Delete the entry “A” (lines 2–3) and its topic file a.md',
      changes: [
        {
          path: INDEX,
          expectedHash: `hash-of-${INDEX}`,
          before: text,
          after:
            '# Memory\n- [B](b.md) — second\n- [Shared](s.md)\n- [Again](s.md)\n- plain note\n',
        },
        { path: '/m/a.md', expectedHash: 'ha', before: 'A body\n', after: null },
      ],
      problems: [],
    })
  })

  it('keeps a topic another entry links, a missing one, and says why', () => {
    const shared = planDeleteEntry(src(text), 5, true, {
      name: 's.md',
      path: '/m/s.md',
      current: { text: 'S\n', hash: 'hs' },
    })
    expect(shared.changes.map((c) => c.path)).toEqual([INDEX])
    expect(shared.problems).toEqual([
      {
        path: '/m/s.md',
        reason: 'the topic file s.md is also linked by “Again” (line 6), so it is kept',
      },
    ])
    const missing = planDeleteEntry(src(text), 4, true, {
      name: 'b.md',
      path: '/m/b.md',
      current: null,
    })
    expect(missing.problems).toEqual([
      {
        path: '/m/b.md',
        reason: 'the topic file b.md does not exist, so there is nothing to delete',
      },
    ])
    const plain = planDeleteEntry(src(text), 7, true, null)
    expect(plain.title).toBe('Delete the entry “plain note” (line 7)')
    expect(plain.problems[0].reason).toBe(
      'the entry on line 7 links no topic file, so none is deleted',
    )
    expect(plain.changes[0].after).toBe(
      '# Memory\n- [A](a.md) — first\n  more\n- [B](b.md) — second\n- [Shared](s.md)\n- [Again](s.md)\n',
    )
  })

  it('keeps \\r\\n and a missing final newline when the last line goes', () => {
    const crlf = '- [A](a.md)\r\n- [B](b.md)\r\n- [C](c.md)'
    expect(planDeleteEntry(src(crlf), 3, false, null).changes[0].after).toBe(
      '- [A](a.md)\r\n- [B](b.md)',
    )
    expect(planDeleteEntry(src(crlf), 1, false, null).changes[0].after).toBe(
      '- [B](b.md)\r\n- [C](c.md)',
    )
  })
})

describe('planExtractToTopic', () => {
  it('moves the hook and continuation lines into a new topic file with frontmatter', () => {
    const text =
      '## Build\r\n- [Build setup](https://example.com/ci) — Run `npm run build` first. It needs Node 22.\r\n' +
      '  Uses `vite.cli.config.ts`.\r\n    - nested detail\r\n- [Other](o.md)'
    const plan = planExtractToTopic(src(text), 2, {
      name: 'build.md',
      path: '/m/build.md',
      exists: false,
    })
    expect(plan.problems).toEqual([])
    expect(plan.title).toBe('Extract “Build setup” to build.md')
    expect(plan.changes).toEqual([
      {
        path: INDEX,
        expectedHash: `hash-of-${INDEX}`,
        before: text,
        after:
          '## Build\r\n- [Build setup](build.md) — Run `npm run build` first.\r\n- [Other](o.md)',
      },
      {
        path: '/m/build.md',
        expectedHash: null,
        before: null,
        after:
          '---\r\nname: Build setup\r\ndescription: Run `npm run build` first.\r\ntype: project\r\n---\r\n\r\n' +
          '[Build setup](https://example.com/ci)\r\n\r\n' +
          'Run `npm run build` first. It needs Node 22.\r\nUses `vite.cli.config.ts`.\r\n  - nested detail\r\n',
      },
    ])
  })

  it('takes the title of an item without a link from the file name', () => {
    const plan = planExtractToTopic(src('- Deploys go through `make ship`: never by hand\n'), 1, {
      name: 'deploy-rules.md',
      path: '/m/deploy-rules.md',
      exists: false,
    })
    expect(plan.changes.map((c) => c.after)).toEqual([
      // The line with the hook would be longer than the entry it replaces (issue 15 item 8).
      '- [Deploy rules](deploy-rules.md)\n',
      '---\nname: Deploy rules\ndescription: "Deploys go through `make ship`: never by hand"\ntype: project\n---\n\nDeploys go through `make ship`: never by hand\n',
    ])
  })

  it('never puts a longer line in place of a one-line entry: it refuses when a link alone is longer', () => {
    const plan = planExtractToTopic(src('- Use pnpm\n'), 1, {
      name: 'package-manager-rules.md',
      path: '/m/package-manager-rules.md',
      exists: false,
    })
    expect(plan.changes).toEqual([])
    expect(plan.problems.map((p) => p.reason)).toEqual([
      'the entry is one line of 10 characters, and a link to a topic file would take 51: moving its detail frees no room',
    ])
  })

  it('refuses a bad or existing name, a linked topic, and an entry with nothing to move', () => {
    const text = '- [A](a.md) — has topic\n- [B](https://x.y)\n- [C](https://x.y) — text\n'
    const at = (name: string, exists = false, line = 3) =>
      planExtractToTopic(src(text), line, { name, path: `/m/${name}`, exists }).problems.map(
        (p) => p.reason,
      )
    expect(at('c.txt')).toEqual(['the topic file name "c.txt" must end in .md'])
    expect(at('sub/c.md')).toEqual([
      'the topic file name "sub/c.md" must be a plain file name, without folders',
    ])
    expect(at('MEMORY.md')).toEqual(['MEMORY.md is the index itself, not a topic file'])
    expect(at('c.md', true)).toEqual(['c.md already exists; choose another name'])
    expect(at('n.md', false, 1)).toEqual([
      'the entry already links the topic file a.md; edit that file instead',
    ])
    expect(at('n.md', false, 2)).toEqual([
      'the entry has no text after its link to move into a topic file',
    ])
    expect(topicNameProblem('fine-name.md')).toBeNull()
  })
})

describe('shortHook', () => {
  it('keeps the first sentence and cuts long ones at a word, never inside a code span', () => {
    expect(shortHook('First one. Second.')).toBe('First one.')
    expect(shortHook('Paths like src/x.ts stay whole')).toBe('Paths like src/x.ts stay whole')
    const long = `${'word '.repeat(22)}\`some code here\` tail`
    const cut = shortHook(long)
    expect(cut).toBe(`${'word '.repeat(22).trimEnd()}…`)
  })
})

describe('planReplaceText', () => {
  it('replaces within the note lines only, in the index and the topic file', () => {
    const index = src('- [A](a.md) — see src/old.ts\n- [B](b.md) — src/old.ts too\n')
    const topic = src(
      '---\r\nname: A\r\n---\r\nEdit src/old.ts, then src/old.ts again.\r\n',
      '/m/a.md',
    )
    const plan = planReplaceText(
      [
        { source: index, startLine: 1, endLine: 1 },
        { source: topic, startLine: 1, endLine: Number.MAX_SAFE_INTEGER },
      ],
      'src/old.ts',
      'src/new.ts',
      'A',
    )
    expect(plan).toEqual({
      title: 'Replace “src/old.ts” with “src/new.ts” in “A” (3 places)',
      changes: [
        {
          path: INDEX,
          expectedHash: `hash-of-${INDEX}`,
          before: index.text,
          after: '- [A](a.md) — see src/new.ts\n- [B](b.md) — src/old.ts too\n',
        },
        {
          path: '/m/a.md',
          expectedHash: 'hash-of-/m/a.md',
          before: topic.text,
          after: '---\r\nname: A\r\n---\r\nEdit src/new.ts, then src/new.ts again.\r\n',
        },
      ],
      problems: [],
    })
  })

  it('is a problem when the text is empty, spans lines or does not occur', () => {
    const r = [{ source: src('- [A](a.md) — x\n'), startLine: 1, endLine: 1 }]
    expect(planReplaceText(r, '', 'y', 'A').problems[0].reason).toBe('the text to replace is empty')
    expect(planReplaceText(r, 'a\nb', 'y', 'A').problems[0].reason).toBe(
      'the text to replace and its replacement must each be on one line',
    )
    expect(planReplaceText(r, 'zzz', 'y', 'A')).toEqual({
      title: 'Replace “zzz” with “y” in “A”',
      changes: [],
      problems: [{ path: INDEX, reason: '“zzz” does not occur in the note' }],
    })
  })
})

describe('planSteps', () => {
  it('orders creates first, then edits, deletions last, keeping the plan order within each', () => {
    const c = (path: string, expectedHash: string | null, after: string | null) => ({
      path,
      expectedHash,
      after,
    })
    const steps = planSteps([
      c('/m/gone.md', 'h1', null),
      c('/m/MEMORY.md', 'h2', 'index'),
      c('/m/new-a.md', null, 'a'),
      c('/m/other.md', 'h3', null),
      c('/m/topic.md', 'h4', 'topic'),
      c('/m/new-b.md', null, 'b'),
    ])
    expect(steps.map((s) => [s.kind, s.change.path])).toEqual([
      ['create', '/m/new-a.md'],
      ['create', '/m/new-b.md'],
      ['edit', '/m/MEMORY.md'],
      ['edit', '/m/topic.md'],
      ['delete', '/m/gone.md'],
      ['delete', '/m/other.md'],
    ])
  })
})
