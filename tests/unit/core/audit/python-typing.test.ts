/** Python's type hints in today's spelling (src/core/audit/python-typing.ts; blind set CG). */
import { describe, expect, it } from 'vitest'
import { modernTyping } from '../../../../src/core/audit/python-typing'
import { norm } from '../../../../src/core/audit/line-changes'

describe('modernTyping', () => {
  it('spells PEP 585 generics and Optional as Python 3.10 does', () => {
    expect(modernTyping('def f(x: Optional[Dict[str, Any]] = None) -> List[str]:')).toBe(
      'def f(x: dict[str, Any] | None = None) -> list[str]:',
    )
    expect(modernTyping('t: typing.Tuple[int, ...] = ()')).toBe('t: tuple[int, ...] = ()')
    expect(modernTyping('Optional[Optional[int]]')).toBe('int | None | None')
  })

  it('leaves other text and unbalanced brackets as they are', () => {
    expect(modernTyping('const list: List<string> = []')).toBe('const list: List<string> = []')
    expect(modernTyping('MyList[0] = Optional[')).toBe('MyList[0] = Optional[')
  })

  it('makes a modernised line the same line for the audit', () => {
    expect(norm('async def write_tuples(self, tuples: List[Dict[str, str]]) -> None:')).toBe(
      norm('async def write_tuples(self,  tuples: list[dict[str, str]]) -> None:'),
    )
  })
})
