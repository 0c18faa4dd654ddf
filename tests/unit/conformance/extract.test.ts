/** The conformance harness's reading of a recorded request (a synthetic one of our own). */
import { describe, expect, it } from 'vitest'
import {
  claudeFilesSent,
  claudeMainRequests,
  codexFilesSent,
  codexRequests,
  memoryCutLine,
  memoryLinesSent,
} from '../../../src/node/agents/agent-request.mjs'

const claudeRequest = {
  method: 'POST',
  url: '/v1/messages?beta=true',
  body: {
    system: [
      {
        type: 'text',
        text:
          'You are an agent.\n# auto memory\n- [MEMLINE-1](a.md) x\n- [MEMLINE-2](b.md) y\n- [MEMLINE-4](c.md) z\n\n' +
          '> WARNING: MEMORY.md is 9 lines (limit: 3). Only part of it was loaded, starting at line 5 ("- [MEMLINE-5](d.md) w").',
      },
    ],
    tools: [{ name: 'Read' }],
    messages: [
      {
        role: 'user',
        content: [
          {
            type: 'text',
            text: '<system-reminder>\nIntro.\n\nContents of /t/home/.claude/CLAUDE.md (user instructions):\n\nuser\n\nContents of /t/proj/CLAUDE.md (project instructions, checked into the codebase):\n\nsee Contents of nothing\n</system-reminder>',
          },
          { type: 'text', text: 'hi' },
        ],
      },
    ],
  },
}

describe('conformance extract', () => {
  it('finds the main-loop Claude request and the files in the order sent', () => {
    const side = {
      method: 'POST',
      url: '/v1/messages?beta=true',
      body: { messages: [], tools: [] },
    }
    const other = { method: 'GET', url: '/v1/models', body: null }
    expect(claudeMainRequests([other, side, claudeRequest])).toEqual([claudeRequest])
    expect(claudeFilesSent(claudeRequest.body)).toEqual([
      '/t/home/.claude/CLAUDE.md',
      '/t/proj/CLAUDE.md',
    ])
    // The cut notice quotes the first line left out; that line did not load.
    expect(memoryLinesSent(claudeRequest.body)).toEqual([1, 2, 4])
    expect(memoryCutLine(claudeRequest.body)).toBe(5)
    expect(memoryCutLine({ system: 'no notice' })).toBeNull()
  })

  it('measures how much of each Codex file arrived and a U+FFFD at the cut', () => {
    const a = 'CODEXMARK-a\nalpha\n'
    const b = 'CODEXMARK-b\nxé tail\n'
    const body = {
      input: [
        {
          type: 'message',
          content: [
            {
              type: 'input_text',
              text: `# AGENTS.md instructions\n\n<INSTRUCTIONS>\n${a}\n${b.slice(0, 13)}\uFFFD\n</INSTRUCTIONS>`,
            },
          ],
        },
      ],
    }
    expect(codexRequests([{ method: 'POST', url: '/v1/responses', body }])).toHaveLength(1)
    expect(
      codexFilesSent(body, { 'proj/b': b, 'proj/a': a, 'proj/missing': 'CODEXMARK-m\n' }),
    ).toEqual([
      { name: 'proj/a', bytes: Buffer.byteLength(a), brokenChar: false },
      { name: 'proj/b', bytes: 13, brokenChar: true },
    ])
  })
})
