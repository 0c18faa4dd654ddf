// A stand-in for the `electron` module that records what the main process asks of it. Once the
// window loads its URL, it probes the registered handlers (IPC, navigation, new windows, the
// renderer protocol, permissions) the way Electron would call them, writes everything it saw to
// $MC_ELECTRON_RECORD as JSON and exits. Assertions live in tests/unit/main/electron-main.test.ts.
import { fork } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { writeFileSync } from 'node:fs'

const record = {
  whenReadyCalled: false,
  privilegedSchemes: [],
  protocolHandlers: [],
  permissionRequestHandler: false,
  permissionCheckHandler: false,
  ipcHandle: [],
  ipcOn: [],
  menu: null,
  windows: [],
  loadURL: [],
  openExternal: [],
  probes: {},
  errors: [],
  utilityForks: [],
}
const handlers = {
  ipc: new Map(),
  protocol: new Map(),
  permissionRequest: null,
  permissionCheck: null,
  contents: [],
}

process.on('uncaughtException', (e) => finish(e))
process.on('unhandledRejection', (e) => finish(e))

function finish(error) {
  if (error) record.errors.push(String(error?.stack ?? error))
  writeFileSync(process.env.MC_ELECTRON_RECORD, JSON.stringify(record, null, 2))
  process.exit(error ? 1 : 0)
}

class App extends EventEmitter {
  isPackaged = false
  whenReady() {
    record.whenReadyCalled = true
    return new Promise((ok) => setImmediate(ok))
  }
  getPath(name) {
    if (name !== 'userData') throw new Error(`stand-in app.getPath: unexpected ${name}`)
    return process.env.MC_ELECTRON_USERDATA
  }
  getVersion() {
    return '0.0.0-stand-in'
  }
  getName() {
    return 'memory-curator'
  }
  quit() {}
}
export const app = new App()

export const ipcMain = {
  handle(channel, fn) {
    record.ipcHandle.push(channel)
    handlers.ipc.set(channel, fn)
  },
  on(channel) {
    record.ipcOn.push(channel)
  },
}

export const protocol = {
  registerSchemesAsPrivileged(schemes) {
    record.privilegedSchemes.push(...schemes)
  },
  handle(scheme, fn) {
    record.protocolHandlers.push(scheme)
    handlers.protocol.set(scheme, fn)
  },
}

export const session = {
  defaultSession: {
    setPermissionRequestHandler(fn) {
      record.permissionRequestHandler = true
      handlers.permissionRequest = fn
    },
    setPermissionCheckHandler(fn) {
      record.permissionCheckHandler = true
      handlers.permissionCheck = fn
    },
  },
}

export const shell = {
  openExternal(url) {
    record.openExternal.push(url)
    return Promise.resolve()
  },
  trashItem() {
    return Promise.resolve()
  },
}

const summarise = (items) =>
  items.map((i) => ({
    label: i.label,
    role: i.role,
    submenu: Array.isArray(i.submenu) ? summarise(i.submenu) : undefined,
  }))
export const Menu = {
  buildFromTemplate(template) {
    return { template }
  },
  setApplicationMenu(menu) {
    record.menu = summarise(menu.template)
  },
}

class WebContents extends EventEmitter {
  mainFrame = { url: '' }
  windowOpenHandler = null
  setWindowOpenHandler(fn) {
    this.windowOpenHandler = fn
  }
  send() {}
}

const windows = []
export class BrowserWindow extends EventEmitter {
  static getAllWindows() {
    return windows
  }
  constructor(options) {
    super()
    record.windows.push(options)
    this.webContents = new WebContents()
    windows.push(this)
    app.emit('web-contents-created', {}, this.webContents)
  }
  maximize() {}
  isDestroyed() {
    return false
  }
  isMaximized() {
    return false
  }
  getNormalBounds() {
    return { x: 0, y: 0, width: 1280, height: 800 }
  }
  focus() {}
  async loadURL(url) {
    record.loadURL.push(url)
    this.webContents.mainFrame.url = url
    setImmediate(() => probe(this, url).then(() => finish(), finish))
  }
}

/** Call the handlers the way Electron would, and keep what they answered. */
async function probe(win, url) {
  const p = record.probes
  const wc = win.webContents
  const open = (u) => wc.windowOpenHandler?.({ url: u })?.action ?? null
  p.windowOpen = {
    docs: open('https://docs.claude.com/x'),
    evil: open('https://evil.example/'),
    file: open('file:///etc/passwd'),
  }
  const navigate = (u) => {
    let prevented = false
    wc.emit('will-navigate', { preventDefault: () => (prevented = true) }, u)
    return prevented
  }
  p.navigatePrevented = {
    self: navigate(url),
    evil: navigate('https://evil.example/'),
    file: navigate('file:///etc/passwd'),
  }
  const attach = { prevented: false }
  wc.emit('will-attach-webview', { preventDefault: () => (attach.prevented = true) })
  p.webviewPrevented = attach.prevented

  const fetchApp = async (u) => {
    const fn = handlers.protocol.get('app')
    if (!fn) return null
    const res = await fn({ url: u })
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      bytes: (await res.arrayBuffer()).byteLength,
    }
  }
  p.protocol = {
    index: await fetchApp('app://renderer/index.html'),
    escape: await fetchApp('app://renderer/../../package.json'),
    encodedEscape: await fetchApp('app://renderer/%2e%2e/%2e%2e/package.json'),
    otherHost: await fetchApp('app://other/index.html'),
  }

  const invokeRaw = async (channel, frameUrl, args) => {
    const frame = { url: frameUrl }
    try {
      return await handlers.ipc.get(channel)(
        { senderFrame: frame, sender: { mainFrame: frame } },
        ...args,
      )
    } catch (e) {
      record.errors.push(`${channel}: ${e?.message ?? e}`)
      return null
    }
  }
  const invoke = async (channel, frameUrl, args = []) => {
    const fn = handlers.ipc.get(channel)
    if (!fn) return { error: 'no handler' }
    const frame = { url: frameUrl }
    try {
      const result = await fn({ senderFrame: frame, sender: { mainFrame: frame } }, ...args)
      return {
        ok: true,
        keys: result && typeof result === 'object' ? Object.keys(result).sort() : typeof result,
      }
    } catch (e) {
      return { ok: false, error: String(e?.message ?? e) }
    }
  }
  const scanChannel = record.ipcHandle.find((c) => c.endsWith(':scan'))
  p.ipcTrusted = await invoke(scanChannel, url)
  p.ipcUntrusted = await invoke(scanChannel, 'https://evil.example/')
  p.ipcOtherAppHost = await invoke(scanChannel, 'app://evil/index.html')

  // Provenance runs in a job process started through utilityProcess (RunAsNode is off when packaged).
  const scanned = await invokeRaw(
    record.ipcHandle.find((c) => c.endsWith(':scan')),
    url,
    [],
  )
  const memoryDir = scanned?.projects?.find((x) => x.memoryDir)?.memoryDir ?? null
  const prov = memoryDir
    ? await invokeRaw(
        record.ipcHandle.find((c) => c.endsWith(':provenance')),
        url,
        [memoryDir],
      )
    : null
  p.provenance = prov
    ? { files: prov.files?.length ?? -1, problems: (prov.problems ?? []).map((x) => x.reason) }
    : null

  p.permissionRequest = await new Promise(
    (ok) => handlers.permissionRequest?.(null, 'media', ok) ?? ok(null),
  )
  p.permissionCheck = handlers.permissionCheck?.(null, 'clipboard-read') ?? null
}

/** Electron's utilityProcess, played by a Node child with `process.parentPort` shimmed in. */
export const utilityProcess = {
  fork(modulePath, args, options) {
    record.utilityForks.push({ modulePath, execArgv: options?.execArgv ?? [] })
    const child = fork(modulePath, args ?? [], {
      execArgv: [
        ...(options?.execArgv ?? []),
        '--import',
        new URL('./parent-port.mjs', import.meta.url).href,
      ],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    })
    const proc = new EventEmitter()
    child.on('message', (m) => proc.emit('message', m))
    child.on('exit', (code) => proc.emit('exit', code ?? 1))
    child.on('error', (e) => proc.emit('error', 'FatalError', String(e)))
    proc.postMessage = (m) => child.send(m)
    proc.kill = () => child.kill('SIGKILL')
    return proc
  },
}

/** Desktop notifications (issue 18): never shown under the stand-in. */
export class Notification extends EventEmitter {
  static isSupported() {
    return false
  }
  show() {}
}

export default {
  app,
  ipcMain,
  protocol,
  session,
  shell,
  Menu,
  BrowserWindow,
  utilityProcess,
  Notification,
}
