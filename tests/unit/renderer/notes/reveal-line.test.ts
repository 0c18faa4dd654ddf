/** Where a reference's diff opens (notes-format.ts `revealLine`). */
import { describe, expect, it } from 'vitest'
import { revealLine } from '../../../../src/renderer/notes/notes-format'

const text = (...lines: string[]): { text: string } => ({ text: lines.join('\n') })

describe('revealLine', () => {
  it('opens a lost name where it was then', () => {
    const r = { kind: 'symbol', text: 'applyCoupon()', compare: { thenLines: [7, 9] as const } }
    expect(revealLine({ reference: r, before: text('a'), after: null })).toEqual({
      side: 'before',
      line: 7,
    })
  })

  it('opens a name found now on its first whole-word line, before side first', () => {
    const r = { kind: 'symbol', text: 'Cart.applyCoupon()' }
    const before = text('// applyCoupons is another', 'export function applyCoupon() {}')
    expect(revealLine({ reference: r, before, after: before })).toEqual({
      side: 'before',
      line: 2,
    })
    // The file did not exist then: the after side.
    const after = text('', '', 'x', 'const y = applyCoupon(1)')
    expect(revealLine({ reference: r, before: null, after })).toEqual({ side: 'after', line: 4 })
    expect(revealLine({ reference: r, before: null, after: text('nothing') })).toBeUndefined()
  })

  it('finds a script name with a dash, and leaves quotes and paths at the top', () => {
    const r = { kind: 'command', text: 'npm run type-check' }
    const pkg = text('{', '  "scripts": {', '    "type-check": "tsc"', '  }')
    expect(revealLine({ reference: r, before: pkg, after: pkg })).toEqual({
      side: 'before',
      line: 3,
    })
    expect(
      revealLine({ reference: { kind: 'snippet', text: 'x' }, before: pkg, after: pkg }),
    ).toBeUndefined()
    expect(
      revealLine({ reference: { kind: 'path', text: 'src/a.ts' }, before: pkg, after: pkg }),
    ).toBeUndefined()
  })
})
