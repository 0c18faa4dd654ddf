/**
 * The demo's git repository, built with one `git fast-import` stream, and the demo's only way to
 * run git: the one hardened runner (src/node/git/run.ts), so no hook, filter or user config of
 * this machine touches the demo (nor does a system `core.autocrlf` rewrite its bytes).
 */
import { join } from 'node:path'
import { runGit } from '../git/run'
import {
  DemoError,
  fillPlaceholders,
  isSafeRelative,
  parseJson,
  readTemplate,
  templateName,
  type History,
  type Manifest,
} from './demo-templates'

const GIT_TIMEOUT_MS = 60_000

/**
 * Build the repository with one `git fast-import` stream: commits in order, fixed
 * author and committer dates, no hooks, no signing, no user config — so the commit ids
 * are the same on every machine.
 */
export async function buildRepository(
  repo: string,
  root: string,
  resourcesDir: string,
  files: readonly string[],
  m: Manifest,
): Promise<void> {
  const historyPath = join(resourcesDir, ...m.repo.history.split('/'))
  const history = parseJson(await readTemplate(historyPath), historyPath) as History
  if (!history || !Array.isArray(history.commits) || !history.authors) {
    throw new DemoError(`demo template ${historyPath}: needs authors and commits`)
  }
  const chunks: Buffer[] = []
  const put = (s: string): void => {
    chunks.push(Buffer.from(s, 'utf8'))
  }
  const data = (s: string): void => {
    put(`data ${Buffer.byteLength(s, 'utf8')}\n`)
    put(s)
    put('\n')
  }
  const tips = new Map<string, number>()
  let mark = 0
  for (const c of history.commits) {
    const where = `${historyPath}, commit ${c.files}`
    const who = Object.hasOwn(history.authors, c.author) ? history.authors[c.author] : undefined
    if (!who) throw new DemoError(`${where}: unknown author ${c.author}`)
    const when = gitDate(c.date, where)
    if (!isSafeRelative(c.files) || !/^[A-Za-z0-9._/-]+$/.test(c.branch)) {
      throw new DemoError(`${where}: bad files folder or branch name`)
    }
    mark++
    put(`commit refs/heads/${c.branch}\nmark :${mark}\n`)
    put(`author ${who.name} <${who.email}> ${when}\ncommitter ${who.name} <${who.email}> ${when}\n`)
    data(c.message.endsWith('\n') ? c.message : `${c.message}\n`)
    if (!tips.has(c.branch) && tips.size > 0) {
      const from = c.from === undefined ? undefined : tips.get(c.from)
      if (from === undefined)
        throw new DemoError(`${where}: a new branch needs "from" naming a branch`)
      put(`from :${from}\n`)
    }
    for (const [a, b] of c.rename ?? []) {
      if (!isSafeRelative(a) || !isSafeRelative(b)) throw new DemoError(`${where}: bad rename ${a}`)
      put(`R ${a} ${b}\n`)
    }
    for (const d of c.delete ?? []) {
      if (!isSafeRelative(d)) throw new DemoError(`${where}: bad delete ${d}`)
      put(`D ${d}\n`)
    }
    const prefix = `${m.repo.commits}/${c.files}/`
    const changed = files.filter((f) => f.startsWith(prefix))
    if (changed.length === 0 && !c.rename?.length && !c.delete?.length) {
      throw new DemoError(`${where}: no files in ${prefix}`)
    }
    for (const f of changed) {
      const rel = templateName(f.slice(prefix.length))
      const text = fillPlaceholders(
        await readTemplate(join(resourcesDir, ...f.split('/'))),
        f,
        root,
        m,
      )
      put(`M ${rel.endsWith('.sh') ? '100755' : '100644'} inline ${rel}\n`)
      data(text)
    }
    put('\n')
    tips.set(c.branch, mark)
  }
  if (!tips.has(m.repo.checkout)) {
    throw new DemoError(`${historyPath}: no commits on branch ${m.repo.checkout}`)
  }
  // `--template=` keeps the user's template hooks out of the demo repository.
  await demoGit(['init', '--quiet', '--template=', '.'], repo)
  await demoGit(['symbolic-ref', 'HEAD', `refs/heads/${m.repo.checkout}`], repo)
  await demoGit(
    ['fast-import', '--quiet', '--done'],
    repo,
    Buffer.concat([...chunks, Buffer.from('done\n')]),
  )
  await demoGit(['reset', '--quiet', '--hard'], repo)
}

/** `2026-01-12T10:30:00+01:00` → git's raw `1768210200 +0100`. */
export function gitDate(iso: string, where: string): string {
  const ms = Date.parse(iso)
  const tz = /(Z|([+-])(\d\d):?(\d\d))$/.exec(iso)
  if (Number.isNaN(ms) || !tz) throw new DemoError(`${where}: date needs a time zone: ${iso}`)
  const offset = tz[1] === 'Z' ? '+0000' : `${tz[2]}${tz[3]}${tz[4]}`
  return `${Math.floor(ms / 1000)} ${offset}`
}

/** A demo inside another repository is still usable, but its non-git project is not. */
export async function placementWarnings(target: string): Promise<string[]> {
  const r = await runGit(['rev-parse', '--show-toplevel'], {
    cwd: target,
    timeoutMs: GIT_TIMEOUT_MS,
  })
  if (r.code !== 0) return []
  return [
    `the demo folder ${target} is inside the git repository ${r.stdout.trim()}, ` +
      'so its "outside git" project is not outside git',
  ]
}

/** Run git in `cwd` through the hardened runner; a failure is a DemoError naming the command. */
export async function demoGit(
  args: readonly string[],
  cwd: string,
  input?: Buffer,
): Promise<string> {
  const r = await runGit(args, {
    cwd,
    timeoutMs: GIT_TIMEOUT_MS,
    ...(input === undefined ? {} : { input }),
  })
  if (r.code !== 0) {
    throw new DemoError(`git ${args[0]} in ${cwd} failed: ${r.stderr.trim() || `exit ${r.code}`}`)
  }
  return r.stdout
}
