/** streamTranscript: events, needle search and the head hash with buffer reuse (issue 7). */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHash } from 'node:crypto'
import { needleAnchor, type WriteCallEvent } from '../../../../src/core/transcripts/line'
import { byteNeedle, findNeedle, streamTranscript } from '../../../../src/node/transcripts/stream'
import { assistant, result } from './transcript-builders'

describe('streamTranscript', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mc-stream-'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  const w1 = assistant('toolu_W1', 'Write', {
    file_path: '/h/memory/MEMORY.md',
    content: 'é note\n',
  })
  const r1 = result('toolu_W1', {
    type: 'create',
    filePath: '/h/memory/MEMORY.md',
    content: 'é note\n',
  })
  const bash = assistant('toolu_B1', 'Bash', { command: 'echo "Write"' })
  const bashResult = result('toolu_B1', { stdout: 'Write memory' })
  const other = assistant('toolu_W2', 'Write', { file_path: '/r/src/memory.ts', content: 'x' })
  const otherResult = result('toolu_W2', {
    type: 'create',
    filePath: '/r/src/memory.ts',
    content: 'x',
  })

  it('gives the same events for every chunk size, skipping unrelated lines', async () => {
    const path = join(dir, 'chunks.jsonl')
    await writeFile(
      path,
      [bash, bashResult, w1, other, otherResult, r1, '{"type":"summary"}', ''].join('\n'),
    )
    const isTarget = (c: WriteCallEvent): boolean => c.filePath.startsWith('/h/memory/')
    for (const chunkBytes of [1, 7, 64, 1 << 20]) {
      const r = await streamTranscript(path, { chunkBytes, pathNeedle: 'memory', isTarget })
      if (r.kind !== 'ok') throw new Error(r.problem.reason)
      expect(r.events.map((e) => `${e.kind}:${e.toolUseId}`)).toEqual([
        'write-call:toolu_W1',
        'tool-result:toolu_W1',
      ])
      expect((r.events[0] as WriteCallEvent).input).toEqual({ tool: 'Write', content: 'é note\n' })
      // Parsed: the two writes (needle hits); the Bash lines and the other write's result never are.
      expect(r.linesParsed).toBe(3)
      expect(r.endOffset).toBe(r.size)
    }
  })

  it('leaves a truncated last line unparsed and resumes at its start', async () => {
    const path = join(dir, 'trunc.jsonl')
    const head = `${w1}\n`
    const partial = r1.slice(0, 40)
    await writeFile(path, head + partial)
    const first = await streamTranscript(path)
    if (first.kind !== 'ok') throw new Error(first.problem.reason)
    expect(first.events.map((e) => e.kind)).toEqual(['write-call'])
    expect(first.pending).toEqual(['toolu_W1'])
    expect(first.partialTail).toBe(true)
    expect(first.endOffset).toBe(Buffer.byteLength(head))
    await writeFile(path, `${head}${r1}\n`)
    const next = await streamTranscript(path, {
      startOffset: first.endOffset,
      pendingIds: first.pending,
    })
    if (next.kind !== 'ok') throw new Error(next.problem.reason)
    expect(
      next.events.map((e) => `${e.kind}:${e.toolUseId}:${e.kind === 'tool-result' ? e.ok : ''}`),
    ).toEqual(['tool-result:toolu_W1:true'])
    expect(next.bytesRead).toBe(Buffer.byteLength(r1) + 1)
    expect(next.pending).toEqual([])
  })

  it('skips and counts a line longer than the cap without holding it', async () => {
    const path = join(dir, 'huge.jsonl')
    const huge = assistant('toolu_H', 'Write', {
      file_path: '/h/memory/big.md',
      content: 'y'.repeat(5000),
    })
    await writeFile(path, [huge, w1, r1, huge.slice(0, 3000)].join('\n'))
    const r = await streamTranscript(path, { maxLineBytes: 1024, chunkBytes: 256 })
    if (r.kind !== 'ok') throw new Error(r.problem.reason)
    expect(r.events.map((e) => `${e.kind}:${e.toolUseId}`)).toEqual([
      'write-call:toolu_W1',
      'tool-result:toolu_W1',
    ])
    expect(r.skips).toEqual({ 'too-long': 1 })
    expect(r.skippedLines).toBe(1)
    // The unfinished over-long tail is neither parsed nor committed.
    expect(r.partialTail).toBe(true)
    expect(r.endOffset).toBe(Buffer.byteLength([huge, w1, r1].join('\n')) + 1)
  })

  it('skips a 50 MB line with the default cap and finds the writes around it', async () => {
    const path = join(dir, 'fifty.jsonl')
    const [before, after] = assistant('toolu_BIG', 'Write', {
      file_path: '/h/memory/x.md',
      content: '@',
    }).split('@')
    const fill = Buffer.alloc(50 * 1024 * 1024, 'q')
    await writeFile(
      path,
      Buffer.concat([Buffer.from(`${w1}\n${before}`), fill, Buffer.from(`${after}\n${r1}\n`)]),
    )
    const r = await streamTranscript(path)
    if (r.kind !== 'ok') throw new Error(r.problem.reason)
    expect(r.events.map((e) => `${e.kind}:${e.toolUseId}`)).toEqual([
      'write-call:toolu_W1',
      'tool-result:toolu_W1',
    ])
    expect(r.skips).toEqual({ 'too-long': 1 })
    expect(r.linesParsed).toBe(2)
    expect(r.endOffset).toBe(r.size)
  })

  it('rejects when aborted', async () => {
    const path = join(dir, 'abort.jsonl')
    await writeFile(path, `${w1}\n`)
    const ac = new AbortController()
    ac.abort()
    await expect(streamTranscript(path, { signal: ac.signal })).rejects.toThrow(/abort/i)
  })

  it('reports unreadable paths as problems', async () => {
    const r = await streamTranscript(join(dir, 'missing.jsonl'))
    expect(r).toEqual({
      kind: 'error',
      problem: { path: join(dir, 'missing.jsonl'), reason: 'cannot open: ENOENT' },
    })
    const d = await streamTranscript(dir)
    expect(d).toEqual({ kind: 'error', problem: { path: dir, reason: 'not a regular file' } })
  })
})

describe('needle search (issue 7)', () => {
  it('anchors long needles on an uncommon byte, at most 7 bytes long', () => {
    const at = (s: string): string => {
      const { start, end } = needleAnchor(Buffer.from(s))
      return s.slice(start, end)
    }
    expect(at('/memory/')).toBe('memory/')
    expect(at('Edit"')).toBe('Edit"')
    expect(at('"Write"')).toBe('"Write"')
    expect(at('toolu_01Hq7xYz9')).toBe('Hq7xYz9')
    // Only common bytes: the needle's last 7.
    expect(at('/etc/a/t/e/')).toBe('/a/t/e/')
  })

  it('finds exactly what indexOf finds', () => {
    let seed = 7
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed % n
    }
    const alphabet = 'memory/ o"e\n'
    for (const text of ['/memory/', 'toolu_01Hq7x', 'ory/mem', '/mm/']) {
      const needle = byteNeedle(text)
      for (let round = 0; round < 200; round++) {
        let hay = ''
        const len = rand(120)
        for (let i = 0; i < len; i++) hay += rand(9) === 0 ? text : alphabet[rand(alphabet.length)]
        const buf = Buffer.from(hay)
        for (let from = 0; from <= buf.length; from += 1 + rand(5)) {
          expect(findNeedle(buf, needle, from)).toBe(buf.indexOf(needle.full, from))
        }
      }
    }
  })
})

describe('streamTranscript head hash and buffer reuse (issue 7)', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mc-stream-head-'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })
  const sha1 = (b: Buffer | string): string => createHash('sha1').update(b).digest('hex')

  it('hashes the head from the chunks it reads, for any chunk size', async () => {
    const path = join(dir, 'head.jsonl')
    const line = assistant('toolu_H1', 'Write', {
      file_path: '/h/memory/a.md',
      content: 'x'.repeat(300),
    })
    const body = `${line}\n${line}\n`
    await writeFile(path, body)
    for (const chunkBytes of [7, 100, 1 << 20]) {
      const r = await streamTranscript(path, { chunkBytes, headHashBytes: 64 })
      if (r.kind !== 'ok') throw new Error(r.problem.reason)
      expect(r.headHash).toBe(sha1(Buffer.from(body).subarray(0, 64)))
    }
    // A file shorter than the head hashes all of itself; not asked or not from 0: no hash.
    const all = await streamTranscript(path, { headHashBytes: 1 << 20 })
    expect(all.kind === 'ok' && all.headHash).toBe(sha1(body))
    const none = await streamTranscript(path)
    expect(none.kind === 'ok' && none.headHash).toBe(null)
    const later = await streamTranscript(path, { startOffset: line.length + 1, headHashBytes: 64 })
    expect(later.kind === 'ok' && later.headHash).toBe(null)
    const empty = join(dir, 'empty.jsonl')
    await writeFile(empty, '')
    const e = await streamTranscript(empty, { headHashBytes: 64 })
    expect(e.kind === 'ok' && e.headHash).toBe(sha1(''))
  })

  it('gives the same events with a reused read buffer', async () => {
    const a = join(dir, 'a.jsonl')
    const b = join(dir, 'b.jsonl')
    const wa = assistant('toolu_A1', 'Write', { file_path: '/h/memory/a.md', content: 'a\n' })
    const wb = assistant('toolu_B1', 'Write', { file_path: '/h/memory/b.md', content: 'b\n' })
    await writeFile(a, `${wa}\n${result('toolu_A1', { type: 'create' })}\n`)
    await writeFile(b, `${wb}\n`)
    const shared = Buffer.alloc(1 << 20, 0x61)
    const withBuf = [
      await streamTranscript(a, { readBuffer: shared }),
      await streamTranscript(b, { readBuffer: shared }),
    ]
    const fresh = [await streamTranscript(a), await streamTranscript(b)]
    expect(withBuf).toEqual(fresh)
  })
})
