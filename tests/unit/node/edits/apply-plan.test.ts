/**
 * Applying an edit plan in the back end (issue 17 item 2), on real temp folders: the order
 * of the steps, every hash checked before anything is written, and the rollback of the
 * changes already made when one fails midway.
 */
import { chmod, readFile, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readOperations } from '../../../../src/node/edits/operation-log'
import { hashContent } from '../../../../src/node/edits/safe-write'
import { apiSchemas } from '../../../../src/shared/api'
import { curationEnvs, type Env } from './curation-env'

const envs = curationEnvs('mc-apply-plan-')

async function fresh(withTrash = true): Promise<Env & { backups: string }> {
  const env = await envs(withTrash ? 'folder' : 'none')
  return { ...env, backups: join(env.state, 'backups') }
}

/** Write `text` to `name` in the memory folder; its path and hash. */
async function put(env: Env, name: string, text: string): Promise<{ path: string; hash: string }> {
  const path = join(env.mem, name)
  await writeFile(path, text)
  return { path, hash: hashContent(text) }
}

const exists = async (p: string): Promise<boolean> =>
  readFile(p).then(
    () => true,
    () => false,
  )

describe('applyPlan', () => {
  it('applies creates first, then edits, deletions last, each logged', async () => {
    const env = await fresh()
    const gone = await put(env, 'old.md', 'old topic\n')
    const index = await put(env, 'MEMORY.md', '- [Old](old.md) — x\n')
    const created = join(env.mem, 'new.md')
    const res = await env.curation.applyPlan(
      [
        { path: gone.path, expectedHash: gone.hash, after: null },
        { path: index.path, expectedHash: index.hash, after: '- [New](new.md) — y\n' },
        { path: created, expectedHash: null, after: 'new topic\n' },
      ],
      'reorganise',
    )
    expect(res.kind).toBe('applied')
    expect(res.failure).toBeNull()
    expect(res.outcomes.map((o) => [o.kind, o.path])).toEqual([
      ['written', created],
      ['written', index.path],
      ['deleted', gone.path],
    ])
    expect(await readFile(created, 'utf8')).toBe('new topic\n')
    expect(await readFile(index.path, 'utf8')).toBe('- [New](new.md) — y\n')
    expect(await exists(gone.path)).toBe(false)
    const { operations } = await readOperations(env.backups)
    expect(operations.map((o) => [o.op, o.path, o.reason])).toEqual([
      ['write', created, 'reorganise'],
      ['write', index.path, 'reorganise'],
      ['delete', gone.path, 'reorganise'],
    ])
  })

  it('checks every hash before writing: one stale file, nothing written, the file named', async () => {
    const env = await fresh()
    const a = await put(env, 'MEMORY.md', 'a\n')
    const b = await put(env, 'b.md', 'b\n')
    const c = join(env.mem, 'c.md')
    await writeFile(b.path, 'b, changed by a session\n')
    const res = await env.curation.applyPlan(
      [
        { path: c, expectedHash: null, after: 'c\n' },
        { path: a.path, expectedHash: a.hash, after: 'a2\n' },
        { path: b.path, expectedHash: b.hash, after: 'b2\n' },
      ],
      'stale',
    )
    expect(res).toEqual({
      kind: 'refused',
      outcomes: [],
      failure: {
        kind: 'conflict',
        path: b.path,
        currentHash: hashContent('b, changed by a session\n'),
        currentText: 'b, changed by a session\n',
      },
      rollback: [],
    })
    expect(await readFile(a.path, 'utf8')).toBe('a\n')
    expect(await readFile(b.path, 'utf8')).toBe('b, changed by a session\n')
    expect(await exists(c)).toBe(false)
    expect((await readOperations(env.backups)).operations).toEqual([])
  })

  it('refuses a plan that deletes where there is no trash, before writing anything', async () => {
    const env = await fresh(false)
    const a = await put(env, 'MEMORY.md', 'a\n')
    const b = await put(env, 'b.md', 'b\n')
    const res = await env.curation.applyPlan(
      [
        { path: a.path, expectedHash: a.hash, after: 'a2\n' },
        { path: b.path, expectedHash: b.hash, after: null },
      ],
      'no trash',
    )
    expect(res.kind).toBe('refused')
    expect(res.failure).toMatchObject({ kind: 'error', path: b.path })
    expect(await readFile(a.path, 'utf8')).toBe('a\n')
    expect(await readFile(b.path, 'utf8')).toBe('b\n')
  })

  it('rolls back the changes made when a later write fails, byte for byte, with undo records', async () => {
    const env = await fresh()
    const aBytes = Buffer.from('\ufeff- [A](a.md) — first\r\nsecond line without a final break')
    await writeFile(join(env.mem, 'MEMORY.md'), aBytes)
    const a = { path: join(env.mem, 'MEMORY.md'), hash: hashContent(aBytes) }
    const locked = await put(env, 'locked.md', 'kept as it is\n')
    // The owner made it read-only: safe-write refuses it, even as root.
    await chmod(locked.path, 0o444)
    const created = join(env.mem, 'new.md')
    const res = await env.curation.applyPlan(
      [
        { path: a.path, expectedHash: a.hash, after: 'rewritten\n' },
        { path: locked.path, expectedHash: locked.hash, after: 'must not land\n' },
        { path: created, expectedHash: null, after: 'created then removed\n' },
      ],
      'a plan that fails midway',
    )
    expect(res.kind).toBe('rolled-back')
    expect(res.failure).toMatchObject({ kind: 'error', path: locked.path })
    expect(res.failure?.kind === 'error' && res.failure.reason).toMatch(/read-only/)
    // Made in the plan's order (create first), then undone newest first.
    expect(res.outcomes.map((o) => [o.kind, o.path])).toEqual([
      ['written', created],
      ['written', a.path],
    ])
    expect(res.rollback.map((o) => [o.kind, o.path])).toEqual([
      ['written', a.path],
      ['deleted', created],
    ])
    expect((await readFile(a.path)).equals(aBytes)).toBe(true)
    expect(await exists(created)).toBe(false)
    expect(await readFile(locked.path, 'utf8')).toBe('kept as it is\n')
    // Each undo is logged, says it is a rollback and names the operation it reversed.
    const { operations } = await readOperations(env.backups)
    const made = res.outcomes.map((o) => (o.kind === 'written' ? o.operationId : null))
    const undos = operations.filter((o) => o.undoes !== undefined)
    expect(undos.map((o) => o.undoes)).toEqual([made[1], made[0]])
    for (const u of undos) {
      expect(u.reason).toContain('roll back "a plan that fails midway"')
      expect(u.reason).toContain(locked.path)
    }
    expect(await readdir(env.mem)).not.toContain('new.md')
  })
})

describe('the applyPlan schema', () => {
  const hash = hashContent('x')
  const parse = (changes: unknown): boolean =>
    apiSchemas.applyPlan.safeParse([changes, 'why']).success

  it('accepts a create (no expected hash), an edit and a delete with its hash', () => {
    expect(parse([{ path: '/m/new.md', expectedHash: null, after: 'new\n' }])).toBe(true)
    expect(parse([{ path: '/m/MEMORY.md', expectedHash: hash, after: 'x\n' }])).toBe(true)
    expect(parse([{ path: '/m/old.md', expectedHash: hash, after: null }])).toBe(true)
    // The preview's `before` text may come along; it is not needed.
    expect(parse([{ path: '/m/a.md', expectedHash: hash, before: 'x', after: 'y' }])).toBe(true)
  })

  it('rejects a delete without a hash, an empty hash, and an empty plan', () => {
    expect(parse([{ path: '/m/old.md', expectedHash: null, after: null }])).toBe(false)
    expect(parse([{ path: '/m/old.md', expectedHash: '', after: null }])).toBe(false)
    expect(parse([])).toBe(false)
  })
})
