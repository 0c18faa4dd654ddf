/** The API object the whole UI talks through: the preload's in Electron, the HTTP shim in `serve`. */
import type { CuratorClient } from '../../shared/api'
import { createHttpClient } from './http-client'

declare global {
  interface Window {
    curator?: CuratorClient
  }
}

let client: CuratorClient | null = null

export function getApi(): CuratorClient {
  if (!client) client = window.curator ?? createHttpClient()
  return client
}
