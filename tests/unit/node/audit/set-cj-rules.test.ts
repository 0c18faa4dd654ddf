/**
 * A rule blind set CJ (docs/eval-audit.md) showed was missing, on a real git repository: a
 * back-ticked name that was the name of several folders when the note was written (`wms`: the
 * app `apps/wms/` and a module `apps/medusa/src/modules/wms/`) and names no folder or file now
 * went, whichever of them the note meant; one of which a folder is left (`pim`) did not.
 */
import { join } from 'node:path'
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { removeBase, write } from './scripted-repo'
import { auditTopics, historyCase, verdictChecks } from './topic-audit'

afterAll(removeBase)

describe('set CJ rules on a real repository', () => {
  const { repo, mem, sha, commit } = historyCase('scj')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(repo, 'apps/wms/src/main.ts', 'export const inbound = () => "inbound"\n')
    write(repo, 'apps/medusa/src/modules/wms/index.ts', 'export const wmsModule = {}\n')
    write(repo, 'apps/pim/src/main.ts', 'export const products = () => []\n')
    write(repo, 'libs/shared/src/pim/index.ts', 'export type Product = { id: string }\n')
    write(repo, 'apps/core/src/main.ts', 'export const core = true\n')
    commit('c1', '2026-01-01T12:00:00Z')
    // The apps merge into one: both `wms` folders go, one `pim` folder stays.
    rmSync(join(repo, 'apps/wms'), { recursive: true })
    rmSync(join(repo, 'apps/medusa/src/modules/wms'), { recursive: true })
    rmSync(join(repo, 'apps/pim'), { recursive: true })
    write(repo, 'apps/core/src/modules/inventory/index.ts', 'export const inbound = () => 1\n')
    commit('merge', '2026-02-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Wms', '| `wms` | Warehouse Management System (inventory, inbound, outbound) |'],
        ['Pim', '| `pim` | Product Information Management (products, variants) |'],
        // A note naming a path: the audit reads the history, which dates the folder's removal.
        ['Core', 'The app starts in `apps/core/src/main.ts`.'],
      ],
      '2026-01-10T00:00:00Z',
    )
  }, 120_000)

  const { called, quiet } = verdictChecks(() => notes)

  it('reads a name several folders had then, and none has now, as gone (CJ ly-r10)', () => {
    called(
      'Wms',
      'suspect',
      '`wms` was the folder `apps/wms/` when the note was written',
      `deleted in ${sha.merge}`,
    )
    quiet('Pim')
  })
})
