/** A real back end over a fixture home, as the window's transports build it (no trash). */
import { createBackend, type Backend, type BackendConfig } from '../../src/node/app/backend'
import { backendConfigFor } from './backend-config'
import type { FixtureHome } from './fixture-home'

export async function fixtureBackend(
  f: FixtureHome,
  extra: Partial<BackendConfig> = {},
): Promise<Backend> {
  return createBackend(backendConfigFor(f, extra))
}
