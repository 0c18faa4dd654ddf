/**
 * "Fit under the cutoff" (issue 15 item 8) against the real cutoff function
 * (docs/memory-rules.md §2): a MEMORY.md shaped like a real 249-line one, and small cases.
 */
import { describe, expect, it } from 'vitest'
import { computeCutoff } from '../../../../src/core/memory/cutoff'
import { MEMORY_MAX_CHARS, MEMORY_MAX_LINES } from '../../../../src/core/limits'
import { planFit, type FitInput } from '../../../../src/core/memory/fit-plan'
import { scanIndex, topicsToRead } from '../../../../src/core/memory/fit-candidates'
import { realMemory } from '../../../helpers/real-memory'
import type { FitChoices } from '../../../../src/shared/model-fit'

const DIR = '/m'
const INDEX = `${DIR}/MEMORY.md`

function input(
  text: string,
  topics: ReadonlyMap<string, string>,
  extra: Partial<FitInput> = {},
): FitInput {
  const read = new Map(
    topicsToRead(scanIndex(text))
      .filter((n) => topics.has(n))
      .map((n) => [n, { path: `${DIR}/${n}`, text: topics.get(n) as string, hash: `h-${n}` }]),
  )
  return {
    index: { path: INDEX, text, hash: 'h-index' },
    topicNames: [...topics.keys()],
    topics: read,
    verdicts: null,
    noVerdicts: 'no audit of this project yet',
    choices: null,
    ...extra,
  }
}

const cut = (text: string, topics: readonly string[] = []) =>
  computeCutoff({ file: INDEX, text, totalBytes: 0, topicFiles: topics })

describe('planFit on a MEMORY.md shaped like a real 249-line one', () => {
  const real = realMemory()
  const fit = planFit(input(real.text, real.topics))
  const after = fit.plan.changes.find((c) => c.path === INDEX)?.after as string

  it('starts cut by the 200-line limit, with entries that do not load', () => {
    expect(fit.before.totalLines).toBe(249)
    expect(fit.before.loadedLines).toBe(MEMORY_MAX_LINES)
    expect(fit.before.limitHit).toBe('lines')
    expect(fit.before.entriesLoaded).toBeLessThan(fit.before.entries)
  })

  it('offers the blank lines, headings, duplicates and missing topic files it holds', () => {
    const count = (c: string) => fit.categories.find((x) => x.category === c)?.count
    // Blank lines: 101 of the file's 249 lines.
    expect(count('blank')).toBe(101)
    expect(count('heading')).toBe(20)
    expect(count('duplicate')).toBe(5)
    expect(count('dangling')).toBe(real.missing.length)
    expect(fit.candidates.filter((c) => c.category === 'duplicate' && c.defaultOn)).toHaveLength(3)
    // Without an audit the judged category is left out, and says why.
    expect(fit.categories.find((c) => c.category === 'judged')).toEqual({
      category: 'judged',
      count: 0,
      available: false,
      note: 'no audit of this project yet',
    })
  })

  it('by default frees enough room that every remaining entry loads, and nothing that loads falls', () => {
    expect(fit.plan.falls).toEqual([])
    expect(fit.after).toEqual({
      ...fit.after,
      limitHit: null,
      firstUnloadedLine: null,
    })
    expect(fit.after.entriesLoaded).toBe(fit.after.entries)
    // The gauges preview exactly what the real cutoff computes on the text the plan writes.
    const real2 = cut(after, [...real.topics.keys()])
    expect(fit.after.loadedLines).toBe(real2.loadedLines)
    expect(fit.after.loadedChars).toBe(real2.loadedChars)
    expect(fit.after.loadedBytes).toBe(real2.loadedBytes)
    // Korean text survives byte for byte.
    expect(after).toContain('결제 재시도는 전송 오류에만 적용한다')
  })

  it('removes only what was ticked: each kept entry is still there, each duplicate once', () => {
    const beforeLines = real.text.split('\n')
    const afterLines = after.split('\n')
    for (const c of fit.candidates.filter((x) => !fit.choices.chosen.includes(x.id))) {
      expect(afterLines).toContain(beforeLines[c.line - 1])
    }
    for (const name of real.missing) expect(after).not.toContain(`(${name})`)
    expect(after.split('(topic-10.md)')).toHaveLength(2)
    // Non-empty headings stay by default.
    expect(after).toContain('## 섹션 1\n')
  })

  it('ticking nothing plans no change and keeps the figures', () => {
    const none = planFit(input(real.text, real.topics, { choices: { chosen: [], move: [] } }))
    expect(none.plan.changes).toEqual([])
    expect(none.after).toEqual(none.before)
  })

  it('moves chosen entries above the cut only into freed room, in the order chosen', () => {
    const lastEntries = fit.moves.map((m) => m.line).reverse()
    // Free just three lines: three blank lines above the cut.
    const blanks = fit.candidates.filter((c) => c.category === 'blank' && c.loaded).slice(0, 3)
    const choices: FitChoices = { chosen: blanks.map((b) => b.id), move: lastEntries.slice(0, 5) }
    const p = planFit(input(real.text, real.topics, { choices }))
    expect(p.plan.falls).toEqual([])
    const state = (line: number) => p.moves.find((m) => m.line === line)?.state
    expect(lastEntries.slice(0, 3).map(state)).toEqual(['moved', 'moved', 'moved'])
    expect(lastEntries.slice(3, 5).map(state)).toEqual(['no-room', 'no-room'])
    const text = p.plan.changes[0].after as string
    const c = cut(text)
    const lines = text.split('\n')
    for (const m of lastEntries.slice(0, 3)) {
      const at = lines.indexOf(real.text.split('\n')[m - 1]) + 1
      expect(c.entries.find((e) => e.line === at)?.loaded).toBe(true)
    }
    expect(p.after.loadedLines).toBe(MEMORY_MAX_LINES)
  }, 60_000)
})

describe('planFit on small files', () => {
  const entries = (n: number, from = 1) =>
    Array.from({ length: n }, (_, i) => `- [E${i + from}](e${i + from}.md) — hook ${i + from}`)
  const topicsOf = (n: number) =>
    new Map(Array.from({ length: n }, (_, i) => [`e${i + 1}.md`, `# e${i + 1}\n`]))

  it('with no room freed, a chosen move is refused rather than pushing an entry out', () => {
    const text = `${entries(210).join('\n')}\n`
    const p = planFit(input(text, topicsOf(210), { choices: { chosen: [], move: [210] } }))
    expect(p.moves.find((m) => m.line === 210)?.state).toBe('no-room')
    expect(p.plan.changes).toEqual([])
    expect(p.plan.falls).toEqual([])
  })

  it('offers judged notes only from the audit, unticked, and keeps their topic files', () => {
    const text = `${entries(5).join('\n')}\n`
    const p = planFit(
      input(text, topicsOf(5), {
        verdicts: [
          { line: 2, verdict: 'stale' },
          { line: 4, verdict: 'never-matched' },
          { line: 5, verdict: 'fresh' },
        ],
      }),
    )
    const judged = p.candidates.filter((c) => c.category === 'judged')
    expect(judged.map((c) => [c.line, c.defaultOn])).toEqual([
      [2, false],
      [4, false],
    ])
    expect(judged[1].detail).toContain('wrong from the start')
    const chosen = planFit(
      input(text, topicsOf(5), {
        verdicts: [{ line: 2, verdict: 'stale' }],
        choices: { chosen: ['judged:2'], move: [] },
      }),
    )
    expect(chosen.plan.changes.map((c) => c.path)).toEqual([INDEX])
    expect(chosen.plan.changes[0].after).toBe(
      `${entries(5)
        .filter((_, i) => i !== 1)
        .join('\n')}\n`,
    )
  })

  it('moves a long entry’s detail to its topic file, keeping the link and first sentence', () => {
    const hook = `First sentence here. ${'More detail that only matters sometimes. '.repeat(5).trim()}`
    const text = `- [Short](e1.md) — fine\n- [Long one](long.md) — ${hook}\n  - an indented detail line\n`
    const topics = new Map([
      ['e1.md', '# e1\n'],
      ['long.md', '---\nname: Long one\n---\n\nBody.\n'],
    ])
    const p = planFit(input(text, topics))
    expect(p.candidates.map((c) => c.id)).toEqual(['long:2'])
    expect(p.plan.changes).toEqual([
      {
        path: INDEX,
        expectedHash: 'h-index',
        before: text,
        after: '- [Short](e1.md) — fine\n- [Long one](long.md) — First sentence here.\n',
      },
      {
        path: `${DIR}/long.md`,
        expectedHash: 'h-long.md',
        before: topics.get('long.md'),
        after: `---\nname: Long one\n---\n\nBody.\n\n${hook}\n- an indented detail line\n`,
      },
    ])
    expect(p.after.loadedChars).toBeLessThan(p.before.loadedChars)
  })

  it('never offers blank lines inside code, next to a stripped comment, or outside the trimmed text', () => {
    const text = [
      '',
      '# Title',
      '',
      '```',
      '',
      '```',
      '<!-- a comment -->',
      '',
      '- [A](e1.md) — a',
      '',
      '- [B](e2.md) — b',
      '',
      '',
    ].join('\n')
    const p = planFit(input(text, topicsOf(2)))
    expect(p.candidates.filter((c) => c.category === 'blank').map((c) => c.line)).toEqual([3, 10])
  })

  it('keeps CRLF line breaks, and frees characters when the character limit cuts', () => {
    // Korean entries of about 300 UTF-16 units: the 25,000 limit cuts before 200 lines.
    const long = (i: number) => `- [항목 ${i}](e${i}.md) — ${'가'.repeat(40)}. ${'나'.repeat(240)}`
    const lines: string[] = []
    for (let i = 1; i <= 110; i++) lines.push(long(i), '')
    const text = lines.join('\r\n')
    const p = planFit(input(text, topicsOf(110), { choices: { chosen: [], move: [] } }))
    expect(p.before.limitHit).toBe('chars')
    expect(p.candidates.filter((c) => c.category === 'long')).toHaveLength(110)
    const q = planFit(input(text, topicsOf(110)))
    const out = q.plan.changes[0].after as string
    expect(out.includes('\r\n')).toBe(true)
    expect(out.replace(/\r\n/g, '')).not.toContain('\n')
    expect(q.after.limitHit).toBe(null)
    expect(q.after.entriesLoaded).toBe(110)
    expect(q.after.loadedChars).toBeLessThanOrEqual(MEMORY_MAX_CHARS)
    expect(q.after.loadedChars).toBe(cut(out).loadedChars)
    // Each topic file gets the detail its entry no longer holds.
    expect(q.plan.changes).toHaveLength(111)
    expect(q.plan.changes[1].after).toContain('나'.repeat(240))
  })

  it('counts the entries under each heading, nested levels included, and ticks only empty ones', () => {
    const text = [
      '# Top',
      '## A',
      '- [E1](e1.md) — a',
      '### A.1',
      '- [E2](e2.md) — b',
      '## Empty',
      '## B',
      '- [E3](e3.md) — c',
      '',
    ].join('\n')
    const p = planFit(input(text, topicsOf(3)))
    const headings = p.candidates.filter((c) => c.category === 'heading')
    expect(headings.map((h) => [h.title, h.defaultOn, h.detail])).toEqual([
      ['Top', false, 'A heading over 3 entries: removing it frees a line; the entries stay.'],
      ['A', false, 'A heading over 2 entries: removing it frees a line; the entries stay.'],
      ['A.1', false, 'A heading over 1 entry: removing it frees a line; the entries stay.'],
      ['Empty', true, 'A heading with no entry under it.'],
      ['B', false, 'A heading over 1 entry: removing it frees a line; the entries stay.'],
    ])
  })

  it('plans a 2,000-entry index with a heading over every entry (linear passes, no hang)', () => {
    const lines: string[] = []
    for (let i = 1; i <= 2_000; i++) lines.push(`## H${i}`, `- [E${i}](e${i}.md) — hook ${i}`, '')
    const p = planFit(input(`${lines.join('\n')}\n`, topicsOf(2_000)))
    expect(p.candidates.filter((c) => c.category === 'heading')).toHaveLength(2_000)
    expect(p.candidates.filter((c) => c.category === 'blank')).toHaveLength(1_999)
    expect(p.plan.falls).toEqual([])
    expect(p.after.loadedLines).toBe(MEMORY_MAX_LINES)
  }, 60_000)
})
