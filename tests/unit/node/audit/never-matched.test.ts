/**
 * Issue 12 items 1 and 4 on a real git repository: a reference that already failed when the
 * note was written is never matched (never stale); a stale verdict names the commit that
 * changed it; a note is suspect only when code lines that held its names changed after it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { git } from '../../../helpers/git'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('never matched is not stale; suspect from content (issue 12)', () => {
  const { repo, mem, sha, commit } = historyCase('nm')
  let notes: readonly AuditNote[] = []
  const WRITTEN = '2026-02-15T00:00:00Z'

  beforeAll(async () => {
    write(repo, 'src/early.ts', 'export const early = 1\n')
    write(repo, 'src/late.ts', 'export const late = 1\n')
    write(repo, 'src/keep.ts', 'export function keepThing() {\n  return 1\n}\n')
    write(
      repo,
      'src/calc.ts',
      'export function oldCompute() {\n  return 1\n}\nexport function steadyCompute() {\n  return 2\n}\n',
    )
    write(repo, 'src/edit.ts', 'export function editMe() {\n  return 1\n}\n')
    commit('c1', '2026-01-01T12:00:00Z')
    git(repo, 'rm', '-q', 'src/early.ts')
    commit('early-gone', '2026-02-01T12:00:00Z')
    // After the note: delete late.ts, remove oldCompute, touch keep.ts without its name,
    // and remove a line holding editMe (the function moves to a one-liner).
    git(repo, 'rm', '-q', 'src/late.ts')
    commit('late-gone', '2026-03-01T12:00:00Z')
    write(repo, 'src/calc.ts', 'export function steadyCompute() {\n  return 2\n}\n')
    commit('compute-gone', '2026-03-05T12:00:00Z')
    write(repo, 'src/keep.ts', 'export function keepThing() {\n  return 2\n}\n')
    commit('keep-body', '2026-03-10T12:00:00Z')
    write(repo, 'src/edit.ts', 'export const editMe = () => 1\n')
    commit('edit-line', '2026-03-12T12:00:00Z')
    // A new call site elsewhere adds a line with `keepThing`: not a change to what the note says.
    write(repo, 'src/caller.ts', "import { keepThing } from './keep'\nkeepThing()\n")
    commit('new-caller', '2026-03-14T12:00:00Z')

    const notesBy: [string, string][] = [
      ['never', 'Config lives in `src/never.ts`.'],
      ['early', 'The early flag is in `src/early.ts`.'],
      ['late', 'The late flag is in `src/late.ts`.'],
      ['ghost', 'Call `ghostHelper()` to render.'],
      ['removed', 'Totals use `oldCompute()`.'],
      ['kept', '`keepThing()` in `src/keep.ts` returns the kept value.'],
      ['edited', 'Edits go through `editMe()`.'],
      ['runtime', 'Compiled packs go to `packs/`; uploads default to `./data`.'],
      ['states', 'Jobs move `queued/running/completed/failed`; code in `src/never/deep/x`.'],
      ['stack', 'The server is written in TypeScript/Node.js and talks over stdio.'],
    ]
    notes = await auditTopics(repo, mem, notesBy, WRITTEN)
  })

  it('calls a path that never existed never-matched, wrong from the start', () => {
    const n = byTitle(notes, 'never')
    expect(n.verdict).toBe('never-matched')
    expect(n.reasons[0]).toBe(
      'wrong from the start: `src/never.ts` does not exist and git history has no record of it',
    )
  })

  it('slash-joined words whose first the repository never had are alternatives, not a path (blind set AI)', () => {
    const n = byTitle(notes, 'states')
    expect(n.reasons).toContain(
      '`queued/running/completed/failed` reads as alternatives (words joined by slashes), not a path the repository ever had; not checked',
    )
    // A path under a folder the repository has is still a path, wrong from the start.
    expect(n.verdict).toBe('never-matched')
    expect(n.reasons.some((r) => r.includes('`src/never/deep/x` does not exist'))).toBe(true)
  })

  it('capitalised names joined by a slash are alternatives, not a path (blind set BK)', () => {
    const n = byTitle(notes, 'stack')
    expect(n.verdict, n.reasons.join('\n')).not.toBe('never-matched')
    expect(n.reasons.join('\n')).toContain('`TypeScript/Node.js` reads as alternatives')
  })

  it('a single folder name the repository never had is a run-time folder: not checked, not wrong', () => {
    const n = byTitle(notes, 'runtime')
    expect(n.verdict).toBe('unverifiable')
    expect(n.reasons).toContain(
      '`packs/` is a single folder name the repository never had (made at run time or on one machine); not checked',
    )
    expect(n.reasons).toContain(
      '`./data` is a single folder name the repository never had (made at run time or on one machine); not checked',
    )
    // A folder path with more than one part still is a claim about the repository.
    expect(byTitle(notes, 'never').verdict).toBe('never-matched')
  })

  it('calls a path deleted before the note never-matched, naming the commit', () => {
    const n = byTitle(notes, 'early')
    expect(n.verdict).toBe('never-matched')
    expect(n.reasons[0]).toBe(
      `wrong from the start: \`src/early.ts\` was deleted in ${sha['early-gone']} on 2026-02-01, before the note was written`,
    )
  })

  it('calls a path deleted after the note stale, naming the commit', () => {
    const n = byTitle(notes, 'late')
    expect(n.verdict).toBe('stale')
    expect(n.reasons[0]).toBe(`\`src/late.ts\` was deleted in ${sha['late-gone']} on 2026-03-01`)
  })

  it('calls a symbol that never existed never-matched, not a reference', () => {
    const n = byTitle(notes, 'ghost')
    expect(n.verdict).toBe('never-matched')
    expect(n.reasons[0]).toBe(
      'not a reference: `ghostHelper` is not found in the repository, and never was in its code history (a paraphrase, template or example)',
    )
  })

  it('calls a symbol removed after the note stale, naming the commit', () => {
    const n = byTitle(notes, 'removed')
    expect(n.verdict).toBe('stale')
    expect(n.reasons[0]).toBe(
      `\`oldCompute\` is not found in the repository; removed in ${sha['compute-gone']} on 2026-03-05`,
    )
  })

  it('keeps a note fresh when its file changed after it but not its names, or a new caller appeared', () => {
    const n = byTitle(notes, 'kept')
    expect(n.verdict).toBe('fresh')
    expect(n.reasons.some((r) => r.includes(sha['keep-body']))).toBe(false)
    expect(n.reasons.some((r) => r.includes(sha['new-caller']))).toBe(false)
  })

  it('calls a note suspect when a line with its symbol was removed after it', () => {
    const n = byTitle(notes, 'edited')
    expect(n.verdict).toBe('suspect')
    expect(n.reasons[0]).toBe(
      `a code line with \`editMe\` changed in ${sha['edit-line']} on 2026-03-12, after the note was written: then \`export function editMe() {\` (\`src/edit.ts\`:1); now \`export const editMe = () => 1\` (\`src/edit.ts\`:1)`,
    )
  })
})
