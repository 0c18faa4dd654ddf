/** provenance: the ordered writes of every session into a memory folder, line attribution, and the transcript index cache. */
import {
  appendFile,
  readFile,
  readdir,
  rm,
  stat,
  truncate,
  unlink,
  writeFile,
} from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeProjectDir } from '../../../../src/core/memory/project-path'
import {
  lineAttribution,
  provenance,
  writtenAtProvider,
  type ProvenanceReport,
} from '../../../../src/node/transcripts/provenance'
import {
  buildProvenanceTree,
  root,
  home,
  repo,
  wt,
  memDir,
  memory,
  topic,
  transcriptA,
  transcriptB,
  subagent,
  cacheDir,
  partialLine,
  partialRest,
  A,
  B,
  ts,
  answer,
  type Ctx,
} from './provenance-fixture'

beforeAll(buildProvenanceTree)

afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

function fileOf(report: ProvenanceReport, path: string) {
  const f = report.files.find((x) => x.path === path)
  if (!f) throw new Error(`no entry for ${path}`)
  return f
}

describe('provenance', () => {
  it('orders writes of worktree sessions into the shared memory folder, with ok flags', async () => {
    const r = await provenance({ claudeHome: home, memoryDir: memDir })
    expect(r.memoryDirs).toEqual([memDir])
    expect(r.files.map((f) => f.path)).toEqual([memory, topic])
    const m = fileOf(r, memory)
    expect(m.exists).toBe(true)
    expect(
      m.writes.map((w) => [
        w.sessionId,
        w.timestamp,
        w.tool,
        w.ok,
        w.cwd,
        w.gitBranch,
        w.transcript,
      ]),
    ).toEqual([
      [A, ts(1), 'Write', true, repo, 'main', transcriptA],
      [A, ts(3), 'Edit', true, repo, 'main', transcriptA],
      [B, ts(6), 'MultiEdit', true, wt, 'feature', transcriptB],
      [B, ts(7), 'Edit', false, wt, 'feature', transcriptB],
      [A, ts(9), 'Edit', true, repo, 'main', transcriptA],
      [B, ts(11), 'Write', true, wt, 'feature', transcriptB],
    ])
    expect(m.writes.map((w) => w.replay)).toEqual([
      'applied',
      'applied',
      'applied',
      'not-applied',
      'applied',
      'applied',
    ])
    expect(m.writes[3]).toMatchObject({
      status: 'failed',
      toolUseId: 'toolu_B4',
      reason: 'the call failed',
    })
    expect(m.lost).toEqual([
      {
        text: '- A note two',
        addedBy: A,
        removedBy: B,
        addedAt: ts(3),
        removedAt: ts(11),
        removedByTool: 'Write',
        exact: true,
      },
      {
        text: '- A note three',
        addedBy: A,
        removedBy: B,
        addedAt: ts(9),
        removedAt: ts(11),
        removedByTool: 'Write',
        exact: true,
      },
    ])
    expect(m.drifts).toBe(0)
    const t = fileOf(r, topic)
    expect(t.writes).toEqual([
      expect.objectContaining({
        sessionId: A,
        tool: 'Write',
        ok: true,
        transcript: subagent,
        agentId: 'a1b2c3',
      }),
    ])
    expect(t.lost).toEqual([])
    // Parsed: the lines holding `/memory/` and the results they await (not the src/memory.ts
    // write). Skipped: broken JSON, array line, two unknown types, the 9 MiB line.
    expect(r.stats).toEqual({
      files: 3,
      bytesRead: r.stats.bytesRead,
      linesParsed: 18,
      skippedLines: 5,
      cacheHits: 0,
    })
    const total =
      (await stat(transcriptA)).size + (await stat(transcriptB)).size + (await stat(subagent)).size
    expect(r.stats.bytesRead).toBe(total)
    expect(r.problems).toEqual([])
  })

  it('attributes each line on disk to the write that added it', async () => {
    const r = await lineAttribution({ claudeHome: home, file: memory })
    expect(r.file).toBe(memory)
    expect(
      r.lines.map((l) => (l ? [l.line, l.sessionId, l.timestamp, l.tool, l.transcript] : null)),
    ).toEqual([
      [1, B, ts(6), 'MultiEdit', transcriptB],
      [2, A, ts(1), 'Write', transcriptA],
      [3, A, ts(1), 'Write', transcriptA],
      [4, B, ts(6), 'MultiEdit', transcriptB],
      [5, B, ts(11), 'Write', transcriptB],
      null,
    ])
    const t = await lineAttribution({ claudeHome: home, file: topic })
    expect(t.lines.map((l) => l?.transcript)).toEqual([
      subagent,
      subagent,
      subagent,
      subagent,
      subagent,
    ])
    const missing = await lineAttribution({ claudeHome: home, file: join(memDir, 'nope.md') })
    expect(missing.lines).toEqual([])
    expect(missing.problems).toEqual([{ path: join(memDir, 'nope.md'), reason: 'no such file' }])
  })

  it('answers the audit\'s "when was this line written" per line', async () => {
    const writtenAt = writtenAtProvider({ claudeHome: home })
    expect(await writtenAt(memory, 5)).toEqual({ at: ts(11), source: 'transcript' })
    expect(await writtenAt(memory, 2)).toEqual({ at: ts(1), source: 'transcript' })
    expect(await writtenAt(memory, 6)).toBeNull()
    expect(await writtenAt(memory, 99)).toBeNull()
  })

  it('finds the same files through the project id and through all memory folders', async () => {
    const byId = await provenance({ claudeHome: home, projectId: encodeProjectDir(repo) })
    const all = await provenance({ claudeHome: home })
    for (const r of [byId, all]) {
      expect(r.files.map((f) => [f.path, f.writes.length, f.lost.length])).toEqual([
        [memory, 6, 2],
        [topic, 1, 0],
      ])
    }
    const bad = await provenance({ claudeHome: home, projectId: '../x' })
    expect(bad.files).toEqual([])
    expect(bad.problems).toEqual([
      { path: join(home, 'projects'), reason: 'not a project folder name: "../x"' },
    ])
  })

  it('reports a missing Claude home as a problem', async () => {
    const r = await provenance({ claudeHome: join(root, 'nowhere') })
    expect(r.files).toEqual([])
    expect(r.problems).toEqual([
      { path: join(root, 'nowhere', 'projects'), reason: 'no readable projects folder' },
    ])
  })
})

describe('transcript index cache', () => {
  it('reads nothing again when nothing changed, only appended bytes after an append', async () => {
    const progress: [number, number][] = []
    const first = await provenance({
      claudeHome: home,
      memoryDir: memDir,
      cacheDir,
      onProgress: (d, t) => progress.push([d, t]),
    })
    const sizeB = (await stat(transcriptB)).size
    const total = (await stat(transcriptA)).size + sizeB + (await stat(subagent)).size
    expect(first.stats).toMatchObject({ files: 3, bytesRead: total, cacheHits: 0 })
    expect(progress.at(-1)).toEqual([total, total])
    expect((await readdir(cacheDir)).filter((f) => f.endsWith('.tmp'))).toEqual([])

    const second = await provenance({ claudeHome: home, memoryDir: memDir, cacheDir })
    expect(second.stats).toEqual({
      files: 3,
      bytesRead: 0,
      linesParsed: 0,
      skippedLines: 0,
      cacheHits: 3,
    })
    expect(second.files).toEqual(first.files)

    // The session finishes its half-written line and gets the result.
    const b: Ctx = { sessionId: B, cwd: wt, gitBranch: 'feature' }
    const more = `${partialRest}\n${answer(b, 'toolu_B9', 20, { type: 'create', filePath: join(memDir, 'late.md'), content: 'late\n' })}\n`
    await appendFile(transcriptB, more)
    const third = await provenance({ claudeHome: home, memoryDir: memDir, cacheDir })
    expect(third.stats).toEqual({
      files: 3,
      bytesRead: Buffer.byteLength(partialLine) + Buffer.byteLength(more),
      linesParsed: 2,
      skippedLines: 0,
      cacheHits: 2,
    })
    const late = fileOf(third, join(memDir, 'late.md'))
    expect(late.exists).toBe(false)
    expect(late.writes.map((w) => [w.sessionId, w.tool, w.ok, w.gitBranch])).toEqual([
      [B, 'Write', true, 'feature'],
    ])
  })

  it('re-reads a shrunk or rewritten file and drops deleted ones', async () => {
    const sizeB = 101
    await truncate(transcriptB, 0)
    await writeFile(transcriptB, 'x'.repeat(sizeB - 1) + '\n')
    const rewritten = await provenance({ claudeHome: home, memoryDir: memDir, cacheDir })
    expect(rewritten.stats).toMatchObject({ bytesRead: sizeB, cacheHits: 2 })
    expect(fileOf(rewritten, memory).writes.map((w) => w.sessionId)).toEqual([A, A, A])

    // Same size, different head (and mtime): read from the start, not appended to.
    const body = await readFile(transcriptB, 'utf8')
    await writeFile(transcriptB, 'y' + body.slice(1))
    const again = await provenance({ claudeHome: home, memoryDir: memDir, cacheDir })
    expect(again.stats).toMatchObject({ bytesRead: sizeB, cacheHits: 2 })

    await unlink(subagent)
    const dropped = await provenance({ claudeHome: home, memoryDir: memDir, cacheDir })
    expect(dropped.stats).toMatchObject({ files: 2, bytesRead: 0, cacheHits: 2 })
    expect(fileOf(dropped, topic).writes).toEqual([])
    const [cacheFile] = (await readdir(cacheDir)).filter((f) => f.endsWith('.json'))
    const cache = JSON.parse(await readFile(join(cacheDir, cacheFile), 'utf8')) as {
      entries: { path: string }[]
    }
    expect(cache.entries.map((e) => e.path)).toEqual([transcriptA, transcriptB])
  })

  it('starts over from a corrupt cache file', async () => {
    const [cacheFile] = (await readdir(cacheDir)).filter((f) => f.endsWith('.json'))
    await writeFile(join(cacheDir, cacheFile), '{not json')
    const r = await provenance({ claudeHome: home, memoryDir: memDir, cacheDir })
    expect(r.problems).toEqual([
      { path: join(cacheDir, cacheFile), reason: 'cache ignored: not valid JSON' },
    ])
    expect(r.stats.cacheHits).toBe(0)
    const next = await provenance({ claudeHome: home, memoryDir: memDir, cacheDir })
    expect(next.problems).toEqual([])
    expect(next.stats.cacheHits).toBe(2)
  })
})
