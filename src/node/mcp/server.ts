/**
 * `memory-curator mcp` (issue 18 item 3): a Model Context Protocol server with read-only tools
 * an agent can call on its own notes. Writes stay with the person, in the app: no tool changes
 * a file. Each tool answers with one JSON text; a refusal (a path outside the rules, a bad
 * argument) is a tool error naming the reason, never a crash of the server.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import { auditNotes, loadOrderSummary, memoryStatus, noteOrigin, type ApiCall } from './tools'

export const MCP_TOOL_NAMES = ['memory_status', 'audit_notes', 'note_origin', 'load_order'] as const

export interface McpServerOptions {
  readonly call: ApiCall
  /** The launch directory tools use when none is given (the server's own working directory). */
  readonly cwd: string
  readonly version: string
}

const cwdArg = z
  .string()
  .min(1)
  .max(4096)
  .optional()
  .describe('Launch directory (absolute); default: the directory the server was started in')

type ToolResult = { content: { type: 'text'; text: string }[]; isError?: boolean }

async function answer(work: () => Promise<unknown>): Promise<ToolResult> {
  try {
    return { content: [{ type: 'text', text: JSON.stringify(await work(), null, 2) }] }
  } catch (err) {
    return {
      content: [{ type: 'text', text: err instanceof Error ? err.message : String(err) }],
      isError: true,
    }
  }
}

export function createCuratorMcpServer(o: McpServerOptions): McpServer {
  const server = new McpServer({ name: 'memory-curator', version: o.version })
  const readOnly = { readOnlyHint: true, destructiveHint: false, openWorldHint: false }
  server.registerTool(
    'memory_status',
    {
      title: 'Memory status',
      description:
        "This project's MEMORY.md against Claude Code's load cutoff (first 200 lines or 25,000 characters): how much loads at session start and which entries do not.",
      inputSchema: { cwd: cwdArg },
      annotations: readOnly,
    },
    ({ cwd }) => answer(() => memoryStatus(o.call, cwd ?? o.cwd)),
  )
  server.registerTool(
    'audit_notes',
    {
      title: 'Audit memory notes',
      description:
        "Check this project's memory notes against the code they describe: each note's verdict (fresh, suspect, stale, never-matched, unverifiable), the reasons, and for stale notes the change in the code since the note was written.",
      inputSchema: {
        cwd: cwdArg,
        include_fresh: z.boolean().optional().describe('Also list notes judged fresh'),
      },
      annotations: readOnly,
    },
    ({ cwd, include_fresh }) =>
      answer(() => auditNotes(o.call, cwd ?? o.cwd, include_fresh ?? false)),
  )
  server.registerTool(
    'note_origin',
    {
      title: 'Origin of a note',
      description:
        'Which Claude Code session wrote a line of a memory file (session, time, branch, working directory, transcript), from the transcripts still on disk.',
      inputSchema: {
        file: z.string().min(1).max(4096).describe('A memory file (absolute, or relative to cwd)'),
        line: z.number().int().min(1).max(10_000_000).describe('1-based line of the note'),
        cwd: cwdArg,
      },
      annotations: readOnly,
    },
    ({ file, line, cwd }) => answer(() => noteOrigin(o.call, cwd ?? o.cwd, file, line)),
  )
  server.registerTool(
    'load_order',
    {
      title: 'Load order',
      description:
        'What Claude Code and Codex load when launched in a directory: instruction files in order with their sizes, files loaded on demand, and warnings.',
      inputSchema: { cwd: cwdArg },
      annotations: readOnly,
    },
    ({ cwd }) => answer(() => loadOrderSummary(o.call, cwd ?? o.cwd)),
  )
  return server
}
