/** Line splitting that keeps each line's break (src/core/text.ts), the one copy strip and edit-plan use. */
import { describe, expect, it } from 'vitest'
import { splitLines, splitLinesWithEndings } from '../../../src/core/text'

describe('splitLinesWithEndings', () => {
  it('keeps \\n and \\r\\n, a lone \\r is no break, a final break starts no line', () => {
    expect(splitLinesWithEndings('a\r\nb\nc\rd\n')).toEqual([
      { content: 'a', eol: '\r\n' },
      { content: 'b', eol: '\n' },
      { content: 'c\rd', eol: '\n' },
    ])
    expect(splitLinesWithEndings('x')).toEqual([{ content: 'x', eol: '' }])
    expect(splitLinesWithEndings('')).toEqual([])
    expect(splitLinesWithEndings('\n\n')).toEqual([
      { content: '', eol: '\n' },
      { content: '', eol: '\n' },
    ])
  })

  it('joins back byte for byte and counts as splitLines does', () => {
    for (const text of ['a\r\nb\n', 'a\nb', '\r\n\r\n', 'one\r', '']) {
      const lines = splitLinesWithEndings(text)
      expect(lines.map((l) => l.content + l.eol).join('')).toBe(text)
      expect(lines.length).toBe(splitLines(text.replace(/\r(?!\n)/g, 'R')).length)
    }
  })
})
