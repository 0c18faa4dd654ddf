// Where the Electron binary of node_modules/electron is, without triggering its download
// (`require('electron')` downloads on first use). Shared by `npm start` and the Electron e2e spec.
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

/** The binary's path, or null when it has not been downloaded. */
export function electronBinary(root = process.cwd()) {
  const dir = resolve(root, 'node_modules/electron')
  const pathFile = join(dir, 'path.txt')
  if (!existsSync(pathFile)) return null
  const name = readFileSync(pathFile, 'utf8')
  const bin = process.env.ELECTRON_OVERRIDE_DIST_PATH
    ? join(process.env.ELECTRON_OVERRIDE_DIST_PATH, name)
    : join(dir, 'dist', name)
  return existsSync(bin) ? bin : null
}
