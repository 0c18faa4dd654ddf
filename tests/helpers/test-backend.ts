/** A real back end over a fixture home, as the window's transports build it (no trash). */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { createBackend, type Backend } from '../../src/node/backend'
import { createJsonFileStore } from '../../src/node/json-store'
import type { FixtureHome } from './fixture-home'

export async function fixtureBackend(f: FixtureHome): Promise<Backend> {
  mkdirSync(join(f.root, 'stamps'), { recursive: true })
  return createBackend({
    version: 'test',
    claudeHome: f.claudeHome,
    codexHome: f.codexHome,
    managedDir: f.managedDir,
    demo: false,
    demoReason: null,
    stateDir: f.stateDir,
    transport: 'direct',
    env: {},
    trash: null,
    stampStore: createJsonFileStore(join(f.root, 'stamps', 'stamps.json')),
  })
}
