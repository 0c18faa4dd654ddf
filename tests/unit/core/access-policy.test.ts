/** The pure access policy (issue 11 item 3): kinds of path and what each purpose allows. */
import { describe, expect, it } from 'vitest'
import {
  classifyPath,
  decideAccess,
  isInstructionName,
  type AccessFacts,
} from '../../../src/core/access-policy'

describe('the access policy (src/core/access-policy.ts)', () => {
  const facts: AccessFacts = {
    claudeHomes: ['/h/.claude'],
    chainFiles: new Map([
      ['/r/CLAUDE.md', 'loaded'],
      ['/r/.claude/rules/a.md', 'loaded'],
      ['/r/docs/x.md', 'import'],
      ['/r/docs/rules/CLAUDE.md', 'import'],
      ['/r/.git/CLAUDE.md', 'loaded'],
    ]),
    repositories: new Set(['/r']),
    projectDirs: ['/r', '/'],
  }
  it('gives each path a kind from what the app found, and each purpose a few kinds', () => {
    expect(classifyPath('/h/.claude/projects/p/memory', facts)).toEqual({ kind: 'memory-folder' })
    expect(classifyPath('/h/.claude/projects/p/memory/sub/t.md', facts)).toEqual({
      kind: 'memory-file',
    })
    expect(classifyPath('/h/.claude/projects/p/x.jsonl', facts)).toMatchObject({
      kind: 'launch-dir',
    })
    expect(classifyPath('/r/.claude/rules/a.md', facts)).toEqual({ kind: 'instruction-file' })
    expect(classifyPath('/r/docs/x.md', facts)).toEqual({ kind: 'imported-file' })
    // An import is never editable, whatever its name.
    expect(classifyPath('/r/docs/rules/CLAUDE.md', facts)).toEqual({ kind: 'imported-file' })
    expect(classifyPath('/r/.git/CLAUDE.md', facts)).toEqual({ reason: 'inside .git' })
    // A `"cwd": "/"` project makes `/etc` a launch directory and nothing else.
    expect(decideAccess('read-note-file', '/etc/hostname', facts)).toEqual({
      ok: false,
      reason: 'not a memory file or a file of a load chain shown',
    })
    expect(decideAccess('launch-dir', '/etc', facts)).toEqual({ ok: true, kind: 'launch-dir' })
    expect(decideAccess('write-note-file', '/r/docs/x.md', facts).ok).toBe(false)
    expect(decideAccess('memory-file', '/h/.claude/projects/p/memory/t.txt', facts)).toEqual({
      ok: false,
      reason: 'not a memory file',
    })
    expect(decideAccess('memory-folder', '/h/.claude/projects/p', facts).ok).toBe(false)
    expect(decideAccess('repository', '/', facts).ok).toBe(false)
    expect(isInstructionName('/r/AGENTS.override.md')).toBe(true)
    expect(isInstructionName('/r/src/rules.md')).toBe(false)
    expect(isInstructionName('/r/src/cart.ts')).toBe(false)
  })
})
