/**
 * A curation back end over fresh temp folders (memory, state, trash) for the tests of
 * src/node/edits: `curationEnvs()` registers the temp root's set-up and clean-up in the
 * calling test file and returns the factory.
 */
import { mkdir, mkdtemp, realpath, rename, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import {
  createCuration,
  type Curation,
  type CurationDeps,
} from '../../../../src/node/edits/edit-actions'
import { createJsonFileStore } from '../../../../src/node/fs/json-store'

export interface Env {
  readonly base: string
  readonly mem: string
  readonly state: string
  readonly trashDir: string
  readonly deps: CurationDeps
  readonly curation: Curation
  /** A new createCuration over the same folders, as after a restart. */
  restart(): Curation
}

/** A moving fake trash: renames into a folder of its own. */
function folderTrash(dir: string) {
  return async (path: string): Promise<void> => {
    await mkdir(dir, { recursive: true })
    await rename(path, join(dir, `${Date.now()}-${basename(path)}`))
  }
}

export type TrashKind = 'folder' | 'failing' | 'none'

/** Register a temp root (removed after the file's tests) and return the factory of envs. */
export function curationEnvs(prefix = 'mc-curation-'): (trash?: TrashKind) => Promise<Env> {
  let root = ''
  let n = 0
  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), prefix)))
  })
  afterAll(async () => {
    await rm(root, { recursive: true, force: true })
  })
  return (trash = 'folder') => fresh(join(root, `t${n++}`), trash)
}

async function fresh(base: string, trash: TrashKind): Promise<Env> {
  const mem = join(base, 'memory')
  const state = join(base, 'state')
  const trashDir = join(base, 'trash')
  await mkdir(mem, { recursive: true })
  const make = (): CurationDeps => ({
    stateDir: state,
    trash:
      trash === 'folder'
        ? folderTrash(trashDir)
        : trash === 'failing'
          ? async () => {
              throw new Error('no trash on this test system')
            }
          : null,
    stamps: createJsonFileStore(join(state, 'stamps.json')),
  })
  const deps = make()
  return {
    base,
    mem,
    state,
    trashDir,
    deps,
    curation: createCuration(deps),
    restart: () => createCuration(make()),
  }
}
