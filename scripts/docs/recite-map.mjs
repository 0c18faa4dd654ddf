/**
 * The mapping from the team's shared notes (outside the repository) to our own pages in
 * docs/, applied to the text of one comment. Pure; scripts/docs/recite.mjs applies it to the
 * comments of every file, and tests/unit/docs/recite-map.test.ts checks it.
 *
 * Decisions:
 * - docs/memory-rules.md keeps the shared notes' chapter numbers §1–§6, so a bare `§2` that
 *   follows a citation stays right; named parts ("Index format", step 2) become the
 *   numbered sections that hold them (§2.6, §2.2), keeping the name as written.
 * - Stack notes are cited without a section; which section of docs/stack.md holds the point
 *   is read from the words of the comment around the citation (first rule that matches).
 * - Every rewrite produces text none of the patterns match again: running twice changes
 *   nothing the second time.
 */

const PAGE = {
  memory: 'docs/memory-rules.md',
  cli: 'docs/cli.md',
  architecture: 'docs/architecture.md',
  stack: 'docs/stack.md',
}

/** Named parts of the memory chapters → the numbered sections that hold them. */
export const MEMORY_PARTS = [
  { chapter: '1', name: 'transcripts', section: '1.4' },
  { chapter: '1', name: 'shared memory folder', section: '1.5' },
  { chapter: '1', name: 'cleanup', section: '1.7' },
  { chapter: '2', name: 'index format', section: '2.6' },
  { chapter: '2', name: 'health', section: '2.7' },
  { chapter: '3', name: '`paths`', section: '3.3' },
  { chapter: '3', name: 'imports', section: '3.4' },
  { chapter: '3', name: 'size', section: '3.11' },
  { chapter: '6', name: 'one writer per page', section: '6.4' },
]

/** Commands of the command line → their sections in docs/cli.md. */
export const CLI_SECTIONS = {
  scan: '4',
  cutoff: '5',
  'load-order': '6',
  audit: '7',
  provenance: '8',
  serve: '9',
}

/** Words of a comment → the section of docs/stack.md it cites (first match wins). */
export const STACK_SECTIONS = [
  { words: /Monaco|CDN/, section: '4' },
  { words: /chokidar|watch/i, section: '6' },
  { words: /CommonJS|preload/i, section: '5' },
  { words: /Chromium|browser/i, section: '3' },
  { words: /evaluates code|yaml|frontmatter/i, section: '7' },
  { words: /stand-in|Electron binary|download|proof the app starts/i, section: '2' },
]

/** A `.md` page name with the shared notes' optional folder prefixes in front. */
const SHARED = String.raw`(?:(?:\.\.\/)?shared\/docs\/|docs\/)?`
const MEMORY_NAME = new RegExp(String.raw`${SHARED}memory-facts(?:\.md)?\b`, 'g')
const CLI_WITH_COMMAND = new RegExp(
  String.raw`${SHARED}cli-contract(?:\.md)?(\s+)\`([a-z-]+)\``,
  'g',
)
const CLI_NAME = new RegExp(String.raw`${SHARED}cli-contract(?:\.md)?\b`, 'g')
const ARCH_HABIT = new RegExp(
  String.raw`(?<![\w./-])${SHARED}architecture\.md,?((?:\s|\*)+)habit\s+(\d+)`,
  'g',
)
const ARCH_NAME = new RegExp(
  String.raw`(?<![\w./-])(?:(?:\.\.\/)?shared\/docs\/)?architecture\.md\b`,
  'g',
)
const STACK_NAME = new RegExp(
  String.raw`${SHARED}stack-notes(?:\.md)?(\s*"Configuration that mattered")?`,
  'g',
)

/** Words of a name, allowing a comment's line break (`\n * `) between them. */
const spaced = (name) =>
  name
    .split(' ')
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join(String.raw`(?:\s|\*)+`)

/** Rewrite the citations in one comment's text. */
export function reciteComment(comment) {
  let out = comment
  out = out.replace(MEMORY_NAME, PAGE.memory)
  out = out.replace(CLI_WITH_COMMAND, (whole, space, command) =>
    command in CLI_SECTIONS
      ? `${PAGE.cli} §${CLI_SECTIONS[command]}${space}\`${command}\``
      : `${PAGE.cli}${space}\`${command}\``,
  )
  out = out.replace(CLI_NAME, () =>
    /`serve`/.test(comment) ? `${PAGE.cli} §${CLI_SECTIONS.serve}` : PAGE.cli,
  )
  out = out.replace(ARCH_HABIT, (whole, space, habit) => `${PAGE.architecture}${space}§4.${habit}`)
  out = out.replace(ARCH_NAME, PAGE.architecture)
  out = out.replace(STACK_NAME, () => {
    const rule = STACK_SECTIONS.find((r) => r.words.test(comment))
    return rule ? `${PAGE.stack} §${rule.section}` : PAGE.stack
  })
  if (out.includes(PAGE.memory)) out = reciteMemoryParts(out)
  return out
}

/** `§2 "Index format"`, `§2, step 3`, `§6 one writer per page` → `§2.6 …`, `§2.2 step 3`, `§6.4 …`. */
function reciteMemoryParts(text) {
  let out = text.replace(
    /§2(?![.\d])(,?\s*)(steps?\s)/g,
    (whole, gap, step) => `§2.2${gap.includes(',') ? ' ' : gap}${step}`,
  )
  for (const part of MEMORY_PARTS) {
    const quoted = new RegExp(
      String.raw`§${part.chapter}(?![.\d]),?((?:\s|\*)*)"(${spaced(part.name)})"`,
      'gi',
    )
    out = out.replace(quoted, (whole, space, name) => `§${part.section}${space || ' '}"${name}"`)
    const plain = new RegExp(
      String.raw`§${part.chapter}(?![.\d])(\s+)(${spaced(part.name)})\b`,
      'gi',
    )
    out = out.replace(plain, (whole, space, name) => `§${part.section}${space}${name}`)
  }
  return refineChapters(out)
}

/**
 * Words near a one-chapter citation → the section of that chapter it means. A citation is
 * refined only when exactly one section's words are found: otherwise it keeps the chapter.
 */
export const CHAPTER_WORDS = {
  1: [
    { words: /perishable|deleted|cleanup/i, section: '1.7' },
    { words: /managed/i, section: '1.2' },
    { words: /hash|named after|folder nam(?:e|ing)/i, section: '1.3' },
    { words: /or that it is off|DISABLE_AUTO_MEMORY|autoMemory|switches/i, section: '1.6' },
    {
      words:
        /memory folder|main worktree|main checkout|worktrees? share|memory under|memory\/` holds|index and topic files|loads as the index/i,
      section: '1.5',
    },
    { words: /sub-agent|launched|transcripts name/i, section: '1.4' },
    { words: /keep their files|CLAUDE_CONFIG_DIR/, section: '1.1' },
  ],
  2: [
    { words: /session start|load cutoff|first unloaded/i, section: '2.1' },
    { words: /trim|blank lines/i, section: '2.2' },
    { words: /\\r|line break|CRLF|150 lines/i, section: '2.3' },
    { words: /orphan|dangling/i, section: '2.7' },
  ],
  3: [
    { words: /on demand|load when Claude reads|reads a file under/i, section: '3.2' },
    { words: /globs|contains `\.claude\/`/, section: '3.3' },
    { words: /escaped space|bare relative name|importing file's directory/i, section: '3.4' },
    { words: /raw order|raw filesystem order|readdir|never sorted/i, section: '3.5' },
    { words: /whitespace only|does not send/i, section: '3.6' },
    { words: /approv|import anywhere/i, section: '3.7' },
    { words: /walk up|walked|nested worktree/i, section: '3.8' },
    { words: /comment|stripped before loading/i, section: '3.9' },
    { words: /claudeMdExcludes/, section: '3.10' },
    { words: /AGENTS\.md/, section: '3.12' },
  ],
  4: [
    { words: /root markers?/i, section: '4.2' },
    { words: /U\+FFFD|project_doc_max_bytes|budget/i, section: '4.4' },
  ],
  5: [
    { words: /fields|gitBranch|sessionId|snapshot line|tolerate/i, section: '5.1' },
    { words: /tools whose calls|write events/i, section: '5.2' },
    { words: /is_error|failed edit|failure|changed nothing|changes nothing/i, section: '5.3' },
  ],
  6: [
    { words: /checkable|rather than English/i, section: '6.1' },
    { words: /stale when the code|verif|stamp/i, section: '6.2' },
    { words: /one writer|parallel|different session|loses a line|overwr/i, section: '6.4' },
  ],
}

/** `docs/memory-rules.md §N` citing one chapter alone (no `, §M`, `and §M` or `–§M` after it). */
const ONE_CHAPTER =
  /docs\/memory-rules\.md(\s+)§(\d+)(?![.\d])(?!(?:\s*\[agent\])?[\s*]*(?:,|and\b|–|-)[\s*]*§)/g

/** Refine one-chapter citations whose nearby words name exactly one section. */
function refineChapters(text) {
  return text.replace(ONE_CHAPTER, (whole, space, chapter, index) => {
    const rules = CHAPTER_WORDS[chapter] ?? []
    const lineStart = text.lastIndexOf('\n', index - 1)
    const before = text.slice(text.lastIndexOf('\n', lineStart - 1) + 1, index)
    const rest = text.slice(index + whole.length)
    const after = rest.slice(0, rest.search(/[)\n]|$/))
    const near = `${before} ${after}`
    const sections = new Set(rules.filter((r) => r.words.test(near)).map((r) => r.section))
    if (sections.size !== 1) return whole
    return `docs/memory-rules.md${space}§${[...sections][0]}`
  })
}
