/** The one listing of a memory folder: depth, case, hidden entries, symlinks, loops and caps. */
import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TOPIC_SCAN_MAX_DEPTH, TOPIC_SCAN_MAX_FILES } from '../../../../src/core/limits'
import { listMemoryFolder } from '../../../../src/node/memory/memory-folder'

let root: string

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mc-memory-folder-'))
})

afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

async function folder(name: string): Promise<string> {
  const dir = join(root, name, 'memory')
  await mkdir(dir, { recursive: true })
  return dir
}

describe('listMemoryFolder', () => {
  it('lists topic files at any depth, any case of `.md`, without the index or hidden entries', async () => {
    const dir = await folder('depth')
    await writeFile(join(dir, 'MEMORY.md'), '# Memory\n')
    await writeFile(join(dir, 'NOTES.MD'), 'upper case\n')
    await mkdir(join(dir, 'team', 'build'), { recursive: true })
    await writeFile(join(dir, 'team', 'build', 'deep.md'), 'two folders down\n')
    await writeFile(join(dir, 'team', 'MEMORY.md'), 'a topic that happens to be named MEMORY.md\n')
    await writeFile(join(dir, 'notes.txt'), 'not markdown\n')
    await mkdir(join(dir, '.git'))
    await writeFile(join(dir, '.git', 'x.md'), 'hidden\n')
    await writeFile(join(dir, '.draft.md'), 'hidden\n')
    const r = await listMemoryFolder(dir)
    expect(r.files).toEqual(['NOTES.MD', 'team/MEMORY.md', 'team/build/deep.md'])
    expect(r.problems).toEqual([])
    expect([...r.linked]).toEqual([])
  })

  it('follows a symlink inside the folder, ends a loop, refuses one that leads out', async () => {
    const dir = await folder('links')
    const outside = join(root, 'links', 'outside')
    await mkdir(outside)
    await writeFile(join(outside, 'secret.md'), 'not ours\n')
    await mkdir(join(dir, 'a'))
    await writeFile(join(dir, 'a', 'real.md'), 'x\n')
    await symlink('..', join(dir, 'a', 'loop')) // back to the memory folder: a loop
    await symlink('a/real.md', join(dir, 'alias.md'))
    await symlink(outside, join(dir, 'out'))
    await symlink('self.md', join(dir, 'self.md'))
    await symlink('gone.md', join(dir, 'dangling.md'))
    execFileSync('mkfifo', [join(dir, 'pipe.md')])
    const r = await listMemoryFolder(dir)
    expect(r.files).toEqual(['a/real.md', 'alias.md'])
    expect([...r.linked]).toEqual(['alias.md'])
    expect(r.problems).toEqual([
      { path: join(dir, 'dangling.md'), reason: 'dangling symlink' },
      { path: join(dir, 'out'), reason: 'symlink leads outside the memory folder; not followed' },
      { path: join(dir, 'pipe.md'), reason: 'not a regular file (FIFO, socket or device)' },
      { path: join(dir, 'self.md'), reason: 'symlink loop' },
    ])
  })

  it('stops at the depth cap and says so', async () => {
    const dir = await folder('deep')
    const parts = Array.from({ length: TOPIC_SCAN_MAX_DEPTH + 1 }, (_, i) => `d${i}`)
    await mkdir(join(dir, ...parts), { recursive: true })
    await writeFile(join(dir, ...parts.slice(0, TOPIC_SCAN_MAX_DEPTH), 'last.md'), 'x\n')
    await writeFile(join(dir, ...parts, 'too-deep.md'), 'x\n')
    const r = await listMemoryFolder(dir)
    expect(r.files).toEqual([[...parts.slice(0, TOPIC_SCAN_MAX_DEPTH), 'last.md'].join('/')])
    expect(r.problems).toEqual([
      {
        path: join(dir, ...parts),
        reason: `deeper than ${TOPIC_SCAN_MAX_DEPTH} folders; not listed`,
      },
    ])
  })

  it('stops at the file cap and says so', async () => {
    const dir = await folder('many')
    const names = Array.from({ length: TOPIC_SCAN_MAX_FILES + 5 }, (_, i) => `n${i}.md`)
    for (const n of names) await writeFile(join(dir, n), '')
    const r = await listMemoryFolder(dir)
    expect(r.files).toHaveLength(TOPIC_SCAN_MAX_FILES)
    expect(r.problems).toEqual([{ path: dir, reason: 'more than 10,000 files; listing stopped' }])
  }, 30_000)

  it('says when the folder itself cannot be listed, and that an index folder is no index', async () => {
    const missing = await listMemoryFolder(join(root, 'nowhere', 'memory'))
    expect(missing.files).toEqual([])
    expect(missing.problems).toEqual([
      { path: join(root, 'nowhere', 'memory'), reason: 'cannot list the memory folder: ENOENT' },
    ])
    const dir = await folder('index-dir')
    await mkdir(join(dir, 'MEMORY.md'))
    await writeFile(join(dir, 'MEMORY.md', 'inner.md'), 'x\n')
    const r = await listMemoryFolder(dir)
    expect(r.files).toEqual(['MEMORY.md/inner.md'])
    expect(r.problems).toEqual([
      { path: join(dir, 'MEMORY.md'), reason: 'MEMORY.md is a directory, not a file' },
    ])
  })
})
