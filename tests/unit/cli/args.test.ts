import { describe, expect, it } from 'vitest'
import { loopbackBindAddress, parseArgs, UsageError } from '../../../src/cli/args'

describe('parseArgs', () => {
  it('parses every command of the contract', () => {
    expect(parseArgs(['scan', '--json', '--claude-home', '/h'])).toEqual({
      kind: 'scan',
      global: { claudeHome: '/h', codexHome: undefined, managedDir: undefined, json: true },
    })
    expect(parseArgs(['cutoff', '/m/MEMORY.md'])).toMatchObject({
      kind: 'cutoff',
      file: '/m/MEMORY.md',
    })
    expect(parseArgs(['load-order', '--cwd=/r'])).toMatchObject({ kind: 'load-order', cwd: '/r' })
    expect(parseArgs(['audit', '--project', 'p', '--fail-on', 'stale'])).toMatchObject({
      kind: 'audit',
      project: 'p',
      failOn: 'stale',
    })
    expect(parseArgs(['provenance', '--memory-dir', '/m'])).toMatchObject({
      kind: 'provenance',
      memoryDir: '/m',
    })
    expect(parseArgs(['serve', '--port', '0'])).toMatchObject({
      kind: 'serve',
      port: 0,
      host: '127.0.0.1',
      demo: false,
    })
  })

  it('shows help without a command and with --help', () => {
    expect(parseArgs([]).kind).toBe('help')
    expect(parseArgs(['scan', '--help']).kind).toBe('help')
  })

  it.each([
    [['bogus'], 'unknown command bogus'],
    [['scan', '--nope'], 'unknown option --nope'],
    [['cutoff'], 'cutoff needs the path'],
    [['load-order'], 'load-order needs --cwd'],
    [['audit'], 'exactly one of --memory-dir'],
    [['audit', '--memory-dir', 'a', '--project', 'b'], 'exactly one of --memory-dir'],
    [['audit', '--project', 'p', '--fail-on', 'fresh'], '--fail-on takes stale or suspect'],
    [['serve', '--port', '70000'], '--port takes 0..65535'],
    [['scan', '--cwd', '/x'], 'option --cwd does not apply to scan'],
    [['scan', '--claude-home'], 'option --claude-home needs a value'],
    [['scan', 'extra'], 'unexpected argument extra'],
    [['serve', '--host', '0.0.0.0'], 'option --host 0.0.0.0: serve listens on loopback only'],
    [['serve', '--host=::'], 'ssh -L 8765:127.0.0.1:8765'],
  ])('rejects %j with a reason naming the problem', (argv, message) => {
    expect(() => parseArgs(argv)).toThrow(UsageError)
    expect(() => parseArgs(argv)).toThrow(message)
  })
})

describe('loopbackBindAddress (serve --host; issue 11 item 7)', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['127.8.9.10', '127.8.9.10'],
    ['localhost', '127.0.0.1'],
    ['LocalHost', '127.0.0.1'],
    ['::1', '::1'],
    ['[::1]', '::1'],
    ['0:0:0:0:0:0:0:1', '::1'],
  ])('binds %s as %s', (host, address) => {
    expect(loopbackBindAddress(host)).toBe(address)
    expect(parseArgs(['serve', '--host', host])).toMatchObject({ kind: 'serve', host })
  })

  it.each([
    '0.0.0.0',
    '::',
    '[::]',
    '0:0:0:0:0:0:0:0',
    '192.168.1.20',
    '10.0.0.5',
    '172.16.0.1',
    '100.64.0.1',
    '169.254.1.1',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:0.0.0.0',
    '::1%lo',
    '127.1',
    '0177.0.0.1',
    '0x7f.0.0.1',
    '2130706433',
    '127.0.0.1.',
    ' 127.0.0.1',
    'localhost.',
    'localhost.localdomain',
    'my-laptop.local',
    'example.com',
  ])('refuses %j', (host) => {
    expect(loopbackBindAddress(host)).toBeNull()
    expect(() => parseArgs(['serve', '--host', host])).toThrow(UsageError)
  })
})

describe('issue 18 commands', () => {
  it('parses hook, hooks, mcp and watch', () => {
    expect(parseArgs(['hook', 'session-start'])).toMatchObject({
      kind: 'hook',
      event: 'session-start',
    })
    expect(parseArgs(['hooks', 'install'])).toMatchObject({
      kind: 'hooks',
      action: 'install',
      scope: 'user',
      yes: false,
    })
    // For hooks, --project is the scope, not --project ID.
    expect(parseArgs(['hooks', 'uninstall', '--project', '--yes', '--cwd', '/r'])).toMatchObject({
      kind: 'hooks',
      action: 'uninstall',
      scope: 'project',
      cwd: '/r',
      yes: true,
    })
    expect(parseArgs(['--claude-home', '/c', 'hooks', 'status', '--project'])).toMatchObject({
      kind: 'hooks',
      scope: 'project',
    })
    expect(parseArgs(['mcp', '--cwd', '/r'])).toMatchObject({ kind: 'mcp', cwd: '/r' })
    expect(parseArgs(['watch', '--json'])).toMatchObject({ kind: 'watch' })
    // audit keeps --project ID.
    expect(parseArgs(['audit', '--project', 'p'])).toMatchObject({ kind: 'audit', project: 'p' })
  })

  it('refuses what they do not take', () => {
    expect(() => parseArgs(['hook'])).toThrow(UsageError)
    expect(() => parseArgs(['hook', 'session-end'])).toThrow(/hook session-start/)
    expect(() => parseArgs(['hooks', 'add'])).toThrow(/install, uninstall or status/)
    expect(() => parseArgs(['hooks', 'install', '--user', '--project'])).toThrow(/one of/)
    expect(() => parseArgs(['hooks', 'install', '--project=x'])).toThrow(/takes no value/)
    expect(() => parseArgs(['mcp', '--yes'])).toThrow(/does not apply to mcp/)
    expect(() => parseArgs(['watch', 'now'])).toThrow(/unexpected argument/)
  })
})
