/** The excerpt before a write: real transcripts, the turn and size bounds, hostile text, sub-agents. */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  cutText,
  ExcerptCollector,
  plainText,
  type Excerpt,
} from '../../../../src/core/transcripts/excerpt'
import {
  EXCERPT_ITEM_MAX_CHARS,
  EXCERPT_MAX_CHARS,
  EXCERPT_MAX_TURNS,
} from '../../../../src/core/limits'
import { CORPUS_ROOT, FIXTURES_ROOT, needsCorpus } from '../../../helpers/corpus'

function excerptOf(text: string, id: string): Excerpt | undefined {
  const c = new ExcerptCollector([id])
  for (const line of text.split('\n')) c.add(line)
  return c.excerpts.get(id)
}

const size = (e: Excerpt): number =>
  e.items.reduce((n, i) => n + i.text.length + (i.input?.length ?? 0), 0)

describe('ExcerptCollector on real transcripts', () => {
  it('long-session: the request, eight Glob results, a failed Bash, then the Write', () => {
    const text = readFileSync(`${FIXTURES_ROOT}/transcripts/long-session.jsonl`, 'utf8')
    const e = excerptOf(text, 'toolu_21Write')!
    expect(e.items[0]).toMatchObject({
      kind: 'person',
      text: 'Add a README section on running the ledger locally.',
    })
    const tools = e.items.filter((i) => i.kind === 'tool')
    expect(tools.map((t) => t.tool)).toEqual([...Array(8).fill('Glob'), 'Bash'])
    expect(tools.every((t) => t.text !== '')).toBe(true)
    expect(tools[8]).toMatchObject({
      input: 'npm run nonexistent-script',
      failed: true,
      text: 'npm error Missing script: "nonexistent-script"',
    })
    expect(e.items[e.items.length - 1]).toMatchObject({
      kind: 'write',
      tool: 'Write',
      input: '/srv/demo/README.md',
    })
    expect(e.items[e.items.length - 1].text).toContain('## Running locally')
    expect(e.omitted).toBe(0)
  })

  it('summary-first: an Edit whose result failed is an excerpt of its own, after the Write', () => {
    const text = readFileSync(
      `${FIXTURES_ROOT}/transcripts/summary-first-write-edit-multiedit.jsonl`,
      'utf8',
    )
    const c = new ExcerptCollector(['toolu_01LedgerWrite', 'toolu_02LedgerEdit'])
    for (const line of text.split('\n')) c.add(line)
    expect(c.done).toBe(true)
    const edit = c.excerpts.get('toolu_02LedgerEdit')!
    expect(edit.items.map((i) => [i.kind, i.tool])).toEqual([
      ['tool', 'Write'],
      ['write', 'Edit'],
    ])
    expect(edit.items[1].text).toBe('  id: string\n  amountCents: number\n')
  })

  it("corpus v1.0.98: the /init command is the person's words, the meta line is not", (ctx) => {
    needsCorpus(ctx)
    const text = readFileSync(`${CORPUS_ROOT}/transcripts/cc-transcript-v1.0.98-full.jsonl`, 'utf8')
    const e = excerptOf(text, 'toolu_01LM7vfs6eMdhHJokVajzJA1')!
    const people = e.items.filter((i) => i.kind === 'person')
    expect(people).toHaveLength(1)
    expect(people[0].text).toContain('<command-message>init is analyzing your codebase')
    expect(e.items[e.items.length - 1]).toMatchObject({ kind: 'write', tool: 'Write' })
    expect(e.items.filter((i) => i.kind === 'tool').length).toBeGreaterThan(5)
    expect(size(e)).toBeLessThanOrEqual(EXCERPT_MAX_CHARS)
  })
})

const line = (o: object): string => JSON.stringify(o)
const person = (t: string, text: string, side = false) =>
  line({ type: 'user', timestamp: t, isSidechain: side, message: { role: 'user', content: text } })
const call = (t: string, id: string, name: string, input: object, side = false) =>
  line({
    type: 'assistant',
    timestamp: t,
    isSidechain: side,
    message: { content: [{ type: 'tool_use', id, name, input }] },
  })
const result = (t: string, id: string, content: string, side = false) =>
  line({
    type: 'user',
    timestamp: t,
    isSidechain: side,
    message: { content: [{ type: 'tool_result', tool_use_id: id, content }] },
  })

describe('ExcerptCollector bounds', () => {
  it('keeps the last turns only, each item and the whole cut to their bounds, newest kept', () => {
    const lines: string[] = []
    for (let i = 0; i < 10; i++) {
      lines.push(person(`t${i}`, `turn ${i}`))
      lines.push(call(`t${i}`, `r${i}`, 'Read', { file_path: `/x/${i}.ts` }))
      lines.push(result(`t${i}`, `r${i}`, 'x'.repeat(50_000)))
    }
    lines.push(
      call('t9', 'w', 'Write', { file_path: '/m/memory/a.md', content: 'y'.repeat(50_000) }),
    )
    const e = excerptOf(lines.join('\n'), 'w')!
    for (const i of e.items) expect(i.text.length).toBeLessThanOrEqual(EXCERPT_ITEM_MAX_CHARS)
    expect(e.items.find((i) => i.kind === 'tool')?.truncated).toBe(true)
    expect(size(e)).toBeLessThanOrEqual(EXCERPT_MAX_CHARS)
    const people = e.items.filter((i) => i.kind === 'person').map((i) => i.text)
    expect(people.length).toBeLessThanOrEqual(EXCERPT_MAX_TURNS)
    expect(people[people.length - 1]).toBe('turn 9')
    expect(e.items[e.items.length - 1].kind).toBe('write')
    expect(e.omitted).toBeGreaterThan(0)
  })

  it("a sub-agent's write sees its own thread, not the main session's", () => {
    const text = [
      person('a', 'main session words'),
      person('b', 'the task given to the sub-agent', true),
      call('c', 'w', 'Write', { file_path: '/m/memory/x.md', content: 'x' }, true),
    ].join('\n')
    const e = excerptOf(text, 'w')!
    expect(e.items.map((i) => i.text)).toEqual(['the task given to the sub-agent', 'x'])
  })

  it('broken lines, unknown shapes and results without a call are skipped', () => {
    const text = [
      '{"type":"user","message":',
      '[1,2]',
      line({ type: 'user', message: { content: 42 } }),
      result('a', 'nobody', 'orphan result'),
      call('b', 'w', 'Edit', { file_path: '/m/memory/x.md', old_string: 'a', new_string: 'b' }),
    ].join('\n')
    expect(excerptOf(text, 'w')!.items).toEqual([
      {
        kind: 'write',
        timestamp: 'b',
        tool: 'Edit',
        input: '/m/memory/x.md',
        text: 'b',
        truncated: false,
        failed: false,
      },
    ])
  })
})

describe('plainText', () => {
  it('drops control characters, ANSI escapes and direction overrides; keeps markup as text', () => {
    expect(plainText('a\u001b[31mred\u001b[0m\u202Eb\u0000c\r\nd\te')).toBe('aredbc\nd\te')
    expect(plainText('<img src=x onerror=alert(1)>')).toBe('<img src=x onerror=alert(1)>')
  })

  it('cuts long text without splitting a surrogate pair', () => {
    const s = 'a'.repeat(9) + '😀' + 'b'.repeat(100)
    const cut = cutText(s, 10)
    expect(cut).toEqual({ text: 'a'.repeat(9), truncated: true })
  })
})
