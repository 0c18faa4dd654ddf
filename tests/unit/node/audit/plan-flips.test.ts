/**
 * Plan states in plain words against a real git repository (issue 12: "TODO/plan items that
 * were done since"): "no shader yet" once the water code has a shader, "(NOT built)" once the
 * plan's files are in the code, "pending" once a file named for the item was added. A plan
 * state the code does not contradict, one only a document mentions, and a one-word item whose
 * files were there already say nothing. And a numbered series (`BT1~BT3`) the code continues.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('plan states the code now contradicts', () => {
  const { repo, mem, commit } = historyCase('pf')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(repo, 'src/plugins/water.plugin.ts', 'export const water = new MeshBasicMaterial()\n')
    write(repo, 'src/plugins/sky.plugin.ts', 'export const sky = 1\n')
    write(repo, 'src/pages/home.ts', 'export const home = 1\n')
    write(repo, 'docs/fog.md', '# Fog\n\nThe fog shader is planned.\n')
    write(repo, 'src/plugins/fog.plugin.ts', 'export const fog = 1\n')
    write(repo, 'src/menu.ts', 'const buttons = [BT1, BT2, BT3]\nconst tabs = [TB1, TB2]\n')
    write(repo, 'docs/menu.md', 'TB3 is planned.\n')
    commit('c1', '2026-01-01T12:00:00Z')
    write(
      repo,
      'src/plugins/water.plugin.ts',
      'export const water = new ShaderMaterial({ ripples: true })\n',
    )
    write(repo, 'src/plugins/vehicle-reflection/env-map.ts', 'export const envMap = 1\n')
    write(repo, 'src/migrated/about.ts', 'export const about = 1\n')
    write(repo, 'src/menu.ts', 'const buttons = [BT1, BT2, BT3,\n  BT4]\nconst tabs = [TB1, TB2]\n')
    commit('later', '2026-03-01T12:00:00Z')

    notes = await auditTopics(
      repo,
      mem,
      [
        ['Simple water plan', 'Flat textured water surface from water.dat (no shader yet).'],
        ['Vehicle reflections plan', 'Env maps from the car models (researched, NOT built).'],
        ['Sky plan', 'Gradient dome done (no clouds yet).'],
        ['Fog plan', 'Exponential fog (no shader yet).'],
        ['Site migration', 'Phase 1 done. Phase 2 pending: remaining pages.'],
        ['Menu buttons', 'The menu has handlers BT1~BT3 in `src/menu.ts`.'],
        ['Menu tabs', 'Tabs TB1-TB2 switch the page.'],
      ],
      '2026-02-15T00:00:00Z',
    )
  }, 120_000)

  it('calls "no shader yet" suspect once a file of its subject holds a shader', () => {
    const n = byTitle(notes, 'Simple water plan')
    expect(n.verdict).toBe('suspect')
    expect(n.reasons[0]).toContain('the note gives shader as not made yet (“no shader yet”)')
    expect(n.reasons[0]).toContain('`src/plugins/water.plugin.ts:1` has it in the code now')
  })

  it('calls a bracketed "NOT built" suspect once files named for the title are in the code', () => {
    const n = byTitle(notes, 'Vehicle reflections plan')
    expect(n.verdict).toBe('suspect')
    expect(n.reasons[0]).toContain('`src/plugins/vehicle-reflection/env-map.ts` is in the code now')
    expect(n.reasons[0]).toContain('added since the note was written')
  })

  it('says nothing while the code does not have it, or only a document does', () => {
    expect(byTitle(notes, 'Sky plan').verdict).not.toBe('suspect')
    expect(byTitle(notes, 'Fog plan').verdict).not.toBe('suspect')
  })

  it('needs a one-word item’s file to be new since the note', () => {
    // `src/pages/home.ts` was there when the note was written: "pages pending" says nothing.
    expect(byTitle(notes, 'Site migration').verdict).not.toBe('suspect')
  })

  it('calls a numbered series suspect once the code has its next member', () => {
    const n = byTitle(notes, 'Menu buttons')
    expect(n.verdict).toBe('suspect')
    expect(n.reasons[0]).toContain(
      'the note gives the series `BT1~BT3`, ending at BT3; the code has `BT4` too (`src/menu.ts:2`)',
    )
    // Only a document has TB3: the code's series still ends where the note says.
    expect(byTitle(notes, 'Menu tabs').verdict).not.toBe('suspect')
  })
})

describe('plan states a later commit says it worked on', () => {
  const { repo, mem, commit } = historyCase('pc')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(repo, 'src/compiler.erl', '-module(compiler).\n')
    commit('Start type checks before guard expressions', '2026-01-01T12:00:00Z')
    write(repo, 'src/compiler.erl', '-module(compiler).\nwhere(X) -> X.\n')
    commit('Complete guard expressions: sub-clauses and BEAM compilation', '2026-03-01T12:00:00Z')
    write(repo, 'src/compiler.erl', '-module(compiler).\nwhere(X) -> X.\nmatch(T) -> T.\n')
    commit('Fix tuple handling in match', '2026-03-02T12:00:00Z')

    notes = await auditTopics(
      repo,
      mem,
      [
        ['Guards', 'TODO: Guard expressions for type constraints in compilation'],
        ['Patterns', 'TODO: Pattern matching on tuples'],
        ['Beam', 'TODO: BEAM output'],
      ],
      '2026-02-15T00:00:00Z',
    )
  }, 120_000)

  it('calls a TODO suspect once a commit since the note names its first two words', () => {
    const n = byTitle(notes, 'Guards')
    expect(n.verdict).toBe('suspect')
    expect(n.reasons[0]).toMatch(
      /^the note gives guard expression type constraint compilation as not made yet \(“TODO: Guard expressions for type constraints in compilation”\); [0-9a-f]{7} on 2026-03-01, since the note was written, says “Complete guard expressions: sub-clauses and BEAM compilation”$/,
    )
  })

  it('says nothing for words apart, a commit before the note, or a one-word item', () => {
    // "tuple" and "match" in a later subject, but not "pattern matching" side by side.
    expect(byTitle(notes, 'Patterns').verdict).not.toBe('suspect')
    // "BEAM output": BEAM is in a later subject, "output" is not; one word says too little.
    expect(byTitle(notes, 'Beam').verdict).not.toBe('suspect')
  })
})
