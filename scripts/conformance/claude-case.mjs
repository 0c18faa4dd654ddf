/**
 * One Claude Code case: run the agent on the case's tree against the stand-in server, read from
 * its first model requests which instruction files and MEMORY.md lines reached the model, and
 * set them beside our load-order and cutoff.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { runAgent } from './agents.mjs'
import {
  claudeFilesSent,
  claudeMainRequests,
  memoryCutLine,
  memoryLinesSent,
} from '../../src/node/agents/agent-request.mjs'
import { ended, ourLoadOrder, ours, rel } from './ours.mjs'
import { startStandin } from '../../src/node/agents/standin.mjs'
import { buildTree } from './tree.mjs'

/** Agent and ours, line by line (`[what, agent, ours]`), or an error. */
export async function claudeCase(bin, T, c, cli) {
  const { cwd, env } = buildTree(T, c)
  const server = await startStandin(c.readPath ? { readPath: join(T, c.readPath) } : {})
  const want = c.readPath ? 2 : 1
  const run = await runAgent(
    bin,
    ['-p', 'hi'],
    cwd,
    { ...env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'sk-ant-standin-0000' },
    () => claudeMainRequests(server.requests).length >= want,
  )
  await server.close()
  if (process.env.MC_CONFORMANCE_DUMP)
    writeFileSync(process.env.MC_CONFORMANCE_DUMP, JSON.stringify(server.requests, null, 1))
  const main = claudeMainRequests(server.requests)
  if (main.length < want)
    return {
      error: `${main.length} model requests (${ended(run)})`,
    }

  const lo = ourLoadOrder(cli, T, cwd, env)
  const isMemory = (p) => /\/MEMORY\.md$/.test(p)
  const agentFiles = claudeFilesSent(main[0].body)
    .map((p) => rel(T, p))
    .filter((p) => p !== null && !isMemory(p))
  const ourFiles = lo.claude.startup
    .filter((s) => s.scope !== 'memory')
    .map((s) => rel(T, s.path))
    .filter((p) => p !== null)
  const mem = lo.claude.startup.find((s) => s.scope === 'memory')
  let ourMemory = []
  let ourCut = null
  if (mem) {
    const cut = ours(cli, ['cutoff', mem.path], env)
    ourCut = cut.firstUnloadedLine
    ourMemory = cut.entries
      .filter((e) => e.loaded)
      .map((e) => Number(/MEMLINE-(\d+)/.exec(e.title ?? '')?.[1]))
      .filter((n) => n > 0)
  }
  const agentMemory = memoryLinesSent(main[0].body)
  const lines = [
    ['startup', agentFiles, ourFiles],
    ['memory lines', summarise(agentMemory), summarise(ourMemory)],
    ['memory cut at line', memoryCutLine(main[0].body), ourCut],
  ]
  if (c.readPath) {
    const first = new Set(claudeFilesSent(main[0].body))
    const later = claudeFilesSent(main[1].body)
      .filter((p) => !first.has(p))
      .map((p) => rel(T, p))
      .filter((p) => p !== null)
    const read = join(T, c.readPath)
    const ourOnDemand = lo.claude.onDemand
      .filter(
        (o) =>
          o.trigger.startsWith('reading a file under ') &&
          read.startsWith(o.trigger.slice('reading a file under '.length) + '/'),
      )
      .map((o) => rel(T, o.path))
    lines.push(['on demand', later, ourOnDemand])
  }
  return { lines }
}

/** MEMORY.md lines as ranges (`1-200`), so a line per case stays short. */
function summarise(ns) {
  const out = []
  for (const n of ns) {
    const last = out[out.length - 1]
    if (last && last[1] === n - 1) last[1] = n
    else out.push([n, n])
  }
  return out.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`))
}
