/**
 * `serve`: the desktop window's interface in a browser, for machines without a
 * display or an Electron binary (docs/cli.md §9). Prints the URL with its token as
 * the only line of stdout (the last line a person sees), then serves until stopped. Loopback only (issue 11 item 7).
 */
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setupApp } from '../node/app/setup'
import { createBackend, type Backend } from '../node/app/backend'
import { watchMemory } from '../node/memory/watch'
import { createJsonFileStore } from '../node/fs/json-store'
import { freedesktopTrash } from '../node/edits/trash'
import type { CuratorApi } from '../shared/api'
import { TOKEN_FRAGMENT_KEY } from '../shared/channels'
import { loopbackBindAddress, nonLoopbackHostMessage } from './args'
import { createHttpHandler } from './http-transport'
import { version } from '../../package.json'

export interface ServeOptions {
  readonly port: number
  readonly host: string
  readonly demo: boolean
  readonly demoDir?: string
  readonly stateDir?: string
  readonly global: {
    readonly claudeHome?: string
    readonly codexHome?: string
    readonly managedDir?: string
  }
  /** Folder of the built renderer; default `out/renderer` beside this bundle. */
  readonly rendererDir?: string
  /** Print the URL line (the CLI does; tests read the returned URL instead). */
  readonly quiet?: boolean
}

export interface RunningServe {
  readonly url: string
  readonly token: string
  readonly port: number
  readonly backend: Backend
  close(): Promise<void>
}

/** The built renderer: `out/renderer` next to `out/cli`, or an override for tests. */
export function defaultRendererDir(): string {
  const env = process.env.MEMORY_CURATOR_RENDERER_DIR
  if (env) return resolve(env)
  const here = dirname(fileURLToPath(import.meta.url))
  for (const candidate of [
    join(here, '..', 'renderer'),
    join(here, '..', '..', 'out', 'renderer'),
  ]) {
    if (existsSync(join(candidate, 'index.html'))) return candidate
  }
  return join(here, '..', 'renderer')
}

/** Start serving; resolves once listening. */
export async function startServe(options: ServeOptions): Promise<RunningServe> {
  // parseArgs refuses first; checked again here so no caller can bind beyond loopback.
  const bindAddress = loopbackBindAddress(options.host)
  if (bindAddress === null) throw new Error(nonLoopbackHostMessage(options.host))
  const setup = await setupApp({
    claudeHome: options.global.claudeHome,
    codexHome: options.global.codexHome,
    managedDir: options.global.managedDir,
    demo: options.demo,
    demoDir: options.demoDir,
    stateDir: options.stateDir,
  })
  const backend = await createBackend({
    ...setup,
    version,
    transport: 'http',
    env: process.env,
    trash: (p) => freedesktopTrash(p),
    stampStore: createJsonFileStore(join(setup.stateDir, 'stamps.json')),
  })
  const token = randomBytes(24).toString('base64url')
  const rendererDir = options.rendererDir ?? defaultRendererDir()
  if (!existsSync(join(rendererDir, 'index.html'))) {
    process.stderr.write(
      `serve: no built renderer at ${rendererDir} — run \`npm run build\` first\n`,
    )
  }
  let handler: ReturnType<typeof createHttpHandler> | null = null
  const server: Server = createServer((req, res) => {
    if (!handler) {
      res.writeHead(503).end()
      return
    }
    handler(req, res)
  })
  await new Promise<void>((ok, fail) => {
    server.once('error', fail)
    server.listen(options.port, bindAddress, () => ok())
  })
  const port = (server.address() as AddressInfo).port
  const hostPart = bindAddress.includes(':') ? `[${bindAddress}]` : bindAddress
  const allowedHosts = [`${hostPart}:${port}`, `localhost:${port}`, `127.0.0.1:${port}`]
  const api: CuratorApi = backend
  handler = createHttpHandler({
    api,
    onDidChange: backend.onDidChange,
    token,
    rendererDir,
    allowedHosts,
  })
  // Never awaited: start-up must not wait on the watcher (issue 14).
  const watch = watchMemory(backend, { claudeHome: setup.claudeHome, afterFirstLoad: true })
  // In the fragment: a browser never sends it to a server, so it is in no request line or log.
  const url = `http://${hostPart}:${port}/#${TOKEN_FRAGMENT_KEY}=${token}`
  if (!options.quiet) {
    // The address last, alone on its line, after anything else this command prints (issue 14).
    process.stderr.write(
      `serving ${setup.demo ? `the built-in demo (${setup.demoReason})` : setup.claudeHome} — Ctrl+C to stop; open:\n`,
    )
    process.stdout.write(`${url}\n`)
  }
  const close = async (): Promise<void> => {
    await watch.stop()
    server.closeAllConnections()
    await new Promise<void>((ok) => server.close(() => ok()))
    await backend.dispose()
  }
  if (!options.quiet) {
    for (const sig of ['SIGINT', 'SIGTERM'] as const) {
      process.once(sig, () => {
        void close().then(() => process.exit(0))
      })
    }
  }
  return { url, token, port, backend, close }
}
