/** `memory-curator mcp` over stdio: the SDK's client spawns the built CLI, as Claude Code does. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFixtureHome, type FixtureHome } from '../../../helpers/fixture-home'
import { CLI, cliBuilt } from '../../../helpers/run-cli'

let f: FixtureHome
let client: Client
let stderr = ''

describe.skipIf(!cliBuilt)('mcp over stdio (built CLI)', () => {
  beforeAll(async () => {
    f = createFixtureHome()
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp'],
      cwd: f.repo,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: f.home,
        CLAUDE_CONFIG_DIR: f.claudeHome,
        XDG_STATE_HOME: f.stateDir,
      },
      stderr: 'pipe',
    })
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()))
    client = new Client({ name: 'test', version: '1' })
    await client.connect(transport)
  }, 30_000)
  afterAll(async () => {
    await client?.close()
    f?.cleanup()
  })

  it('answers memory_status for the directory it was started in', async () => {
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual([
      'audit_notes',
      'load_order',
      'memory_status',
      'note_origin',
    ])
    const r = (await client.callTool({ name: 'memory_status', arguments: {} })) as {
      content: { text: string }[]
    }
    const s = JSON.parse(r.content[0]!.text) as { memoryFile: string; firstUnloadedLine: number }
    expect(s.memoryFile).toBe(join(f.memoryDir, 'MEMORY.md'))
    expect(s.firstUnloadedLine).toBe(201)
  })

  it('refuses a directory outside its rules, and keeps serving', async () => {
    const r = await client.callTool({ name: 'load_order', arguments: { cwd: '/' } })
    expect(r.isError).toBe(true)
    const again = await client.callTool({ name: 'load_order', arguments: {} })
    expect(again.isError).toBeFalsy()
    expect(stderr).toBe('')
  })
})
