/**
 * The command line (docs/cli.md): the same core as the window, for
 * scripts, cron and CI. Exit 0 ok, 1 findings at or above --fail-on, 2 bad usage
 * or an unreadable argument (one line on stderr naming the path or option).
 *
 * Start-up (issue 16): this module imports only the argument parser and input.ts; each
 * command lives in `./commands/<name>.ts` (exporting `run(cmd): Promise<number>`) and is
 * imported when it runs, so `--help` and `--version` load nothing of src/node.
 */
import { parseArgs, UsageError, type Command } from './args'
import { InputError } from './input'
import { version } from '../../package.json'

async function run(cmd: Command): Promise<number> {
  switch (cmd.kind) {
    case 'help':
      process.stdout.write(cmd.text)
      return 0
    case 'version':
      process.stdout.write(`${version}\n`)
      return 0
    case 'scan':
      return (await import('./commands/scan')).run(cmd)
    case 'cutoff':
      return (await import('./commands/cutoff')).run(cmd)
    case 'load-order':
      return (await import('./commands/load-order')).run(cmd)
    case 'audit':
      return (await import('./commands/audit')).run(cmd)
    case 'provenance':
      return (await import('./commands/provenance')).run(cmd)
    case 'serve':
      return (await import('./commands/serve')).run(cmd)
    case 'hook':
      return (await import('./commands/hook')).run(cmd)
    case 'hooks':
      return (await import('./commands/hooks')).run(cmd)
    case 'mcp':
      return (await import('./commands/mcp')).run(cmd)
    case 'watch':
      return (await import('./commands/watch')).run(cmd)
  }
}

/** Node's on-disk compile cache (Node ≥ 22.1) for the command modules loaded after this one. */
async function enableCompileCache(): Promise<void> {
  try {
    const mod = (await import('node:module')) as { enableCompileCache?: () => unknown }
    mod.enableCompileCache?.()
  } catch {
    // Not available (Node 20) or the cache folder is not writable: modules compile as before.
  }
}

async function main(): Promise<void> {
  let code: number
  try {
    const cmd = parseArgs(process.argv.slice(2))
    if (cmd.kind !== 'help' && cmd.kind !== 'version') await enableCompileCache()
    code = await run(cmd)
  } catch (err) {
    if (err instanceof UsageError || err instanceof InputError) {
      process.stderr.write(`memory-curator: ${err.message}\n`)
      code = 2
    } else {
      process.stderr.write(
        `memory-curator: internal error: ${(err as Error).stack ?? String(err)}\n`,
      )
      code = 3
    }
  }
  process.exitCode = code
}

void main()
