/**
 * The transcript rules the shared-corpus tests check (heads, write events, the project scan), on
 * transcripts this project wrote itself (tests/fixtures/README.md), so a clone with no
 * ../shared/corpus still covers them. Figures are those of our fixtures.
 */
import { copyFile, mkdir, mkdtemp, readFile, readdir, realpath, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ProjectInfo, ScanResult } from '../../src/core/model'
import { pickTranscriptHead } from '../../src/core/transcript-head'
import { clearRepoCache } from '../../src/node/git-repo'
import { scanClaudeHome } from '../../src/node/scan'
import { readTranscriptHead } from '../../src/node/transcript-head'
import { streamTranscript } from '../../src/node/transcript-stream'
import { FIXTURES_ROOT } from '../helpers/corpus'
import { NO_EVENTS, countTranscriptEvents, describeWriteEvents, type TranscriptCounts } from '../helpers/transcript-counts'
import { toolUseLine } from '../helpers/transcript-lines'

const TRANSCRIPTS = `${FIXTURES_ROOT}/transcripts`
const SUMMARY_FIRST = join(TRANSCRIPTS, 'summary-first-write-edit-multiedit.jsonl')
const SNAPSHOT_FIRST = join(TRANSCRIPTS, 'snapshot-first.jsonl')
const LONG_SESSION = join(TRANSCRIPTS, 'long-session.jsonl')
const AGENT_LEGACY = join(TRANSCRIPTS, 'agent-legacy-layout.jsonl')
const day = (d: string): Date => new Date(`${d}T00:00:00Z`)

describe('transcript heads', () => {
  it('skips a summary line and takes the first message line', async () => {
    expect(pickTranscriptHead(await readFile(SUMMARY_FIRST, 'utf8'))).toEqual({
      cwd: '/srv/demo/ledger',
      sessionId: '5e1d0c2a-7b44-4c1e-9a0f-3d2b8c6e1f70',
      gitBranch: '',
      firstTimestamp: '2025-10-14T09:12:05.120Z',
      badLines: 0,
      linesRead: 2,
    })
  })

  it('skips a file-history-snapshot line (its timestamp is nested, not the first)', async () => {
    expect(pickTranscriptHead(await readFile(SNAPSHOT_FIRST, 'utf8'))).toEqual({
      cwd: '/home/dev/ledger-api',
      sessionId: '0c9a4f7e-2d61-4b3a-8e15-7f6a5b4c3d21',
      gitBranch: 'main',
      firstTimestamp: '2026-02-10T14:02:11.640Z',
      badLines: 0,
      linesRead: 2,
    })
  })

  it('reads a session longer than one read without reading all of it', async () => {
    const head = await readTranscriptHead(LONG_SESSION)
    expect(head).toMatchObject({
      cwd: '/srv/demo',
      sessionId: '7d3b2a19-c4e5-4f60-8a71-92b3c4d5e6f7',
      gitBranch: '',
      firstTimestamp: '2025-10-15T08:00:00.000Z',
      badLines: 0,
      linesRead: 1,
      problem: null,
      isFile: true,
      cut: false,
      size: 19908,
    })
    expect(head.bytesRead).toBeLessThan(head.size)
  })
})

describe('write events in our transcripts', () => {
  it('parse every line of every fixture without a crash, with exact counts', async () => {
    const counts: Record<string, TranscriptCounts> = {}
    for (const name of (await readdir(TRANSCRIPTS)).sort()) {
      counts[name] = countTranscriptEvents(await readFile(join(TRANSCRIPTS, name), 'utf8'))
    }
    expect(counts).toEqual({
      'agent-legacy-layout.jsonl': NO_EVENTS,
      // 8 Glob results, a failed Bash (is_error and a string result), a Write and its result.
      'long-session.jsonl': { ...NO_EVENTS, Write: 1, results: 10, failed: 1 },
      // A sub-agent launch result and a Read result; snapshot, queue, system and summary lines are known types.
      'snapshot-first.jsonl': { ...NO_EVENTS, results: 2 },
      'summary-first-write-edit-multiedit.jsonl': { ...NO_EVENTS, Write: 1, Edit: 2, MultiEdit: 1, results: 4, failed: 1 },
    })
  })

  it('streams Write, a failed Edit (toolUseResult a string), MultiEdit and Edit, paired with results', async () => {
    const r = await streamTranscript(SUMMARY_FIRST)
    if (r.kind !== 'ok') throw new Error(r.problem.reason)
    const summary = describeWriteEvents(r.events)
    // Original lengths: a created file starts empty; the test file had 110 characters, export.ts 101.
    expect(summary).toEqual([
      'Write /srv/demo/ledger/src/export.ts',
      'result true 0',
      'Edit /srv/demo/ledger/src/types.ts',
      'result false -',
      'MultiEdit /srv/demo/ledger/tests/export.test.ts',
      'result true 110',
      'Edit /srv/demo/ledger/src/export.ts',
      'result true 101',
    ])
    const failed = r.events.find((e) => e.kind === 'tool-result' && !e.ok)
    expect(failed).toMatchObject({ toolUseId: 'toolu_02LedgerEdit', error: 'Error: File has not been read yet. Read it first before writing to it.' })
    const multi = r.events.find((e) => e.kind === 'write-call' && e.input.tool === 'MultiEdit')
    expect(multi?.kind === 'write-call' && multi.input.tool === 'MultiEdit' ? multi.input.edits.length : -1).toBe(2)
    expect(r.pending).toEqual([])
    // 9 lines: the summary line carries no event and is not parsed.
    expect(r.linesParsed).toBe(8)
    expect(r.skippedLines).toBe(0)
    expect(r.endOffset).toBe(r.size)
    expect(r.partialTail).toBe(false)
  })
})

describe('scanClaudeHome on our transcripts', () => {
  let root: string
  let projects: string
  let result: ScanResult
  const savedCeiling = process.env.GIT_CEILING_DIRECTORIES
  const byId = (id: string): ProjectInfo => {
    const p = result.projects.find((x) => x.id === id)
    if (!p) throw new Error(`no project ${id}`)
    return p
  }
  const place = async (from: string, to: string, mtime: Date) => {
    await mkdir(dirname(to), { recursive: true })
    await copyFile(from, to)
    await utimes(to, mtime, mtime)
  }

  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'own-fixtures-scan-')))
    process.env.GIT_CEILING_DIRECTORIES = dirname(root)
    clearRepoCache()
    projects = join(root, 'claude', 'projects')
    // Malformed first lines, then a summary line, then the message.
    const ledger = join(projects, '-srv-demo-ledger', '5e1d.jsonl')
    await mkdir(dirname(ledger), { recursive: true })
    await writeFile(ledger, Buffer.concat([Buffer.from('{not json\ngarbage\n'), await readFile(SUMMARY_FIRST)]))
    // Only sub-agent transcripts: the 2.x layout and the older agent-<id>.jsonl beside the sessions.
    const newer = join(projects, 'sub-agents-only', 's1', 'subagents', 'agent-a.jsonl')
    await mkdir(dirname(newer), { recursive: true })
    const ctx = { sessionId: 's1', cwd: '/opt/newer', gitBranch: '', agentId: 'a' }
    await writeFile(newer, `${toolUseLine(ctx, 'toolu_A', '2025-06-01T00:00:00.000Z', 'Read', { file_path: '/opt/newer/x' })}\n`)
    await utimes(newer, day('2025-06-01'), day('2025-06-01'))
    await place(AGENT_LEGACY, join(projects, 'sub-agents-only', 'agent-7d3b2a19.jsonl'), day('2025-05-01'))
    // Two sessions with different cwds, the newer first.
    await place(LONG_SESSION, join(projects, '-srv-demo', '7d3b.jsonl'), day('2025-10-15'))
    await place(SNAPSHOT_FIRST, join(projects, '-srv-demo', '0c9a.jsonl'), day('2025-08-01'))
    result = await scanClaudeHome(join(root, 'claude'))
  })

  afterAll(async () => {
    if (savedCeiling === undefined) delete process.env.GIT_CEILING_DIRECTORIES
    else process.env.GIT_CEILING_DIRECTORIES = savedCeiling
    await rm(root, { recursive: true, force: true })
  })

  it('lists the three projects, named from their newest cwd', () => {
    expect(result.problems).toEqual([])
    expect(result.projects.map((p) => [p.name, p.id])).toEqual([
      ['demo', '-srv-demo'],
      ['ledger', '-srv-demo-ledger'],
      ['newer', 'sub-agents-only'],
    ])
  })

  it('skips malformed lines and a summary line before the first message', () => {
    expect(byId('-srv-demo-ledger')).toMatchObject({
      cwds: ['/srv/demo/ledger'],
      repoRoot: null,
      sessions: 1,
      memoryDir: null,
      problems: [{ path: join(projects, '-srv-demo-ledger', '5e1d.jsonl'), reason: '2 malformed lines in the first 4' }],
    })
  })

  it('takes cwds from sub-agent transcripts of both layouts when there are no sessions', () => {
    expect(byId('sub-agents-only')).toMatchObject({
      cwds: ['/opt/newer', '/srv/demo'],
      sessions: 0,
      repoRoot: null,
      problems: [],
    })
  })

  it('reads two session heads with different cwds, newest transcript first', () => {
    expect(byId('-srv-demo')).toMatchObject({
      cwds: ['/srv/demo', '/home/dev/ledger-api'],
      sessions: 2,
      repoRoot: null,
      problems: [],
    })
  })
})
