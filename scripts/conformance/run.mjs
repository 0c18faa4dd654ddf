#!/usr/bin/env node
/**
 * `npm run conformance`: runs the real Claude Code and Codex on our fixture trees
 * (tests/fixtures/conformance/cases.mjs) against a stand-in API server on loopback, reads
 * from the recorded requests what reached the model, and compares it with our own
 * `load-order` and `cutoff` (the built CLI). One line per case, then `N agree, N differ`;
 * exit 1 on any difference, 2 when it cannot run. See docs/conformance.md.
 *
 * Safety: the agents are installed at pinned versions into a cache folder outside the
 * repository; every run gets temporary HOME, CLAUDE_CONFIG_DIR and CODEX_HOME; telemetry,
 * auto-update and error reporting are off by environment; as root the runs happen in a
 * private network namespace holding only loopback (`unshare -n`).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CLAUDE_CASES, CODEX_CASES } from '../../tests/fixtures/conformance/cases.mjs'
import { agentVersion, install } from './agents.mjs'
import { claudeCase } from './claude-case.mjs'
import { codexCase } from './codex-case.mjs'

/** Versions observed in docs/memory-rules.md; 2.1.332 declares node >= 22 but ships a native binary. */
const DEFAULT_CLAUDE = '2.1.332'
const DEFAULT_CODEX = '0.171.0'

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
/** The CLI under test; `--cli PATH` compares another build (e.g. an older commit's). */
let cli = join(repo, 'out/cli/index.js')

function parseArgs(argv) {
  const o = {
    claude: DEFAULT_CLAUDE,
    codex: DEFAULT_CODEX,
    only: null,
    filter: null,
    verbose: false,
  }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--claude-version') o.claude = argv[++i]
    else if (a === '--codex-version') o.codex = argv[++i]
    else if (a === '--only') o.only = argv[++i]
    else if (a === '--filter') o.filter = argv[++i]
    else if (a === '--verbose') o.verbose = true
    else if (a === '--cli') cli = resolve(argv[++i])
    else throw new Error(`unknown option ${a}`)
  }
  return o
}

async function main() {
  const o = parseArgs(process.argv.slice(2))
  if (!existsSync(cli)) {
    console.error('conformance: out/cli/index.js is missing; run `npm run build` first')
    process.exit(2)
  }
  // Install outside the namespace (the registry needs the network), then re-run inside it.
  const claudeBin =
    o.only === 'codex' ? null : join(install('@anthropic-ai/claude-code', o.claude), 'claude')
  const codexBin = o.only === 'claude' ? null : join(install('@openai/codex', o.codex), 'codex')
  if (!process.env.MC_CONFORMANCE_IN_NS) {
    const canUnshare = process.getuid?.() === 0 && spawnSync('unshare', ['-n', 'true']).status === 0
    if (canUnshare) {
      const r = spawnSync(
        'unshare',
        [
          '-n',
          '--',
          'sh',
          '-c',
          'ip link set lo up && exec "$0" "$@"',
          process.execPath,
          ...process.argv.slice(1),
        ],
        {
          stdio: 'inherit',
          env: { ...process.env, MC_CONFORMANCE_IN_NS: '1' },
        },
      )
      process.exit(r.status ?? 2)
    }
    console.warn(
      'conformance: WARNING: no private network namespace (needs root and unshare); the agents run with the host network, pointed at 127.0.0.1',
    )
  } else {
    console.log('conformance: in a private network namespace (loopback only)')
  }
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'mc-conf-')))
  const versions = []
  if (claudeBin) versions.push(`claude ${agentVersion(claudeBin, base)}`)
  if (codexBin) versions.push(`codex ${agentVersion(codexBin, base)}`)
  console.log(`conformance: ${versions.join(', ')}`)

  const jobs = [
    ...(claudeBin ? CLAUDE_CASES.map((c) => ['claude', c]) : []),
    ...(codexBin ? CODEX_CASES.map((c) => ['codex', c]) : []),
  ].filter(([, c]) => !o.filter || c.name.includes(o.filter))
  let agree = 0
  let differ = 0
  let n = 0
  for (const [agent, c] of jobs) {
    const T = join(base, `c${++n}`)
    mkdirSync(T)
    let result
    try {
      result =
        agent === 'claude'
          ? await claudeCase(claudeBin, T, c, cli)
          : await codexCase(codexBin, T, c, cli)
    } catch (err) {
      result = { error: String(err.message ?? err) }
    }
    const diffs = result.error
      ? [result.error]
      : result.lines
          .filter(([, a, b]) => JSON.stringify(a) !== JSON.stringify(b))
          .map(([what, a, b]) => `${what}: agent ${JSON.stringify(a)} ours ${JSON.stringify(b)}`)
    if (diffs.length === 0) agree++
    else differ++
    console.log(
      `${diffs.length === 0 ? 'agree ' : 'DIFFER'} ${agent} ${c.name}${diffs.length ? '\n    ' + diffs.join('\n    ') : ''}`,
    )
    if (o.verbose && result.lines)
      for (const [what, a] of result.lines) console.log(`    ${what}: ${JSON.stringify(a)}`)
  }
  rmSync(base, { recursive: true, force: true })
  console.log(`${agree} agree, ${differ} differ`)
  process.exit(differ === 0 ? 0 : 1)
}

main().catch((err) => {
  console.error(`conformance: ${err.stack ?? err}`)
  process.exit(2)
})
