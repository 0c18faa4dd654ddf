/**
 * `memory-curator mcp` (docs/cli.md §13): the read-only MCP server of src/node/mcp/server.ts on
 * stdin/stdout. Every tool calls the one handler table through `dispatch`, as `serve` does, so
 * the same path rules apply; the launch directory (`--cwd`, else the working directory Claude
 * Code starts the server in) is named by the person, like the CLI's `--cwd`.
 */
import { resolve } from 'node:path'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import type { Command } from '../args'
import { version } from '../../../package.json'
import { createCliBackend } from '../backend-call'
import { resolveHomes } from '../../node/memory/homes'
import { createCuratorMcpServer } from '../../node/mcp/server'
import type { ApiCall } from '../../node/mcp/tools'
import { dispatch } from '../../shared/dispatch'

export async function run(cmd: Extract<Command, { kind: 'mcp' }>): Promise<number> {
  const cwd = resolve(cmd.cwd ?? process.cwd())
  const backend = await createCliBackend(resolveHomes(cmd.global), { namedLaunchDirs: [cwd] })
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
