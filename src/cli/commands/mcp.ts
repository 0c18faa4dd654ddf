/**
 * `memory-curator mcp` (docs/cli.md §13): the read-only MCP server of src/node/mcp/server.ts on
 * stdin/stdout. Every tool calls the one handler table through `dispatch`, as `serve` does, so
 * the same path rules apply; the launch directory (`--cwd`, else the working directory Claude
 * Code starts the server in) is named by the person, like the CLI's `--cwd`.
 */
import { join, resolve } from 'node:path'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import type { Command } from '../args'
import { createBackend } from '../../node/app/backend'
import { defaultStateDir } from '../../node/app/setup'
import { createJsonFileStore } from '../../node/fs/json-store'
import { resolveHomes } from '../../node/memory/homes'
import { createCuratorMcpServer } from '../../node/mcp/server'
import type { ApiCall } from '../../node/mcp/tools'
import { dispatch } from '../../shared/dispatch'
import { version } from '../../../package.json'

export async function run(cmd: Extract<Command, { kind: 'mcp' }>): Promise<number> {
  const cwd = resolve(cmd.cwd ?? process.cwd())
  const stateDir = defaultStateDir()
  const backend = await createBackend({
    ...resolveHomes(cmd.global),
    version,
    demo: false,
    demoReason: null,
    stateDir,
    transport: 'direct',
    env: process.env,
    trash: null,
    stampStore: createJsonFileStore(join(stateDir, 'stamps.json')),
    namedLaunchDirs: [cwd],
  })
  const call: ApiCall = (method, args) => dispatch(backend, method, args) as never
  const server = createCuratorMcpServer({ call, cwd, version })
  const transport = new StdioServerTransport()
  const closed = new Promise<void>((done) => {
    transport.onclose = () => done()
    process.stdin.once('end', () => done())
  })
  await server.connect(transport)
  await closed
  await server.close().catch(() => undefined)
  await backend.dispose()
  return 0
}
