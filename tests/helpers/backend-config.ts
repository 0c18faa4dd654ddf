/** The back-end configuration tests use for a fixture home (no trash, stamps in the fixture). */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { BackendConfig } from '../../src/node/app/backend'
import { createJsonFileStore } from '../../src/node/fs/json-store'
import type { FixtureHome } from './fixture-home'

export function backendConfigFor(
  f: Pick<FixtureHome, 'root' | 'claudeHome' | 'codexHome' | 'managedDir' | 'stateDir'>,
  extra: Partial<BackendConfig> = {},
): BackendConfig {
  mkdirSync(join(f.root, 'stamps'), { recursive: true })
  return {
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
    ...extra,
  }
}
