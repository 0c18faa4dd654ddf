/**
 * A small persistent key-value store in one JSON file, written atomically (temp file +
 * rename). Used where electron-store is not available (`serve`, the CLI, tests).
 */
import {
  mkdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
  fsyncSync,
  openSync,
  closeSync,
} from 'node:fs'
import { dirname } from 'node:path'
import { randomBytes } from 'node:crypto'
import type { KeyValueStore } from '../edits/edit-actions'

export function createJsonFileStore(path: string): KeyValueStore {
  let data: Record<string, unknown> = {}
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'))
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      data = parsed as Record<string, unknown>
  } catch {
    // Missing or damaged: start empty; the damaged file is kept until the first write replaces it.
  }
  const save = (): void => {
    mkdirSync(dirname(path), { recursive: true })
    const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`
    writeFileSync(tmp, JSON.stringify(data, null, 1))
    const fd = openSync(tmp, 'r')
    try {
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(tmp, path)
  }
  return {
    get: (key) => data[key],
    set(key, value) {
      data = { ...data, [key]: value }
      save()
    },
    delete(key) {
      if (!(key in data)) return
      const { [key]: _gone, ...rest } = data
      data = rest
      save()
    },
    keys: () => Object.keys(data),
  }
}
