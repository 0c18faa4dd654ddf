/**
 * The sandboxed preload (CommonJS): exposes the API's named functions to the page,
 * never `ipcRenderer` itself (docs/architecture.md §4.3).
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import type { ChangeEvent, CuratorApi, CuratorClient } from '../shared/api'
import { API_METHOD_NAMES, IPC_EVENT_CHANNEL, ipcChannel } from '../shared/channels'

const call =
  (method: string) =>
  (...args: unknown[]): Promise<never> =>
    ipcRenderer.invoke(ipcChannel(method), ...args) as Promise<never>

const methods = Object.fromEntries(
  API_METHOD_NAMES.map((m) => [m, call(m)]),
) as unknown as CuratorApi

const api: CuratorClient = {
  ...methods,
  onDidChange(listener) {
    const wrapped = (_e: IpcRendererEvent, event: ChangeEvent): void => listener(event)
    ipcRenderer.on(IPC_EVENT_CHANNEL, wrapped)
    return () => {
      ipcRenderer.off(IPC_EVENT_CHANNEL, wrapped)
    }
  },
}

contextBridge.exposeInMainWorld('curator', api)
