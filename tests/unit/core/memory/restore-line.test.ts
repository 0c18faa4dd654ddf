import { describe, expect, it } from 'vitest'
import { planLineRestore } from '../../../../src/core/memory/restore-line'

const insert = (current: string, line: string, versions: string[]) => {
  const p = planLineRestore(current, line, versions)
  if (p.kind !== 'insert') throw new Error(`refused: ${p.reason}`)
  return p
}

describe('planLineRestore', () => {
  it('puts the line after its nearest preceding neighbour that survived', () => {
    const old = '# M\n\n## Build\n- test first\n- lost one\n- other\n'
    const current = '# M\n\n## Build\n- test first\n- other\n\n## Later\n- x\n'
    const p = insert(current, '- lost one', ['# M\n', old, current])
    expect(p.text).toBe('# M\n\n## Build\n- test first\n- lost one\n- other\n\n## Later\n- x\n')
    expect(p).toMatchObject({ line: 5, anchor: 'after', anchorText: '- test first' })
  })

  it('uses the last version that held the line, and skips neighbours that are gone', () => {
    const v1 = '# M\n- lost\n- b\n'
    const v2 = '# M\n- a\n- gone too\n- lost\n- b\n'
    const current = '# M\n- a\n- b\n- c\n'
    const p = insert(current, '- lost', [v1, v2, '# M\n- a\n- b\n'])
    expect(p.text).toBe('# M\n- a\n- lost\n- b\n- c\n')
    expect(p.anchorText).toBe('- a')
  })

  it('finds a neighbour that moved elsewhere in the file by its text', () => {
    const old = '# M\n- anchor\n- lost\n'
    const current = '# M\n- new\n- other\n- anchor\n'
    expect(insert(current, '- lost', [old]).text).toBe('# M\n- new\n- other\n- anchor\n- lost\n')
  })

  it('goes before the nearest following neighbour when no preceding one survived', () => {
    const old = '- gone\n- lost\n- stays\n- z\n'
    const current = '# Header\n- stays\n- z\n'
    const p = insert(current, '- lost', [old])
    expect(p.text).toBe('# Header\n- lost\n- stays\n- z\n')
    expect(p).toMatchObject({ anchor: 'before', anchorText: '- stays', line: 2 })
  })

  it('appends at the end when no neighbour survived or no version held the line', () => {
    expect(insert('- a\n', '- lost', ['- x\n- lost\n']).text).toBe('- a\n- lost\n')
    expect(insert('- a\n', '- lost', []).anchor).toBe('end')
    // A file without a final line break keeps every byte; only the break before the new line is added.
    expect(insert('- a', '- lost', []).text).toBe('- a\n- lost')
    expect(insert('', '- lost', []).text).toBe('- lost\n')
  })

  it('keeps CRLF line breaks and every other byte', () => {
    const current = '# M\r\n- a\r\n- b\r\n'
    const p = insert(current, '- lost', ['# M\n- a\n- lost\n- b\n'])
    expect(p.text).toBe('# M\r\n- a\r\n- lost\r\n- b\r\n')
  })

  it('refuses a line already present, a blank line and several lines', () => {
    expect(planLineRestore('# M\n- lost  \n', '- lost', [])).toEqual({
      kind: 'refused',
      reason: 'the line is already in the file (line 2)',
    })
    expect(planLineRestore('# M\n', '   ', []).kind).toBe('refused')
    expect(planLineRestore('# M\n', 'a\nb', []).kind).toBe('refused')
  })
})
