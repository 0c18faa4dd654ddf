/** The shell's handlers on a real back end over a fixture home (issue 15 items 11 and 12). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { join } from 'node:path'
import { encodeProjectDir } from '../../../../src/core/memory/project-path'
import { dispatch } from '../../../../src/shared/dispatch'
import type { Backend } from '../../../../src/node/app/backend'
import { createFixtureHome, type FixtureHome } from '../../../helpers/fixture-home'
import { fixtureBackend } from '../../../helpers/test-backend'

let f: FixtureHome
let backend: Backend
beforeEach(async () => {
  f = createFixtureHome()
  backend = await fixtureBackend(f)
})
afterEach(async () => {
  await backend.dispose()
  f.cleanup()
})

describe('settings', () => {
  it('default to the system theme and survive a restart of the back end', async () => {
    expect(await backend.getSettings()).toEqual({ theme: 'system' })
    expect(await backend.setSettings({ theme: 'dark' })).toEqual({ theme: 'dark' })
    const again = await fixtureBackend(f)
    try {
      expect(await again.getSettings()).toEqual({ theme: 'dark' })
    } finally {
      await again.dispose()
    }
  })

  it('refuses a theme that does not exist', async () => {
    await expect(dispatch(backend, 'setSettings', [{ theme: 'purple' }])).rejects.toThrow(
      /bad arguments for setSettings/,
    )
    await expect(dispatch(backend, 'setSettings', [{ other: 1 }])).rejects.toThrow(/bad arguments/)
    expect(await backend.getSettings()).toEqual({ theme: 'system' })
  })
})

describe('searchMemory', () => {
  it('finds a text in every memory file, with project, file, line and snippet', async () => {
    const r = await backend.searchMemory('COMPUTETOTAL')
    expect(r.hits).toHaveLength(5)
    const hit = r.hits.find((h) => h.file === join(f.memoryDir, 'note-3.md'))
    expect(hit).toMatchObject({
      projectId: encodeProjectDir(f.repo),
      memoryDir: f.memoryDir,
      line: 7,
      verdict: null,
    })
    expect(hit?.text.slice(hit.matchStart, hit.matchStart + hit.matchLength)).toBe('computeTotal')
    // The binary MEMORY.md of the broken project is a problem, not a crash.
    expect(r.problems.some((p) => p.path.includes('broken-app'))).toBe(true)
    expect(r.truncated).toBe(false)
  })

  it('is bounded: at most 50 hits from one file, and says there were more', async () => {
    const r = await backend.searchMemory('what to remember')
    expect(r.hits).toHaveLength(50)
    expect(r.truncated).toBe(true)
  })

  it('gives verdicts once the folder was audited, filters on them, forgets them on a change', async () => {
    const before = await backend.searchMemory('verdict:fresh')
    expect(before.hits).toEqual([])
    expect(before.foldersWithVerdicts).toBe(0)
    const audit = await backend.audit(f.memoryDir, f.repo)
    // note-2.md is linked from the index entry "Note 2": its lines belong to that note.
    const note = audit.notes.find((n) => n.title === 'Note 2')
    expect(note?.file).toBe(join(f.memoryDir, 'MEMORY.md'))
    const withVerdict = await backend.searchMemory('computeTotal')
    const hit = withVerdict.hits.find((h) => h.file === join(f.memoryDir, 'note-2.md'))
    expect(hit?.verdict).toBe(note?.verdict)
    expect(hit?.noteTitle).toBe('Note 2')
    expect(withVerdict.foldersWithVerdicts).toBe(1)
    const filtered = await backend.searchMemory(`verdict:${note?.verdict}`)
    expect(filtered.hits.some((h) => h.file === note?.file && h.line === note?.line)).toBe(true)
    expect(filtered.hits.every((h) => h.verdict === note?.verdict)).toBe(true)
    expect((await backend.searchMemory('project:no-such-project computeTotal')).hits).toEqual([])
    backend.emitChange([join(f.memoryDir, 'note-2.md')])
    expect((await backend.searchMemory('computeTotal')).hits.every((h) => h.verdict === null)).toBe(
      true,
    )
  })
})
