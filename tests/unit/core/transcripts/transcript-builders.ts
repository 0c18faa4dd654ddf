/** Builders for transcript lines in the transcript tests: a tool call and its result. */

const meta = {
  sessionId: 's-1',
  cwd: '/r',
  gitBranch: 'main',
  version: '2.1.0',
  isSidechain: false,
  userType: 'external',
}

/** An assistant line calling tool `name` with `input` (tool_use id `id`). */
export function assistant(
  id: string,
  name: string,
  input: object,
  ts = '2026-01-01T00:00:00.000Z',
): string {
  return JSON.stringify({
    ...meta,
    type: 'assistant',
    uuid: `u-${id}`,
    timestamp: ts,
    message: { role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
  })
}

/** The user line answering tool_use `id`, with `toolUseResult`; an error when `isError`. */
export function result(id: string, toolUseResult: unknown, isError = false): string {
  return JSON.stringify({
    ...meta,
    type: 'user',
    uuid: `r-${id}`,
    timestamp: '2026-01-01T00:00:01.000Z',
    message: {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: id,
          content: isError ? '<tool_use_error>nope</tool_use_error>' : 'ok',
          ...(isError ? { is_error: true } : {}),
        },
      ],
    },
    toolUseResult,
  })
}
