import { describe, expect, it } from 'vitest'
import { watchedFolders } from '../../../../src/node/memory/watch'

describe('watchedFolders (issue 7)', () => {
  it('lists each memory folder once; no transcript folders (the projects tree is watched through the home: first-run.test.ts)', () => {
    const scan = {
      projects: [
        { memoryDir: '/c/projects/a/memory' },
        { memoryDir: null },
        { memoryDir: '/c/projects/a/memory' },
        { memoryDir: '/c/projects/b/memory' },
      ],
    }
    expect(watchedFolders(scan)).toEqual(['/c/projects/a/memory', '/c/projects/b/memory'])
  })
})
