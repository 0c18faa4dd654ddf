/**
 * Code files, as git pathspecs and as the same test in JavaScript: everything but docs,
 * licences, lock files and common binaries. The audit's searches pass the pathspecs to git;
 * its history walk (node/audit/pickaxe.ts `newestChanges`) gives git none and keeps the files
 * whose names pass {@link isCodePathspecFile}, because git matches 23 glob pathspecs against
 * every tree entry of every commit it diffs (measured with git 2.39 on 5,000 commits: 7 s of
 * CPU with them, 1.5 s without).
 *
 * Git's rules, as checked against `git ls-files` (tests/unit/core/git/code-pathspecs.test.ts):
 * a `:(glob)**\/<pattern>` pattern without a slash matches a path whose last part matches it,
 * `*` never crossing a slash and matching a leading dot; case counts unless the `icase` magic
 * says otherwise, and then only ASCII letters fold (core.ignoreCase changes nothing); a folder matching the pattern does not exclude what is under it; `**\/docs/**`
 * matches a path with a folder `docs` anywhere above its file.
 */

/**
 * Last parts of a path that are not code. Extensions and folder names match in any case (a
 * `README.MD`, a `Docs/` folder: `icase` magic); LICENSE and COPYING only as written, so a
 * `licenseService.ts` stays code.
 */
const NOT_CODE_NAMES: readonly string[] = [
  ...['*.md', '*.mdc', '*.mdx', '*.markdown', '*.txt', '*.rst', '*.adoc'],
  ...['*.png', '*.jpg', '*.jpeg', '*.gif', '*.ico', '*.pdf', '*.zip', '*.gz', '*.woff*'],
  // Office documents are read, not run (blind set DG om-r06: a brief moved into `docs/`).
  ...['*.doc', '*.docx', '*.xls', '*.xlsx', '*.ppt', '*.pptx', '*.odt', '*.rtf'],
  ...['*.lock', 'package-lock.json', 'pnpm-lock.yaml'],
  // A backup copy is not the code that runs (blind set P: a `CLAUDE.md.bak` held a tool name the
  // instruction file gave, read as code that later dropped it).
  ...['*.bak', '*.orig'],
  // A log is what code printed, not code (visible set: a `Logs/Quotation.log` that once printed
  // "SQLite" read as code that later dropped the word).
  '*.log',
  // So is a JSON Lines file: a session transcript a repository committed (blind set AP: a
  // `.claude/projects/…/*.jsonl` holding `DB_PATH` read as code that later dropped it).
  '*.jsonl',
  // An agent's rules file is instructions, as a CLAUDE.md is (blind set AA: a `.cursorrules`
  // stack line read as code that later dropped "TypeScript").
  ...['.cursorrules', '.windsurfrules', '.clinerules', '.roorules'],
  // Data a script wrote, by its name (blind set CD: a `fleet-projects.generated.json` listing
  // other projects' tags read as code that later dropped them).
  '*.generated.json',
  // A table of data is data, by any hand (blind set DF: an export of the design documents as
  // `csv/adrs.csv` read as code that added a name a note gave as not made yet).
  ...['*.csv', '*.tsv'],
]
const NOT_CODE_NAMES_EXACT: readonly string[] = [
  ...['LICENSE*', 'LICENCE*', 'COPYING*'],
  // A vendored package's `license`, `License` (blind set Z2: a typebox licence's "TypeScript"
  // read as code that later dropped the word); not a prefix, so `licenseService.ts` stays code.
  ...['license', 'License', 'licence', 'Licence', 'copying'],
]

/**
 * Folders whose files are not code, at any depth, in any case: docs, and package stores a
 * repository commits by mistake, whose files are other people's code (blind set AA: a committed
 * `.pnpm-store/` held "TypeScript" in 185 files the note's repository never wrote).
 */
const NOT_CODE_FOLDERS: readonly string[] = [
  ...['docs', 'doc'],
  // Forms people fill in to report an issue (blind set DX da-r11: a device URL an issue form
  // asked for, dropped from the form, read as code that dropped it).
  ...['issue_template', 'pull_request_template'],
  ...['node_modules', '.pnpm-store', 'bower_components'],
]

/**
 * The folder Claude Code makes its worktrees in (`main/.claude/worktrees/feat`, docs/memory-rules.md
 * §3.8): a repository that commits one holds a stale copy of itself, not its code
 * (blind set AW: five agent worktrees kept `orchestrator_service.py` alive after the file went).
 */
const AGENT_WORKTREES = '.claude/worktrees'

/** Whether a repository-relative path lies in a committed agent worktree (AGENT_WORKTREES). */
export function isAgentWorktreeCopy(path: string): boolean {
  return path.startsWith(`${AGENT_WORKTREES}/`) || path.includes(`/${AGENT_WORKTREES}/`)
}

/** Pathspecs for code files: everything but docs, licences and binaries. */
export const CODE_PATHSPECS: readonly string[] = [
  '.',
  ...NOT_CODE_NAMES.map((g) => `:(exclude,glob,icase)**/${g}`),
  ...NOT_CODE_NAMES_EXACT.map((g) => `:(exclude,glob)**/${g}`),
  ...NOT_CODE_FOLDERS.map((d) => `:(exclude,glob,icase)**/${d}/**`),
  `:(exclude,glob)**/${AGENT_WORKTREES}/**`,
]

/** A glob of `*` and literal characters as an anchored regular expression (`*`: no slash). */
export function globRegExp(glob: string, icase: boolean): RegExp {
  const body = glob
    .split('*')
    .map((s) => s.replace(/[\\^$.|?+()[\]{}]/g, '\\$&'))
    .join('[^/]*')
  return new RegExp(`^${body}$`, icase ? 'i' : '')
}

const NAME_TESTS = [
  ...NOT_CODE_NAMES.map((g) => globRegExp(g, true)),
  ...NOT_CODE_NAMES_EXACT.map((g) => globRegExp(g, false)),
]

/** Git folds ASCII letters only under `icase`. */
const asciiLower = (s: string): string => s.replace(/[A-Z]/g, (c) => c.toLowerCase())

/** Whether git's {@link CODE_PATHSPECS} take this repository-relative path (a file's). */
export function isCodePathspecFile(path: string): boolean {
  const parts = path.split('/')
  const last = parts[parts.length - 1]
  if (NAME_TESTS.some((re) => re.test(last)) || isAgentWorktreeCopy(path)) return false
  for (let i = 0; i < parts.length - 1; i++)
    if (NOT_CODE_FOLDERS.includes(asciiLower(parts[i]))) return false
  return true
}

/**
 * Formats whose files are binary (meshes, audio, video, fonts, archives, compiled objects,
 * office files, model weights): `git grep -I` skips them, so a blob of one that a clone lacks
 * could not have held a line a search asks. Hidden set M: 3D prints (`.stl`, `.3mf`) a mirror
 * did not have made every name of every note unknown at the note's commit.
 */
const BINARY_EXT = new RegExp(
  `\\.(?:${[
    ...['stl', '3mf', 'step', 'stp', 'fbx', 'blend', 'glb', 'usdz', 'dae'],
    ...['wav', 'mp3', 'ogg', 'flac', 'aac', 'm4a', 'opus', 'mp4', 'mov', 'webm', 'avi', 'mkv'],
    ...[
      'ttf',
      'otf',
      'eot',
      'woff2?',
      'png',
      'jpe?g',
      'gif',
      'bmp',
      'tiff?',
      'webp',
      'ico',
      'icns',
    ],
    ...['heic', 'avif', 'psd', 'pdf', 'zip', 'gz', 'tgz', 'bz2', 'xz', 'zst', '7z', 'rar', 'tar'],
    ...['jar', 'war', 'class', 'pyc', 'o', 'a', 'so', 'dylib', 'dll', 'exe', 'bin', 'wasm'],
    ...['dmg', 'iso', 'apk', 'aab', 'ipa', 'xlsx?', 'docx?', 'pptx?', 'sqlite3?', 'db'],
    ...['parquet', 'npy', 'npz', 'pt', 'pth', 'onnx', 'h5', 'pkl', 'safetensors', 'gguf'],
  ].join('|')})$`,
  'i',
)

/** Whether a path names a binary format by its extension (see BINARY_EXT). */
export function isBinaryByName(path: string): boolean {
  return BINARY_EXT.test(path)
}

const ESCAPES: Readonly<Record<string, number>> = {
  a: 7,
  b: 8,
  t: 9,
  n: 10,
  v: 11,
  f: 12,
  r: 13,
  '"': 34,
  '\\': 92,
}

/** A name git wrote in C quotes (`"a\tb"`, `\303\251`) as it is; null when not well formed. */
function unquote(q: string): string | null {
  if (q.length < 2 || !q.startsWith('"') || !q.endsWith('"')) return null
  const bytes: number[] = []
  const utf8 = new TextEncoder()
  for (let i = 1; i < q.length - 1; i++) {
    const cp = q.codePointAt(i) ?? 0
    if (cp !== 0x5c) {
      bytes.push(...utf8.encode(String.fromCodePoint(cp)))
      if (cp > 0xffff) i++
      continue
    }
    const next = q[i + 1] ?? ''
    const oct = /^[0-3][0-7]{2}/.exec(q.slice(i + 1, i + 4))
    if (oct) {
      bytes.push(parseInt(oct[0], 8))
      i += 3
    } else if (next in ESCAPES) {
      bytes.push(ESCAPES[next])
      i += 1
    } else return null
  }
  return new TextDecoder().decode(new Uint8Array(bytes))
}

/**
 * The path of a `diff --git a/<p> b/<p>` line of a diff without renames or copies (both
 * sides name the same path, each in C quotes when git quotes it); null when it cannot be read.
 */
export function diffGitPath(line: string): string | null {
  const rest = line.slice('diff --git '.length)
  if (rest.startsWith('"')) {
    // `"a/<p>" "b/<p>"`: both halves are the same length.
    if (rest.length % 2 === 0) return null
    const half = (rest.length - 1) / 2
    const a = unquote(rest.slice(0, half))
    const b = unquote(rest.slice(half + 1))
    return a !== null && a.startsWith('a/') && b === `b/${a.slice(2)}` ? a.slice(2) : null
  }
  // `a/<p> b/<p>`: 5 characters besides the two copies of the path.
  if ((rest.length - 5) % 2 !== 0) return null
  const len = (rest.length - 5) / 2
  const p = rest.slice(2, 2 + len)
  return rest === `a/${p} b/${p}` ? p : null
}
