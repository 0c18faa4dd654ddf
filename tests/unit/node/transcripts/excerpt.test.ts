/** Reading excerpts from transcripts on disk: found in one pass, long lines skipped, bad files reported. */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { readExcerpts } from '../../../../src/node/transcripts/excerpt'
import { EXCERPT_LINE_MAX_BYTES } from '../../../../src/core/limits'
import { CORPUS_ROOT, FIXTURES_ROOT, needsCorpus } from '../../../helpers/corpus'

const dir = mkdtempSync(join(tmpdir(), 'mc-excerpt-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('readExcerpts', () => {
  it('finds several writes of a real transcript in one pass', async () => {
    const r = await readExcerpts(
      `${FIXTURES_ROOT}/transcripts/summary-first-write-edit-multiedit.jsonl`,
      ['toolu_01LedgerWrite', 'toolu_02LedgerEdit', 'toolu_not-there'],
    )
    expect(r.problem).toBeNull()
    expect([...r.excerpts.keys()].sort()).toEqual(['toolu_01LedgerWrite', 'toolu_02LedgerEdit'])
  })

  it('reads the corpus transcript the same way', async (ctx) => {
    needsCorpus(ctx)
    const r = await readExcerpts(`${CORPUS_ROOT}/transcripts/cc-transcript-v1.0.98-full.jsonl`, [
      'toolu_01LM7vfs6eMdhHJokVajzJA1',
    ])
    expect(r.excerpts.get('toolu_01LM7vfs6eMdhHJokVajzJA1')?.items.at(-1)?.kind).toBe('write')
  })

  it('skips a line longer than the bound without holding it, and says so', async () => {
    const p = join(dir, 'long.jsonl')
    const huge = JSON.stringify({
      type: 'user',
      message: {
        content: [
          { type: 'tool_result', tool_use_id: 'r', content: 'z'.repeat(EXCERPT_LINE_MAX_BYTES) },
        ],
      },
    })
    const lines = [
      JSON.stringify({ type: 'user', timestamp: 't0', message: { content: 'please remember' } }),
      huge,
      JSON.stringify({
        type: 'assistant',
        timestamp: 't1',
        message: {
          content: [
            {
              type: 'tool_use',
              id: 'w',
              name: 'Write',
              input: { file_path: '/m/a.md', content: 'a' },
            },
          ],
        },
      }),
    ]
    writeFileSync(p, lines.join('\n'))
    const r = await readExcerpts(p, ['w'])
    expect(r.excerpts.get('w')?.items.map((i) => i.text)).toEqual([
      'please remember',
      '[1 line too long to show]',
      'a',
    ])
  })

  it('reports a deleted transcript and a FIFO in its place, never hangs', async () => {
    const gone = await readExcerpts(join(dir, 'gone.jsonl'), ['w'])
    expect(gone.problem).toEqual({
      path: join(dir, 'gone.jsonl'),
      reason: 'transcript no longer exists',
    })
    const fifo = join(dir, 'fifo.jsonl')
    execFileSync('mkfifo', [fifo])
    const r = await readExcerpts(fifo, ['w'])
    expect(r.problem).toEqual({ path: fifo, reason: 'not a regular file' })
  }, 5_000)
})
