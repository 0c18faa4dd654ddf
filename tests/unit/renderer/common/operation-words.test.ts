import { describe, expect, it } from 'vitest'
import type { OperationInfo } from '../../../../src/shared/model'
import {
  describeOperation,
  operationEffect,
  operationsById,
  pastTense,
} from '../../../../src/renderer/common/operation-words'

const op = (o: Partial<OperationInfo> & { id: string }): OperationInfo => ({
  op: 'write',
  path: '/h/projects/p/memory/MEMORY.md',
  time: '2026-12-01T17:43:15.524Z',
  reason: '',
  undone: false,
  ...o,
})

describe('undo history entries say what was done', () => {
  it('puts the reason in the past tense and names the file', () => {
    const del = op({ id: 'a', reason: 'Delete the entry “Coupons” (line 5)' })
    expect(describeOperation(del, operationsById([del]))).toBe(
      'Deleted the entry “Coupons” (line 5) from MEMORY.md',
    )
    expect(pastTense('rewrite note "Build"')).toBe('Rewrote note "Build"')
    expect(pastTense('Move “X” above the load cutoff')).toBe('Moved “X” above the load cutoff')
  })

  it('says what an undo undid, never `undo <id>`', () => {
    const del = op({ id: '20261201T174315-abc', reason: 'Delete the entry “Coupons” (line 5)' })
    const undo = op({ id: 'b', reason: 'undo 20261201T174315-abc', undoes: del.id })
    const text = describeOperation(undo, operationsById([undo, del]))
    expect(text).toBe('Undid: deleted the entry “Coupons” (line 5) from MEMORY.md')
    expect(text).not.toMatch(/\d{8}T/)
    // An undo whose original is no longer listed, or from an older log without `undoes`.
    const orphan = op({ id: 'c', reason: 'undo 20261201T000000-zzz' })
    expect(describeOperation(orphan, operationsById([orphan]))).toBe(
      'Undid an earlier change to MEMORY.md',
    )
  })

  it('describes an entry without a reason by what happened to the file', () => {
    const created = op({ id: 'd', op: 'create', path: '/m/coupons.md' })
    expect(describeOperation(created, operationsById([created]))).toBe('Created coupons.md')
    expect(operationEffect(op({ id: 'e', op: 'delete', path: '/m/x.md' }))).toBe(
      'x.md moved to the trash',
    )
  })
})
