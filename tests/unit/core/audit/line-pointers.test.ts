/** Lines a note points at (src/core/audit/line-pointers.ts). */
import { describe, expect, it } from 'vitest'
import { linePointers, pointerMoved } from '../../../../src/core/audit/line-pointers'

const file = (n: number, at: Record<number, string>): string =>
  Array.from({ length: n }, (_, i) => at[i + 1] ?? `const filler${i + 1} = ${i + 1}`).join('\n')

describe('linePointers', () => {
  it('reads `path:N` and a path followed by "line N" in a few languages', () => {
    const paths = [
      { text: 'src/app.ts:42', line: 42 },
      { text: 'types/supabase.ts', line: null },
      { text: 'lib/a.py', line: null },
      { text: 'lib/b.py', line: null },
    ]
    const text =
      'See `src/app.ts:42`. Verificar contra `types/supabase.ts` línea ~4664; `lib/a.py` (line 7); `lib/b.py` loads 3 items'
    expect(linePointers(text, paths)).toEqual([
      { text: 'src/app.ts:42', line: 42 },
      { text: 'types/supabase.ts', line: 4664 },
      { text: 'lib/a.py', line: 7 },
    ])
  })
})

describe('pointerMoved', () => {
  const then = file(100, { 50: '  vehicles: {' })

  it('says nothing while the line is within a few lines of the pointer', () => {
    expect(pointerMoved(then, file(104, { 53: '  vehicles: {' }), 50)).toBeNull()
  })

  it('gives the one line holding it now when it moved far, or none when it left', () => {
    expect(pointerMoved(then, file(300, { 291: '  vehicles: {' }), 50)).toEqual({
      held: 'vehicles: {',
      nowLine: 291,
    })
    expect(pointerMoved(then, file(100, {}), 50)).toEqual({ held: 'vehicles: {', nowLine: null })
  })

  it('does not trace a line without letters, a repeated line, or one past the end', () => {
    expect(pointerMoved(file(100, { 50: '}' }), file(100, {}), 50)).toBeNull()
    const twice = file(100, { 50: 'return x', 70: 'return x' })
    expect(pointerMoved(twice, file(100, {}), 50)).toBeNull()
    expect(pointerMoved(then, file(100, {}), 500)).toBeNull()
    // Held by two lines now: which one is meant cannot be said.
    expect(pointerMoved(then, file(300, { 200: 'vehicles: {', 250: 'vehicles: {' }), 50)).toBeNull()
  })
})
