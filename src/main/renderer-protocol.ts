/**
 * Serving the built renderer under `app://renderer/` (issue 11): only files inside the
 * renderer folder, after resolving `..`, encoded separators and symlinks; everything else 404.
 * Kept free of Electron imports so it is tested under Node.
 */
import { readFile, realpath } from 'node:fs/promises'
import { extname, join, resolve, sep } from 'node:path'
import { CONTENT_TYPES } from '../node/app/content-types'
import { RENDERER_HOST, RENDERER_SCHEME } from './security'

/** The file under `rendererDir` that `url` names, or null when it names anything else. */
export async function rendererFileFor(rendererDir: string, url: string): Promise<string | null> {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    return null
  }
  if (u.protocol !== `${RENDERER_SCHEME}:` || u.host !== RENDERER_HOST) return null
  let path: string
  try {
    path = decodeURIComponent(u.pathname)
  } catch {
    return null
  }
  if (path.includes('\0') || path.includes('\\')) return null
  const root = await realpath(rendererDir).catch(() => resolve(rendererDir))
  const wanted = resolve(root, '.' + (path === '/' ? '/index.html' : path))
  if (!wanted.startsWith(root + sep)) return null
  const real = await realpath(wanted).catch(() => null)
  if (real === null || !real.startsWith(root + sep)) return null
  return real
}

/** The response to one `app://` request. */
export async function serveRendererRequest(rendererDir: string, url: string): Promise<Response> {
  const file = await rendererFileFor(rendererDir, url)
  const body = file ? await readFile(file).catch(() => null) : null
  if (!file || !body)
    return new Response('not found', { status: 404, headers: { 'content-type': 'text/plain' } })
  return new Response(new Uint8Array(body), {
    status: 200,
    headers: {
      'content-type': CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
      'x-content-type-options': 'nosniff',
    },
  })
}

/** The renderer folder beside the main bundle. */
export function rendererDirBeside(mainDir: string): string {
  return join(mainDir, '..', 'renderer')
}
