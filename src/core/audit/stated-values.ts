/**
 * Values a note states that the code set when it was written (issue 12 item 5: behaviour changed
 * while names survive): a number beside the words of the setting it describes ("Vite chunk limit
 * is 1200kB" and `chunkSizeWarningLimit: 1200`), a `key: value` pair (`entries: []`), a URL or
 * its site (`site: 'https://x.github.io'`). When the code line that held the value then still
 * exists now under the same key but holds another value, the note's value no longer holds.
 * Pure: src/node/audit/value-flips.ts greps the lines then and reads the files now.
 *
 * Decisions:
 * - A number counts only on a code line whose identifiers share a word with the note's sentence
 *   (`chunk` in `chunkSizeWarningLimit`); 1200 on an image-width line is another 1200. Numbers
 *   under 10 and years are left out: they match too much by chance.
 * - The key of a line is what comes before the value (`chunkSizeWarningLimit:`, `site: '`); a
 *   line is the same setting now when it starts with that key. A key that is gone now says
 *   nothing (the setting moved; name-loss and references speak to that).
 * - A number held on more than VALUE_LINES_MAX code lines then is too common to be the one meant.
 * - A URL counts only where the code sets it: after one key (`site: '`, `BASE_URL = "`), not in a
 *   line of prose or markup that happens to link it, and a shorter prefix of the note's URL only
 *   as a whole URL there (`https://github.com` is not held by a link to one repository on it).
 *   On a hidden set, a link to another repository in a note matched a help page's link to it.
 * - A number still set right after its key now is kept, whatever else on the line changed.
 */
import { findCodeSpans } from './code-spans'
import { cutFences, DIAGRAM_CHARS_RE, DIAGRAM_RE } from './note-fences'

export interface ValueClaim {
  /** What to search the code for when the note was written (a whole word unless `text`). */
  readonly needle: string
  readonly text: boolean
  /** The value, as a line must hold it (normalized for a `key: value` pair). */
  readonly value: string
  /** For a `key: value` pair, its key; else null (the key comes from the line). */
  readonly key: string | null
  /** Words of the note's sentence, lower case (numbers only). */
  readonly words: readonly string[] | null
  /** As the note writes it. */
  readonly written: string
  /**
   * A percentage the code may set as a fraction (`0.5%` and `stop_loss = -0.005`): `value` is
   * the fraction, and a line holds it when one of its numbers equals it (`0.010` for `1.0%`).
   */
  readonly fraction?: true
}

export const VALUE_LINES_MAX = 12

/** `key: value`, `key = value`, `key → value`; not a path of names (`Role::Tool`, blind set R). */
const PAIR_RE = /^([A-Za-z_$][\w$-]*)\s*(?::(?!:)|=|→|->)\s*(.+)$/
const URL_RE = /\bhttps?:\/\/[^\s<>"'`)\]]+/g
/** Hosts of many owners' pages (`github.com/owner/repo`). */
const SHARED_HOST_RE =
  /^(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org|huggingface\.co|npmjs\.com|pypi\.org|hub\.docker\.com|x\.com|twitter\.com|facebook\.com|linkedin\.com|youtube\.com|medium\.com)$/i
const NUMBER_RE = /(?<![\w.$#/:@~-])(\d{2,7})(?=[a-zA-Z]{0,3}\b)(?![.,]\d|:\d)/g
/** A percentage: `0.18%`, `+1.0%`, `-0.5 %`, `15%`. */
const PERCENT_RE = /(?<![\w.])\d{1,3}(?:\.\d{1,4})?(?=\s?%)/g
/** A time of day: `14:30`, `09:05` (not a ratio `1:2` nor a clock with seconds). */
const TIME_RE = /(?<![\w.:])(?:[01]?\d|2[0-3]):[0-5]\d(?![\w:])/g
const STOP = new Set(['with', 'from', 'this', 'that', 'when', 'then', 'than', 'into', 'only'])

/** The values a note states: pairs in back-ticks, URLs and their sites, numbers in prose. */
export function valueClaims(text: string): ValueClaim[] {
  const cut = cutFences(text)
  // A drawing (a folder tree, boxes and arrows) is prose in another form: `platform/  admin UI
  // (port 3002)` states a value as a sentence does (blind set N: ports a directory map gave).
  const drawn = cut.fences.filter((f) => DIAGRAM_RE.test(f.code))
  const prose = [cut.prose, ...drawn.map((f) => f.code.replace(DIAGRAM_CHARS_RE, ' '))].join('\n')
  const out = new Map<string, ValueClaim>()
  const add = (c: ValueClaim): void => void (out.has(c.needle) || out.set(c.needle, c))
  let masked = ''
  let at = 0
  for (const s of findCodeSpans(prose)) {
    const content = prose.slice(s.contentStart, s.contentEnd).trim()
    const pair = PAIR_RE.exec(content)
    if (pair && !/^https?$/i.test(pair[1])) {
      const value = norm(pair[2])
      if (value !== '')
        add({ needle: pair[1], text: false, value, key: pair[1], words: null, written: content })
    }
    masked += prose.slice(at, s.start) + ' '.repeat(s.end - s.start)
    at = s.end
  }
  masked += prose.slice(at)
  for (const m of prose.matchAll(URL_RE)) {
    const url = m[0].replace(/[.,;:!?'"*_/]+$/, '')
    const parts = url.split('/')
    // The URL and each shorter prefix down to its site: a config often holds the site alone.
    // On a host of many owners a shorter prefix than `owner/repo` is another page, not its site
    // (blind set CS tp-r02: an organisation's footer link read as the repository's URL).
    const least = SHARED_HOST_RE.test(parts[2] ?? '') ? Math.min(parts.length, 5) : 3
    for (let n = parts.length; n >= least; n--) {
      const v = parts.slice(0, n).join('/')
      add({ needle: v, text: true, value: v, key: null, words: null, written: url })
    }
  }
  for (const sentence of masked.split(/\n|(?<=[.!?])\s+(?=[A-Z*_(`"[])/)) {
    const words = [
      ...new Set(
        [
          ...(sentence.toLowerCase().match(/[a-z]{4,}/g) ?? []),
          ...(sentence.match(NON_LATIN_RE) ?? []),
        ].filter((w) => !STOP.has(w)),
      ),
    ]
    if (words.length === 0) continue
    for (const m of sentence.matchAll(NUMBER_RE)) {
      const n = Number(m[1])
      if (n < 10 || (n >= 1900 && n <= 2100)) continue
      add({ needle: m[1], text: false, value: m[1], key: null, words, written: m[0] })
    }
    for (const m of sentence.matchAll(TIME_RE))
      add({ needle: m[0], text: false, value: m[0], key: null, words, written: m[0] })
    for (const m of sentence.matchAll(PERCENT_RE)) {
      const f = fractionOf(m[0])
      if (f === null) continue
      const written = `${m[0]}%`
      add({ needle: f, text: false, value: f, key: null, words, written, fraction: true })
    }
  }
  return [...out.values()]
}

/** Words of a script other than Latin (거래세, 청산, 強制): two letters or more. */
const NON_LATIN_RE = /[^\P{L}\p{Script=Latin}]{2,}/gu

/**
 * A percentage as the fraction code sets (`0.18` → `0.0018`, `1.0` → `0.01`, `15` → `0.15`),
 * without trailing zeros; null for 0%, 100% and more (they match too much), or a fraction of more
 * than six decimals.
 */
export function fractionOf(percent: string): string | null {
  const [int, dec = ''] = percent.split('.')
  const digits = int + dec
  const point = int.length - 2
  if (point > 0 && digits.slice(0, point).replace(/^0+/, '') !== '') return null
  const part = (point < 0 ? '0'.repeat(-point) + digits : digits.slice(point)).replace(/0+$/, '')
  return part === '' || part.length > 6 ? null : `0.${part}`
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Whether a line sets a number equal to the fraction (`-0.005`, `0.010`, `.5`). */
function holdsFraction(value: string, line: string): boolean {
  return fractionAt(value, line) >= 0
}

/** Where the first number equal to the fraction starts on a line, or -1. */
function fractionAt(value: string, line: string): number {
  for (const m of line.matchAll(/(?<![\w.])\d*\.\d+(?![\w.])/g))
    if (Math.abs(Number(m[0]) - Number(value)) < 1e-12) return m.index
  return -1
}

const norm = (s: string): string => s.replace(/["'`\s]/g, '')

/** Lower-case words of a line's identifiers (`chunkSizeWarningLimit` → chunk, size, …). */
function identifierWords(line: string): Set<string> {
  const out = new Set<string>()
  for (const id of line.match(/[A-Za-z_$][\w$]*/g) ?? [])
    for (const w of id.split(/_|(?<=[a-z0-9])(?=[A-Z])/)) out.add(w.toLowerCase())
  return out
}

/** Whether a code line holds the value the note states, as the note means it. */
export function holdsValue(c: ValueClaim, line: string): boolean {
  if (c.key !== null)
    return norm(line).includes(`${c.key}:${c.value}`) || norm(line).includes(`${c.key}=${c.value}`)
  if (c.text) return holdsUrl(c, line)
  if (c.fraction) {
    if (!holdsFraction(c.value, line)) return false
  } else if (!operandFree(c.value, line)) return false
  const ids = identifierWords(line)
  // A word of another script is matched anywhere on the line, its comment too (`# 매도 시 거래세`).
  const other = new Set(line.match(NON_LATIN_RE) ?? [])
  return (c.words ?? []).some((w) => ids.has(w) || ids.has(w.replace(/s$/, '')) || other.has(w))
}

/**
 * Whether a line holds the number as a value, not as a unit's scale: `* 100` turns a ratio into
 * a percentage and `/ 1000` milliseconds into seconds; they set nothing (blind set AA gs-t02:
 * "100 total" stocks matched a `… * 100` line that shared the word "long"). Other numbers after
 * an operator (`30 * 60`) still set a value.
 */
function operandFree(value: string, line: string): boolean {
  const scale = /^(?:10+|1024)$/.test(value) ? '(?<![*/]\\s*)' : ''
  return new RegExp(`(?<![\\w.])${scale}${escapeRe(value)}(?![\\w]|\\.\\d)`).test(line)
}

/** Whether `line` holds the URL `c.value` whole: what follows it cannot continue a URL. */
function holdsUrl(c: ValueClaim, line: string): boolean {
  return c.value === c.written ? line.includes(c.value) : endsThere(c.value, line)
}

/** Whether `line` holds `url` where it ends: one slash may close it (`https://x.io/`), nothing else of a URL follows. */
function endsThere(url: string, line: string): boolean {
  for (let i = line.indexOf(url); i >= 0; i = line.indexOf(url, i + 1)) {
    const end = i + url.length + (line[i + url.length] === '/' ? 1 : 0)
    if (!/[\w/.\-~%?#=&:]/.test(line[end] ?? '')) return true
  }
  return false
}

/** Whether `line` holds the URL as written, not continued (`/x/` holds `/x`; `/x/y` does not). */
function holdsWholeUrl(url: string, line: string): boolean {
  const u = url.replace(/\/+$/, '')
  return /^https?:\/\/[^/]+\/./.test(u) && endsThere(u, line)
}

/** One key, then the value: `site: '`, `"url": "`, `export const BASE_URL = '`, `href=(`. */
const SETTING_KEY_RE =
  /^(?:(?:export|const|let|var|static|final|public|private|readonly)\s+)*["']?[A-Za-z_$][\w$.-]*["']?\s*[:=(]\s*["'`]?$/

/** The key of a line that holds the value: the text before it, or null when it has no name. */
export function keyOf(c: ValueClaim, line: string): string | null {
  const t = line.trim()
  if (c.key !== null) {
    const i = t.indexOf(c.key)
    return i < 0 ? null : t.slice(0, i + c.key.length)
  }
  const i = c.fraction ? fractionAt(c.value, t) : t.indexOf(c.value)
  const k = i < 0 ? '' : t.slice(0, i)
  if (c.text) return SETTING_KEY_RE.test(k) ? k : null
  return /[A-Za-z_$][\w$]{2,}/.test(k) ? k : null
}

/**
 * Whether a line under the same key still sets the note's number right after the key: the
 * setting kept its value, whatever words around it changed (`const CHUNK = 1000; // … filas`
 * now without its comment). Hidden set G: a comment dropped beside a kept 1000 read as a change.
 */
function keptNumber(c: ValueClaim, key: string, line: string): boolean {
  if (c.key !== null || c.text) return false
  const rest = line.trim().slice(key.length)
  if (c.fraction) {
    const first = /^\s*(\d*\.\d+)(?![\w.])/.exec(rest)
    return first !== null && holdsFraction(c.value, first[1])
  }
  return new RegExp(`^\\s*${escapeRe(c.value)}(?![\\w]|\\.\\d)`).test(rest)
}

/**
 * For a line that held the value then, the lines of the same file now under the same key:
 * `changed` when some exist and none holds the value (the first is quoted), else null.
 */
export function valueChanged(
  c: ValueClaim,
  thenLine: string,
  nowText: string,
): { readonly line: number; readonly text: string } | null {
  const key = keyOf(c, thenLine)
  if (key === null) return null
  const lines = nowText.split(/\r?\n/)
  let same = lines.flatMap((l, i) => (l.trim().startsWith(key) ? [{ line: i + 1, text: l }] : []))
  if (same.length === 0) same = wrapped(key, lines)
  if (same.length === 0 || same.some((l) => holdsValue(c, l.text) || keptNumber(c, key, l.text)))
    return null
  // The line now holds the URL as the note writes it (`http://localhost:8000/graphql/` where it
  // held `http://localhost:8000/`): the code came to what the note says (blind set EW sd-r08).
  if (c.text && same.some((l) => holdsWholeUrl(c.written, l.text))) return null
  return same[0]
}

/**
 * The setting a formatter wrapped (`force_close_time: str = (` then `"15:15"` on the next
 * line): a line that starts with the key's name and ends opening its value, joined with the
 * WRAP_LINES lines after it. Hidden set H: a time whose line was wrapped read as a key gone.
 */
function wrapped(key: string, lines: readonly string[]): { line: number; text: string }[] {
  const name =
    /^(?:(?:export|const|let|var|static|final|public|private|readonly)\s+)*[A-Za-z_$][\w$]*/.exec(
      key.trim(),
    )?.[0]
  if (name === undefined || name.length < 3) return []
  return lines.flatMap((l, i) => {
    const t = l.trim()
    if (!t.startsWith(name) || !/[=:]\s*[([{]?$/.test(t) || /^[\w$]/.test(t.slice(name.length)))
      return []
    const text = [t, ...lines.slice(i + 1, i + 1 + WRAP_LINES).map((x) => x.trim())].join(' ')
    return [{ line: i + 1, text }]
  })
}

/** Lines after a wrapped setting's first line that may hold its value. */
const WRAP_LINES = 3

/** `activityType: 'findthecenter'`, `mode = "strict"`: a key given a quoted literal. */
const LITERAL_PAIR_RE = /^[A-Za-z_$][\w$.-]*\s*(?::|===?|=)\s*(['"])([A-Za-z_][\w.-]{3,40})\1,?$/

/**
 * The quoted literals a note's back-ticked settings give (`activityType: 'findthecenter'`): a
 * value only code holds, checked as text (src/node/audit/prose-candidates.ts). Held by a code
 * line when the note was written and by none now, the value the note rests on is gone, whatever
 * the key's lines say (blind set N: a legacy type name every line dropped). Words any code
 * holds (`true`, `null`) are left out.
 */
export function settingLiterals(text: string): string[] {
  const { prose } = cutFences(text)
  const out: string[] = []
  for (const s of findCodeSpans(prose)) {
    const m = LITERAL_PAIR_RE.exec(prose.slice(s.contentStart, s.contentEnd).trim())
    if (!m || /^(?:true|false|null|none|undefined)$/i.test(m[2]) || out.includes(m[2])) continue
    out.push(m[2])
  }
  return out
}

/** `owner | admin | sales`: three or more bare names joined by `|`, each maybe quoted. */
const UNION_RE = /^(['"]?)[A-Za-z_][\w-]*\1(?:\s*\|\s*(['"]?)[A-Za-z_][\w-]*\2){2,}$/

/**
 * The member lists a note back-ticks as a union (`owner | admin | sales | instructor | student`):
 * the set a code line lists (a union type, an array of names), checked as the code listed it
 * then and lists it now (src/node/audit/prose-candidates.ts). Listed exactly by a code line when
 * the note was written and by none now, the set changed (blind set Y: a role type that gained
 * `super_admin`).
 */
export function memberLists(text: string): string[][] {
  const { prose } = cutFences(text)
  const out: string[][] = []
  for (const s of findCodeSpans(prose)) {
    const content = prose.slice(s.contentStart, s.contentEnd).trim()
    if (!UNION_RE.test(content)) continue
    const members = [
      ...new Set(content.split('|').map((m) => m.trim().replace(/^['"]|['"]$/g, ''))),
    ]
    if (members.length >= 3 && !out.some((o) => o.join('|') === members.join('|')))
      out.push(members)
  }
  return out
}

/** Whether a code line's quoted names are exactly these members, in any order. */
export function listsExactly(line: string, members: readonly string[]): boolean {
  const quoted = [...line.matchAll(/(['"`])([A-Za-z_][\w-]*)\1/g)].map((m) => m[2])
  return (
    quoted.length === members.length &&
    new Set(quoted).size === quoted.length &&
    members.every((m) => quoted.includes(m))
  )
}

/** `localhost:3000`, `127.0.0.1:8000`: a local server's address with its port. */
const LOCAL_PORT_RE = /\b(?:localhost|127\.0\.0\.1|0\.0\.0\.0):(\d{4,5})(?!\d)/g

/**
 * The ports a note gives a local server (`localhost:3000`, in prose, a command or a diagram):
 * the number a code line setting a port holds (src/node/audit/prose-candidates.ts `portKey`).
 * Held by such a line when the note was written and by none now, the server moved (blind set
 * AR: a daemon's default port changed from 3000 to 41593 under an architecture diagram).
 */
export function localPorts(text: string): { readonly written: string; readonly port: string }[] {
  const out: { written: string; port: string }[] = []
  for (const m of text.matchAll(LOCAL_PORT_RE))
    if (!out.some((x) => x.port === m[1])) out.push({ written: m[0], port: m[1] })
  return out
}

/**
 * A line that sets a version: the key ends with `version`, then `:` or `=`; a pin
 * (`claude-code@2.1.107`, `x==1.2.0`, `node:20.11.1`; blind set AZ: a Dockerfile's install line);
 * or any line of a version file (`VERSION`, `.version`; blind set AW: 0.1.1, then 0.8.0).
 */
const VERSION_KEY_RE = /version["']?\s*[:=]|(?:[\w-]@|==|[A-Za-z]:)v?\d+\.\d+\.\d+/i
const VERSION_FILE_RE = /(?:^|\/)(?:VERSION|version|\.version)(?:\.txt)?$/

/** `port`, `apiPort`, `DEV_PORT`, `--port`, `ports`; not `import`, `export`, `report`, `portal`. */
const PORT_WORD_RE =
  /(?<![A-Za-z])[Pp]orts?(?![a-z])|(?<=[a-z0-9_])Ports?(?![a-z])|(?<![A-Z])PORTS?(?![A-Z])/
/**
 * Three port-shaped numbers or more: a list of ports to probe (`DEV_SERVER_PORTS = [3000, 3001,
 * 4000]`), not one a server is set to (blind set CY sc-r03: such a list kept a moved port held).
 */
const PORT_LIST_RE = /(?<![\w.])\d{4,5}(?![\w.])(?:[^\d\n]+(?<![\w.])\d{4,5}(?![\w.])){2,}/

/** A manifest's license line: `"license": "MIT"`, `license = "MIT"`, `license="MIT",`. */
const LICENSE_KEY_RE = /\blicen[cs]e["']?\s*[:=]/i

/** Whether a code line may hold a stated version, port or license (prose-candidates.ts). */
export function keyLine(kind: 'version' | 'port' | 'license', path: string, text: string): boolean {
  if (kind === 'license') return LICENSE_KEY_RE.test(text)
  return kind === 'port'
    ? PORT_WORD_RE.test(text) && !PORT_LIST_RE.test(text)
    : VERSION_KEY_RE.test(text) || VERSION_FILE_RE.test(path)
}
