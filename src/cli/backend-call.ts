/**
 * The command line's way into the back end: the same handler table (src/node/app/backend.ts)
 * that Electron IPC and `serve` call, through the same `dispatch` (argument schemas and all),
 * so one code path answers the window, HTTP and the CLI.
 *
 * Decisions: the person running the CLI names the launch directory on the command line, so it
 * is passed as a named launch directory (the window's page is not trusted with that); heavy
 * jobs run in-process (a one-shot command gains nothing from a worker); nothing is trashed.
 */
import { join } from 'node:path'
import type { Homes } from '../node/memory/homes'
import { createBackend, type Backend, type BackendConfig } from '../node/app/backend'
import { defaultStateDir } from '../node/app/state-dir'
import { createJsonFileStore } from '../node/fs/json-store'
import { dispatch } from '../shared/dispatch'
import type { ApiMethod, CuratorApi } from '../shared/api'
import { version } from '../../package.json'

export interface BackendCall {
  readonly homes: Homes
  /** Directories the person named (`--cwd`). */
  readonly namedLaunchDirs?: readonly string[]
}

/** Call one API method with its raw arguments, as a transport does, then close the back end. */
/**
 * The back end of one CLI process: our state folder (never the Claude home), nothing trashed,
 * the launch directories the person named. `mcp` and `watch` keep it open; callBackend closes it.
 */
export function createCliBackend(
  homes: Homes,
  extra: Pick<BackendConfig, 'namedLaunchDirs' | 'heavyWorker'> = {},
): Promise<Backend> {
  const stateDir = defaultStateDir()
  return createBackend({
    ...homes,
    version,
    demo: false,
    demoReason: null,
    stateDir,
    transport: 'direct',
    env: process.env,
    trash: null,
    stampStore: createJsonFileStore(join(stateDir, 'stamps.json')),
    ...extra,
  })
}

/** Call one API method with its raw arguments, as a transport does, then close the back end. */
export async function callBackend<M extends ApiMethod>(
  call: BackendCall,
  method: M,
  args: Parameters<CuratorApi[M]>,
): Promise<Awaited<ReturnType<CuratorApi[M]>>> {
  const backend = await createCliBackend(call.homes, {
    heavyWorker: null,
    namedLaunchDirs: call.namedLaunchDirs ?? [],
  })
  try {
    return (await dispatch(backend, method, args)) as Awaited<ReturnType<CuratorApi[M]>>
  } finally {
    await backend.dispose()
  }
}
