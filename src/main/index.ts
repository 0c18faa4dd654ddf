/**
 * The Electron shell, kept thin: one secure window, the menu, IPC registration from
 * the one handler table, window state. Everything else lives in src/node.
 */
import {
  app,
  BrowserWindow,
  ipcMain,
  Menu,
  Notification,
  protocol,
  session,
  shell,
  utilityProcess,
} from 'electron'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defaultStateDir, setupApp } from '../node/app/setup'
import { createBackend, BackendError, type Backend } from '../node/app/backend'
import { watchMemory } from '../node/memory/watch'
import { API_METHODS, IPC_EVENT_CHANNEL, ipcChannel, type CuratorApi } from '../shared/api'
import { dispatch, DispatchError } from '../shared/dispatch'
import { buildMenu } from './menu'
import { rendererDirBeside, serveRendererRequest } from './renderer-protocol'
import {
  handleWindowOpen,
  isNavigationAllowed,
  isTrustedSender,
  parseDesktopArgs,
  permissionAllowed,
  RENDERER_SCHEME,
  rendererUrlFor,
  secureWebPreferences,
} from './security'
import { createStampStore, createWindowStateStore } from './window-state'
import { utilityLaunch } from './utility-launch'
import { noticeNotification } from './notice-notification'

const here = dirname(fileURLToPath(import.meta.url))
let mainWindow: BrowserWindow | null = null
let backend: Backend | null = null

/** Set by electron.vite.config.ts: true only in `electron-vite dev`. */
declare const MC_DEV_BUILD: boolean
const devBuild = typeof MC_DEV_BUILD === 'boolean' && MC_DEV_BUILD
const rendererUrl = rendererUrlFor(devBuild, process.env.ELECTRON_RENDERER_URL)

// Must happen before `ready`: the page's scheme is standard and secure (fetch, workers, CSP 'self').
protocol.registerSchemesAsPrivileged([
  {
    scheme: RENDERER_SCHEME,
    privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
  },
])

function registerIpc(api: CuratorApi): void {
  for (const method of API_METHODS) {
    ipcMain.handle(ipcChannel(method), async (event, ...args: unknown[]) => {
      const frame = event.senderFrame
      if (!isTrustedSender(frame?.url, frame === event.sender.mainFrame, rendererUrl)) {
        throw new Error(`refused ${method}: call from an untrusted frame`)
      }
      try {
        return await dispatch(api, method, args)
      } catch (err) {
        if (err instanceof DispatchError || err instanceof BackendError)
          throw new Error(err.message, { cause: err })
        throw err
      }
    })
  }
}

async function createWindow(): Promise<void> {
  const state = createWindowStateStore()
  const bounds = state.load()
  mainWindow = new BrowserWindow({
    ...bounds,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Memory Curator',
    // The app icon (resources/icons/icon.svg rendered by scripts/icons/render-icons.mjs).
    icon: join(rendererDirBeside(here), 'icon.png'),
    webPreferences: secureWebPreferences(join(here, '../preload/index.cjs')),
  })
  if (bounds.maximized) mainWindow.maximize()
  const save = (): void => {
    if (!mainWindow || mainWindow.isDestroyed()) return
    state.save({ ...mainWindow.getNormalBounds(), maximized: mainWindow.isMaximized() })
  }
  mainWindow.on('resize', save)
  mainWindow.on('move', save)
  mainWindow.on('close', save)
  mainWindow.once('ready-to-show', () => mainWindow?.show())
  await mainWindow.loadURL(rendererUrl)
}

app.on('web-contents-created', (_e, contents) => {
  contents.setWindowOpenHandler(({ url }) =>
    handleWindowOpen(url, (u) => void shell.openExternal(u)),
  )
  contents.on('will-navigate', (event, url) => {
    if (!isNavigationAllowed(url, rendererUrl)) event.preventDefault()
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
})

app.whenReady().then(async () => {
  session.defaultSession.setPermissionRequestHandler((_wc, _perm, cb) => cb(permissionAllowed()))
  session.defaultSession.setPermissionCheckHandler(() => permissionAllowed())
  const rendererDir = rendererDirBeside(here)
  protocol.handle(RENDERER_SCHEME, (request) => serveRendererRequest(rendererDir, request.url))
  const args = parseDesktopArgs(process.argv.slice(1))
  const setup = await setupApp({ ...args, stateDir: join(app.getPath('userData'), 'state') })
  backend = await createBackend({
    ...setup,
    version: app.getVersion(),
    transport: 'ipc',
    env: process.env,
    trash: (p) => shell.trashItem(p),
    stampStore: createStampStore(),
    // Packaged builds turn the RunAsNode fuse off: heavy jobs run in a utility process instead.
    heavyLaunch: utilityLaunch((path, args, options) => utilityProcess.fork(path, args, options)),
    // Where `memory-curator hook session-start` reads the last audit (issue 18).
    auditDigestDir: setup.demo ? undefined : defaultStateDir(),
  })
  // Issue 18 item 4: a desktop notification; the window's notice (memory-notices.tsx) has the fix.
  backend.onMemoryNotice((n) => {
    if (!Notification.isSupported()) return
    const note = new Notification(noticeNotification(n))
    note.on('click', () => mainWindow?.show())
    note.show()
  })
  registerIpc(backend)
  backend.onDidChange((event) => mainWindow?.webContents.send(IPC_EVENT_CHANNEL, event))
  const rescan = (): void => {
    mainWindow?.webContents.send(IPC_EVENT_CHANNEL, { kind: 'changed', paths: [] })
  }
  Menu.setApplicationMenu(buildMenu(() => mainWindow, rescan, devBuild))
  // Never awaited: a home with no memory folder yet must still open its window (issue 14).
  watchMemory(backend, { claudeHome: setup.claudeHome, afterFirstLoad: true })
  await createWindow()
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) void createWindow()
  })
})

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})
