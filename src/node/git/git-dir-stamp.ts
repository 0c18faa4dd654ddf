/**
 * A cheap reading of the `.git` files that decide what `openRepo` (history.ts) answers, so a
 * click on a note need not start git to learn that nothing moved (issue 16: a note's diff
 * within 150 ms of a click; two `git rev-parse` runs were most of it).
 *
 * What the reading covers, and why each part:
 * - `HEAD`'s text and identity: the branch checked out, or the detached commit;
 * - the loose ref HEAD names (text and identity, or its absence) and `packed-refs` (identity;
 *   rewritten through a lock file and a rename, so a new inode): the commit HEAD resolves to;
 * - the index (identity, as RepoState.stamp): the tracked files;
 * - `shallow` and `config` (identity): shallowness, and config that decides whether git runs
 *   there at all (run.ts).
 * Null (read with git every time) when `.git` is not a plain folder (a linked worktree or a
 * submodule), refs are kept in a reftable or another git folder (`commondir`), HEAD is not a plain file, or HEAD names a ref that
 * is itself symbolic or not under `refs/`. The files are only read, never followed to run
 * anything; a name from HEAD is checked before it is joined to a path.
 */
import { lstat, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { MISSING, statsIdentity, type Identity } from '../cache/file-identity'

/** HEAD and a loose ref are a line; anything longer is not read as one. */
const REF_FILE_MAX_BYTES = 1024

type Part = Identity | null

async function identityOf(path: string): Promise<Part> {
  try {
    const st = await lstat(path)
    return st.isFile() ? statsIdentity(st) : null
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? MISSING : null
  }
}

/** A small regular file's identity and text (null text: absent); null when not readable as one. */
async function smallFile(path: string): Promise<{ id: Identity; text: string | null } | null> {
  const id = await identityOf(path)
  if (id === MISSING) return { id, text: null }
  if (id === null) return null
  const text = await readFile(path, 'utf8').catch(() => null)
  if (text === null || text.length > REF_FILE_MAX_BYTES) return null
  // Read again after the text: a file replaced while it was read is not one reading.
  return (await identityOf(path)) === id ? { id, text } : null
}

/** A ref name HEAD may point to: under refs/, no `..`, no empty or hidden part. */
const safeRefName = (name: string): boolean =>
  name.startsWith('refs/') &&
  name.length <= 512 &&
  name
    .split('/')
    .every((p) => p !== '' && !p.startsWith('.') && !p.includes('\0') && !p.includes('\\'))

/**
 * The reading of the work tree at `root` (its top level): equal readings mean that `openRepo`
 * answers the same, given that its answer was taken between two equal readings. Null when
 * the layout is not one this can vouch for.
 */
export async function gitDirStamp(root: string): Promise<string | null> {
  const dir = join(root, '.git')
  const st = await lstat(dir).catch(() => null)
  if (!st?.isDirectory()) return null
  const [head, elsewhere, packed, index, shallow, config] = await Promise.all([
    smallFile(join(dir, 'HEAD')),
    // Refs in a reftable, or in another git folder (`commondir`): not read here.
    Promise.all(['reftable', 'commondir'].map((n) => identityOf(join(dir, n)))).then((ids) =>
      ids.some((id) => id !== MISSING),
    ),
    identityOf(join(dir, 'packed-refs')),
    identityOf(join(dir, 'index')),
    identityOf(join(dir, 'shallow')),
    identityOf(join(dir, 'config')),
  ])
  if (head?.text == null || elsewhere) return null
  if (packed === null || index === null || shallow === null || config === null) return null
  const parts: string[] = [head.id, head.text, packed, index, shallow, config]
  const m = /^ref: (\S+)\s*$/.exec(head.text)
  if (m) {
    const name = m[1]!
    if (!safeRefName(name)) return null
    const ref = await smallFile(join(dir, ...name.split('/')))
    if (ref === null) return null
    if (ref.text?.startsWith('ref:')) return null
    parts.push(`${ref.id}\0${ref.text ?? ''}`)
  }
  return parts.join('\n')
}
