/**
 * MCP tool names a note gives (`mcp__tools-py__run_pylint_check`, `mcp__github__*`): Claude Code
 * names a server's tools `mcp__<server>__<tool>`, the server by its key in the project's MCP
 * settings (`.mcp.json`'s `"tools-py": {…}`). The server's quoted name is text those settings
 * held when the note was written; gone from them now, the tool names the note gives no longer
 * resolve (blind set DP mc-t03: `tools-py` renamed `mcp-tools-py`). A server the repository never
 * configured (a user's own) says nothing. Pure; src/node/audit/prose-candidates.ts checks them.
 */

const MCP_TOOL_RE = /(?<![\w-])mcp__([A-Za-z0-9](?:[A-Za-z0-9.-]|_(?!_))*)__(?:[\w*-]+)?/g

/** Each MCP server a note's tool names name, with the first tool name as written. */
export function mcpServers(text: string): { readonly written: string; readonly server: string }[] {
  const out: { written: string; server: string }[] = []
  for (const m of text.matchAll(MCP_TOOL_RE))
    if (!out.some((x) => x.server === m[1])) out.push({ written: m[0], server: m[1] })
  return out
}

/**
 * Text that is only MCP tool names, one a line (`mcp__tools-py__run_pylint_check()`): no code of
 * the repository, checked by its servers (mcpServers), never as a quote or a symbol.
 */
export const isMcpToolList = (text: string): boolean =>
  text
    .split('\n')
    .map((l) => l.trim().replace(/^[-*]\s+/, ''))
    .filter((l) => l !== '')
    .every((l) => /^mcp__[\w.-]+__[\w*-]*(?:\(\))?$/.test(l))
