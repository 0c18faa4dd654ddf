import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Problem } from '../../../../src/shared/model'
import { PersistentCache, RecordsCache } from '../../../../src/node/cache/persistent-cache'

describe('PersistentCache', () => {
  let root: string
  let parses = 0
  const cache = new PersistentCache<{ readonly n: number }>({
    version: 1,
    max: 2,
    maxBytes: 1024,
    parse: ({ n }) => {
      parses++
      return typeof n === 'number' ? { n } : null
    },
  })
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'mc-pcache-'))
  })
  afterAll(async () => {
    await rm(root, { recursive: true, force: true })
  })

  it('saves atomically and loads what it saved without parsing the file again', async () => {
    const path = join(root, 'sub', 'a.json')
    const problems: Problem[] = []
    await cache.save(path, { n: 7 }, { n: 7 }, problems)
    expect(problems).toEqual([])
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ version: 1, n: 7 })
    expect(await readdir(join(root, 'sub'))).toEqual(['a.json'])
    parses = 0
    expect(await cache.load(path)).toEqual({ n: 7 })
    expect(parses).toBe(0)
  })

  it('reads the file again once another process replaced it', async () => {
    const path = join(root, 'sub', 'a.json')
    await writeFile(path, JSON.stringify({ version: 1, n: 8 }))
    parses = 0
    expect(await cache.load(path)).toEqual({ n: 8 })
    expect(parses).toBe(1)
    expect(await cache.load(path)).toEqual({ n: 8 })
    expect(parses).toBe(1)
  })

  it('starts empty on a missing, broken, too large or refused file, reporting only when asked', async () => {
    const problems: Problem[] = []
    expect(await cache.load(join(root, 'missing.json'), problems)).toBeNull()
    expect(problems).toEqual([])
    const broken = join(root, 'broken.json')
    await writeFile(broken, '{not json')
    expect(await cache.load(broken)).toBeNull()
    expect(await cache.load(broken, problems)).toBeNull()
    expect(problems).toEqual([{ path: broken, reason: 'cache ignored: not valid JSON' }])
    const big = join(root, 'big.json')
    await writeFile(big, JSON.stringify({ version: 1, n: 1, pad: 'x'.repeat(2000) }))
    expect(await cache.load(big)).toBeNull()
    const old = join(root, 'old.json')
    await writeFile(old, JSON.stringify({ version: 0, n: 1 }))
    expect(await cache.load(old)).toBeNull()
    const refused = join(root, 'refused.json')
    await writeFile(refused, JSON.stringify({ version: 1, n: 'one' }))
    expect(await cache.load(refused)).toBeNull()
    const notObject = join(root, 'array.json')
    await writeFile(notObject, '[1]')
    expect(await cache.load(notObject)).toBeNull()
  })

  it('reports a save that fails and leaves no temp file', async () => {
    const blocker = join(root, 'blocker')
    await writeFile(blocker, 'a file where a folder should be')
    const problems: Problem[] = []
    await cache.save(join(blocker, 'c.json'), { n: 1 }, { n: 1 }, problems)
    expect(problems).toHaveLength(1)
    expect(problems[0].reason).toMatch(/^cache not saved: /)
    expect((await readdir(root)).filter((f) => f.endsWith('.tmp'))).toEqual([])
  })
})

describe('RecordsCache', () => {
  interface Rec {
    readonly path: string
    readonly n: number
  }
  let root: string
  const records = new RecordsCache<Rec>({
    version: 3,
    max: 2,
    fields: { key: 'scope', records: 'items' },
    isRecord: (v): v is Rec =>
      typeof (v as Rec | null)?.path === 'string' && typeof (v as Rec).n === 'number',
    pathOf: (r) => r.path,
  })
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'mc-records-'))
  })
  afterAll(async () => {
    await rm(root, { recursive: true, force: true })
  })

  it('saves records under their fields and loads them by path for the same key only', async () => {
    const path = join(root, 'r.json')
    const problems: Problem[] = []
    const list = [
      { path: '/a', n: 1 },
      { path: '/b', n: 2 },
    ]
    await records.save(path, 'k1', list, problems)
    expect(problems).toEqual([])
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({
      version: 3,
      scope: 'k1',
      items: list,
    })
    expect([...(await records.load(path, 'k1')).entries()]).toEqual([
      ['/a', list[0]],
      ['/b', list[1]],
    ])
    expect((await records.load(path, 'k2')).size).toBe(0)
  })

  it('drops malformed records and refuses a file without its fields', async () => {
    const path = join(root, 'mixed.json')
    await writeFile(
      path,
      JSON.stringify({ version: 3, scope: 'k', items: [{ path: '/a', n: 1 }, { path: 2 }, null] }),
    )
    expect([...(await records.load(path, 'k')).keys()]).toEqual(['/a'])
    const bare = join(root, 'bare.json')
    await writeFile(bare, JSON.stringify({ version: 3, items: [] }))
    expect((await records.load(bare, 'k')).size).toBe(0)
  })
})
