import { describe, expect, it } from 'vitest'
import { watchedFolders } from '../../src/node/watch'

describe('watchedFolders (issue 7)', () => {
  it('lists each memory folder once, plus the projects folder when asked; no transcript folders', () => {
    const scan = {
      projects: [{ memoryDir: '/c/projects/a/memory' }, { memoryDir: null }, { memoryDir: '/c/projects/a/memory' }, { memoryDir: '/c/projects/b/memory' }],
    }
    expect(watchedFolders(scan)).toEqual(['/c/projects/a/memory', '/c/projects/b/memory'])
    expect(watchedFolders(scan, '/c')).toEqual(['/c/projects/a/memory', '/c/projects/b/memory', '/c/projects'])
  })
})
