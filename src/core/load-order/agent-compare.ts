/**
 * What an installed agent loaded, side by side with our load-order model (issue 13 item 4).
 * Pure: the agent's list comes from the request it sent to the stand-in server
 * (src/node/agents/agent-check.ts), ours from `loadOrder`. Both are lists of real paths.
 */

import type { AgentCheckRow } from '../../shared/model'

type AgentRowStatus = AgentCheckRow['status']

export interface AgentSide {
  readonly path: string
  /** How much of the file reached the model, in the agent's unit (bytes or lines); null = whole. */
  readonly amount?: number | null
  readonly unit?: string
}

/**
 * One row per file either side loads, in the agent's order, then what only we load. A file
 * both load is `moved` when the files both load come in another relative order.
 */
export function compareLoads(
  agent: readonly AgentSide[],
  ours: readonly AgentSide[],
): AgentCheckRow[] {
  const ourIndex = new Map(ours.map((f, i) => [f.path, i]))
  const agentIndex = new Map(agent.map((f, i) => [f.path, i]))
  const common = agent.filter((f) => ourIndex.has(f.path)).map((f) => f.path)
  const ourCommon = ours.filter((f) => agentIndex.has(f.path)).map((f) => f.path)
  const rows: AgentCheckRow[] = []
  agent.forEach((f, i) => {
    const o = ourIndex.get(f.path)
    if (o === undefined) {
      rows.push({ path: f.path, agent: i + 1, ours: null, status: 'only-agent', detail: null })
      return
    }
    const mine = ours[o]!
    const k = common.indexOf(f.path)
    const amounts = (f.amount ?? null) !== (mine.amount ?? null)
    const status: AgentRowStatus =
      ourCommon[k] !== f.path ? 'moved' : amounts ? 'cut-differs' : 'same'
    const detail = amounts ? `agent ${describe(f)}, ours ${describe(mine)}` : null
    rows.push({ path: f.path, agent: i + 1, ours: o + 1, status, detail })
  })
  ours.forEach((f, i) => {
    if (!agentIndex.has(f.path))
      rows.push({ path: f.path, agent: null, ours: i + 1, status: 'only-ours', detail: null })
  })
  return rows
}

function describe(side: AgentSide): string {
  return side.amount === null || side.amount === undefined
    ? 'whole'
    : `${side.amount} ${side.unit ?? ''}`.trim()
}

/**
 * How many leading lines of `memory` (MEMORY.md as on disk) appear, in order, in `sent` (the
 * text the agent sent for it). Blank lines count with their neighbours; the agent trims the
 * whole index first (docs/memory-rules.md §2.2 [agent]), so leading blank lines are skipped.
 */
export function leadingLinesSent(memory: string, sent: string): number {
  const lines = memory.replace(/\r\n/g, '\n').split('\n')
  let at = 0
  let count = 0
  let lastNonBlank = 0
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim()
    if (line === '') {
      count = i + 1
      continue
    }
    const found = sent.indexOf(line, at)
    if (found < 0) break
    at = found + line.length
    count = i + 1
    lastNonBlank = i + 1
  }
  return Math.min(count, lastNonBlank)
}
