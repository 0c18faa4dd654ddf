/**
 * Citations of documents in the repository's comments: finding comments (with TypeScript's
 * parser, so strings, templates and regular expressions are never taken for comments),
 * citations of documents that are not in the repository, and `docs/<page>.md §N` citations
 * whose page or section does not exist.
 *
 * Test titles (`describe('…')`) count as prose too: they cite the same way.
 *
 * Used by scripts/docs/recite.mjs (which rewrites the citations) and by
 * tests/unit/docs/citations.test.ts (which fails while any is left).
 *
 * Decisions:
 * - Only comments of code files count: fixtures and test strings may hold any path.
 * - Markdown files (README.md, docs/) are checked as whole text: they are prose.
 * - A section anchor is a heading that starts with `§N` or `§N.M` (docs/memory-rules.md).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { extname, join } from 'node:path'
import ts from 'typescript'

/** Folders whose code files are checked, and root files checked beside them. */
export const CODE_DIRS = ['src', 'tests', 'scripts']
export const CODE_EXTENSIONS = new Set([
  '.ts',
  '.tsx',
  '.mts',
  '.cts',
  '.js',
  '.jsx',
  '.mjs',
  '.cjs',
])
const SKIP_DIRS = new Set(['node_modules', 'out', '.git'])

/** Citations of documents outside the repository: one pattern per kind of document. */
export const OUTSIDE_DOCUMENTS = [
  { what: 'the shared docs folder', re: /shared\/docs\b/ },
  { what: 'the shared memory facts', re: /\bmemory-facts\b/ },
  { what: 'the shared command-line contract', re: /\bcli-contract\b/ },
  { what: 'the shared stack notes', re: /\bstack-notes\b/ },
  // A markdown link from a sibling page in docs/ names the page bare: that one is ours.
  { what: 'an architecture.md outside docs/', re: /(?<![\w/.-]|\]\()architecture\.md\b/ },
  { what: 'the shared seeds', re: /\.\.\/seeds\b|\bseeds\/|\[seed\b|\bseed 0\d\d\b/ },
]

/**
 * `docs/<page>.md`, then any section list: `§2`, `§2.6`, `§1–§4`, `§5, §6.4`, `§3 and §4`.
 * A path followed by `#fragment` is an example of a path (`docs/a.md#setup`), not a citation.
 */
const DOCS_CITATION =
  /(?<![\w./-])docs\/([\w-]+(?:\/[\w-]+)*\.md)(?!#)((?:[\s*,;]*(?:and\s+)?§\s?\d+(?:\.\d+)*(?:\s*[–-]\s*§?\s?\d+(?:\.\d+)*)?)*)/g
const SECTION = /§\s?(\d+(?:\.\d+)*)/g
const ANCHOR = /^#{1,6}\s+§(\d+(?:\.\d+)*)/gm

/** Relative paths (with `/`) of the code files to check, sorted. */
export function codeFiles(root) {
  const out = []
  const walk = (dir) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(rel)
      } else if (entry.isFile() && CODE_EXTENSIONS.has(extname(entry.name))) out.push(rel)
    }
  }
  for (const dir of CODE_DIRS) if (existsSync(join(root, dir))) walk(dir)
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (entry.isFile() && CODE_EXTENSIONS.has(extname(entry.name))) out.push(entry.name)
  }
  return out.sort()
}

/** Relative paths of the markdown files to check: README.md and docs/*.md. */
export function markdownFiles(root) {
  const docs = existsSync(join(root, 'docs'))
    ? readdirSync(join(root, 'docs'))
        .filter((n) => n.endsWith('.md'))
        .map((n) => `docs/${n}`)
    : []
  return [...(existsSync(join(root, 'README.md')) ? ['README.md'] : []), ...docs.sort()]
}

function scriptKind(fileName) {
  const ext = extname(fileName)
  if (ext === '.tsx') return ts.ScriptKind.TSX
  if (ext === '.jsx') return ts.ScriptKind.JSX
  if (ext === '.js' || ext === '.mjs' || ext === '.cjs') return ts.ScriptKind.JS
  return ts.ScriptKind.TS
}

/** Test functions whose first argument, a title, is prose like a comment. */
const TEST_FUNCTIONS = new Set(['describe', 'it', 'test'])

/** `describe('…')`, `it.each(…)('…')`: whether a call's callee is one of the test functions. */
function isTestCall(node) {
  let callee = node.expression
  while (ts.isPropertyAccessExpression(callee) || ts.isCallExpression(callee)) {
    callee = callee.expression
  }
  return ts.isIdentifier(callee) && TEST_FUNCTIONS.has(callee.text)
}

/**
 * The prose of a code file, in order: its comments and its test titles, as
 * `{ pos, end, text }` (a comment's text includes its markers, a title's its quotes).
 */
export function proseRanges(fileName, text) {
  const kind = scriptKind(fileName)
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind)
  const found = new Map()
  const add = (ranges) => {
    for (const r of ranges ?? []) found.set(r.pos, r.end)
  }
  const visit = (node) => {
    // The trivia before a node holds the comments; JSX text has no trivia to scan.
    if (node.kind !== ts.SyntaxKind.JsxText) {
      add(ts.getLeadingCommentRanges(text, node.pos))
      add(ts.getTrailingCommentRanges(text, node.pos))
    }
    if (ts.isCallExpression(node) && isTestCall(node)) {
      const title = node.arguments[0]
      if (title && (ts.isStringLiteral(title) || ts.isNoSubstitutionTemplateLiteral(title))) {
        found.set(title.getStart(source), title.end)
      }
    }
    for (const child of node.getChildren(source)) visit(child)
  }
  visit(source)
  return [...found.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([pos, end]) => ({ pos, end, text: text.slice(pos, end) }))
}

/** 1-based line of an offset. */
export function lineOf(text, offset) {
  let line = 1
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++
  return line
}

/** Citations of outside documents in `text`: `{ index, match, what }`. */
export function outsideCitations(text) {
  const out = []
  for (const { what, re } of OUTSIDE_DOCUMENTS) {
    const global = new RegExp(re.source, 'g')
    for (const m of text.matchAll(global)) out.push({ index: m.index, match: m[0], what })
  }
  return out.sort((a, b) => a.index - b.index)
}

/** `docs/` citations in `text`: `{ index, match, page, sections }` (sections as `2`, `2.6`). */
export function docsCitations(text) {
  const out = []
  for (const m of text.matchAll(DOCS_CITATION)) {
    const sections = [...m[2].matchAll(SECTION)].map((s) => s[1])
    out.push({ index: m.index, match: m[0].trimEnd(), page: m[1], sections })
  }
  return out
}

/** The section anchors of a page: every heading that starts with `§N` or `§N.M`. */
export function anchorsOf(markdown) {
  return new Set([...markdown.matchAll(ANCHOR)].map((m) => m[1]))
}

/**
 * Every citation problem under `root`: outside documents in comments and markdown
 * (`kind: 'outside'`), and `docs/` citations whose page or section does not exist
 * (`kind: 'docs'`). `{ kind, file, line, problem }`.
 */
export function citationProblems(root) {
  const anchors = new Map()
  const anchorsFor = (page) => {
    if (!anchors.has(page)) {
      const path = join(root, 'docs', page)
      anchors.set(page, existsSync(path) ? anchorsOf(readFileSync(path, 'utf8')) : null)
    }
    return anchors.get(page)
  }
  const problems = []
  const check = (file, whole, part, offset) => {
    for (const c of outsideCitations(part)) {
      problems.push({
        kind: 'outside',
        file,
        line: lineOf(whole, offset + c.index),
        problem: `cites ${c.what}: "${c.match}"`,
      })
    }
    for (const c of docsCitations(part)) {
      const known = anchorsFor(c.page)
      const line = lineOf(whole, offset + c.index)
      if (known === null) {
        problems.push({
          kind: 'docs',
          file,
          line,
          problem: `cites docs/${c.page}, which does not exist`,
        })
        continue
      }
      for (const s of c.sections) {
        if (known.has(s)) continue
        const problem = `cites docs/${c.page} §${s}, which has no such section`
        problems.push({ kind: 'docs', file, line, problem })
      }
    }
  }
  for (const file of codeFiles(root)) {
    const text = readFileSync(join(root, file), 'utf8')
    for (const c of proseRanges(file, text)) check(file, text, c.text, c.pos)
  }
  for (const file of markdownFiles(root)) {
    const text = readFileSync(join(root, file), 'utf8')
    check(file, text, text, 0)
  }
  return problems
}

/** A problem as one line: `file:line: problem`. */
export function formatProblem(p) {
  return `${p.file}:${p.line}: ${p.problem}`
}
