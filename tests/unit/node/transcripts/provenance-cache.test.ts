import { appendFile, mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { provenance } from '../../../../src/node/transcripts/provenance'

/** The warm-run report cache (issue 7): reused only while histories and files are unchanged. */
describe('provenance report cache', () => {
  let root: string
  let home: string
  let mem: string
  let transcript: string
  let cacheDir: string
  const meta = { sessionId: 's-1', cwd: '/r', gitBranch: 'main', version: '2.1.0' }
  let n = 0
  const write = (file: string, content: string): string => {
    n++
    const id = `toolu_0${n}Qz`
    const ts = `2026-01-01T00:00:${String(n).padStart(2, '0')}.000Z`
    const call = JSON.stringify({
      ...meta,
      type: 'assistant',
      uuid: `u-${id}`,
      timestamp: ts,
      message: {
        role: 'assistant',
        content: [{ type: 'tool_use', id, name: 'Write', input: { file_path: file, content } }],
      },
    })
    const result = JSON.stringify({
      ...meta,
      type: 'user',
      uuid: `r-${id}`,
      timestamp: ts,
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] },
      toolUseResult: { type: 'create', filePath: file, content },
    })
    return `${call}\n${result}\n`
  }
  const both = async (): Promise<[unknown, unknown]> => {
    const warm = await provenance({ claudeHome: home, cacheDir })
    const cold = await provenance({ claudeHome: home })
    const strip = (r: Awaited<ReturnType<typeof provenance>>): unknown => ({
      files: r.files,
      problems: r.problems,
    })
    return [strip(warm), strip(cold)]
  }

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'mc-prov-cache-'))
    home = join(root, 'claude')
    mem = join(home, 'projects', '-r', 'memory')
    cacheDir = join(root, 'cache')
    await mkdir(mem, { recursive: true })
    transcript = join(home, 'projects', '-r', 's-1.jsonl')
    const a = join(mem, 'a.md')
    await writeFile(
      transcript,
      write(a, 'one\ntwo\n') + write(a, 'one\ntwo\nthree\n') + write(join(mem, 'b.md'), 'b\n'),
    )
    await writeFile(a, 'one\ntwo\nthree\n')
    await writeFile(join(mem, 'b.md'), 'b\n')
    await writeFile(join(mem, 'quiet.md'), 'no writes recorded\n')
  })
  afterAll(async () => {
    await rm(root, { recursive: true, force: true })
  })

  it('gives the same report warm as cold, and keeps it in its own subfolder', async () => {
    const [first, cold] = await both()
    expect(first).toEqual(cold)
    const [second, cold2] = await both()
    expect(second).toEqual(cold2)
    expect(second).toEqual(first)
    expect(await readdir(join(cacheDir, 'provenance-reports'))).toEqual(['report-v1-home.json'])
    const quiet = (second as { files: { path: string; exists: boolean }[] }).files.find((f) =>
      f.path.endsWith('quiet.md'),
    )
    expect(quiet).toEqual({
      path: join(mem, 'quiet.md'),
      writes: [],
      lost: [],
      exists: true,
      drifts: 0,
    })
  })

  it('recomputes a memory file changed since, and a file deleted since', async () => {
    await writeFile(join(mem, 'a.md'), 'one\nthree\n')
    const [edited, cold] = await both()
    expect(edited).toEqual(cold)
    await rm(join(mem, 'b.md'))
    const [gone, cold2] = await both()
    expect(gone).toEqual(cold2)
    const b = (gone as { files: { path: string; exists: boolean }[] }).files.find((f) =>
      f.path.endsWith('b.md'),
    )
    expect(b?.exists).toBe(false)
  })

  it('recomputes everything when the transcripts change', async () => {
    await appendFile(transcript, write(join(mem, 'a.md'), 'one\nthree\nfour\n'))
    const [grown, cold] = await both()
    expect(grown).toEqual(cold)
    const a = (grown as { files: { path: string; writes: unknown[] }[] }).files.find((f) =>
      f.path.endsWith('a.md'),
    )
    expect(a?.writes).toHaveLength(3)
  })

  it('sees files added to folders whose listing it remembers', async () => {
    const hourAgo = new Date(Date.now() - 3_600_000)
    const project = join(home, 'projects', '-r')
    for (const dir of [join(home, 'projects'), project, mem]) await utimes(dir, hourAgo, hourAgo)
    const paths = async (): Promise<string[]> =>
      (await provenance({ claudeHome: home, cacheDir })).files.map((f) => f.path)
    const before = await paths()
    expect(await paths()).toEqual(before)
    await writeFile(join(mem, 'late.md'), 'added later\n')
    expect(await paths()).toEqual([...before, join(mem, 'late.md')].sort())
    await rm(join(mem, 'late.md'))
    await utimes(mem, hourAgo, hourAgo)
    expect(await paths()).toEqual(before)
    const [warm, cold] = await both()
    expect(warm).toEqual(cold)
  })
})
