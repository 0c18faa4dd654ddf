import { execFileSync } from 'node:child_process'
import {
  chmod,
  copyFile,
  mkdir,
  mkdtemp,
  readFile,
  realpath,
  rm,
  writeFile,
} from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TRANSCRIPT_HEAD_MAX_BYTES, TRANSCRIPT_HEAD_MAX_LINES } from '../../../../src/core/limits'
import {
  EMPTY_TRANSCRIPT_HEAD,
  cutTranscriptHeadLine,
  pickTranscriptHead,
  stepTranscriptHead,
} from '../../../../src/core/transcripts/head'
import { readTranscriptHead } from '../../../../src/node/transcripts/head'
import { CORPUS_ROOT, needsCorpus } from '../../../helpers/corpus'

const CORPUS = `${CORPUS_ROOT}/transcripts`
const isRoot = process.getuid?.() === 0
const line = (o: unknown): string => `${JSON.stringify(o)}\n`
const summary = line({ type: 'summary', summary: 'S', leafUuid: 'u' })

describe('pickTranscriptHead (pure)', () => {
  it('skips a summary line and takes the first message line (corpus v1.0.98 excerpt)', async (ctx) => {
    needsCorpus(ctx)
    const text = await readFile(
      join(CORPUS, 'cc-transcript-v1.0.98-write-edit-multiedit-excerpt.jsonl'),
      'utf8',
    )
    expect(pickTranscriptHead(text)).toEqual({
      cwd: '/path/to/Demo/todo-app',
      sessionId: 'fe5e1c67-53e7-4862-81ae-d0e013e3270b',
      gitBranch: '',
      firstTimestamp: '2025-09-03T00:53:29.709Z',
      badLines: 0,
      linesRead: 2,
    })
  })

  it('skips a file-history-snapshot line (corpus v2.0.76 excerpt)', async (ctx) => {
    needsCorpus(ctx)
    const text = await readFile(join(CORPUS, 'cc-transcript-v2.0.76-raw-excerpt.jsonl'), 'utf8')
    expect(pickTranscriptHead(text)).toEqual({
      cwd: '/Users/yoav/projects/alignment-hive',
      sessionId: '6f2580aa-3095-45b7-8d4e-dd8cac7eeffe',
      gitBranch: 'main',
      firstTimestamp: '2026-01-05T03:45:58.436Z',
      badLines: 0,
      linesRead: 2,
    })
  })

  it('counts malformed and non-object lines, not blank ones, and keeps going', () => {
    const text =
      '{not json\n[1,2]\n\n' +
      summary +
      line({ type: 'queue-operation', sessionId: 's0', timestamp: 't0' }) +
      line({ type: 'user', cwd: '/x', sessionId: 's1', gitBranch: 'b', timestamp: 't1' }) +
      'junk after the cwd line\n'
    expect(pickTranscriptHead(text)).toEqual({
      cwd: '/x',
      sessionId: 's0',
      gitBranch: 'b',
      firstTimestamp: 't0',
      badLines: 2,
      linesRead: 6,
    })
  })

  it('ignores empty and non-string cwd values', () => {
    const text = line({ cwd: '' }) + line({ cwd: 42 }) + line({ cwd: '/real' })
    const head = pickTranscriptHead(text)
    expect(head.cwd).toBe('/real')
    expect(head.gitBranch).toBeNull()
    expect(head.linesRead).toBe(3)
  })

  it(`looks at no more than ${TRANSCRIPT_HEAD_MAX_LINES} lines`, () => {
    const text = summary.repeat(TRANSCRIPT_HEAD_MAX_LINES) + line({ cwd: '/too-late' })
    expect(pickTranscriptHead(text)).toEqual({
      cwd: null,
      sessionId: null,
      gitBranch: null,
      firstTimestamp: null,
      badLines: 0,
      linesRead: TRANSCRIPT_HEAD_MAX_LINES,
    })
    const justInTime =
      summary.repeat(TRANSCRIPT_HEAD_MAX_LINES - 1) + line({ cwd: '/just-in-time' })
    expect(pickTranscriptHead(justInTime).cwd).toBe('/just-in-time')
  })

  it('treats a cut last line as fine, but a cut first line as bad', () => {
    expect(pickTranscriptHead(summary + '{"cwd":"/a', false)).toMatchObject({
      cwd: null,
      badLines: 0,
      linesRead: 1,
    })
    expect(pickTranscriptHead('{"cwd":"/a', false)).toMatchObject({
      cwd: null,
      badLines: 1,
      linesRead: 1,
    })
    // At end of file an unterminated last line is a whole line.
    expect(pickTranscriptHead(summary + '{"cwd":"/a"}', true)).toMatchObject({
      cwd: '/a',
      linesRead: 2,
    })
  })

  it('accepts CRLF line ends and a BOM', () => {
    const text = '\ufeff{"type":"summary"}\r\n{"cwd":"C:\\\\w\\\\p","sessionId":"s"}\r\n'
    expect(pickTranscriptHead(text)).toMatchObject({
      cwd: 'C:\\w\\p',
      sessionId: 's',
      badLines: 0,
      linesRead: 2,
    })
  })

  it('changes nothing once done', () => {
    const done = stepTranscriptHead(EMPTY_TRANSCRIPT_HEAD, line({ cwd: '/a' }).trim())
    expect(done.done).toBe(true)
    expect(stepTranscriptHead(done, 'garbage')).toBe(done)
    expect(cutTranscriptHeadLine(done)).toEqual(done)
  })
})

describe('readTranscriptHead (disk)', () => {
  let root: string
  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'mc-head-')))
  })
  afterAll(async () => {
    await rm(root, { recursive: true, force: true })
  })

  it('reads the corpus v1.0.98 full transcript without reading all of it', async (ctx) => {
    needsCorpus(ctx)
    const p = join(root, 'full.jsonl')
    await copyFile(join(CORPUS, 'cc-transcript-v1.0.98-full.jsonl'), p)
    const head = await readTranscriptHead(p)
    expect(head).toMatchObject({
      cwd: '/path/to/Demo',
      sessionId: '1af7fc5e-8455-4414-9ccd-011d40f70b2a',
      gitBranch: '',
      firstTimestamp: '2025-09-03T00:47:19.293Z',
      badLines: 0,
      linesRead: 1,
      problem: null,
      isFile: true,
      cut: false,
      size: 26595,
    })
    expect(head.bytesRead).toBeLessThan(head.size)
    expect(head.mtimeMs).toBeGreaterThan(0)
  })

  it('stays bounded on a 10 MB single-line transcript and counts the cut line as bad', async () => {
    const p = join(root, 'huge.jsonl')
    const size = 10 * 1024 * 1024
    await writeFile(p, Buffer.alloc(size, 'x'))
    const head = await readTranscriptHead(p)
    expect(head).toMatchObject({
      cwd: null,
      badLines: 1,
      linesRead: 1,
      cut: true,
      problem: null,
      bytesRead: TRANSCRIPT_HEAD_MAX_BYTES,
      size,
    })
  })

  it('stops at the cwd line of a huge file', async () => {
    const p = join(root, 'huge-after.jsonl')
    await writeFile(
      p,
      line({ cwd: '/w', sessionId: 's' }) + 'y'.repeat(3 * TRANSCRIPT_HEAD_MAX_BYTES),
    )
    const head = await readTranscriptHead(p)
    expect(head).toMatchObject({ cwd: '/w', badLines: 0, linesRead: 1, cut: false })
    expect(head.bytesRead).toBeLessThan(TRANSCRIPT_HEAD_MAX_BYTES)
  })

  it('joins lines and multi-byte characters across read chunks', async () => {
    const p = join(root, 'chunks.jsonl')
    const cwd = '/tmp/ünïcødé/项目'
    // Pad the first line to 16,370 bytes so the 'ü' (bytes 16,383-16,384) straddles the 16 KiB read chunk.
    const first = line({ type: 'summary', summary: 'z'.repeat(16_370 - 32) })
    expect(Buffer.byteLength(first)).toBe(16_370)
    await writeFile(p, first + line({ cwd, sessionId: 's2', gitBranch: 'dev' }))
    expect(await readTranscriptHead(p)).toMatchObject({
      cwd,
      sessionId: 's2',
      gitBranch: 'dev',
      badLines: 0,
      linesRead: 2,
    })
  })

  it('reads a file without a trailing newline and an empty file', async () => {
    const p = join(root, 'no-newline.jsonl')
    await writeFile(p, summary + JSON.stringify({ cwd: '/nn' }))
    expect(await readTranscriptHead(p)).toMatchObject({ cwd: '/nn', linesRead: 2, badLines: 0 })
    const e = join(root, 'empty.jsonl')
    await writeFile(e, '')
    expect(await readTranscriptHead(e)).toMatchObject({
      cwd: null,
      linesRead: 0,
      badLines: 0,
      problem: null,
      size: 0,
    })
  })

  it(`gives up after ${TRANSCRIPT_HEAD_MAX_LINES} lines and counts malformed ones`, async () => {
    const p = join(root, 'no-cwd.jsonl')
    await writeFile(p, '{bad\n'.repeat(3) + summary.repeat(100) + line({ cwd: '/late' }))
    expect(await readTranscriptHead(p)).toMatchObject({
      cwd: null,
      badLines: 3,
      linesRead: TRANSCRIPT_HEAD_MAX_LINES,
      cut: false,
    })
  })

  it('does not hang on a FIFO named x.jsonl', async () => {
    const p = join(root, 'x.jsonl')
    execFileSync('mkfifo', [p])
    const head = await readTranscriptHead(p)
    expect(head.problem).toEqual({ path: p, reason: 'not a regular file (FIFO, socket or device)' })
    expect(head.isFile).toBe(false)
    expect(head.cwd).toBeNull()
  })

  it('reports a directory, a missing file and a symlink loop', async () => {
    const d = join(root, 'dir.jsonl')
    await mkdir(d)
    expect((await readTranscriptHead(d)).problem).toEqual({ path: d, reason: 'is a directory' })
    const m = join(root, 'missing.jsonl')
    expect((await readTranscriptHead(m)).problem).toEqual({ path: m, reason: 'no such file' })
    const l = join(root, 'loop.jsonl')
    execFileSync('ln', ['-s', 'loop.jsonl', l])
    expect((await readTranscriptHead(l)).problem).toEqual({ path: l, reason: 'symlink loop' })
  })

  it.skipIf(isRoot)(
    'reports an unreadable file (skipped as root: root ignores permissions)',
    async () => {
      const p = join(root, 'secret.jsonl')
      await writeFile(p, line({ cwd: '/s' }))
      await chmod(p, 0o000)
      const head = await readTranscriptHead(p)
      expect(head.problem).toEqual({ path: p, reason: 'cannot open: EACCES' })
      expect(head.isFile).toBe(true)
      await chmod(p, 0o644)
    },
  )
})
