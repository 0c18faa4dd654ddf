/** Index entries located on disk lines, with their continuation lines. */
import { describe, expect, it } from 'vitest'
import { findIndexEntry } from '../../../../src/core/memory/index-entry-at'

describe('findIndexEntry', () => {
  it('finds an entry with its indented continuation lines, and nothing on other lines', () => {
    const text = '# Memory\n- [A](a.md) — first\n  more about A\n\tand more\n- [B](b.md)\n'
    const a = findIndexEntry(text, 2)
    expect(a).toEqual({
      line: 2,
      endLine: 4,
      title: 'A',
      target: 'a.md',
      hook: 'first',
      topicName: 'a.md',
      prefix: '- ',
      continuation: ['  more about A', '\tand more'],
    })
    expect(findIndexEntry(text, 1)).toBeNull()
    expect(findIndexEntry(text, 3)).toBeNull()
    expect(findIndexEntry(text, 5)?.endLine).toBe(5)
  })

  it('stops the continuation at a nested entry with a link of its own', () => {
    const text = '- [A](a.md)\n  detail\n  - [Sub](sub.md) — nested\n'
    expect(findIndexEntry(text, 1)?.endLine).toBe(2)
    expect(findIndexEntry(text, 3)?.title).toBe('Sub')
  })

  it('ignores list items inside frontmatter and block comments', () => {
    const text = '---\ntags:\n  - [x](y.md)\n---\n<!--\n- [Hidden](h.md)\n-->\n- [Real](r.md)\n'
    expect(findIndexEntry(text, 3)).toBeNull()
    expect(findIndexEntry(text, 6)).toBeNull()
    expect(findIndexEntry(text, 8)?.title).toBe('Real')
  })
})
