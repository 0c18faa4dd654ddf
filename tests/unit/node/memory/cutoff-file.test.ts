import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, rm, symlink, truncate, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cutoffFile, listTopicFiles } from '../../../../src/node/memory/cutoff-file'

let root: string

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mc-cutoff-file-'))
})

afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

/** A fresh memory folder under the temp root. */
async function memoryDir(name: string): Promise<string> {
  const dir = join(root, name, 'memory')
  await mkdir(dir, { recursive: true })
  return dir
}

describe('cutoffFile', () => {
  it('reads an index, lists topic files recursively and reports absolute orphans', async () => {
    const dir = await memoryDir('normal')
    const index = [
      '---',
      'name: index',
      '---',
      '# Memory',
      '- [Build](build.md) — npm ci first',
      '- [Deep](sub/deep.md) — nested topic',
      '- [Missing](missing.md) — was deleted',
      '- plain note',
      '',
    ].join('\n')
    await writeFile(join(dir, 'MEMORY.md'), index)
    await writeFile(join(dir, 'build.md'), '---\nname: build\n---\nbody\n')
    await mkdir(join(dir, 'sub'))
    await writeFile(join(dir, 'sub', 'deep.md'), 'deep\n')
    await writeFile(join(dir, 'sub', 'orphan-deep.md'), 'nobody links me\n')
    await writeFile(join(dir, 'orphan.md'), 'nobody links me\n')
    await writeFile(join(dir, 'notes.txt'), 'not markdown\n')
    await writeFile(join(dir, '.hidden.md'), 'hidden\n')
    // Things the listing must survive: a FIFO, a symlink loop, a dangling symlink.
    execFileSync('mkfifo', [join(dir, 'pipe.md')])
    await symlink('..', join(dir, 'sub', 'loop'))
    await symlink('nowhere.md', join(dir, 'dangling.md'))

    const r = await cutoffFile(join(dir, 'MEMORY.md'))
    expect(r.file).toBe(join(dir, 'MEMORY.md'))
    expect(r.totalLines).toBe(8)
    expect(r.totalBytes).toBe(Buffer.byteLength(index))
    expect(r.loadedLines).toBe(5)
    expect(r.limitHit).toBeNull()
    expect(r.firstUnloadedLine).toBeNull()
    expect(r.entries).toEqual([
      { line: 5, title: 'Build', target: 'build.md', loaded: true },
      { line: 6, title: 'Deep', target: 'sub/deep.md', loaded: true },
      { line: 7, title: 'Missing', target: 'missing.md', loaded: true },
      { line: 8, title: 'plain note', target: null, loaded: true },
    ])
    expect(r.dangling).toEqual([{ line: 7, target: 'missing.md' }])
    expect(r.orphans).toEqual([join(dir, 'orphan.md'), join(dir, 'sub', 'orphan-deep.md')])
    // What was not listed is said, in words (the one listing, memory-folder.ts).
    expect(r.problems).toEqual([
      { path: join(dir, 'dangling.md'), reason: 'dangling symlink' },
      { path: join(dir, 'pipe.md'), reason: 'not a regular file (FIFO, socket or device)' },
    ])
  }, 10_000)

  it('lists topic files without the index, skipping FIFOs and following a symlink loop once', async () => {
    const dir = await memoryDir('listing')
    await writeFile(join(dir, 'MEMORY.md'), '')
    await writeFile(join(dir, 'a.md'), 'a\n')
    await mkdir(join(dir, 'b'))
    await writeFile(join(dir, 'b', 'c.MD'), 'c\n')
    await symlink(dir, join(dir, 'b', 'back'))
    execFileSync('mkfifo', [join(dir, 'fifo.md')])
    const listing = await listTopicFiles(dir)
    expect(listing.files).toEqual(['a.md', 'b/c.MD'])
    expect(listing.problems).toEqual([
      { path: join(dir, 'fifo.md'), reason: 'not a regular file (FIFO, socket or device)' },
    ])
  })

  it('returns absolute paths for a relative argument', async () => {
    const dir = await memoryDir('relative')
    await writeFile(join(dir, 'MEMORY.md'), '- [A](a.md)\n')
    const r = await cutoffFile(relative(process.cwd(), join(dir, 'MEMORY.md')))
    expect(r.file).toBe(join(dir, 'MEMORY.md'))
    expect(r.dangling).toEqual([{ line: 1, target: 'a.md' }])
  })

  it('reports a directory named MEMORY.md with zero counts', async () => {
    const dir = await memoryDir('dir-index')
    await mkdir(join(dir, 'MEMORY.md'))
    await writeFile(join(dir, 'topic.md'), 'x\n')
    const r = await cutoffFile(join(dir, 'MEMORY.md'))
    expect(r).toEqual({
      file: join(dir, 'MEMORY.md'),
      totalLines: 0,
      totalBytes: 0,
      totalChars: 0,
      loadedLines: 0,
      loadedChars: 0,
      loadedBytes: 0,
      limitHit: null,
      firstUnloadedLine: null,
      entries: [],
      dangling: [],
      orphans: [],
      problems: [{ path: join(dir, 'MEMORY.md'), reason: 'is a directory' }],
    })
  })

  it('does not hang on a FIFO named MEMORY.md', async () => {
    const dir = await memoryDir('fifo-index')
    execFileSync('mkfifo', [join(dir, 'MEMORY.md')])
    const r = await cutoffFile(join(dir, 'MEMORY.md'))
    expect(r.loadedLines).toBe(0)
    expect(r.problems).toEqual([
      { path: join(dir, 'MEMORY.md'), reason: 'not a regular file (FIFO, socket or device)' },
    ])
  }, 5_000)

  it('refuses a 50 MB file without reading it', async () => {
    const dir = await memoryDir('huge')
    const file = join(dir, 'MEMORY.md')
    await writeFile(file, '')
    await truncate(file, 50 * 1024 * 1024) // sparse: fast to create
    const r = await cutoffFile(file)
    expect(r.totalLines).toBe(0)
    expect(r.loadedLines).toBe(0)
    expect(r.problems).toEqual([
      { path: file, reason: '52428800 bytes, over the 8388608-byte read limit' },
    ])
  })

  it('reads invalid UTF-8 leniently and says so', async () => {
    const dir = await memoryDir('bad-utf8')
    const file = join(dir, 'MEMORY.md')
    const bytes = Buffer.concat([
      Buffer.from('- [A](a.md) caf'),
      Buffer.from([0xe9]),
      Buffer.from('\nline 2\n'),
    ])
    await writeFile(file, bytes)
    await writeFile(join(dir, 'a.md'), 'a\n')
    const r = await cutoffFile(file)
    expect(r.totalBytes).toBe(bytes.length)
    expect(r.totalLines).toBe(2)
    expect(r.loadedLines).toBe(2)
    expect(r.entries).toEqual([{ line: 1, title: 'A', target: 'a.md', loaded: true }])
    expect(r.problems).toEqual([
      { path: file, reason: 'not valid UTF-8; read with replacement characters (U+FFFD)' },
    ])
    // The replacement character is one UTF-16 unit and three UTF-8 bytes.
    expect(r.loadedChars).toBe('- [A](a.md) caf\uFFFD\nline 2'.length)
    expect(r.loadedBytes).toBe(Buffer.byteLength('- [A](a.md) caf\uFFFD\nline 2'))
  })

  it('reports a missing file', async () => {
    const file = join(root, 'nope', 'MEMORY.md')
    const r = await cutoffFile(file)
    expect(r.problems).toEqual([{ path: file, reason: 'no such file' }])
    expect(r.totalLines).toBe(0)
  })
})
