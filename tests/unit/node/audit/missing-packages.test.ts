/**
 * A list of packages a note says are missing, on a real git repository (issue 12: lists done
 * since; blind set Y: "Missing npm packages: …, postgres", with `postgres` added to
 * package.json after the note). A package a manifest lists now and listed at none of the note's
 * commit flips the note; one listed then already, or still missing, says nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { missingPackages } from '../../../../src/core/audit/absence-claims'
import type { AuditNote } from '../../../../src/shared/model'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('missingPackages', () => {
  it('reads the list after a "missing packages" label as manifest keys', () => {
    expect(
      missingPackages(
        'Missing npm packages: clsx, tailwind-merge, postgres (for db), `@base-ui/react/button`',
      ),
    ).toEqual(['clsx', 'tailwind-merge', 'postgres', '@base-ui/react'])
    expect(missingPackages('- **Dependencies not installed:** zod and lodash/fp.')).toEqual([
      'zod',
      'lodash',
    ])
  })

  it('reads no prose, and no line without the label', () => {
    expect(missingPackages('Missing packages: the ones the build step needs')).toEqual([])
    expect(missingPackages('Packages: clsx, postgres')).toEqual([])
    expect(missingPackages('We are missing tests for the parser: a, b')).toEqual([])
  })
})

describe('a package listed as missing that a manifest lists since', () => {
  const { repo, mem, commit, sha } = historyCase('missing-packages')
  let notes: readonly AuditNote[] = []
  const pkg = (deps: Record<string, string>): string =>
    JSON.stringify({ name: 'app', description: 'postgres admin', dependencies: deps }, null, 2)

  beforeAll(async () => {
    write(repo, 'package.json', pkg({ clsx: '^2.0.0' }))
    write(repo, 'src/db.ts', 'export const db = null\n')
    commit('c1', '2026-05-01T12:00:00Z')
    write(repo, 'package.json', pkg({ clsx: '^2.0.0', postgres: '^3.4.0' }))
    commit('postgres', '2026-05-20T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Setup', 'Missing npm packages: clsx, postgres, zod'],
        ['Still', 'Missing npm packages: zod, clsx'],
      ],
      '2026-05-10T12:00:00Z',
    )
  }, 120_000)

  it('flags the note, naming the manifest line and the commit that added it', () => {
    const n = byTitle(notes, 'Setup')
    const text = n.reasons.join('\n')
    expect(n.verdict, text).toBe('suspect')
    expect(text).toContain('`postgres` as a missing package')
    expect(text).toContain('`package.json`:')
    expect(text).toContain(`added in ${sha.postgres.slice(0, 7)}`)
    // clsx was listed already when the note was written: the note was wrong on it, not stale.
    expect(text).not.toContain('`clsx` as a missing package')
  })

  it('says nothing of a list whose packages are still missing or were there already', () => {
    const n = byTitle(notes, 'Still')
    expect(n.reasons.join('\n')).not.toContain('missing package')
  })
})
