/**
 * Parsing the command line of docs/cli.md into a typed command (pure; no I/O). Imports
 * nothing: `--help` and `--version` load only this (issue 16; `node:net` alone cost more
 * than the rest of the start-up).
 */

/** Dotted decimal with no leading zeros, as `net.isIPv4` accepts. */
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)$/

export type FailOn = 'stale' | 'suspect'

export interface GlobalOptions {
  readonly claudeHome?: string
  readonly codexHome?: string
  readonly managedDir?: string
  readonly json: boolean
}

export type Command =
  | { readonly kind: 'help'; readonly text: string }
  | { readonly kind: 'version' }
  | { readonly kind: 'scan'; readonly global: GlobalOptions }
  | { readonly kind: 'cutoff'; readonly global: GlobalOptions; readonly file: string }
  | { readonly kind: 'load-order'; readonly global: GlobalOptions; readonly cwd: string }
  | {
      readonly kind: 'audit'
      readonly global: GlobalOptions
      readonly memoryDir?: string
      readonly project?: string
      readonly repo?: string
      readonly failOn?: FailOn
    }
  | {
      readonly kind: 'provenance'
      readonly global: GlobalOptions
      readonly memoryDir?: string
      readonly project?: string
    }
  | {
      readonly kind: 'serve'
      readonly global: GlobalOptions
      readonly port: number
      readonly host: string
      readonly demo: boolean
      readonly demoDir?: string
      readonly stateDir?: string
    }
  | AgentLinkCommand

/** Issue 18: the commands that connect Claude Code to the curator. */
export type HookScopeArg = 'user' | 'project'
export type AgentLinkCommand =
  | { readonly kind: 'hook'; readonly global: GlobalOptions; readonly event: 'session-start' }
  | {
      readonly kind: 'hooks'
      readonly global: GlobalOptions
      readonly action: 'install' | 'uninstall' | 'status'
      readonly scope: HookScopeArg
      readonly cwd?: string
      readonly yes: boolean
    }
  | { readonly kind: 'mcp'; readonly global: GlobalOptions; readonly cwd?: string }
  | { readonly kind: 'watch'; readonly global: GlobalOptions }

export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

export const USAGE = `memory-curator <command> [options]

Commands:
  scan                         every project folder under <claude home>/projects
  cutoff <MEMORY.md>           what of MEMORY.md loads at session start
  load-order --cwd DIR         what Claude Code and Codex load when launched in DIR
  audit (--memory-dir DIR | --project ID) [--repo DIR] [--fail-on stale|suspect]
                               check notes against the code they describe
  provenance (--project ID | --memory-dir DIR)
                               who wrote each memory file, from transcripts
  serve [--port N] [--host 127.0.0.1] [--demo]
                               the desktop window's interface in a browser;
                               loopback only (remote: ssh -L PORT:127.0.0.1:PORT)
  hook session-start           Claude Code's SessionStart hook: reads the hook's JSON on
                               stdin, prints a notice when memory needs attention
  hooks install|uninstall|status [--user|--project] [--cwd DIR] [--yes]
                               add or remove that hook in Claude Code's settings
  mcp [--cwd DIR]              read-only MCP server over stdio for Claude Code
  watch                        report, on stderr, memory written past the cutoff and
                               lines a parallel session removed

Options every command takes:
  --claude-home DIR   default $CLAUDE_CONFIG_DIR, else ~/.claude
  --codex-home DIR    default $CODEX_HOME, else ~/.codex
  --managed-dir DIR   default: the platform's managed-policy folder
  --json              one JSON document on stdout
`

const VALUE_OPTIONS = new Set([
  '--claude-home',
  '--codex-home',
  '--managed-dir',
  '--cwd',
  '--memory-dir',
  '--project',
  '--repo',
  '--fail-on',
  '--port',
  '--host',
  '--demo-dir',
  '--state-dir',
])
const FLAG_OPTIONS = new Set(['--json', '--demo', '--help', '-h', '--version', '--yes'])
/** For `hooks`, `--project` is a scope, not `--project ID`. */
const HOOKS_FLAGS = new Set(['--user', '--project'])

const ALLOWED: Record<string, readonly string[]> = {
  scan: [],
  cutoff: [],
  'load-order': ['--cwd'],
  audit: ['--memory-dir', '--project', '--repo', '--fail-on'],
  provenance: ['--memory-dir', '--project'],
  serve: ['--port', '--host', '--demo', '--demo-dir', '--state-dir'],
  hook: [],
  hooks: ['--user', '--project', '--cwd', '--yes'],
  mcp: ['--cwd'],
  watch: [],
}
const COMMON = ['--claude-home', '--codex-home', '--managed-dir', '--json', '--help', '-h']

/**
 * The address `serve` binds for `--host`, or null when it is not loopback: 127.0.0.0/8 in
 * strict dotted form, `::1` in any spelling, or `localhost`. `localhost` becomes 127.0.0.1
 * without asking a resolver: /etc/hosts or NSS may map it to any address (RFC 6761 §6.3 lets
 * an application treat it as loopback itself). Shorthands such as `127.1` are refused, since
 * the C resolver would widen them in ways a reader of the flag would not expect.
 */
export function loopbackBindAddress(host: string): string | null {
  if (host.toLowerCase() === 'localhost') return '127.0.0.1'
  if (IPV4.test(host)) return host.split('.')[0] === '127' ? host : null
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host
  // Only hex digits, colons and (for an embedded IPv4 tail) dots can spell ::1; the URL parser
  // below then accepts exactly the valid IPv6 forms and names their canonical spelling.
  if (!/^[0-9A-Fa-f:.]+$/.test(bare) || !bare.includes(':')) return null
  try {
    return new URL(`http://[${bare}]/`).hostname === '[::1]' ? '::1' : null
  } catch {
    return null // a zone id such as `::1%lo` does not parse as a URL host
  }
}

/** The one-line refusal of a non-loopback `--host` (the CLI prints it and exits 2). */
export function nonLoopbackHostMessage(host: string): string {
  return (
    `option --host ${host}: serve listens on loopback only (127.0.0.0/8, ::1, localhost), because anyone who ` +
    `reaches the port could read and change your memory files; for remote use forward the port over SSH: ` +
    `ssh -L 8765:127.0.0.1:8765 HOST, then run serve --port 8765 there`
  )
}

/** Parse argv (without node and script) into a command; throws UsageError naming the problem. */
export function parseArgs(argv: readonly string[]): Command {
  const positional: string[] = []
  const opts = new Map<string, string>()
  const flags = new Set<string>()
  const hooksFlags = firstCommand(argv) === 'hooks'
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--') {
      positional.push(...argv.slice(i + 1))
      break
    }
    if (arg.startsWith('-') && arg !== '-') {
      const eq = arg.indexOf('=')
      const name = eq > 0 ? arg.slice(0, eq) : arg
      if (hooksFlags && HOOKS_FLAGS.has(name)) {
        if (eq > 0) throw new UsageError(`option ${name} takes no value`)
        flags.add(name)
      } else if (VALUE_OPTIONS.has(name)) {
        const value = eq > 0 ? arg.slice(eq + 1) : argv[++i]
        if (value === undefined || value === '')
          throw new UsageError(`option ${name} needs a value`)
        if (opts.has(name)) throw new UsageError(`option ${name} given twice`)
        opts.set(name, value)
      } else if (FLAG_OPTIONS.has(name)) {
        if (eq > 0) throw new UsageError(`option ${name} takes no value`)
        flags.add(name)
      } else {
        throw new UsageError(`unknown option ${name}`)
      }
    } else positional.push(arg)
  }
  const [command, ...rest] = positional
  if (flags.has('--version') && !command) return { kind: 'version' }
  if (!command || flags.has('--help') || flags.has('-h')) return { kind: 'help', text: USAGE }
  const allowed = ALLOWED[command]
  if (!allowed) throw new UsageError(`unknown command ${command} (try --help)`)
  for (const name of [...opts.keys(), ...flags]) {
    if (!allowed.includes(name) && !COMMON.includes(name))
      throw new UsageError(`option ${name} does not apply to ${command}`)
  }
  const global: GlobalOptions = {
    claudeHome: opts.get('--claude-home'),
    codexHome: opts.get('--codex-home'),
    managedDir: opts.get('--managed-dir'),
    json: flags.has('--json'),
  }
  const noMorePositional = (n: number): void => {
    if (rest.length > n) throw new UsageError(`unexpected argument ${rest[n]}`)
  }
  /** The memory folder a command reads: exactly one of `--memory-dir` and `--project`. */
  const memoryTarget = (usage: string): { memoryDir?: string; project?: string } => {
    noMorePositional(0)
    const memoryDir = opts.get('--memory-dir')
    const project = opts.get('--project')
    if (!memoryDir === !project) throw new UsageError(usage)
    return { memoryDir, project }
  }
  switch (command) {
    case 'scan':
      noMorePositional(0)
      return { kind: 'scan', global }
    case 'cutoff': {
      noMorePositional(1)
      const file = rest[0]
      if (!file) throw new UsageError('cutoff needs the path of a MEMORY.md')
      return { kind: 'cutoff', global, file }
    }
    case 'load-order': {
      noMorePositional(0)
      const cwd = opts.get('--cwd')
      if (!cwd) throw new UsageError('load-order needs --cwd DIR')
      return { kind: 'load-order', global, cwd }
    }
    case 'audit': {
      const { memoryDir, project } = memoryTarget(
        'audit needs exactly one of --memory-dir DIR or --project ID',
      )
      const failOn = opts.get('--fail-on')
      if (failOn !== undefined && failOn !== 'stale' && failOn !== 'suspect') {
        throw new UsageError(`--fail-on takes stale or suspect, not ${failOn}`)
      }
      return { kind: 'audit', global, memoryDir, project, repo: opts.get('--repo'), failOn }
    }
    case 'provenance': {
      const { memoryDir, project } = memoryTarget(
        'provenance needs exactly one of --project ID or --memory-dir DIR',
      )
      return { kind: 'provenance', global, memoryDir, project }
    }
    case 'serve': {
      noMorePositional(0)
      const portText = opts.get('--port') ?? '0'
      const port = Number(portText)
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new UsageError(`--port takes 0..65535, not ${portText}`)
      const host = opts.get('--host') ?? '127.0.0.1'
      if (loopbackBindAddress(host) === null) throw new UsageError(nonLoopbackHostMessage(host))
      return {
        kind: 'serve',
        global,
        port,
        host,
        demo: flags.has('--demo'),
        demoDir: opts.get('--demo-dir'),
        stateDir: opts.get('--state-dir'),
      }
    }
    case 'hook': {
      noMorePositional(1)
      if (rest[0] !== 'session-start')
        throw new UsageError('hook takes the event it answers: hook session-start')
      return { kind: 'hook', global, event: 'session-start' }
    }
    case 'hooks': {
      noMorePositional(1)
      const action = rest[0]
      if (action !== 'install' && action !== 'uninstall' && action !== 'status')
        throw new UsageError('hooks takes install, uninstall or status')
      if (flags.has('--user') && flags.has('--project'))
        throw new UsageError('hooks takes one of --user or --project')
      const scope = flags.has('--project') ? 'project' : 'user'
      return {
        kind: 'hooks',
        global,
        action,
        scope,
        cwd: opts.get('--cwd'),
        yes: flags.has('--yes'),
      }
    }
    case 'mcp':
      noMorePositional(0)
      return { kind: 'mcp', global, cwd: opts.get('--cwd') }
    case 'watch':
      noMorePositional(0)
      return { kind: 'watch', global }
    default:
      throw new UsageError(`unknown command ${command}`)
  }
}

/** The command word of argv (the first argument that is neither an option nor its value). */
function firstCommand(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--') return argv[i + 1]
    if (arg.startsWith('-') && arg !== '-') {
      if (VALUE_OPTIONS.has(arg) && !arg.includes('=')) i++
      continue
    }
    return arg
  }
  return undefined
}
