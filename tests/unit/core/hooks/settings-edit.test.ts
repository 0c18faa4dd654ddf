import { describe, expect, it } from 'vitest'
import {
  findOurHooks,
  isOurHookCommand,
  planHookInstall,
  planHookUninstall,
} from '../../../../src/core/hooks/settings-edit'

const CMD = 'memory-curator hook session-start'

function installed(text: string | null): string {
  const p = planHookInstall(text, CMD)
  if (!p.ok) throw new Error(p.reason)
  return p.after
}

/** The SessionStart groups Claude Code would read. */
const groups = (text: string): unknown[] =>
  (JSON.parse(text) as { hooks: { SessionStart: unknown[] } }).hooks.SessionStart

const samples: Record<string, string> = {
  empty: '{}',
  'empty with newline inside': '{\n}\n',
  'other keys, 4-space indent': '{\n    "model": "opus",\n    "env": { "A": "1" }\n}\n',
  'tabs, no final newline': '{\n\t"permissions": {\n\t\t"allow": ["Bash(ls)"]\n\t}\n}',
  'hooks without SessionStart':
    '{\n  "hooks": {\n    "PreToolUse": [\n      { "matcher": "Bash", "hooks": [{ "type": "command", "command": "x" }] }\n    ]\n  }\n}\n',
  'SessionStart with another hook':
    '{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"echo hi"}]}]},"z":[1,2.5e3,null,true]}',
  'odd spacing and unicode': '{ "a" : "é\\u00e9 \\"q\\"" , "b":[ ] }\r\n',
}

describe('planHookInstall / planHookUninstall', () => {
  for (const [name, text] of Object.entries(samples)) {
    it(`adds one hook and keeps the rest: ${name}`, () => {
      const after = installed(text)
      const before = JSON.parse(text) as Record<string, unknown>
      const parsed = JSON.parse(after) as Record<string, unknown>
      // Every other key keeps its value.
      for (const k of Object.keys(before).filter((k) => k !== 'hooks'))
        expect(parsed[k]).toEqual(before[k])
      const ours = groups(after).filter((g) => JSON.stringify(g).includes(CMD))
      expect(ours).toHaveLength(1)
      expect(findOurHooks(after)).toEqual({ found: 1, reason: null })
      // Never a duplicate: a second install changes nothing.
      const again = planHookInstall(after, CMD)
      expect(again).toEqual({ ok: true, changed: false, after })
    })
    it(`install then uninstall gives back the same bytes: ${name}`, () => {
      const back = planHookUninstall(installed(text))
      expect(back.ok).toBe(true)
      if (!back.ok) return
      const emptyObject = text.replace(/\s/g, '') === '{}'
      if (emptyObject) expect(back.after.replace(/\s/g, '')).toBe('{}')
      else expect(back.after).toBe(text)
    })
  }

  it('keeps the text before and after the insertion byte for byte', () => {
    const text = samples['other keys, 4-space indent']!
    const after = installed(text)
    const lastMemberEnd = text.lastIndexOf('}', text.length - 3) + 1
    expect(after.startsWith(text.slice(0, lastMemberEnd))).toBe(true)
    expect(after.endsWith(text.slice(lastMemberEnd))).toBe(true)
    expect(after).toContain('\n    "hooks": {\n        "SessionStart": [')
  })

  it('creates a whole file when there is none', () => {
    const after = installed(null)
    expect(groups(after)).toEqual([
      {
        matcher: 'startup|clear|compact',
        hooks: [{ type: 'command', command: CMD, timeout: 10 }],
      },
    ])
  })

  it('removes only our hook from a group it shares, and every copy of ours', () => {
    const text = JSON.stringify({
      hooks: {
        SessionStart: [
          {
            hooks: [
              { type: 'command', command: 'echo hi' },
              {
                type: 'command',
                command: "'/usr/bin/node' '/x/out/cli/index.js' hook session-start",
              },
            ],
          },
          { hooks: [{ type: 'command', command: CMD }] },
        ],
      },
    })
    const r = planHookUninstall(text)
    expect(r.ok && r.changed).toBe(true)
    if (!r.ok) return
    expect(JSON.parse(r.after)).toEqual({
      hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'echo hi' }] }] },
    })
  })

  it('refuses files it cannot edit safely, with the reason', () => {
    expect(planHookInstall('{"a":1,}', CMD)).toMatchObject({ ok: false })
    expect(planHookInstall('[1]', CMD)).toEqual({ ok: false, reason: 'not a JSON object' })
    expect(planHookInstall('{"hooks":[]}', CMD)).toEqual({
      ok: false,
      reason: '"hooks" is not an object',
    })
    expect(planHookInstall('{"hooks":{"SessionStart":{}}}', CMD)).toMatchObject({ ok: false })
    expect(planHookInstall('// comment\n{}', CMD)).toMatchObject({ ok: false })
    expect(planHookInstall('['.repeat(5000), CMD)).toMatchObject({ ok: false })
    expect(planHookUninstall('{"a":')).toMatchObject({ ok: false })
  })

  it('knows its own commands and no others', () => {
    expect(isOurHookCommand(CMD)).toBe(true)
    expect(isOurHookCommand('"/usr/bin/node" "/opt/app/out/cli/index.js" hook session-start')).toBe(
      true,
    )
    expect(isOurHookCommand('memory-curator hook session-start --x')).toBe(false)
    expect(isOurHookCommand('other-tool hook session-start')).toBe(false)
    expect(isOurHookCommand('echo memory-curator')).toBe(false)
  })
})
