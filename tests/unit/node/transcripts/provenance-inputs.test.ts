import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadRun, RACY_MS, saveRun } from '../../../../src/node/cache/run-cache'
import { provenanceInputs } from '../../../../src/node/transcripts/provenance-inputs'

let root: string
let home: string
let memory: string
let state: string

function file(path: string, text = 'x\n'): string {
  mkdirSync(join(path, '..'), { recursive: true })
  writeFileSync(path, text)
  return path
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mc-prov-inputs-'))
  home = join(root, 'claude')
  state = join(root, 'state')
  memory = join(home, 'projects', 'p1', 'memory')
  file(join(home, 'projects', 'p1', 's1.jsonl'))
  file(join(home, 'projects', 'p1', 's1', 'subagents', 'agent-a.jsonl'))
  file(join(home, 'projects', 'p2', 's2.jsonl'))
  file(join(memory, 'MEMORY.md'), '- [a](a.md)\n')
  file(join(memory, 'team', 'build', 'deep.md'))
  file(join(state, 'evidence', 'v1', 'abc', 'e1.json'), '{}')
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

describe('provenanceInputs', () => {
  it('names every transcript, their folders, the memory folder at any depth and the archive', () => {
    const inputs = provenanceInputs(home, memory, state)!
    expect(inputs.paths).toEqual(
      expect.arrayContaining([
        join(home, 'projects'),
        join(home, 'projects', 'p1'),
        join(home, 'projects', 'p1', 's1.jsonl'),
        join(home, 'projects', 'p1', 's1'),
        join(home, 'projects', 'p1', 's1', 'subagents'),
        join(home, 'projects', 'p1', 's1', 'subagents', 'agent-a.jsonl'),
        join(home, 'projects', 'p2', 's2.jsonl'),
        memory,
        join(memory, 'MEMORY.md'),
        join(memory, 'team', 'build', 'deep.md'),
      ]),
    )
    expect(inputs.listings).toEqual([
      join(state, 'evidence'),
      join(state, 'evidence', 'v1'),
      join(state, 'evidence', 'v1', 'abc'),
    ])
  })

  it('follows a symlinked folder in the memory folder once, even when it loops', () => {
    symlinkSync(memory, join(memory, 'team', 'loop'))
    const inputs = provenanceInputs(home, memory, state)!
    expect(inputs.paths.filter((p) => p.endsWith('deep.md'))).toHaveLength(1)
  })

  it('makes a saved result miss when a sub-agent transcript appears in a new session folder', () => {
    const runs = join(state, 'runs')
    const later = Date.now() + RACY_MS + 60_000
    expect(saveRun(runs, 'k', provenanceInputs(home, memory, state)!, 'one', later)).toBeNull()
    expect(loadRun(runs, 'k')?.toString()).toBe('one')
    file(join(home, 'projects', 'p2', 's9', 'subagents', 'agent-b.jsonl'))
    expect(loadRun(runs, 'k')).toBeNull()
    // And when a topic file appears two folders down in the memory folder.
    expect(saveRun(runs, 'k', provenanceInputs(home, memory, state)!, 'two', later)).toBeNull()
    file(join(memory, 'team', 'build', 'new.md'))
    expect(loadRun(runs, 'k')).toBeNull()
  })
})
