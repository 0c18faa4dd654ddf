/** The excerpt of a session around one write, from a real transcript file with hostile lines in it. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { sessionExcerpt } from '../../../../src/node/mcp/session-excerpt'
import { toolUseLine } from '../../../helpers/transcript-lines'

const dir = mkdtempSync(join(tmpdir(), 'mc-excerpt-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const ctx = { sessionId: 's', cwd: '/r', gitBranch: 'main' }
const user = (content: unknown) =>
  JSON.stringify({ type: 'user', message: { role: 'user', content } })
const said = (text: string) =>
  JSON.stringify({ type: 'assistant', message: { content: [{ type: 'text', text }] } })

describe('sessionExcerpt', () => {
  it('gives the last message before the write and the agent’s words, passing over bad lines', async () => {
    const file = join(dir, 't.jsonl')
    writeFileSync(
      file,
      [
        user('first question'),
        '{not json',
        user([{ type: 'text', text: 'Please remember: deploys go through CI.' }]),
        user([{ type: 'tool_result', tool_use_id: 'x', content: 'ok' }]),
        'x'.repeat(2 * 1024 * 1024),
        said('I will save that.'),
        toolUseLine(ctx, 'toolu_9', '2026-01-01T00:00:00.000Z', 'Write', { file_path: '/m/a.md' }),
        user('later'),
      ].join('\n'),
    )
    expect(await sessionExcerpt(file, 'toolu_9')).toEqual({
      prompt: 'Please remember: deploys go through CI.',
      reply: 'I will save that.',
      timestamp: '2026-01-01T00:00:00.000Z',
    })
    expect(await sessionExcerpt(file, 'toolu_missing')).toBeNull()
  })

  it('answers null for a transcript that is gone', async () => {
    expect(await sessionExcerpt(join(dir, 'gone.jsonl'), 'toolu_1')).toBeNull()
  })
})
