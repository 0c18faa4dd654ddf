import { describe, expect, it } from 'vitest'
import { declaringBlocks, onlyInExamples } from '../../../../src/core/audit/example-blocks'

const fence = (lang: string, ...lines: string[]): string =>
  ['```' + lang, ...lines, '```'].join('\n')

describe('declaringBlocks', () => {
  it('finds the types a quoted block declares, in any common language', () => {
    const text = [
      'Call `saveUser` from the service.',
      fence(
        'java',
        '@Service',
        '@Transactional(readOnly = true)',
        'public final class UserService {',
        '  void run() { saveUser(); }',
        '}',
      ),
      fence('kotlin', 'data class Point(val x: Int)', 'sealed interface Shape'),
      fence('ts', 'export default class Store {}', 'export interface Props { id: string }'),
      fence('rust', 'pub(crate) struct Cache;', 'enum Mode { A }'),
      fence('ts', 'const total = sum(items)', 'function sum(xs) { return 0 }'),
    ].join('\n\n')
    const { blocks, elsewhere } = declaringBlocks(text)
    expect(blocks.map((b) => b.types)).toEqual([
      ['UserService'],
      ['Point', 'Shape'],
      ['Store', 'Props'],
      ['Cache', 'Mode'],
    ])
    // The block that declares no type and the prose (its code spans too) are the rest.
    expect([...elsewhere]).toEqual(expect.arrayContaining(['saveUser', 'total', 'sum', 'items']))
    expect(elsewhere.has('run')).toBe(false)
  })

  it('counts a name as the example’s only when no prose and no other block gives it', () => {
    const all = declaringBlocks(
      [
        'The filter calls `getUserId`.',
        fence(
          'java',
          'class DemoService {',
          '  Long a = provider.getUserId(t);',
          '  Long b = provider.loadAll(t);',
          '}',
        ),
        fence('java', 'class RealFilter {', '  Long c = provider.loadAll(t);', '}'),
      ].join('\n'),
    )
    const [demo] = all.blocks
    expect(onlyInExamples('getUserId', all, [demo])).toBe(false) // the prose gives it
    expect(onlyInExamples('loadAll', all, [demo])).toBe(false) // so does a real block
    expect(onlyInExamples('DemoService', all, [demo])).toBe(true)
    expect(onlyInExamples('loadAll', all, all.blocks)).toBe(true)
    expect(onlyInExamples('DemoService', all, [])).toBe(false)
  })
})
