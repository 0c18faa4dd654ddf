/** The SessionStart notice on a real temp home: the cutoff always, stale notes from the last audit's digest. */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFixtureHome, memoryIndex, type FixtureHome } from '../../../helpers/fixture-home'
import {
  noticeText,
  parseHookInput,
  sessionFindings,
} from '../../../../src/node/hooks/session-start'
import { saveAuditDigest } from '../../../../src/node/hooks/audit-digest'
import type { AuditNote, AuditResult } from '../../../../src/shared/model'

let f: FixtureHome
beforeAll(() => {
  f = createFixtureHome()
})
afterAll(() => f.cleanup())

const input = (cwd: string, env: Record<string, string> = {}) => ({
  claudeHome: f.claudeHome,
  codexHome: f.codexHome,
  managedDir: f.managedDir,
  stateDir: f.stateDir,
  cwd,
  env: { HOME: f.home, ...env },
})

function note(over: Partial<AuditNote>): AuditNote {
  return {
    file: join(f.memoryDir, 'note-1.md'),
    line: 7,
    endLine: 7,
    title: 'Note 1',
    verdict: 'stale',
    writtenAt: null,
    references: [],
    reasons: ['src/cart.ts no longer has computeTotal'],
    ...over,
  }
}

describe('parseHookInput', () => {
  it('takes the fields Claude Code sends', () => {
    expect(
      parseHookInput(
        JSON.stringify({
          session_id: 's1',
          transcript_path: '/x.jsonl',
          cwd: '/r',
          hook_event_name: 'SessionStart',
          source: 'startup',
        }),
      ),
    ).toEqual({ sessionId: 's1', cwd: '/r', source: 'startup' })
  })
  it('refuses input without an absolute cwd', () => {
    expect(() => parseHookInput('{"cwd":"rel"}')).toThrow(/absolute cwd/)
    expect(() => parseHookInput('[]')).toThrow(/object/)
    expect(() => parseHookInput('nope')).toThrow()
  })
})

describe('sessionFindings + noticeText', () => {
  it('names how many entries do not load and the newest, from a sub-folder of the repository', async () => {
    const sub = join(f.repo, 'src')
    const text = noticeText(await sessionFindings(input(sub)))
    expect(text).toContain(join(f.memoryDir, 'MEMORY.md'))
    // 230 entries under 12 headings: lines past 200 hold the last entries.
    expect(text).toMatch(/\d+ entries did not load into this session/)
    expect(text).toContain('the newest is "Note 230"')
    expect(text).not.toContain('last audit')
  })

  it('adds at most five notes of the last audit that are still in their files, each with its reason', async () => {
    const notes = [1, 2, 3, 4, 5].map((i) =>
      note({ file: join(f.memoryDir, `note-${i}.md`), title: `Note ${i}` }),
    )
    notes.push(
      note({
        file: join(f.memoryDir, 'note-5.md'),
        title: 'Extra',
        verdict: 'never-matched',
        reasons: ['never existed'],
      }),
    )
    notes.push(note({ title: 'Fresh one', verdict: 'fresh' }))
    const result: AuditResult = {
      repo: f.repo,
      notes,
      summary: { fresh: 1, suspect: 0, stale: 5, 'never-matched': 1, unverifiable: 0 },
    }
    await saveAuditDigest(f.stateDir, f.memoryDir, result)
    const text = noticeText(await sessionFindings(input(f.repo)))
    expect(text).toContain('judged 6 memory notes not to match the code')
    expect(text.match(/^- "/gm)).toHaveLength(5)
    expect(text).toContain('— stale: src/cart.ts no longer has computeTotal')
    expect(text).toContain('and 1 more note')
    expect(text).not.toContain('Fresh one')
  })

  it('says nothing when all is well, and nothing when auto memory is off', async () => {
    const other = join(f.root, 'quiet')
    mkdirSync(other, { recursive: true })
    expect(noticeText(await sessionFindings(input(other)))).toBe('')
    expect(
      noticeText(await sessionFindings(input(f.repo, { CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1' }))),
    ).toBe('')
  })

  it('drops notes fixed since the audit', async () => {
    const dir = join(f.root, 'fixed')
    const mem = join(f.claudeHome, 'projects', dir.replace(/[^A-Za-z0-9]/g, '-'), 'memory')
    mkdirSync(mem, { recursive: true })
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(mem, 'MEMORY.md'), memoryIndex(3))
    writeFileSync(join(mem, 'a.md'), 'Use `old()` here.\n')
    await saveAuditDigest(f.stateDir, mem, {
      repo: null,
      notes: [note({ file: join(mem, 'a.md'), line: 1, title: 'A' })],
      summary: { fresh: 0, suspect: 0, stale: 1, 'never-matched': 0, unverifiable: 0 },
    })
    expect(noticeText(await sessionFindings(input(dir)))).toContain('"A"')
    writeFileSync(join(mem, 'a.md'), 'Use `fresh()` here.\n')
    expect(noticeText(await sessionFindings(input(dir)))).toBe('')
  })
})
