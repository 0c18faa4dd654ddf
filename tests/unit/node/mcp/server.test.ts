/**
 * The MCP server with the SDK's own client, in-process (InMemoryTransport), over the real
 * handler table on a fixture home: the four read-only tools, and serve's path rules.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { writeLines } from '../../../helpers/transcript-lines'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFixtureHome, type FixtureHome } from '../../../helpers/fixture-home'
import { backendConfigFor } from '../../../helpers/backend-config'
import { createBackend, type Backend } from '../../../../src/node/app/backend'
import { createCuratorMcpServer, MCP_TOOL_NAMES } from '../../../../src/node/mcp/server'
import { dispatch } from '../../../../src/shared/dispatch'
import { loadAuditDigest } from '../../../../src/node/hooks/audit-digest'

let f: FixtureHome
let backend: Backend
let client: Client

const S = '44444444-4444-4444-8444-444444444444'
beforeAll(async () => {
  f = createFixtureHome()
  // A session that asked for a note and wrote it (its transcript beside the fixture's).
  const ctx = { sessionId: S, cwd: f.repo, gitBranch: 'main' }
  const text = 'Totals are computed in `computeTotal`.\n'
  const asked = JSON.stringify({
    type: 'user',
    sessionId: S,
    cwd: f.repo,
    timestamp: '2026-03-02T10:00:00.000Z',
    message: { role: 'user', content: 'Remember where cart totals are computed.' },
  })
  const wrote = writeLines(
    ctx,
    'toolu_01',
    '2026-03-02T10:00:05.000Z',
    join(f.memoryDir, 'origin.md'),
    text,
    'create',
  )
  writeFileSync(join(f.projectDir, `${S}.jsonl`), [asked, ...wrote].join('\n') + '\n')
  writeFileSync(join(f.memoryDir, 'origin.md'), text)
  backend = await createBackend(backendConfigFor(f, { heavyWorker: null }))
  const server = createCuratorMcpServer({
    call: (method, args) => dispatch(backend, method, args) as never,
    cwd: f.repo,
    version: 'test',
  })
  const [a, b] = InMemoryTransport.createLinkedPair()
  await server.connect(a)
  client = new Client({ name: 'test', version: '1' })
  await client.connect(b)
})
afterAll(async () => {
  await client.close()
  await backend.dispose()
  f.cleanup()
})

async function callJson(name: string, args: Record<string, unknown> = {}) {
  const r = (await client.callTool({ name, arguments: args })) as {
    content: { type: string; text: string }[]
    isError?: boolean
  }
  return { isError: r.isError ?? false, text: r.content[0]!.text }
}

describe('memory-curator MCP server (in-process)', () => {
  it('lists exactly the four read-only tools', async () => {
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOL_NAMES].sort())
    for (const t of tools) expect(t.annotations?.readOnlyHint).toBe(true)
  })

  it('memory_status: the cutoff and the entries that do not load', async () => {
    const r = await callJson('memory_status')
    expect(r.isError).toBe(false)
    const s = JSON.parse(r.text) as {
      memoryFile: string
      loadedLines: number
      entriesNotLoaded: { title: string }[]
    }
    expect(s.memoryFile).toBe(join(f.memoryDir, 'MEMORY.md'))
    expect(s.loadedLines).toBe(200)
    expect(s.entriesNotLoaded.at(-1)?.title).toBe('Note 230')
  })

  it('audit_notes: verdicts with reasons, and the audit is kept for the SessionStart hook', async () => {
    const r = await callJson('audit_notes', { include_fresh: true })
    expect(r.isError).toBe(false)
    const a = JSON.parse(r.text) as { memoryDir: string; notes: { verdict: string }[] }
    expect(a.memoryDir).toBe(f.memoryDir)
    expect(a.notes.length).toBeGreaterThan(0)
    expect(await loadAuditDigest(f.stateDir, f.memoryDir)).toMatchObject({ memoryDir: f.memoryDir })
  })

  it('load_order: what loads at start in the launch directory', async () => {
    const r = JSON.parse((await callJson('load_order')).text) as {
      claude: { atStart: { path: string; scope: string }[] }
    }
    expect(r.claude.atStart.map((x) => x.scope)).toContain('memory')
    expect(r.claude.atStart.some((x) => x.path === join(f.repo, 'CLAUDE.md'))).toBe(true)
  })

  it('note_origin: answers for a memory file, with the reason when no transcript records the line', async () => {
    const r = await callJson('note_origin', { file: join(f.memoryDir, 'note-1.md'), line: 7 })
    expect(r.isError).toBe(false)
    const o = JSON.parse(r.text) as { text: string; reason: string | null }
    expect(o.text).toContain('computeTotal')
    expect(o.reason).toMatch(/no surviving transcript/)
  })

  it('note_origin: the session that wrote the line, and what it was asked', async () => {
    const r = await callJson('note_origin', { file: join(f.memoryDir, 'origin.md'), line: 1 })
    const o = JSON.parse(r.text) as {
      writtenBy: { sessionId: string; gitBranch: string }
      excerpt: { prompt: string; timestamp: string }
    }
    expect(o.writtenBy).toMatchObject({ sessionId: S, gitBranch: 'main' })
    expect(o.excerpt).toMatchObject({
      prompt: 'Remember where cart totals are computed.',
      timestamp: '2026-03-02T10:00:05.000Z',
    })
  })

  it("applies serve's path rules: a directory outside the home's projects is refused with the reason", async () => {
    for (const [tool, args] of [
      ['load_order', { cwd: '/etc' }],
      ['memory_status', { cwd: f.home }],
      ['note_origin', { file: '/etc/passwd', line: 1 }],
    ] as const) {
      const r = await callJson(tool, args)
      if (tool === 'note_origin') expect(r.text).toContain('not a file of a known memory folder')
      else {
        expect(r.isError).toBe(true)
        expect(r.text.length).toBeGreaterThan(10)
      }
    }
  })

  it('refuses bad arguments without dying', async () => {
    const r = await client.callTool({ name: 'note_origin', arguments: { file: 'x', line: 0 } })
    expect(r.isError).toBe(true)
    expect((await callJson('memory_status')).isError).toBe(false)
  })
})
