import { describe, expect, it } from 'vitest'
import {
  applyWrite,
  attributeLines,
  findLostLines,
  orderByTime,
  replayWrites,
  type ReplayStep,
} from '../../../../src/core/transcripts/replay'
import type { WriteInput } from '../../../../src/core/transcripts/line'

let clock = 0
function step(sessionId: string, input: WriteInput, extra: Partial<ReplayStep> = {}): ReplayStep {
  clock++
  return {
    sessionId,
    timestamp: `2026-01-01T00:00:${String(clock).padStart(2, '0')}.000Z`,
    input,
    status: 'ok',
    originalFile: null,
    ...extra,
  }
}
const write = (content: string): WriteInput => ({ tool: 'Write', content })
const edit = (oldString: string, newString: string, replaceAll = false): WriteInput => ({
  tool: 'Edit',
  edit: { oldString, newString, replaceAll },
})
const multi = (...edits: [string, string][]): WriteInput => ({
  tool: 'MultiEdit',
  edits: edits.map(([oldString, newString]) => ({ oldString, newString, replaceAll: false })),
})

describe('applyWrite', () => {
  it('applies Write, Edit, replace_all and MultiEdit in sequence', () => {
    expect(applyWrite(null, write('a\n'))).toEqual({ ok: true, text: 'a\n' })
    expect(applyWrite('x y x', edit('x', 'z'))).toEqual({ ok: true, text: 'z y x' })
    expect(applyWrite('x y x', edit('x', 'z', true))).toEqual({ ok: true, text: 'z y z' })
    expect(applyWrite('a b', multi(['a', 'c'], ['c b', 'done']))).toEqual({
      ok: true,
      text: 'done',
    })
  })

  it('inserts `$` patterns literally', () => {
    expect(applyWrite('cost: X', edit('X', "$& $1 $$ $'"))).toEqual({
      ok: true,
      text: "cost: $& $1 $$ $'",
    })
  })

  it('matches LF edits against a CRLF file and keeps CRLF', () => {
    expect(applyWrite('a\r\nb\r\n', edit('a\nb', 'a\nc'))).toEqual({ ok: true, text: 'a\r\nc\r\n' })
  })

  it('refuses what it cannot reproduce, with a reason', () => {
    expect(applyWrite(null, edit('a', 'b'))).toEqual({
      ok: false,
      reason: 'previous content unknown: history starts with an edit and no originalFile',
    })
    expect(applyWrite(null, edit('', 'new file'))).toEqual({ ok: true, text: 'new file' })
    expect(applyWrite('abc', edit('zz', 'b'))).toEqual({
      ok: false,
      reason: 'old_string not found in the replayed text',
    })
    expect(applyWrite('abc', multi(['a', 'A'], ['q', 'Q']))).toEqual({
      ok: false,
      reason: 'edit 2 of 2: old_string not found in the replayed text',
    })
  })
})

describe('orderByTime', () => {
  it('sorts by time, keeps ties in input order, puts unparsable times last', () => {
    const items = [
      { id: 'late', timestamp: '2026-01-02T00:00:00Z' },
      { id: 'bad', timestamp: 'yesterday' },
      { id: 'tie1', timestamp: '2026-01-01T00:00:00.000Z' },
      { id: 'tie2', timestamp: '2026-01-01T00:00:00Z' },
    ]
    expect(orderByTime(items).map((i) => i.id)).toEqual(['tie1', 'tie2', 'late', 'bad'])
  })
})

describe('replayWrites', () => {
  it('replays Write → Edit → MultiEdit and attributes each line', () => {
    const steps = [
      step('A', write('# Memory\n- one\n')),
      step('A', edit('- one\n', '- one\n- two\n')),
      step('B', multi(['# Memory', '# Notes'], ['- two\n', '- two\n- three\n'])),
    ]
    const r = replayWrites(steps)
    expect(r.outcomes).toEqual([
      { kind: 'applied', exact: true },
      { kind: 'applied', exact: true },
      { kind: 'applied', exact: true },
    ])
    expect(r.final?.text).toBe('# Notes\n- one\n- two\n- three\n')
    expect(r.final?.owners).toEqual([2, 0, 1, 2])
    // B's MultiEdit rewrote the heading in place: a change it saw, not a loss.
    expect(r.removals).toEqual([])
    // A line typed by hand after the last write has no recorded author.
    expect(attributeLines('# Notes\n- one\n- hand-made\n- two\n- three\n', r)).toEqual([
      2,
      0,
      null,
      1,
      2,
    ])
  })

  it('finds lines session A added that session B’s later Write dropped', () => {
    const steps = [
      step('A', write('# M\n- a1\n')),
      step('B', edit('- a1\n', '- a1\n- b1\n')),
      step('A', edit('- b1\n', '- b1\n- a2\n\n')),
      // B writes from its stale view: a2 (A's) is lost; the blank line is not reported.
      step('B', write('# M\n- a1\n- b1\n- b2\n')),
      // A removing its own line is not a loss between sessions.
      step('A', edit('- a1\n', '')),
    ]
    const r = replayWrites(steps)
    expect(
      findLostLines(r, null).map((l) => [
        l.text,
        l.addedBy,
        l.removedBy,
        l.addedStep,
        l.removedStep,
      ]),
    ).toEqual([['- a2', 'A', 'B', 2, 3]])
    // A lost line later written again is in the final content, so it is not lost.
    expect(findLostLines(r, '# M\n- b1\n- a2\n')).toEqual([])
  })

  it('counts lines an edit deletes outright, and anything a Write replaces', () => {
    const r = replayWrites([
      step('A', write('h\n- a1\n- a2\n- a3\n')),
      step('B', edit('- a1\n', '')),
      step('B', edit('- a2\n', '- b2\n')),
      step('B', write('h\n- b3\n')),
    ])
    expect(r.removals.map((l) => [l.text, l.removedStep])).toEqual([
      ['- a1', 1],
      ['- a3', 3],
    ])
  })

  it('keeps the author of a line moved within one write', () => {
    const r = replayWrites([step('A', write('x\ny\n')), step('B', write('y\nx\nz\n'))])
    expect(r.final?.owners).toEqual([0, 0, 1])
    expect(r.removals).toEqual([])
  })

  it('changes nothing for failed and unknown calls', () => {
    const r = replayWrites([
      step('A', write('a\n')),
      step('B', write('b\n'), { status: 'failed' }),
      step('B', write('c\n'), { status: 'unknown' }),
    ])
    expect(r.outcomes).toEqual([
      { kind: 'applied', exact: true },
      { kind: 'not-applied', reason: 'the call failed' },
      { kind: 'not-applied', reason: 'no result recorded (transcript ends before it)' },
    ])
    expect(r.final?.text).toBe('a\n')
    expect(r.removals).toEqual([])
  })

  it('counts an unknown call as applied when a later anchor proves it', () => {
    const r = replayWrites([
      step('A', write('a\n')),
      step('B', edit('a\n', 'a\nb\n'), { status: 'unknown' }),
      step('A', edit('b\n', 'b\nc\n'), { originalFile: 'a\nb\n' }),
    ])
    expect(r.outcomes.map((o) => o.kind)).toEqual(['applied', 'applied', 'applied'])
    expect(r.final?.owners).toEqual([0, 1, 2])
    expect(r.drifts).toBe(0)
  })

  it('marks an edit it cannot reproduce and re-anchors on originalFile', () => {
    const r = replayWrites([
      step('A', edit('x', 'y')),
      step('A', edit('k', 'K'), { originalFile: 'j\nk\n' }),
      step('B', edit('missing', 'z')),
      step('B', edit('j', 'J')),
      step('A', edit('J', 'JJ'), { originalFile: 'J\nK\nhand\n' }),
    ])
    expect(r.outcomes).toEqual([
      {
        kind: 'cannot-apply',
        reason: 'previous content unknown: history starts with an edit and no originalFile',
      },
      { kind: 'applied', exact: true },
      { kind: 'cannot-apply', reason: 'old_string not found in the replayed text' },
      { kind: 'applied', exact: false },
      { kind: 'applied', exact: true },
    ])
    expect(r.final).toEqual({ text: 'JJ\nK\nhand\n', owners: [4, 1, null], exact: true })
    // The anchor before the last step disagreed with the replay ("hand" came from outside).
    expect(r.drifts).toBe(1)
  })

  it('attributes nothing when the content never became known', () => {
    const r = replayWrites([step('A', edit('a', 'b'))])
    expect(r.final).toBeNull()
    expect(attributeLines('b\nc\n', r)).toEqual([null, null])
    expect(findLostLines(r, 'b\n')).toEqual([])
  })
})
