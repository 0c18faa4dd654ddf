/**
 * What a note rests on: the paths, symbols, commands, quoted code, URLs and branch
 * names it names (docs/memory-rules.md §6.1: "a checkable note names what it rests on").
 * Pure text analysis; whether each still holds is decided in check-reference.ts.
 *
 * The extractor errs towards silence: a prose-only note yields nothing, and plain
 * English words are never symbols, so that a note is only called stale for
 * something it really names.
 */

import { shellBlockRefs } from './shell-blocks'
import { stateNames } from './state-names'
import { findCodeSpans, looksLikeCode, spanMarker } from './code-spans'
import { LIST_GAP_RE, NEGATED_BEFORE_RE, negationMarker } from './negated-spans'
import { cutFences, DIAGRAM_CHARS_RE, DIAGRAM_RE, treeListing } from './note-fences'
import { fenceRefs } from './fence-imports'
import { isMcpToolList } from './mcp-tools'
import { dedupeReferences, GLUED_PLACEHOLDER_RE, snippetRef, trimUrl, urlRef } from './reference'
import type { Reference } from './reference'
import {
  fileAlternatives,
  pathRef,
  prosePathRef,
  slashCommandRefs,
  exampleRefs,
  agentItemRefs,
  spanPathRef,
} from './reference-paths'
import {
  cdManifests,
  commandLineRefs,
  commandsIn,
  isCommandLine,
  isShellBlock,
  stripPrompt,
} from './reference-commands'
import { normalizePath } from '../paths'

const IDENT = '[A-Za-z_$][\\w$]*'
const SYMBOL_RE = new RegExp(`^(${IDENT}(?:(?:\\.|::|#)${IDENT})*)(\\(\\))?$`)
const PROSE_CALL_RE = new RegExp(`(?<![\\w$./\\\\-])(${IDENT}(?:(?:\\.|::)${IDENT})*)\\(\\)`, 'g')
/**
 * A call whose arguments are all bare names or elided: `name(a, b)`, `Cart.add(item)`,
 * `Depends(...)` (blind set AM: an elision read as quoted code no file ever held).
 */
const ARG = `(?:${IDENT}|\\.\\.\\.|…)`
const CALL_SHAPE_RE = new RegExp(
  `^(${IDENT}(?:(?:\\.|::)${IDENT})*)\\(\\s*${ARG}(?:\\s*,\\s*${ARG})*\\s*\\)$`,
)
const URL_RE = /\bhttps?:\/\/[^\s<>"'`\][)(]+(?:\([^\s<>"'`()]*\)[^\s<>"'`\][)(]*)*/g
/** A label stops at `[` and a target at `(`, so `[[[[…` and `[a](b[a](b…` take linear time (issue 8). */
const MD_LINK_RE = /!?\[([^[\]\n]*)\]\(\s*<?([^()\s>]+)>?(?:\s+"[^"\n]*")?\s*\)/g
const PROSE_PATH_RE =
  /(?<![\p{L}\p{N}_@$/.:\\-])(?:\.{1,2}\/|\.(?=[\p{L}\p{N}_][\p{L}\p{N}_.-]*\/))?[\p{L}\p{N}_@+-][\p{L}\p{N}_@.+-]*(?:\/[\p{L}\p{N}_@.+-]+)*\/?(?::\d+(?:-\d+)?)?/gu
/**
 * A page's address on the site the repository serves (`/object-viewer.html`): one segment with a
 * page extension after a space or an opening bracket. No one keeps a page at the disk's root, so
 * it names the page's file by its name, resolved like a bare file name (issue 12 item 2), not a
 * path outside the repository.
 */
const PAGE_ROUTE_RE =
  /(?<=^|[\s(])\/([\w-][\w.-]*\.(?:html?|php|aspx?|jsp))(?=[\s),;:!?]|\.(?:\s|$)|$)/gm
/** Characters that, right after a path or branch name, show it continues as a pattern. */
const PATTERN_NEXT_RE = /^(?:<[A-Za-z]|\{[A-Za-z]|\[|\*|…|\.\.\.|\$\{?[A-Za-z])/
/** Longest text PATTERN_NEXT_RE can match: test a window, not the rest of the note (linear time). */
const PATTERN_NEXT_MAX = 3
const continuesAsPattern = (text: string, at: number): boolean =>
  PATTERN_NEXT_RE.test(text.slice(at, at + PATTERN_NEXT_MAX))
/**
 * Markdown emphasis around a word (`**deploy.yml**`, `*x.ts*`): the closing `*` is the
 * emphasis the same run opened, not a glob (issue 12 item 2).
 */
function emphasized(text: string, start: number, end: number): boolean {
  const open = /(\*{1,2}|_{1,2})$/.exec(text.slice(Math.max(0, start - 2), start))
  return open !== null && text.startsWith(open[1], end)
}
/**
 * A link target with its percent escapes decoded: markdown writes a space in a path as `%20`
 * (`[context](ACMP%20product%20context/)` names the folder `ACMP product context/`). Blind set S.
 */
function decodedTarget(target: string): string {
  if (!/%[0-9A-Fa-f]{2}/.test(target)) return target
  try {
    return decodeURIComponent(target)
  } catch {
    return target
  }
}
/** Words that introduce an example rather than a thing the note rests on. */
const EXAMPLE_BEFORE_RE = /(?:\be\.\s?g\.?|\bfor (?:example|instance)|\bsuch as)[\s,:]*\(?\s*$/i
const BRANCH_BEFORE_RE = /\bbranch\s+(?:named\s+|called\s+)?(`?)([\w][\w./-]*)\1/gi
const BRANCH_AFTER_RE = /`([\w][\w./-]*)`\s+branch\b/gi
const KNOWN_BRANCHES = new Set(
  'main master develop dev trunk staging production release gh-pages'.split(' '),
)

interface Found {
  readonly pos: number
  readonly ref: Reference
}

/** All references a note's markdown text names, in text order, without duplicates. */
export function extractReferences(text: string): Reference[] {
  const found: Found[] = []
  const { prose, fences } = cutFences(text)
  for (const f of fences) {
    if (f.code.trim() === '') continue
    const tree = treeListing(f.code)
    if (isShellBlock(f.lang, f.code)) {
      for (const ref of shellBlockRefs(f.code)) found.push({ pos: f.pos, ref })
    } else if (tree !== null) {
      // A folder tree: each entry a path under its parent folder, and under its top folder.
      for (const r of extractReferences(tree.paths.map((p) => `\`${p}\``).join('\n')))
        found.push({
          pos: f.pos,
          ref: r.kind === 'path' && tree.top ? { ...r, under: tree.top } : r,
        })
      // An entry's comment may give the commands it runs (`Makefile → make run, make migrate`;
      // blind set BG: a migrate target since split in two).
      for (const c of tree.comments)
        for (const part of c.replace(/^(?:#|\/\/|[\u2190-\u21ff]|->|=>)\s*/, '').split(/\s*,\s*/))
          for (const ref of commandsIn(part)) found.push({ pos: f.pos, ref })
    } else if (DIAGRAM_RE.test(f.code)) {
      // Any other drawing names files and folders in prose form; it is not quoted code.
      for (const ref of extractReferences(f.code.replace(DIAGRAM_CHARS_RE, ' ')))
        found.push({ pos: f.pos, ref })
    } else if (isMcpToolList(f.code)) {
      continue
    } else if (!GLUED_PLACEHOLDER_RE.test(f.code) && !STRING_PLACEHOLDER_RE.test(f.code)) {
      // A block with placeholders (`src/<module>/index.ts`, `…`) is a template, not a quote.
      found.push({ pos: f.pos, ref: snippetRef(f.code.replace(/\r?\n$/, ''), true) })
      for (const ref of fenceRefs(f.code)) found.push({ pos: f.pos, ref })
    }
  }

  // Branch names first: their back-ticked names must not count as paths too.
  // Each pass reads its own snapshot of `masked`; blanking is collected and applied once
  // per pass (`flush`), so 100,000 links cost one rebuild, not 100,000 (issue 8, bad input).
  let masked = prose
  let pending: [number, number][] = []
  const mask = (start: number, end: number): void => {
    if (end > start) pending.push([start, end])
  }
  const flush = (): void => {
    if (pending.length === 0) return
    pending.sort((a, b) => a[0] - b[0])
    let out = ''
    let at = 0
    for (const [start, end] of pending) {
      const from = Math.max(start, at)
      if (end <= from) continue
      out += masked.slice(at, from) + ' '.repeat(end - from)
      at = end
    }
    masked = out + masked.slice(at)
    pending = []
  }
  for (const re of [BRANCH_BEFORE_RE, BRANCH_AFTER_RE]) {
    for (const m of prose.matchAll(re)) {
      const ticked = re === BRANCH_AFTER_RE || m[1] === '`'
      const name = (re === BRANCH_AFTER_RE ? m[1] : m[2]).replace(/[.]+$/, '')
      if (!ticked && !looksLikeBranch(name)) continue
      // `branch feature/<topic>` names a naming pattern, not a branch.
      if (continuesAsPattern(prose, m.index + m[0].length)) continue
      found.push({ pos: m.index, ref: { kind: 'branch', text: name, name } })
      mask(m.index, m.index + m[0].length)
    }
  }

  // Code spans. One introduced by "e.g." (or in a list right after one) is an example
  // of a kind of thing, not something the note rests on.
  flush()
  const spanSource = masked
  const isExample = spanMarker(EXAMPLE_BEFORE_RE, LIST_GAP_RE, 40)
  const isNegated = negationMarker()
  for (const span of findCodeSpans(spanSource)) {
    const content = spanSource.slice(span.contentStart, span.contentEnd).replace(/^ (.*) $/s, '$1')
    const example = isExample(spanSource, span)
    const negated = isNegated(spanSource, span)
    if (!example && !negated)
      for (const ref of classifySpan(content)) found.push({ pos: span.start, ref })
    // An example command or path still names one of the repository's (reference-paths.ts).
    else if (example && !negated)
      for (const ref of exampleRefs(content.trim())) found.push({ pos: span.start, ref })
    mask(span.start, span.end)
  }

  // Markdown links: the target is a URL or a path; the label stays prose.
  flush()
  const linkSource = masked
  for (const m of linkSource.matchAll(MD_LINK_RE)) {
    const target = m[2]
    const start = m.index
    if (/^https?:\/\//i.test(target)) {
      found.push({ pos: start, ref: urlRef(target) })
    } else if (!/^(?:#|mailto:|[a-z][\w+.-]*:)/i.test(target)) {
      const p = pathRef(decodedTarget(target.replace(/#.*$/, '')))
      if (p) found.push({ pos: start, ref: p })
    }
    // Keep the label in place, blank out the brackets and target.
    const labelStart = start + m[0].indexOf('[') + 1
    mask(start, labelStart)
    mask(labelStart + m[1].length, start + m[0].length)
  }

  // Bare URLs.
  flush()
  const urlSource = masked
  for (const m of urlSource.matchAll(URL_RE)) {
    const url = trimUrl(m[0])
    found.push({ pos: m.index, ref: urlRef(url) })
    mask(m.index, m.index + m[0].length)
  }

  // Commands in prose (never `make`: "make sure" is English).
  flush()
  const cmdSource = masked
  for (const m of cmdSource.matchAll(
    /\b(?:npm|pnpm|yarn|bun)(?:[ \t]+(?!(?:npm|pnpm|yarn|bun)\b)[\w:@./-]+){1,3}/g,
  )) {
    const refs = commandsIn(m[0].split(/[.:,;](?=\s|$)/)[0], false)
    for (const ref of refs) found.push({ pos: m.index, ref })
    if (refs.length > 0) mask(m.index, m.index + m[0].length)
  }
  flush()
  const scriptSource = masked
  for (const m of scriptSource.matchAll(
    /(?<![\w/.])\.{1,2}\/[\w@.+/-]*\.(?:sh|bash|zsh|py|js|mjs|ts|rb|pl)\b/g,
  )) {
    found.push({
      pos: m.index,
      ref: { kind: 'command', text: m[0], runner: 'file', target: normalizePath(m[0]) },
    })
    mask(m.index, m.index + m[0].length)
  }

  // Calls in prose: `computeTotal()`.
  flush()
  const callSource = masked
  for (const m of callSource.matchAll(PROSE_CALL_RE)) {
    const ref = symbolRef(m[0], true)
    if (ref) {
      found.push({ pos: m.index, ref })
      mask(m.index, m.index + m[0].length)
    }
  }

  // Paths in prose; `feature/<topic>` or `src/…` is a pattern, not a path.
  flush()
  for (const m of masked.matchAll(PROSE_PATH_RE)) {
    const end = m.index + m[0].length
    if (continuesAsPattern(masked, end) && !emphasized(masked, m.index, end)) continue
    if (/\/\.\.\.?$/.test(m[0])) continue
    // `compact/usd/ms/pct/` at a line's end, the next line going on `relTime/shortDate/…`: a
    // slash-joined list a wrap cut, not a folder (hidden set J).
    if (m[0].endsWith('/') && /^\n[ \t]*[\p{L}\p{N}_$.-]+\//u.test(masked.slice(end))) continue
    const raw = m[0].replace(/[.,;:!?]+$/, '')
    if (NEGATED_BEFORE_RE.test(masked.slice(Math.max(0, m.index - 40), m.index))) continue
    const files = fileAlternatives(raw)
    const p = files ? null : prosePathRef(raw)
    // A bare name in plain prose; a bold one (`**deploy.yml**`) is written as a file.
    const bare =
      p && p.kind === 'path' && !p.path.includes('/') && !p.dir && !emphasized(masked, m.index, end)
        ? { ...p, prose: true as const }
        : p
    for (const ref of files ?? (bare ? [bare] : [])) found.push({ pos: m.index, ref })
  }
  for (const m of masked.matchAll(PAGE_ROUTE_RE)) {
    const p = pathRef(m[1])
    if (p) found.push({ pos: m.index, ref: { ...p, text: m[0] } })
  }

  found.sort((a, b) => a.pos - b.pos)
  return dedupeReferences(found.map((f) => f.ref))
}

/** What one inline code span names. */
function classifySpan(raw: string): Reference[] {
  // `**copyLocal.mjs**`: markdown emphasis inside the span, not a glob.
  const s = raw.trim().replace(/^(\*\*?)(?=[^*\s])(.*[^*\s])\1$/, '$2')
  if (s === '') return []
  if (/^https?:\/\/\S+$/i.test(s)) return [urlRef(s)]
  const cmds = commandsIn(stripPrompt(s))
  if (cmds.length > 0) return [...cmds, ...cdManifests(s)]
  // A command line is not code the repository must contain: only its file arguments count.
  if (isCommandLine(s)) return commandLineRefs(s)
  if (/^@[\w.-]+\/[\w.-]+$/.test(s)) return [] // a scoped npm package, not a path
  if (isMcpToolList(s)) return []
  // `.js/.ts`: file kinds, one or the other, no path (blind set DS za-r11).
  if (/^\.[A-Za-z0-9]+(?:\/\.[A-Za-z0-9]+)+$/.test(s)) return []
  // `.AsRequired()`: a method called on anything, by its name (blind set EV ms-r08: an extension
  // method removed since). A call, not a file's extension.
  const method = /^\.([A-Za-z_$][\w$]*\(\))$/.exec(s)
  const called = method ? symbolRef(method[1], false) : null
  if (called) return [{ ...called, text: s }]
  // `Actions.fog()/setFog()`, `getTasks/createTask` (set BA): each a name (issue 12 item 2).
  const alternatives = s.split('/')
  const nameLike = (a: string): boolean =>
    /^[\w$.:#]+\(\)$/.test(a) || /^[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*$/.test(a)
  if (alternatives.length > 1 && alternatives.every(nameLike)) {
    const names = alternatives.flatMap((a) => symbolRef(a, false) ?? [])
    if (names.length === alternatives.length) return names
  }
  const slash = slashCommandRefs(s) ?? agentItemRefs(s)
  if (slash) return slash
  // `<FeatureHelp slug="filename" />`: an element whose attributes are the note's own values
  // names its component; the tag as written is a usage template (blind set N).
  const element = /^<([A-Z][A-Za-z0-9]+(?:\.[A-Z][A-Za-z0-9]*)*)(?:\s[^<>]*)?\/?>$/.exec(s)
  if (element) return [{ kind: 'symbol', text: s, name: element[1], terms: element[1].split('.') }]
  // `GIT_CONFIG_GLOBAL=/dev/null`: an environment variable set, not a path (blind set BU).
  const env = /^([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)=\S*$/.exec(s)
  if (env) return [{ kind: 'symbol', text: s, name: env[1], terms: [env[1]] }]
  const files = fileAlternatives(s)
  if (files) return files
  const p = spanPathRef(s)
  if (p) return [p]
  // `Model.updateRatio(splitId:ratio:)`, `Section(isExpanded:)`: a Swift or Objective-C selector
  // names the method, its argument labels after it (hidden set K: read as quoted code).
  const selector = /^([A-Za-z_$][\w$.]*)\((?:[A-Za-z_]\w*:)+\)$/.exec(s)
  const sym = symbolRef(selector ? `${selector[1]}()` : s, false)
  if (sym) return [selector ? { ...sym, text: s } : sym]
  // A back-ticked word of a script without case (Hangul, Han, kana: a table, key or label name
  // such as `시설결과`): no capital or underscore can mark it as code, the back-ticks do.
  if (CASELESS_NAME_RE.test(s)) return [{ kind: 'symbol', text: s, name: s, terms: [s] }]
  // `ignoreDuplicates:true`, `max_retries = 3`: a setting rests on its key, a name of the code;
  // its value is stated-values.ts's to compare. `MjpegScreen.useTextureAspect = true`, a class's
  // field as its class sets it, rests on both names (blind set CC: the field removed since).
  const setting = SETTING_RE.exec(s)
  if (setting) {
    const terms = setting[1] ? [setting[1], setting[2]] : [setting[2]]
    return [{ kind: 'symbol', text: s, name: terms.join('.'), terms }]
  }
  // `applyCoupon(subtotal, coupon)` describes a call by its parameter names: the
  // function is what the note rests on, not that exact text.
  const call = CALL_SHAPE_RE.exec(s)
  const named = call ? symbolRef(`${call[1]}()`, false) : null
  if (named) return [{ ...named, text: s }]
  const states = stateNames(s)
  if (states) return states
  if (looksLikeCode(s) && !GLUED_PLACEHOLDER_RE.test(s) && !USAGE_RE.test(s))
    return [snippetRef(s, false)]
  return []
}

/**
 * A placeholder inside a string literal (`errors.New("<module> not found")`): the block is a
 * template every module fills in, not code to find (blind set N). Markup is not a placeholder:
 * a string holding a closing tag, or a tag HTML names, is left alone.
 */
const STRING_PLACEHOLDER_RE =
  /(["'`])(?:(?!\1|<\/)[^\n])*<(?!(?:div|span|p|a|b|i|br|hr|li|ul|ol|img|tr|td|th|table|strong|em|code|pre|button|input|label|form|svg|path|h[1-6])>)[a-z][\w -]*>(?:(?!\1|<\/)[^\n])*\1/

/**
 * A `key: value` or `key = value` setting whose key is a camelCase or snake_case name, maybe a
 * capitalised type's field (`Type.field = value`).
 */
const SETTING_RE =
  /^(?:([A-Z][A-Za-z0-9]*)\.)?([a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)\s*[:=]\s*[^\s:=]\S*$/

/** One word, starting in a caseless script, of at least two characters. */
const CASELESS_NAME_RE = /^[\p{sc=Hangul}\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}][\p{L}\p{N}_]+$/u

/**
 * A command's usage with placeholders (`netpath <org>`, `deploy <env> [--force]`): a template
 * (issue 12 item 2), not code to find; its `<org>` is no HTML tag.
 */
const USAGE_RE =
  /^(?=.*\s<[A-Za-z])[\w.:/@-]+(?:\s+(?:<[A-Za-z][\w -]*>|\[[^\]\n]*\]|[\w.:/@=-]+))+$/

/** An identifier that reads as code rather than English (docs/memory-rules.md §6.1). */
function symbolRef(s: string, prose: boolean): Extract<Reference, { kind: 'symbol' }> | null {
  const m = SYMBOL_RE.exec(s)
  if (!m) return null
  const name = m[1]
  const call = m[2] !== undefined
  const terms = name.split(/\.|::|#/)
  const compound = terms.length > 1
  const camel = /[a-z0-9][A-Z]/.test(name)
  const snake = /[A-Za-z0-9]_[A-Za-z0-9]/.test(name) || /^_[A-Za-z]/.test(name)
  // `IWorld`, `IRepository`: an interface by the `I` prefix convention (C#, TypeScript) is code
  // (blind set EV wc-r11: read as no name, so a rewrite of its file made the note suspect).
  const iface = /^I[A-Z][a-z]{2,}/.test(name)
  if (!(call || compound || camel || snake || iface)) return null
  if (prose && !call) return null
  // `e.g()` or one-letter calls read as prose, not code.
  if (terms.some((t) => t.length === 0) || (call && !compound && name.length < 2)) return null
  return {
    kind: 'symbol',
    text: s,
    name,
    terms: terms.filter((t) => t.length > 1 || terms.length === 1),
  }
}

function looksLikeBranch(name: string): boolean {
  return /[/_\d-]/.test(name) || KNOWN_BRANCHES.has(name)
}
