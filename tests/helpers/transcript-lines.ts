/** Claude Code transcript lines (2.1.x shape, docs/memory-rules.md §5) for tests that write transcripts. */

export interface SessionCtx {
  readonly sessionId: string
  readonly cwd: string
  readonly gitBranch: string
  /** Set for a sub-agent's line (isSidechain). */
  readonly agentId?: string
}

function meta(ctx: SessionCtx, timestamp: string) {
  return {
    parentUuid: null,
    isSidechain: ctx.agentId !== undefined,
    userType: 'external',
    cwd: ctx.cwd,
    sessionId: ctx.sessionId,
    version: '2.1.90',
    gitBranch: ctx.gitBranch,
    ...(ctx.agentId ? { agentId: ctx.agentId } : {}),
    timestamp,
  }
}

/** An assistant line with one tool_use block. */
export function toolUseLine(
  ctx: SessionCtx,
  id: string,
  timestamp: string,
  name: string,
  input: object,
): string {
  return JSON.stringify({
    ...meta(ctx, timestamp),
    type: 'assistant',
    uuid: `uuid-${id}`,
    message: {
      id: `msg-${id}`,
      role: 'assistant',
      content: [{ type: 'tool_use', id, name, input }],
    },
  })
}

/** The user line answering a tool_use (failed when `isError`: a string result, is_error set). */
export function toolResultLine(
  ctx: SessionCtx,
  id: string,
  timestamp: string,
  toolUseResult: unknown,
  isError = false,
): string {
  return JSON.stringify({
    ...meta(ctx, timestamp),
    parentUuid: `uuid-${id}`,
    type: 'user',
    uuid: `res-${id}`,
    message: {
      role: 'user',
      content: [
        {
          tool_use_id: id,
          type: 'tool_result',
          content: isError
            ? '<tool_use_error>String to replace not found in file.</tool_use_error>'
            : 'done',
          ...(isError ? { is_error: true } : {}),
        },
      ],
    },
    toolUseResult,
  })
}

/**
 * A Write that succeeded, as two lines: the tool_use and its answer (`create` for a new file,
 * `update` for an overwrite), each carrying the full text written.
 */
export function writeLines(
  ctx: SessionCtx,
  id: string,
  timestamp: string,
  filePath: string,
  content: string,
  type: 'create' | 'update',
): [string, string] {
  return [
    toolUseLine(ctx, id, timestamp, 'Write', { file_path: filePath, content }),
    toolResultLine(ctx, id, timestamp, { type, filePath, content, structuredPatch: [] }),
  ]
}
