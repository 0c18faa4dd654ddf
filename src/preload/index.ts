/**
 * The sandboxed preload (CommonJS): exposes the API's named functions to the page,
 * never `ipcRenderer` itself (architecture.md habit 3).
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import type { ChangeEvent, CuratorClient } from '../shared/api'
import { IPC_EVENT_CHANNEL, ipcChannel } from '../shared/channels'

const call =
  (method: string) =>
  (...args: unknown[]): Promise<never> =>
    ipcRenderer.invoke(ipcChannel(method), ...args) as Promise<never>

const api: CuratorClient = {
  getContext: call('getContext'),
  scan: call('scan'),
  cutoff: call('cutoff'),
  readFile: call('readFile'),
  loadOrder: call('loadOrder'),
  audit: call('audit'),
  provenance: call('provenance'),
  onDidChange(listener) {
    const wrapped = (_e: IpcRendererEvent, event: ChangeEvent): void => listener(event)
    ipcRenderer.on(IPC_EVENT_CHANNEL, wrapped)
    return () => {
      ipcRenderer.off(IPC_EVENT_CHANNEL, wrapped)
    }
  },
}

contextBridge.exposeInMainWorld('curator', api)
