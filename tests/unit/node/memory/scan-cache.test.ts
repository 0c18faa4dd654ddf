/**
 * The scan cache (src/node/memory/scan-cache.ts): a scan that reuses kept readings answers
 * exactly what a cold scan answers, also after transcripts and memory files change, and a
 * damaged or hostile cache file counts as empty. Real files in temp folders.
 */
import { execFileSync } from 'node:child_process'
import {
  appendFile,
  readFile,
  readdir,
  rm,
  stat,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ScanResult } from '../../../../src/shared/model'
import { scanClaudeHome } from '../../../../src/node/memory/scan'
import { createScanCache, type ScanCacheSession } from '../../../../src/node/memory/scan-cache'
import { git } from '../../../helpers/git'
import { day, line, msg, put, scanRoot } from './scan-fixture'

let root: string
let home: string
let stateDir: string
let repo: string
const savedCeiling = process.env.GIT_CEILING_DIRECTORIES

/** A scan through a fresh cache object (so kept readings come from the file), then saved. */
async function cachedScan(): Promise<{
  result: ScanResult
  counts: ScanCacheSession['counts']
  problems: string[]
}> {
  const session = await createScanCache(stateDir).begin(home)
  const result = await scanClaudeHome(home, { cache: session })
  const problems = (await session.finish()).map((p) => p.reason)
  return { result, counts: session.counts, problems }
}

const cold = (): Promise<ScanResult> => scanClaudeHome(home)

async function cacheFile(): Promise<string> {
  const dir = join(stateDir, 'scan-cache')
  const names = await readdir(dir)
  expect(names).toHaveLength(1)
  return join(dir, names[0])
}

async function listTree(dir: string): Promise<string[]> {
  const out: string[] = []
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true }))
    out.push(join(e.parentPath, e.name))
  return out.sort()
}

beforeEach(async () => {
  root = await scanRoot('mc-scan-cache-')
  home = join(root, 'claude')
  stateDir = join(root, 'state')
  repo = join(root, 'work', 'repo')
  await put(join(repo, 'sub', 'f.txt'), 'f\n')
  git(repo, 'init', '-q', '-b', 'main')
  git(repo, 'add', '.')
  git(repo, 'commit', '-q', '-m', 'init')
  const projects = join(home, 'projects')
  // A repository project: two sessions (two cwds), a sub-agent, a memory folder of every kind.
  const p1 = join(projects, '-work-repo')
  await put(join(p1, 'aaaa.jsonl'), msg(repo, 'aaaa', 'main'), day('2025-01-01'))
  await put(join(p1, 'bbbb.jsonl'), msg(join(repo, 'sub'), 'bbbb', 'main'), day('2025-02-01'))
  await put(join(p1, 'aaaa', 'subagents', 'agent-1.jsonl'), msg('/elsewhere', 'aaaa'))
  execFileSync('mkfifo', [join(p1, 'pipe.jsonl')])
  const m1 = join(p1, 'memory')
  await put(join(m1, 'MEMORY.md'), '# Repo notes\n- [A](a.md) — a\n')
  await put(join(m1, 'a.md'), '---\nname: a\ntype: project\n---\nRule.\r\n**Why:** x\r\n')
  await put(join(m1, 'b.md'), '---\ndescription: only this\n---\nB\n')
  await put(join(m1, 'nested', 'deep.md'), 'deep')
  await put(join(m1, 'bin.md'), Buffer.from([0x23, 0x00, 0x0a, 0xff]))
  await symlink('a.md', join(m1, 'link.md'))
  // Only sub-agents, behind malformed lines and a summary line.
  const bad = `{not json\n${line({ type: 'summary', summary: 's' })}${msg('/opt/sub', 's1')}`
  await put(join(projects, 'sub-only', 's1', 'subagents', 'agent-a.jsonl'), bad)
  // A transcript that names no cwd, and an index without a heading.
  await put(join(projects, 'no-cwd', 'x.jsonl'), line({ type: 'summary', summary: 's' }))
  await put(join(projects, 'no-cwd', 'memory', 'MEMORY.md'), 'no heading\n')
})

afterEach(async () => {
  if (savedCeiling === undefined) delete process.env.GIT_CEILING_DIRECTORIES
  else process.env.GIT_CEILING_DIRECTORIES = savedCeiling
  await rm(root, { recursive: true, force: true })
})

describe('scan cache', () => {
  it('answers as a cold scan, cold and warm, and keeps its file in the state folder only', async () => {
    const homeBefore = await listTree(home)
    const reference = await cold()
    expect(reference.projects.find((p) => p.id === '-work-repo')?.repoRoot).toBe(repo)
    const first = await cachedScan()
    expect(first.result).toStrictEqual(reference)
    expect(first.counts.hits).toBe(0)
    expect(first.counts.misses).toBeGreaterThan(5)
    const warm = await cachedScan()
    expect(warm.result).toStrictEqual(reference)
    // Every plain file read the first time is answered from the cache the second.
    expect(warm.counts).toEqual({ hits: first.counts.misses, misses: 0 })
    expect([...first.problems, ...warm.problems]).toEqual([])
    expect(await listTree(home)).toEqual(homeBefore)
    expect((await cacheFile()).startsWith(stateDir)).toBe(true)
  })

  it('re-reads what changed between scans: a rewritten transcript, a new one, edited notes', async () => {
    await cachedScan()
    const p1 = join(home, 'projects', '-work-repo')
    const aaaa = join(p1, 'aaaa.jsonl')
    // Same size and mtime, another cwd (only ctime tells): `repo` and `rep2` have one length.
    const before = await stat(aaaa)
    const rep2 = join(dirname(repo), 'rep2')
    await writeFile(aaaa, msg(rep2, 'aaaa', 'main'))
    expect((await stat(aaaa)).size).toBe(before.size)
    await utimes(aaaa, before.atime, before.mtime)
    await appendFile(join(p1, 'bbbb.jsonl'), msg('/later', 'bbbb'))
    await put(join(home, 'projects', 'no-cwd', 'y.jsonl'), msg('/new/launch', 'y'))
    await writeFile(
      join(p1, 'memory', 'a.md'),
      '---\nname: z\ntype: user\n---\nRule.\r\n**Why:** x\r\n',
    )
    await rm(join(p1, 'memory', 'nested', 'deep.md'))
    await put(join(p1, 'memory', 'c.md'), '---\nname: c\n---\n')
    await writeFile(join(home, 'projects', 'no-cwd', 'memory', 'MEMORY.md'), '# Now named\n')

    const reference = await cold()
    const repoProject = reference.projects.find((p) => p.id === '-work-repo')
    expect(repoProject?.cwds).toContain(rep2)
    expect(reference.projects.find((p) => p.id === 'no-cwd')?.name).toBe('launch')
    const warm = await cachedScan()
    expect(warm.result).toStrictEqual(reference)
    // aaaa, bbbb, y.jsonl, a.md, c.md and the renamed index were read again; the rest kept.
    expect(warm.counts.misses).toBe(6)
    expect(warm.counts.hits).toBeGreaterThan(0)
    expect((await cachedScan()).counts.misses).toBe(0)
  })

  it('counts a damaged cache file as empty', async () => {
    await cachedScan()
    const file = await cacheFile()
    await writeFile(file, '{"version":1,"claudeHome":')
    const reference = await cold()
    const again = await cachedScan()
    expect(again.result).toStrictEqual(reference)
    expect(again.counts.hits).toBe(0)
    expect(again.problems).toEqual(['cache ignored: not valid JSON'])
    // The next scan saved a good file again.
    expect((await cachedScan()).counts).toEqual({ hits: again.counts.misses, misses: 0 })
  })

  it('believes no record of the wrong shape, nor one whose file changed', async () => {
    await cachedScan()
    const file = await cacheFile()
    const saved = JSON.parse(await readFile(file, 'utf8')) as {
      files: {
        kind: string
        path: string
        id: string
        head?: { cwd: unknown }
        memory?: { frontmatter: Record<string, unknown> }
      }[]
    }
    const heads = saved.files.filter((r) => r.kind === 'head')
    expect(heads.length).toBeGreaterThan(2)
    // A wrong type, a foreign identity, an unknown frontmatter key: none of them is used.
    heads[0].head = { ...heads[0].head, cwd: 42 }
    heads[1].head = { ...heads[1].head, cwd: '/hostile' }
    heads[1].id = 'forged:1:2:3:4'
    const mem = saved.files.find((r) => r.kind === 'memory' && r.path.endsWith('/a.md'))?.memory
    expect(mem?.frontmatter).toBeTruthy()
    if (mem) mem.frontmatter = { ...mem.frontmatter, unknownKey: 'y' }
    await writeFile(file, JSON.stringify(saved))
    const reference = await cold()
    const again = await cachedScan()
    expect(again.result).toStrictEqual(reference)
    expect(again.counts.misses).toBe(3)
    expect(JSON.stringify(again.result)).not.toContain('/hostile')
  })

  it('uses a kept reading while the file is unchanged (the cache is what answers)', async () => {
    await cachedScan()
    const file = await cacheFile()
    // Same shape, same identity, another cwd: only a scan that reads the cache can see it.
    const text = (await readFile(file, 'utf8')).replaceAll(
      JSON.stringify('/opt/sub'),
      '"/opt/kept"',
    )
    await writeFile(file, text)
    const warm = await cachedScan()
    expect(warm.result.projects.find((p) => p.id === 'sub-only')?.cwds).toEqual(['/opt/kept'])
  })
})
