/** The undo log: JSONL parsing, torn lines, the undo stack order, appends. */
import { appendFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { OperationRecord } from '../../../../src/node/edits/operation-log'
import {
  parseOperationLog,
  pickLastUndoable,
  readOperations,
  recordOperation,
} from '../../../../src/node/edits/operation-log'

import { hashContent } from '../../../../src/node/edits/safe-write'
import { tempDirs } from './temp-dirs'

const dirs = tempDirs('mc-backups-')
const fresh = dirs.fresh
const H = (s: string): string => hashContent(s)

describe('undo log', () => {
  const op = (id: string, extra: Partial<OperationRecord> = {}): OperationRecord => ({
    id,
    op: 'write',
    path: '/p/a.md',
    beforeHash: H('0'),
    afterHash: H('1'),
    backupId: `b${id}`,
    time: '2026-01-01T00:00:00.000Z',
    ...extra,
  })

  it('parses JSONL and turns a torn line into a problem', () => {
    const text = `${JSON.stringify(op('1'))}\n${JSON.stringify(op('2'))}\n{"id":"3","op":"wri`
    const log = parseOperationLog(text, '/b/operations.jsonl')
    expect(log.operations.map((o) => o.id)).toEqual(['1', '2'])
    expect(log.problems).toEqual([
      { path: '/b/operations.jsonl', reason: 'line 3: not a valid operation record' },
    ])
  })

  it('picks the newest operation not undone, walking back like an undo stack', () => {
    const ops = [op('1'), op('2', { path: '/p/b.md' }), op('3'), op('4', { undoes: '3' })]
    expect(pickLastUndoable(ops)?.id).toBe('2')
    expect(pickLastUndoable(ops, '/p/a.md')?.id).toBe('1')
    expect(
      pickLastUndoable([...ops, op('5', { undoes: '2' }), op('6', { undoes: '1' })]),
    ).toBeNull()
    expect(pickLastUndoable([])).toBeNull()
  })

  it('appends records that survive a torn tail', async () => {
    const { backups } = await fresh()
    const a = await recordOperation(backups, {
      op: 'write',
      path: '/x/a.md',
      beforeHash: null,
      afterHash: H('a'),
      backupId: null,
    })
    await appendFile(join(backups, 'operations.jsonl'), '{"torn')
    await appendFile(join(backups, 'operations.jsonl'), '\n')
    const b = await recordOperation(backups, {
      op: 'delete',
      path: '/x/a.md',
      beforeHash: H('a'),
      afterHash: null,
      backupId: 'k',
    })
    const log = await readOperations(backups)
    expect(log.operations.map((o) => o.id)).toEqual([
      a.ok && a.operation.id,
      b.ok && b.operation.id,
    ])
    expect(log.problems).toHaveLength(1)
  })
})
