import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { computeCutoff, loadedHead } from '../../../../src/core/memory/cutoff'
import { MEMORY_MAX_CHARS, MEMORY_MAX_LINES } from '../../../../src/core/limits'
import { stripBlockComments, stripForLoading } from '../../../../src/core/markdown/strip'
import { utf8Length } from '../../../../src/core/text'
import { CORPUS_ROOT, needsCorpus } from '../../../helpers/corpus'

const CORPUS_CLAUDE_MD = `${CORPUS_ROOT}/instructions/easytrade-CLAUDE.md`

/** n lines `line 1` … `line n`, each ending in `\n`. */
function numbered(n: number, prefix = 'line'): string {
  return Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}\n`).join('')
}

function cut(text: string, topicFiles: readonly string[] = []) {
  return computeCutoff({ file: '/m/MEMORY.md', text, totalBytes: utf8Length(text), topicFiles })
}

describe('stripForLoading', () => {
  it('removes closed frontmatter and maps lines to the disk', () => {
    const s = stripForLoading('---\nname: x\n---\nfirst\nsecond\n')
    expect(s.text).toBe('first\nsecond\n')
    expect(s.lineMap).toEqual([4, 5])
    expect(s.lines).toEqual(['first', 'second'])
    expect(s.frontmatter.kind).toBe('ok')
  })

  it('strips a closed frontmatter with invalid YAML but keeps an unclosed one', () => {
    expect(stripForLoading('---\n: : [\n---\nbody\n').lineMap).toEqual([4])
    const unclosed = stripForLoading('---\nname: x\nbody\n')
    expect(unclosed.frontmatter.kind).toBe('unclosed')
    expect(unclosed.lineMap).toEqual([1, 2, 3])
  })

  it('removes whole-line comments so they count as no line', () => {
    const s = stripForLoading('a\n<!-- one -->\n<!--\nmulti\n-->\nb\n')
    expect(s.text).toBe('a\nb\n')
    expect(s.lineMap).toEqual([1, 6])
  })

  it('keeps the rest of a closing line as its own line, unless it is blank', () => {
    const s = stripForLoading('<!-- start\nstill comment --> kept text\n<!-- x -->   \nend\n')
    expect(s.lines).toEqual([' kept text', 'end'])
    expect(s.lineMap).toEqual([2, 4])
    // Further complete comments on the closing line go too.
    expect(stripBlockComments('<!-- a --> x <!-- b --> y\n')).toBe(' x  y\n')
    expect(stripBlockComments('<!-- a --><!-- b -->\nz\n')).toBe('z\n')
  })

  it('keeps inline comments, indented-code comments and comments inside fences', () => {
    const text =
      'text <!-- inline --> more\n    <!-- four spaces -->\n```\n<!-- in fence -->\n```\n'
    expect(stripBlockComments(text)).toBe(text)
  })

  it('strips comments with up to three spaces of indentation and CommonMark empty comments', () => {
    expect(stripBlockComments('   <!-- c -->\n<!-->\n<!--->\nkeep\r\n')).toBe('keep\r\n')
  })

  it('keeps an unclosed comment as text and reports its line', () => {
    const s = stripForLoading('a\n<!-- never closed\nb\n<!-- nor this\n')
    expect(s.lines).toEqual(['a', '<!-- never closed', 'b', '<!-- nor this'])
    expect(s.lineMap).toEqual([1, 2, 3, 4])
    expect(s.unclosedCommentLine).toBe(2)
    // A later `-->` closes the first opener, swallowing the lines between (CommonMark).
    const spanning = stripForLoading('a\n<!-- open\nb\n<!-- inner -->\nc\n')
    expect(spanning.lines).toEqual(['a', 'c'])
    expect(spanning.unclosedCommentLine).toBeNull()
  })

  it('does not treat fence markers inside a comment as fences', () => {
    expect(stripBlockComments('<!--\n```\n-->\n<!-- x -->\nafter\n')).toBe('after\n')
  })
})

describe('computeCutoff: lines', () => {
  it('loads 200 lines whole; a trailing newline is no extra line', () => {
    const r = cut(numbered(200))
    expect(r.totalLines).toBe(200)
    expect(r.loadedLines).toBe(200)
    expect(r.limitHit).toBeNull()
    expect(r.firstUnloadedLine).toBeNull()
    // 'line 1'…'line 9' (6), 'line 10'…'line 99' (7), 'line 100'…'line 200' (8), 199 breaks.
    expect(r.loadedChars).toBe(9 * 6 + 90 * 7 + 101 * 8 + 199)
    expect(r.totalChars).toBe(r.loadedChars + 1)
  })

  it('cuts line 201', () => {
    const r = cut(numbered(201))
    expect(r.totalLines).toBe(201)
    expect(r.loadedLines).toBe(MEMORY_MAX_LINES)
    expect(r.limitHit).toBe('lines')
    expect(r.firstUnloadedLine).toBe(201)
  })

  it('counts a last line without a final newline', () => {
    const r = cut('a\nbb')
    expect(r).toMatchObject({
      totalLines: 2,
      totalChars: 4,
      loadedLines: 2,
      loadedChars: 4,
      totalBytes: 4,
    })
    expect(cut('').totalLines).toBe(0)
    expect(cut('').loadedLines).toBe(0)
  })

  it('counts \\r\\n as one line break, and as one loaded character', () => {
    const r = cut('a\r\nb\r\n')
    expect(r).toMatchObject({ totalLines: 2, totalChars: 6, loadedLines: 2, loadedChars: 3 })
    const big = cut(numbered(201).replace(/\n/g, '\r\n'))
    expect(big.loadedLines).toBe(200)
    expect(big.firstUnloadedLine).toBe(201)
  })

  it('does not count frontmatter and block comments toward the 200 lines', () => {
    const text =
      '---\nname: idx\n---\n<!-- note to self -->\n' + numbered(200) + '<!--\ntail\n-->\n'
    const r = cut(text)
    expect(r.totalLines).toBe(207)
    expect(r.loadedLines).toBe(200)
    expect(r.limitHit).toBeNull()
    expect(r.firstUnloadedLine).toBeNull()
    expect(r.problems).toEqual([])
    const over = cut('---\nname: idx\n---\n<!-- c -->\n' + numbered(201))
    expect(over.limitHit).toBe('lines')
    expect(over.firstUnloadedLine).toBe(205)
  })

  it('loads an unclosed frontmatter as text and reports it', () => {
    const r = cut('---\nname: idx\n' + numbered(199))
    expect(r.loadedLines).toBe(200)
    expect(r.limitHit).toBe('lines')
    expect(r.firstUnloadedLine).toBe(201)
    expect(r.problems).toEqual([
      {
        path: '/m/MEMORY.md',
        reason: 'frontmatter opens with --- but never closes; it is not stripped and loads as text',
      },
    ])
  })

  it('reports an unclosed block comment', () => {
    expect(cut('a\n<!-- open\nb\n').problems).toEqual([
      {
        path: '/m/MEMORY.md',
        reason: 'HTML comment opened on line 2 never closes; it is not stripped and loads as text',
      },
    ])
  })
})

describe('computeCutoff: characters (UTF-16 units)', () => {
  it('hits the character limit before the line limit and cuts at a line break', () => {
    const line = 'x'.repeat(3000)
    const r = cut(Array.from({ length: 10 }, () => line + '\n').join(''))
    // 8 lines: 8 × 3000 + 7 breaks = 24,007; a 9th would make 27,008.
    expect(r.loadedLines).toBe(8)
    expect(r.loadedChars).toBe(24_007)
    expect(r.loadedBytes).toBe(24_007)
    expect(r.limitHit).toBe('chars')
    expect(r.firstUnloadedLine).toBe(9)
    expect(r.totalChars).toBe(30_010)
  })

  it('loads exactly 25,000 characters, not 25,001', () => {
    const exact = cut('x'.repeat(24_998) + '\ny\nz\n')
    expect(exact.loadedLines).toBe(2)
    expect(exact.loadedChars).toBe(MEMORY_MAX_CHARS)
    expect(exact.firstUnloadedLine).toBe(3)
    const over = cut('x'.repeat(24_999) + '\ny\n')
    expect(over.loadedLines).toBe(1)
    expect(over.loadedChars).toBe(24_999)
    expect(over.limitHit).toBe('chars')
    expect(over.firstUnloadedLine).toBe(2)
    expect(cut('x'.repeat(25_000) + '\n').limitHit).toBeNull()
  })

  it('loads nothing of a single line longer than 25,000', () => {
    const r = cut('x'.repeat(25_001) + '\nshort\n')
    expect(r.loadedLines).toBe(0)
    expect(r.loadedChars).toBe(0)
    expect(r.loadedBytes).toBe(0)
    expect(r.limitHit).toBe('chars')
    expect(r.firstUnloadedLine).toBe(1)
  })

  it('counts an emoji as 2 units: 12,500 load (50,000 bytes), 12,501 do not', () => {
    const fits = cut('😀'.repeat(12_500) + '\n')
    expect(fits.loadedChars).toBe(25_000)
    expect(fits.loadedBytes).toBe(50_000)
    expect([...'😀'.repeat(12_500)].length).toBe(12_500)
    expect(fits.limitHit).toBeNull()
    const over = cut('😀'.repeat(12_501) + '\n')
    expect(over.loadedLines).toBe(0)
    expect(over.limitHit).toBe('chars')
  })

  it('counts Korean by UTF-16 units while bytes are three times larger', () => {
    const line = '가'.repeat(10_000)
    const r = cut(`${line}\n${line}\n${line}\n`)
    expect(r.totalChars).toBe(30_003)
    expect(r.totalBytes).toBe(90_003)
    expect(r.loadedLines).toBe(2)
    expect(r.loadedChars).toBe(20_001)
    expect(r.loadedBytes).toBe(60_001)
    expect(r.limitHit).toBe('chars')
    expect(r.firstUnloadedLine).toBe(3)
  })

  it('loadedHead agrees on plain lines', () => {
    expect(loadedHead([])).toEqual({ lines: 0, count: 0, chars: 0, limitHit: null })
    expect(loadedHead(['ab', '', 'c'])).toEqual({ lines: 3, count: 3, chars: 5, limitHit: null })
  })
})

describe('computeCutoff: entries', () => {
  it('marks entries past the cutoff as not loaded, with disk line numbers', () => {
    const entries = Array.from(
      { length: 205 },
      (_, i) => `- [Note ${i}](note-${i}.md) — hook\n`,
    ).join('')
    const text = '---\nname: index\n---\n# Memory\n' + entries
    const topics = Array.from({ length: 205 }, (_, i) => `note-${i}.md`)
    const r = cut(text, topics)
    expect(r.entries).toHaveLength(205)
    expect(r.entries[0]).toEqual({ line: 5, title: 'Note 0', target: 'note-0.md', loaded: true })
    // Stripped line 1 is the heading, so entries 0..198 fill lines 2..200.
    expect(r.entries[198]).toEqual({
      line: 203,
      title: 'Note 198',
      target: 'note-198.md',
      loaded: true,
    })
    expect(r.entries[199]).toEqual({
      line: 204,
      title: 'Note 199',
      target: 'note-199.md',
      loaded: false,
    })
    expect(r.firstUnloadedLine).toBe(204)
    expect(r.entries.filter((e) => !e.loaded)).toHaveLength(6)
    expect(r.dangling).toEqual([])
    expect(r.orphans).toEqual([])
  })

  it('finds dangling entries and orphan topic files', () => {
    const text = [
      '# Memory', // 1
      '- [A](a.md) — exists', // 2
      '- [B](missing.md) — gone', // 3
      '- [Web](https://example.com/x.md)', // 4
      '- [D](sub/d.md#why)', // 5
      '- [E](my%20note.md)', // 6
      '- [Txt](notes.txt)', // 7 not markdown: not checked
      '- plain note', // 8
      '- [Self](MEMORY.md)', // 9
      '<!-- - [Hidden](hidden.md) -->', // 10 stripped: links nothing
      '- [Up](../outside.md)', // 11 outside the folder: not checked
      '- [Gone too](sub/gone.md)', // 12
    ].join('\n')
    const r = cut(text, ['a.md', 'sub/d.md', 'my note.md', 'orphan.md', 'hidden.md', 'MEMORY.md'])
    expect(r.dangling).toEqual([
      { line: 3, target: 'missing.md' },
      { line: 12, target: 'sub/gone.md' },
    ])
    expect(r.orphans).toEqual(['orphan.md', 'hidden.md'])
    expect(r.entries.map((e) => e.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 11, 12])
    expect(r.entries[6]).toEqual({ line: 8, title: 'plain note', target: null, loaded: true })
  })

  it('counts an entry below the cutoff as linking its topic file', () => {
    const r = cut(numbered(200) + '- [Late](late.md)\n', ['late.md'])
    expect(r.orphans).toEqual([])
    expect(r.entries).toEqual([{ line: 201, title: 'Late', target: 'late.md', loaded: false }])
  })
})

describe('computeCutoff on a real instruction file', () => {
  it('does not count the leading block comment of easytrade CLAUDE.md', (ctx) => {
    needsCorpus(ctx)
    const text = readFileSync(CORPUS_CLAUDE_MD, 'utf8')
    const r = computeCutoff({
      file: CORPUS_CLAUDE_MD,
      text,
      totalBytes: Buffer.byteLength(text),
      topicFiles: [],
    })
    const disk = text.split('\n')
    disk.pop() // the file ends with a newline
    expect(disk[0].startsWith('<!-- SYNC NOTICE')).toBe(true)
    expect(disk[3].trimEnd().endsWith('-->')).toBe(true)
    expect(r.totalLines).toBe(134)
    expect(r.totalChars).toBe(text.length)
    expect(r.totalBytes).toBe(5523)
    // Lines 1–4 are the comment; everything from line 5 on loads, trimmed (docs/memory-rules.md §2.2).
    const rest = disk.slice(4).join('\n').trim()
    expect(r.loadedLines).toBe(rest.split('\n').length)
    expect(r.loadedChars).toBe(rest.length)
    expect(r.loadedBytes).toBe(Buffer.byteLength(rest))
    expect(r.limitHit).toBeNull()
    expect(r.firstUnloadedLine).toBeNull()
    expect(r.problems).toEqual([])
    const stripped = stripForLoading(text)
    expect(stripped.lineMap[0]).toBe(5)
    expect(stripped.text.includes('SYNC NOTICE')).toBe(false)
  })
})

// Observed on the real agent (docs/memory-rules.md §2 [agent], Claude Code 2.1.332).
describe('cutoff: what the agent counts (issue 13)', () => {
  it('trims the whole index first: 3 leading blank lines + 200 entries load whole', () => {
    const r = cut('\n\n\n' + numbered(200))
    expect(r.loadedLines).toBe(200)
    expect(r.limitHit).toBeNull()
    expect(r.firstUnloadedLine).toBeNull()
    expect(r.entries.length).toBe(0)
  })

  it('trims the whole index first: 200 entries + 3 trailing blank lines hit no limit', () => {
    const r = cut(numbered(200) + '\n\n\n')
    expect(r.loadedLines).toBe(200)
    expect(r.limitHit).toBeNull()
    expect(r.firstUnloadedLine).toBeNull()
  })

  it('blank lines after the frontmatter do not count either', () => {
    const r = cut('---\nname: x\n---\n\n\n' + numbered(200))
    expect(r.loadedLines).toBe(200)
    expect(r.limitHit).toBeNull()
  })

  it('each \\r of CRLF counts toward 25,000: 150 lines of 199 characters, 124 load', () => {
    const line = 'x'.repeat(199)
    const crlf = cut(Array.from({ length: 150 }, () => line + '\r\n').join(''))
    expect(crlf.loadedLines).toBe(124)
    expect(crlf.limitHit).toBe('chars')
    expect(crlf.firstUnloadedLine).toBe(125)
    // The model receives `\n` only, so the loaded characters count one per break.
    expect(crlf.loadedChars).toBe(124 * 199 + 123)
    // The same lines with LF: 125 load (125 × 199 + 124 = 24,999).
    const lf = cut(Array.from({ length: 150 }, () => line + '\n').join(''))
    expect(lf.loadedLines).toBe(125)
  })

  it('loadedHead keeps the index boundary for callers that move lines', () => {
    const h = loadedHead(['', '', 'a', 'b', ''])
    expect(h).toEqual({ lines: 4, count: 2, chars: 3, limitHit: null })
  })
})
