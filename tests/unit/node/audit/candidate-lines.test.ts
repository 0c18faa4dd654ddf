/**
 * A back-ticked word's quoted lines (candidate-lines.ts `quoted`): a line quoting it whole as a
 * value holds it, a key or a longer string does not; and when the search hit its line limit, the
 * quoted line may be past it, so the word is held now as far as anyone knows (never "gone").
 */
import { describe, expect, it } from 'vitest'
import { stringsIn, type StringCandidate } from '../../../../src/node/audit/candidate-lines'
import { LINES_PER_PATTERN, type CodeLine } from '../../../../src/node/audit/prose-grep'

const x: StringCandidate = {
  ref: { kind: 'symbol', text: 'nsis', name: 'nsis', terms: ['nsis'] },
  text: 'nsis',
  quoted: true,
}
const found = (lines: readonly CodeLine[]): Parameters<typeof stringsIn>[0] => ({
  code: new Map([['nsis', lines]]),
  manifest: new Map(),
})
const line = (text: string, n = 1): CodeLine => ({ path: 'package.json', line: n, text })

describe('a quoted word', () => {
  it('is held by a value quoting it whole, not by a key, a longer string or a comment', () => {
    const lines = [
      line('"target": "nsis",', 1),
      line('"nsis": { "oneClick": false },', 2),
      line('const t = "nsis-web"', 3),
      line("// builds with 'nsis'", 4),
      line("target: 'nsis'", 5),
    ]
    expect(stringsIn(found(lines), x, false).map((l) => l.line)).toEqual([1, 5])
  })

  it('is held now when the search stopped at its limit, whatever the lines shown', () => {
    const many = Array.from({ length: LINES_PER_PATTERN }, (_, i) => line('installNsisTool()', i))
    expect(stringsIn(found(many), x, true)).toHaveLength(LINES_PER_PATTERN)
    expect(stringsIn(found(many), x, false)).toEqual([])
  })
})
