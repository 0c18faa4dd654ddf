import { readFile, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { EditOutcome } from '../../../../src/shared/model'
import { hashContent } from '../../../../src/node/edits/safe-write'
import { curationEnvs } from './curation-env'

const fresh = curationEnvs()

/** The outcome of a file moved to the trash, logged. */
const trashedOutcome = (path: string): EditOutcome => ({
  kind: 'deleted',
  path,
  trashed: true,
  operationId: expect.any(String) as string,
  warning: null,
})

const read = (p: string): Promise<string> => readFile(p, 'utf8')

describe('writeFile, listOperations and undo', () => {
  it('creates, replaces, refuses a stale hash, and undoes step by step, also after a restart', async () => {
    const env = await fresh()
    const file = join(env.mem, 'MEMORY.md')
    const v1 = '- [A](a.md) — one\n'
    const v2 = '- [A](a.md) — two\n'

    const created = await env.curation.writeFile(file, null, v1, 'create the index')
    expect(created).toEqual({
      kind: 'written',
      path: file,
      hash: hashContent(v1),
      operationId: expect.any(String),
    })
    const again = await env.curation.writeFile(file, null, 'x', 'must not exist')
    expect(again).toEqual({
      kind: 'conflict',
      path: file,
      currentHash: hashContent(v1),
      currentText: v1,
    })

    const replaced = await env.curation.writeFile(file, hashContent(v1), v2, 'reword A')
    expect(replaced.kind).toBe('written')
    const stale = await env.curation.writeFile(file, hashContent(v1), 'lost\n', 'stale edit')
    expect(stale).toEqual({
      kind: 'conflict',
      path: file,
      currentHash: hashContent(v2),
      currentText: v2,
    })
    expect(await read(file)).toBe(v2)

    const ops = await env.curation.listOperations()
    expect(ops.map((o) => [o.op, o.reason, o.undone])).toEqual([
      ['write', 'reword A', false],
      ['create', 'create the index', false],
    ])
    expect(ops[0].path).toBe(file)
    expect(ops[0].id).toBe((replaced as { operationId: string }).operationId)

    // Restart: a new instance on the same state folder sees the same log.
    const later = env.restart()
    expect((await later.listOperations()).map((o) => o.id)).toEqual(ops.map((o) => o.id))
    const undone = await later.undo(null)
    expect(undone).toEqual({
      kind: 'written',
      path: file,
      hash: hashContent(v1),
      operationId: expect.any(String),
    })
    expect(await read(file)).toBe(v1)

    const afterUndo = await later.listOperations()
    expect(afterUndo.map((o) => [o.op, o.reason, o.undone])).toEqual([
      ['write', `undo ${ops[0].id}`, false],
      ['write', 'reword A', true],
      ['create', 'create the index', false],
    ])

    // The next undo walks further back: the creation is undone by moving the file to the trash.
    const removed = await env.restart().undo(null)
    expect(removed).toEqual(trashedOutcome(file))
    expect(await readdir(env.mem)).toEqual([])
    expect(await env.restart().undo(null)).toEqual({
      kind: 'error',
      path: join(env.state, 'backups'),
      reason: 'there is nothing to undo',
    })
  })

  it('refuses to undo over a change made since, and names unknown operations', async () => {
    const env = await fresh()
    const file = join(env.mem, 'note.md')
    await writeFile(file, 'original\n')
    const w = await env.curation.writeFile(file, hashContent('original\n'), 'ours\n', 'edit')
    await writeFile(file, 'someone else\n')
    const r = await env.curation.undo((w as { operationId: string }).operationId)
    expect(r).toEqual({
      kind: 'conflict',
      path: file,
      currentHash: hashContent('someone else\n'),
      currentText: 'someone else\n',
    })
    expect(await read(file)).toBe('someone else\n')
    expect(await env.curation.undo('20260101T000000000Z-000001-abcdef')).toEqual({
      kind: 'error',
      path: join(env.state, 'backups'),
      reason: 'no operation 20260101T000000000Z-000001-abcdef in the undo log',
    })
  })

  it('reports a write it cannot do as an error naming the path', async () => {
    const env = await fresh()
    const r = await env.curation.writeFile(env.mem, null, 'x', 'write onto a folder')
    expect(r).toEqual({
      kind: 'error',
      path: env.mem,
      reason: `cannot write ${env.mem}: is a directory`,
    })
    const missingDir = join(env.mem, 'no', 'such', 'x.md')
    const e = await env.curation.writeFile(missingDir, null, 'x', 'create')
    expect(e.kind).toBe('error')
    expect(e.path).toBe(missingDir)
  })
})

describe('deleteFile', () => {
  it('keeps the file and says so when the trash fails', async () => {
    const env = await fresh('failing')
    const file = join(env.mem, 'topic.md')
    await writeFile(file, 'keep me\n')
    const r = await env.curation.deleteFile(file, hashContent('keep me\n'), 'delete topic')
    expect(r.kind).toBe('error')
    expect((r as { reason: string }).reason).toMatch(
      new RegExp(
        `^could not move to the trash ${file}: no trash on this test system; the file was left in place \\(backup [0-9A-Za-z-]+\\)$`,
      ),
    )
    expect(await read(file)).toBe('keep me\n')
    expect(await env.curation.listOperations()).toEqual([])
  })

  it('keeps the file when there is no trash at all', async () => {
    const env = await fresh('none')
    const file = join(env.mem, 'topic.md')
    await writeFile(file, 'keep me\n')
    expect(await env.curation.deleteFile(file, hashContent('keep me\n'), 'delete')).toEqual({
      kind: 'error',
      path: file,
      reason: `no trash is available here, so ${file} was not deleted`,
    })
    expect(await read(file)).toBe('keep me\n')
  })

  it('trashes the file, refuses a stale hash, and undo brings the exact bytes back', async () => {
    const env = await fresh()
    const file = join(env.mem, 'topic.md')
    const bytes = 'line one\r\nline two'
    await writeFile(file, bytes)
    expect(await env.curation.deleteFile(file, hashContent('other'), 'delete')).toEqual({
      kind: 'conflict',
      path: file,
      currentHash: hashContent(bytes),
      currentText: bytes,
    })
    const r = await env.curation.deleteFile(file, hashContent(bytes), 'delete topic')
    expect(r).toEqual(trashedOutcome(file))
    expect(await readdir(env.mem)).toEqual([])
    expect((await readdir(env.trashDir)).length).toBe(1)
    expect((await env.curation.listOperations())[0]).toMatchObject({
      op: 'delete',
      path: file,
      reason: 'delete topic',
    })
    expect(await env.restart().undo(null)).toEqual({
      kind: 'written',
      path: file,
      hash: hashContent(bytes),
      operationId: expect.any(String),
    })
    expect(await read(file)).toBe(bytes)
  })
})
