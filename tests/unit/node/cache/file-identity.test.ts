import type { Stats } from 'node:fs'
import { mkdir, mkdtemp, rename, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  MISSING,
  contentIdentity,
  fileIdentity,
  fileIdentityAsync,
  repoIdentity,
  statsIdentity,
} from '../../../../src/node/cache/file-identity'

describe('statsIdentity', () => {
  const base = { dev: 1, ino: 2, size: 3, mtimeMs: 4, ctimeMs: 5 }
  const id = (over: Partial<typeof base>): string =>
    statsIdentity({ ...base, ...over } as unknown as Stats)

  it('changes with each of device, inode, size, mtime and ctime', () => {
    const same = id({})
    expect(id({})).toBe(same)
    for (const field of Object.keys(base) as (keyof typeof base)[])
      expect({ field, id: id({ [field]: base[field] + 100 }) }).not.toEqual({ field, id: same })
  })
})

describe('repoIdentity', () => {
  it('changes with the HEAD commit and with the index file, and is null without an index', () => {
    expect(repoIdentity('a'.repeat(40), '1:2:3:4:5')).toBe(
      repoIdentity('a'.repeat(40), '1:2:3:4:5'),
    )
    expect(repoIdentity('a'.repeat(40), '1:2:3:4:5')).not.toBe(
      repoIdentity('b'.repeat(40), '1:2:3:4:5'),
    )
    expect(repoIdentity('a'.repeat(40), '1:2:3:4:5')).not.toBe(
      repoIdentity('a'.repeat(40), '1:2:3:4:6'),
    )
    expect(repoIdentity(null, '1:2:3:4:5')).not.toBe(repoIdentity('a'.repeat(40), '1:2:3:4:5'))
    expect(repoIdentity('a'.repeat(40), null)).toBeNull()
  })
})

describe('fileIdentity on the disk', () => {
  let root: string
  let file: string
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'mc-identity-'))
    file = join(root, 'f.txt')
    await writeFile(file, 'one\n')
    await mkdir(join(root, 'dir'))
  })
  afterAll(async () => {
    await rm(root, { recursive: true, force: true })
  })

  it('is stable while nothing changes, sync and async alike', async () => {
    expect(fileIdentity(file)).not.toBeNull()
    expect(fileIdentity(file)).toBe(fileIdentity(file))
    expect(await fileIdentityAsync(file)).toBe(fileIdentity(file))
  })

  it('changes when the size changes', async () => {
    const before = fileIdentity(file)
    const { mtime } = await stat(file)
    await writeFile(file, 'one\ntwo\n')
    await utimes(file, mtime, mtime)
    expect(fileIdentity(file)).not.toBe(before)
  })

  it('changes when only the mtime changes', async () => {
    const before = fileIdentity(file)
    const { mtimeMs } = await stat(file)
    const later = new Date(mtimeMs + 60_000)
    await utimes(file, later, later)
    expect(fileIdentity(file)).not.toBe(before)
  })

  it('changes when the file is replaced by a rename (a new inode), same size and times', async () => {
    const before = fileIdentity(file)
    const { mtime, size } = await stat(file)
    const tmp = join(root, 'f.tmp')
    await writeFile(tmp, 'x'.repeat(size))
    await utimes(tmp, mtime, mtime)
    await rename(tmp, file)
    expect((await stat(file)).size).toBe(size)
    expect(fileIdentity(file)).not.toBe(before)
  })

  it('is null for a missing path and for the wrong kind of entry', async () => {
    expect(fileIdentity(join(root, 'nope'))).toBeNull()
    expect(await fileIdentityAsync(join(root, 'nope'))).toBeNull()
    expect(fileIdentity(join(root, 'dir'))).toBeNull()
    expect(fileIdentity(join(root, 'dir'), 'dir')).not.toBeNull()
    expect(fileIdentity(file, 'dir')).toBeNull()
  })

  it('gives a folder a new identity when an entry is added to it', async () => {
    const dir = join(root, 'dir')
    const old = new Date(Date.now() - 3_600_000)
    await utimes(dir, old, old)
    const before = fileIdentity(dir, 'dir')
    await writeFile(join(dir, 'new.md'), 'x\n')
    expect(fileIdentity(dir, 'dir')).not.toBe(before)
  })

  it('tells a missing file from an unknown one (contentIdentity)', () => {
    expect(contentIdentity(join(root, 'nope'))).toBe(MISSING)
    expect(contentIdentity(join(root, 'dir'))).toBeNull()
    expect(contentIdentity(file)).toBe(fileIdentity(file))
  })
})
