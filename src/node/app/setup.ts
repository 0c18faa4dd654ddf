/**
 * Deciding which homes the app and `serve` look at: the user's own, or the
 * built-in demo when asked (`--demo`) or when no Claude folder exists.
 */
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { defaultStateDir } from './state-dir'
import { defaultDemoDir, demoResourcesDir, materializeDemo } from './demo'
import { resolveHomes, type HomeOptions } from '../memory/homes'

export interface AppSetupOptions extends HomeOptions {
  readonly demo?: boolean
  /** Where the demo is materialised (default: the user cache folder). */
  readonly demoDir?: string
  /** Folder for our own state (caches, backups); default under the user's state folder. */
  readonly stateDir?: string
}

export interface AppSetup {
  readonly claudeHome: string
  readonly codexHome: string
  readonly managedDir: string
  readonly demo: boolean
  readonly demoReason: string | null
  readonly stateDir: string
}

async function isDir(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory()
  } catch {
    return false
  }
}

export { defaultStateDir }

/** Resolve the homes to show; materialises the demo when it is needed. */
export async function setupApp(
  options: AppSetupOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<AppSetup> {
  const homes = resolveHomes(options, env)
  const explicitHome = options.claudeHome !== undefined || Boolean(env.CLAUDE_CONFIG_DIR)
  let demoReason: string | null = null
  if (options.demo) demoReason = 'started with --demo'
  else if (!explicitHome && !(await isDir(homes.claudeHome)))
    demoReason = `no Claude folder at ${homes.claudeHome}`
  const stateDir = options.stateDir ?? defaultStateDir(env)
  if (demoReason === null) {
    return { ...homes, demo: false, demoReason: null, stateDir }
  }
  const resourcesDir = demoResourcesDir(env)
  if (!resourcesDir)
    throw new Error(
      'the built-in demo is missing: no resources/demo folder next to the app (set MEMORY_CURATOR_RESOURCES)',
    )
  const demoDir = options.demoDir ?? defaultDemoDir(env)
  const demo = await materializeDemo({ targetDir: demoDir, resourcesDir })
  return {
    claudeHome: demo.claudeHome,
    codexHome: demo.codexHome,
    managedDir: demo.managedDir,
    demo: true,
    demoReason,
    // Beside the demo root, not inside it: a rebuilt demo replaces its root folder.
    stateDir: options.stateDir ?? join(demoDir, 'state'),
  }
}
