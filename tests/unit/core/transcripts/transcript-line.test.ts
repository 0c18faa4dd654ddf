/** parseTranscriptLine and quickMayMatter, on built lines and on the corpus transcripts. */
import { readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  parseTranscriptLine,
  quickMayMatter,
  type ToolResultEvent,
  type TranscriptEvent,
  type WriteCallEvent,
} from '../../../../src/core/transcripts/line'
import { streamTranscript } from '../../../../src/node/transcripts/stream'
import { CORPUS_ROOT, needsCorpus } from '../../../helpers/corpus'
import {
  NO_EVENTS,
  countTranscriptEvents,
  describeWriteEvents,
  type TranscriptCounts,
} from '../../../helpers/transcript-counts'
import { assistant, result } from './transcript-builders'

const CORPUS = `${CORPUS_ROOT}/transcripts`

function eventsOf(line: string): readonly TranscriptEvent[] {
  const p = parseTranscriptLine(line)
  if (p.kind !== 'events') throw new Error(`skipped: ${p.reason}`)
  return p.events
}

describe('quickMayMatter', () => {
  it('keeps write calls and results, skips everything else without parsing', () => {
    expect(
      quickMayMatter(assistant('t1', 'Write', { file_path: '/m/memory/MEMORY.md', content: 'x' })),
    ).toBe(true)
    expect(
      quickMayMatter(
        assistant('t1', 'Edit', { file_path: '/a', old_string: 'a', new_string: 'b' }),
      ),
    ).toBe(true)
    expect(quickMayMatter(assistant('t1', 'MultiEdit', { file_path: '/a', edits: [] }))).toBe(true)
    expect(quickMayMatter(assistant('t1', 'Bash', { command: 'ls' }))).toBe(false)
    expect(quickMayMatter(assistant('t1', 'TodoWrite', { todos: [] }))).toBe(false)
    expect(
      quickMayMatter(assistant('t1', 'NotebookEdit', { notebook_path: '/a', new_source: '' })),
    ).toBe(false)
    expect(quickMayMatter('{"type":"user","message":{"content":"write \\"Write\\" please"}}')).toBe(
      false,
    )
    expect(quickMayMatter(result('t1', { stdout: '' }))).toBe(true)
    // Pretty-printed JSON (spaces after colons) still matches.
    expect(quickMayMatter('{"type": "tool_use", "name": "Write"}')).toBe(true)
  })

  it('narrows by path needle and pending ids', () => {
    const w = assistant('t1', 'Write', { file_path: '/r/src/a.ts', content: 'x' })
    expect(quickMayMatter(w, { pathNeedle: 'memory' })).toBe(false)
    expect(quickMayMatter(w, { pathNeedle: 'src' })).toBe(true)
    const r = result('toolu_A', { stdout: '' })
    expect(quickMayMatter(r, { pendingIds: [] })).toBe(false)
    expect(quickMayMatter(r, { pendingIds: ['toolu_B'] })).toBe(false)
    expect(quickMayMatter(r, { pendingIds: ['toolu_B', 'toolu_A'] })).toBe(true)
  })
})

describe('parseTranscriptLine', () => {
  it('reads Write, Edit and MultiEdit calls with their line metadata', () => {
    const [w] = eventsOf(
      assistant('t1', 'Write', { file_path: '/m/MEMORY.md', content: 'a\n' }),
    ) as WriteCallEvent[]
    expect(w).toEqual({
      kind: 'write-call',
      sessionId: 's-1',
      timestamp: '2026-01-01T00:00:00.000Z',
      cwd: '/r',
      gitBranch: 'main',
      uuid: 'u-t1',
      agentId: null,
      isSidechain: false,
      toolUseId: 't1',
      filePath: '/m/MEMORY.md',
      input: { tool: 'Write', content: 'a\n' },
    })
    const [e] = eventsOf(
      assistant('t2', 'Edit', {
        file_path: '/m/a.md',
        old_string: 'a',
        new_string: 'b',
        replace_all: true,
      }),
    ) as WriteCallEvent[]
    expect(e.input).toEqual({
      tool: 'Edit',
      edit: { oldString: 'a', newString: 'b', replaceAll: true },
    })
    const [m] = eventsOf(
      assistant('t3', 'MultiEdit', {
        file_path: '/m/a.md',
        edits: [
          { old_string: 'a', new_string: 'b' },
          { old_string: 'c', new_string: 'd', replace_all: true },
        ],
      }),
    ) as WriteCallEvent[]
    expect(m.input).toEqual({
      tool: 'MultiEdit',
      edits: [
        { oldString: 'a', newString: 'b', replaceAll: false },
        { oldString: 'c', newString: 'd', replaceAll: true },
      ],
    })
    expect(eventsOf(assistant('t4', 'Bash', { command: 'ls' }))).toEqual([])
  })

  it('reads results: ok, is_error, string toolUseResult, originalFile and create', () => {
    const ok = eventsOf(
      result('t1', { filePath: '/m/a.md', originalFile: 'old\n', structuredPatch: [] }),
    )[0] as ToolResultEvent
    expect(ok).toEqual({
      kind: 'tool-result',
      toolUseId: 't1',
      sessionId: 's-1',
      timestamp: '2026-01-01T00:00:01.000Z',
      ok: true,
      originalFile: 'old\n',
      applied: null,
      error: null,
    })
    const created = eventsOf(
      result('t2', { type: 'create', filePath: '/m/a.md', content: 'x' }),
    )[0] as ToolResultEvent
    expect(created.originalFile).toBe('')
    const failed = eventsOf(
      result('t3', 'Error: File has not been read yet.', true),
    )[0] as ToolResultEvent
    expect(failed).toMatchObject({
      ok: false,
      originalFile: null,
      error: 'Error: File has not been read yet.',
    })
    // A string toolUseResult alone (no is_error flag) is a failure too (docs/memory-rules.md §5.3).
    const stringOnly = eventsOf(result('t4', 'Error: denied'))[0] as ToolResultEvent
    expect(stringOnly.ok).toBe(false)
    const modified = eventsOf(
      result('t5', {
        filePath: '/m/a.md',
        oldString: 'a',
        newString: 'B!',
        originalFile: 'a',
        userModified: true,
      }),
    )[0] as ToolResultEvent
    expect(modified.applied).toEqual({
      tool: 'Edit',
      edit: { oldString: 'a', newString: 'B!', replaceAll: false },
    })
  })

  it('turns bad input into counted skips, never throws', () => {
    expect(parseTranscriptLine('')).toEqual({ kind: 'skip', reason: 'empty' })
    expect(parseTranscriptLine('{"type":"assistant",')).toEqual({
      kind: 'skip',
      reason: 'broken-json',
    })
    expect(parseTranscriptLine('[1,2]')).toEqual({ kind: 'skip', reason: 'not-an-object' })
    expect(parseTranscriptLine('null')).toEqual({ kind: 'skip', reason: 'not-an-object' })
    expect(parseTranscriptLine('{"type":"hologram"}')).toEqual({
      kind: 'skip',
      reason: 'unknown-type',
    })
    expect(parseTranscriptLine('{"no":"type"}')).toEqual({ kind: 'skip', reason: 'unknown-type' })
    expect(parseTranscriptLine('{"type":"assistant","message":5}')).toEqual({
      kind: 'skip',
      reason: 'bad-shape',
    })
    expect(parseTranscriptLine(assistant('t', 'Write', { file_path: '/a' }))).toEqual({
      kind: 'skip',
      reason: 'bad-shape',
    })
    expect(parseTranscriptLine('{"type":"summary","summary":"x"}')).toEqual({
      kind: 'events',
      events: [],
    })
  })
})

describe('corpus transcripts', () => {
  it('parse every line of every sample without a crash, with exact counts', async (ctx) => {
    needsCorpus(ctx)
    const counts: Record<string, TranscriptCounts> = {}
    for (const name of (await readdir(CORPUS)).sort()) {
      counts[name] = countTranscriptEvents(await readFile(join(CORPUS, name), 'utf8'))
    }
    expect(counts).toEqual({
      'cc-agent-legacy-layout-v2.0.28.jsonl': NO_EVENTS,
      'cc-transcript-v1.0.98-full.jsonl': {
        Write: 1,
        Edit: 0,
        MultiEdit: 0,
        results: 12,
        failed: 1,
        skips: 0,
      },
      'cc-transcript-v1.0.98-write-edit-multiedit-excerpt.jsonl': {
        Write: 1,
        Edit: 2,
        MultiEdit: 1,
        results: 4,
        failed: 1,
        skips: 0,
      },
      'cc-transcript-v2.0.76-raw-excerpt.jsonl': {
        Write: 0,
        Edit: 0,
        MultiEdit: 0,
        results: 2,
        failed: 0,
        skips: 0,
      },
    })
  })

  it('streams the write/edit excerpt: calls paired with results, the failed Edit flagged', async (ctx) => {
    needsCorpus(ctx)
    const r = await streamTranscript(
      join(CORPUS, 'cc-transcript-v1.0.98-write-edit-multiedit-excerpt.jsonl'),
    )
    if (r.kind !== 'ok') throw new Error(r.problem.reason)
    const summary = describeWriteEvents(r.events)
    expect(summary).toEqual([
      'Write /path/to/Demo/components/index.ts',
      'result true 0',
      'Edit /path/to/Demo/types/index.ts',
      'result false -',
      'MultiEdit /path/to/Demo/todo-app/src/hooks/useTodos.test.ts',
      expect.stringMatching(/^result true \d+$/),
      'Edit /path/to/Demo/todo-app/src/app/page.tsx',
      expect.stringMatching(/^result true \d+$/),
    ])
    expect(r.pending).toEqual([])
    expect(r.linesParsed).toBe(8)
    expect(r.skippedLines).toBe(0)
    expect(r.endOffset).toBe(r.size)
    expect(r.partialTail).toBe(false)
  })
})
