/**
 * One Codex case: run the agent on the case's tree against the stand-in server and set the
 * AGENTS.md bytes it sent beside our load-order's Codex chain.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { runAgent } from './agents.mjs'
import { codexFilesSent, codexRequests } from '../../src/node/agents/agent-request.mjs'
import { ended, ourLoadOrder, rel } from './ours.mjs'
import { startStandin } from '../../src/node/agents/standin.mjs'
import { buildTree } from './tree.mjs'

/** Agent and ours, line by line (`[what, agent, ours]`), or an error. */
export async function codexCase(bin, T, c, cli) {
  const { cwd, env } = buildTree(T, c)
  const server = await startStandin()
  const config = [
    ...(c.config ? [c.config] : []),
    'model = "standin"',
    'model_provider = "standin"',
    '[model_providers.standin]',
    'name = "standin"',
    `base_url = "${server.url}/v1"`,
    'wire_api = "responses"',
    'env_key = "STANDIN_API_KEY"',
    '',
  ].join('\n')
  writeFileSync(join(env.CODEX_HOME, 'config.toml'), config)
  const run = await runAgent(
    bin,
    ['exec', '--skip-git-repo-check', 'hi'],
    cwd,
    { ...env, STANDIN_API_KEY: 'standin' },
    () => codexRequests(server.requests).length >= 1,
  )
  await server.close()
  const reqs = codexRequests(server.requests)
  if (reqs.length < 1)
    return {
      error: `no model request (${ended(run)})`,
    }
  const lo = ourLoadOrder(cli, T, cwd, env)
  const texts = Object.fromEntries(
    Object.entries(c.tree).filter(([, v]) => v.startsWith('CODEXMARK-')),
  )
  const agent = codexFilesSent(reqs[0].body, texts).map(
    (f) => `${f.name}:${f.bytes}${f.brokenChar ? '+FFFD' : ''}`,
  )
  const our = lo.codex.files.map(
    (f) => `${rel(T, f.path)}:${f.includedBytes}${f.brokenChar ? '+FFFD' : ''}`,
  )
  return { lines: [['files', agent, our]] }
}
