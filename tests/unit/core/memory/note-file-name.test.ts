/** The case rule of note file names, decided once: the listing and the access policy agree. */
import { describe, expect, it } from 'vitest'
import { isNoteFileName } from '../../../../src/core/memory/note-file-name'
import { classifyPath, type AccessFacts } from '../../../../src/core/access-policy'

const facts: AccessFacts = {
  claudeHomes: ['/h/.claude'],
  chainFiles: new Map(),
  repositories: new Set(),
  projectDirs: [],
}

describe('isNoteFileName', () => {
  it('takes `.md` in any case, and nothing else', () => {
    expect(['a.md', 'NOTES.MD', 'x.Md'].map(isNoteFileName)).toEqual([true, true, true])
    expect(['a.txt', 'a.mdx', '.md', 'md'].map(isNoteFileName)).toEqual([
      false,
      false,
      false,
      false,
    ])
  })

  it("is the access policy's rule too: an upper-case topic file may be opened like any other", () => {
    expect(classifyPath('/h/.claude/projects/p/memory/team/OLD.MD', facts)).toEqual({
      kind: 'memory-file',
    })
    expect(classifyPath('/h/.claude/projects/p/memory/notes.txt', facts)).toHaveProperty('reason')
  })
})
