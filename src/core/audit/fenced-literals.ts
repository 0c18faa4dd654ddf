/**
 * Values a note gives that only code holds (pure): its fenced code's quoted literals
 * ({@link fencedLiterals}), the fixed part of its URLs ({@link urlBase}), a quote that left
 * out a qualifier ({@link elidedQualifier}), a package pinned to a version and the start of a
 * message the code prints ({@link pinsAndMessages}).
 */
import { findCodeSpans } from './code-spans'
import { cutFences, DIAGRAM_RE } from './note-fences'
import { isCommandLine } from './reference-commands'

/** Fences whose quoted words are a shell's arguments or prose, not code's values. */
const NOT_CODE_FENCES =
  /^(?:sh|bash|zsh|shell|console|terminal|powershell|ps1|cmd|bat|text|txt|plain|plaintext|md|markdown|diff)$/
/** A quoted literal on one line of code: `"anthropic/claude-opus-4.6"`, `'**\/*.{js,css}'`. */
const CODE_LITERAL_RE = /(["'`])([^\s"'`]{6,80})\1/g
/** Literals taken per note at most. */
const FENCED_LITERALS_MAX = 8

/**
 * The distinctive quoted literals of a note's fenced code (`model: str =
 * "anthropic/claude-opus-4.6"`, `globPatterns: ["**\/*.{js,css,ico}"]`): values only code
 * holds, checked as text (src/node/audit/prose-candidates.ts). A block that paraphrases a
 * signature or a config section is no quote of it, yet its values are the code's: held by a
 * code line when the note was written and by none now, the value the note shows is gone (blind
 * set BO: a default model and a service worker's glob, both changed since). Distinctive means
 * a letter and a mark plain words lack (`/ . : * { @`); a template (`${…}`) is not taken.
 */
export function fencedLiterals(text: string): string[] {
  const out: string[] = []
  for (const f of cutFences(text).fences) {
    if (NOT_CODE_FENCES.test(f.lang) || DIAGRAM_RE.test(f.code)) continue
    for (const m of f.code.matchAll(CODE_LITERAL_RE)) {
      const v = m[2]
      if (!/[A-Za-z]/.test(v) || !/[/.:*{@]/.test(v) || v.includes('${') || out.includes(v))
        continue
      // A URL or a path outside the repository is checked as such, not as a value.
      if (/^(?:[a-z][\w+.-]*:\/\/|~\/|\/)/i.test(v)) continue
      out.push(v)
      if (out.length >= FENCED_LITERALS_MAX) return out
    }
  }
  return out
}

/** Where a URL's fixed part ends: a placeholder, a query, a fragment, a wildcard. */
const URL_CUT_RE = /[{<$*?#[]/

/**
 * The fixed part of a URL a note gives, without its scheme: up to its first placeholder
 * (`https://images.example.io/cards/alt/{card}-set-{id}.webp` → `images.example.io/cards/alt`),
 * cut back to a whole path segment; null without a dotted host and a path of at least one
 * segment. Text a code line holds (a base URL constant): held when the note was written and
 * by no code now, the endpoint the note gives moved (blind set BP: an image CDN's path the
 * sync script dropped for another host).
 */
export function urlBase(url: string): string | null {
  const m = /^[a-z][\w+.-]*:\/\/(.*)$/i.exec(url.trim())
  if (!m) return null
  let rest = m[1]
  const cut = URL_CUT_RE.exec(rest)
  if (cut) rest = rest.slice(0, rest.lastIndexOf('/', cut.index) + 1)
  rest = rest.replace(/\/+$/, '')
  const slash = rest.indexOf('/')
  if (slash < 0 || !/^[\w-]+(?:\.[\w-]+)+(?::\d+)?$/.test(rest.slice(0, slash))) return null
  return rest.length >= 15 ? rest : null
}

/**
 * An inline quote of a call or a template that may have left out the last argument's qualifier
 * (`_finalize(lg, [], [], mode)` for `_finalize(lg, [], [], args.mode)`, `pr:v6:${pathname}` for
 * `` `pr:v6:${url.pathname}` ``; blind set BO, both changed since): the text before that argument,
 * which a code line holds as it is, and the whole quote with a qualifier put back. Null for a
 * quote that is not one line of code ending in a bare name before `)` or `}`.
 */
export function elidedQualifier(
  code: string,
): { readonly prefix: string; readonly re: RegExp } | null {
  const q = code.trim()
  if (q.includes('\n') || q.length < 8 || q.length > 100) return null
  const m = /^(.*(?:\$\{|[(,]\s*))([A-Za-z_$][\w$]*)(\s*[)}].*)$/.exec(q)
  if (!m || m[1].length < 6 || !/[A-Za-z]{2}/.test(m[1])) return null
  const esc = (t: string): string => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return {
    prefix: m[1],
    re: new RegExp(`${esc(m[1])}(?:[A-Za-z_$][\\w$]*\\.)*${esc(m[2])}${esc(m[3])}`),
  }
}

/** `heimdex-worker-sdk==0.1.0`, `torch==2.3.1`: a Python package pinned to one version. */
const PINNED_RE =
  /(?<![\w.-])([A-Za-z][\w.-]*[A-Za-z0-9])==(\d+(?:\.\d+){1,3}(?:[a-z]+\d*)?)(?![\w.])/g

/**
 * The packages a note pins (`pip install "heimdex-worker-sdk==0.1.0"`, in prose or a fence), and
 * the messages it quotes by their start (`[hub] hook server listening on 127.0.0.1:...`): text a
 * requirements file, a Dockerfile or a log call holds (src/node/audit/prose-candidates.ts). Held
 * by a code line when the note was written and by none now, the pin moved or the message changed
 * (blind set EA hx-t01: the SDK pin bumped from 0.1.0 to 0.5.0; EF th-t01: a start-up line the
 * smoke test waits for, reworded).
 */
export function pinsAndMessages(text: string): string[] {
  const out = new Set([...text.matchAll(PINNED_RE)].map((m) => m[0]))
  const { prose } = cutFences(text)
  for (const s of findCodeSpans(prose)) {
    const m = ELIDED_MESSAGE_RE.exec(prose.slice(s.contentStart, s.contentEnd).trim())
    if (m && /\s/.test(m[1]) && /[A-Za-z]{3}/.test(m[1]) && !isCommandLine(m[1])) out.add(m[1])
  }
  return [...out]
}

/** A message's start, at least a dozen characters, and the elision that stands for the rest. */
const ELIDED_MESSAGE_RE = /^([^`]{12,}?)\s?(?:\.{3}|…)$/
