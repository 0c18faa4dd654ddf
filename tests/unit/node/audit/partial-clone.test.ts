/**
 * A partial clone (`git clone --filter=blob:limit=…`) lacks the old versions of a large data
 * file, and git stops a history walk at the first blob it cannot read (runGit forbids lazy
 * fetches). The audit asks again without the files such blobs were at
 * (src/node/git/missing-blobs.ts), so a name removed from the code still has its commit: the
 * note is stale, not "history could not say", and a name never in the code is never matched.
 */
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { clearMissingBlobCache } from '../../../../src/node/git/missing-blobs'
import { git } from '../../../helpers/git'
import { base, byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('the history of a partial clone', () => {
  const { repo: source, sha, commit } = historyCase('pc')
  const clone = join(base, 'pc-clone')
  const mem = join(base, 'pc-mem')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(source, 'src/pay.ts', 'export function oldCharge(amount) {\n  return amount\n}\n')
    write(source, 'data/big.bin', randomBytes(8192))
    commit('c1', '2026-01-01T12:00:00Z')
    write(source, 'data/big.bin', randomBytes(8192))
    commit('data', '2026-02-10T12:00:00Z')
    write(source, 'src/pay.ts', 'export function newCharge(amount) {\n  return amount\n}\n')
    write(source, 'data/big.bin', randomBytes(8192))
    commit('rename', '2026-03-01T12:00:00Z')
    git(source, 'config', 'uploadpack.allowFilter', 'true')
    git(base, 'clone', '-q', '--filter=blob:limit=1k', `file://${source}`, clone)
    // The clone lacks the older versions of the data file: a walk over them fails.
    const missing = git(clone, 'rev-list', '--objects', '--missing=print', 'HEAD')
      .split('\n')
      .filter((l) => l.startsWith('?'))
    expect(missing.length).toBe(2)
    clearMissingBlobCache()
    notes = await auditTopics(
      clone,
      mem,
      [
        ['gone', 'Payments go through `oldCharge()`.'],
        ['never', 'Refunds go through `refundEverything()`.'],
      ],
      '2026-01-15T00:00:00Z',
    )
  }, 120_000)

  it('finds the commit that removed a name past blobs the clone lacks', () => {
    const n = byTitle(notes, 'gone')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons.join('\n')).toContain(sha.rename)
    expect(n.reasons.join('\n')).not.toContain('could not say')
  })

  it('calls a name never in the code never matched, not unknown', () => {
    const n = byTitle(notes, 'never')
    expect(n.verdict).toBe('never-matched')
    expect(n.reasons.join('\n')).not.toContain('could not say')
  })
})
