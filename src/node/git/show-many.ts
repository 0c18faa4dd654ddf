/**
 * Many files of one commit in two git runs instead of one `git show` each (node/git/history.ts
 * `showAt`): `git ls-tree -l` gives each file's blob and size, one `git show <blob>…` prints
 * them one after the other, and the sizes cut them apart. Every answer is the one `showAt`
 * gives for that file: a file this cannot cut out exactly (not a blob there, too big, a cut
 * inside a character) is asked of `showAt` on its own.
 */
import { showAt, type ShowResult } from './history'
import { mapLimited } from '../jobs/concurrency'
import { runGit } from './run'

const TIMEOUT_MS = 120_000

/** Blobs and their sizes in `sha` for exactly these paths (others listed are ignored). */
async function blobsOf(
  root: string,
  sha: string,
  rels: readonly string[],
): Promise<Map<string, { blob: string; size: number }>> {
  const out = new Map<string, { blob: string; size: number }>()
  const r = await runGit(['ls-tree', '-z', '-l', sha, '--', ...rels.map((f) => `:(literal)${f}`)], {
    cwd: root,
    timeoutMs: TIMEOUT_MS,
    maxBytes: 16 * 1024 * 1024,
  })
  if (r.code !== 0) return out
  const wanted = new Set(rels)
  for (const entry of r.stdout.split('\0')) {
    const tab = entry.indexOf('\t')
    if (tab === -1) continue
    const [, type, blob, size] = entry.slice(0, tab).split(/ +/)
    const path = entry.slice(tab + 1)
    const bytes = Number(size)
    if (type === 'blob' && wanted.has(path) && blob && Number.isSafeInteger(bytes))
      out.set(path, { blob, size: bytes })
  }
  return out
}

/** UTF-8 length of one code point. */
const utf8Length = (cp: number): number => (cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4)

/**
 * `text` (git's output decoded as UTF-8) cut at these byte sizes; null when a cut falls inside
 * a character or the lengths disagree (a replaced invalid sequence of another length).
 */
export function cutBySizes(text: string, sizes: readonly number[]): string[] | null {
  const out: string[] = []
  let i = 0
  for (const size of sizes) {
    const start = i
    let bytes = 0
    while (bytes < size && i < text.length) {
      const cp = text.codePointAt(i) ?? 0
      bytes += utf8Length(cp)
      i += cp > 0xffff ? 2 : 1
    }
    if (bytes !== size) return null
    out.push(text.slice(start, i))
  }
  return i === text.length ? out : null
}

/** `showAt` for each of `rels` in `sha`, in as few git runs as it can. */
export async function showManyAt(
  root: string,
  sha: string,
  rels: readonly string[],
  maxBytes: number,
): Promise<Map<string, ShowResult>> {
  const out = new Map<string, ShowResult>()
  const unique = [...new Set(rels)]
  const blobs = unique.length > 1 ? await blobsOf(root, sha, unique) : new Map()
  const batch = unique.filter((f) => (blobs.get(f)?.size ?? Infinity) <= maxBytes)
  const ids = [...new Set(batch.map((f) => blobs.get(f)?.blob ?? ''))]
  if (ids.length > 1) {
    const size = new Map(batch.map((f) => [blobs.get(f)?.blob ?? '', blobs.get(f)?.size ?? 0]))
    const total = ids.reduce((s, id) => s + (size.get(id) ?? 0), 0)
    const r = await runGit(['show', ...ids], { cwd: root, timeoutMs: TIMEOUT_MS, maxBytes: total })
    const parts =
      r.code === 0
        ? cutBySizes(
            r.stdout,
            ids.map((id) => size.get(id) ?? 0),
          )
        : null
    if (parts) {
      const text = new Map(ids.map((id, i) => [id, parts[i]]))
      for (const f of batch) {
        const t = text.get(blobs.get(f)?.blob ?? '') ?? ''
        out.set(
          f,
          t.slice(0, 8192).includes('\0')
            ? { ok: false, reason: `\`${f}\` is a binary file` }
            : { ok: true, text: t },
        )
      }
    }
  }
  const rest = unique.filter((f) => !out.has(f))
  const shown = await mapLimited(rest, 4, (f) => showAt(root, sha, f, maxBytes))
  rest.forEach((f, i) => out.set(f, shown[i]))
  return out
}
