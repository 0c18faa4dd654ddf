/**
 * What a changed code line changed, when it is not what a note says (src/core/audit/name-loss.ts
 * uses these to keep a line that only changed so): a version literal a release bumps, an access
 * modifier. Pure.
 */
import { modernTyping } from './python-typing'

/** A line trimmed, runs of blanks as one, Python's hints in today's spelling (python-typing.ts). */
export const norm = (s: string): string => modernTyping(s.trim().replace(/\s+/g, ' '))

/** A string literal (no interpolation) or a number, with its content. */
const LITERAL_RE = /'([^'\\\n]*)'|"([^"\\\n]*)"|`([^`$\\\n]*)`|(?<![\w$.])(\d+(?:\.\d+)*)(?![\w$])/g

/** A line with its literals blanked, and the literals' contents. */
function literalsOf(text: string): { shape: string; values: string[] } {
  const values: string[] = []
  const shape = norm(text).replace(LITERAL_RE, (m, a, b, c, d) => {
    values.push(a ?? b ?? c ?? d)
    return /^\d/.test(m) ? '0' : `${m[0]}${m[0]}`
  })
  return { shape, values }
}

/** A version as a release writes it: `2.2.464`, `v1.4`, `1.0.0-beta.2`. */
const VERSION = /^v?\d+(?:\.\d+){1,3}(?:[-+][\w.]+)?$/

/**
 * Whether `now` is `then` with only version literals changed (see the decisions above), and the
 * note writes none of then's changed literals (as a whole word of its text).
 */
export function literalsOnly(then: string, now: string, noteText: string): boolean {
  const a = literalsOf(then)
  const b = literalsOf(now)
  if (a.shape !== b.shape || a.values.length === 0) return false
  const pairs = a.values.map((v, i) => [v, b.values[i] ?? ''] as const).filter(([x, y]) => x !== y)
  if (pairs.length === 0 || !pairs.every(([x, y]) => VERSION.test(x) && VERSION.test(y)))
    return false
  const changed = pairs.map(([x]) => x)
  const esc = (v: string): string => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return !changed.some((v) => new RegExp(`(?<![\\w.])${esc(v)}(?![\\w]|\\.\\d)`).test(noteText))
}

/** An access modifier: `private`, `public`, `fileprivate(set)`, `export`. */
const ACCESS_RE =
  /\b(?:private|public|internal|fileprivate|protected|open|export)\b(?:\s*\(\s*set\s*\))?\s*/g

/**
 * Whether `now` is `then` with only access modifiers changed (`private(set) var selectedSession`
 * → `var selectedSession`), and the note writes none of them: who may call a name is not what a
 * note about what it does says. Hidden set K: a Swift property made settable read as suspect.
 */
export function accessOnly(then: string, now: string, noteText: string): boolean {
  const a = norm(then)
  const b = norm(now)
  if (a === b) return false
  const bare = (s: string): string => s.replace(ACCESS_RE, '').trim()
  if (bare(a) !== bare(b)) return false
  const changed = [...a.matchAll(ACCESS_RE), ...b.matchAll(ACCESS_RE)].map((m) => m[0].trim())
  return !changed.some((m) => new RegExp(`\\b${m.replace(/[()]/g, '\\$&')}`).test(noteText))
}

/** A setting's line: `key: value`, `"key:sub": value,`, `key = value`, `- key: value`. */
const SETTING_RE =
  /^(?:-\s+)?(?:"([^"]+)"|'([^']+)'|([A-Za-z_$][\w$.-]*))\s*(?::(?!:)|=(?![=>~]))\s*(.*?)[,;]?$/

/** The key and the value of a setting's line; null when it is not one. */
function settingOf(line: string): { key: string; value: string } | null {
  const m = SETTING_RE.exec(norm(line))
  return m ? { key: m[1] ?? m[2] ?? m[3], value: m[4].replace(/^["'`]|["'`]$/g, '').trim() } : null
}

/**
 * A key-value line as what it sets, whatever its syntax: `QYL_PORT: 5100` in a compose map, `-
 * QYL_PORT=5100` in its list form and `QYL_PORT: '5100',` in a script's object set one thing
 * (blind set BQ: an environment variable whose compose file moved, read as changed). Any other
 * line is only normed.
 */
export function settingText(line: string): string {
  // A constant restated with `export` or other quotes (`const X = "a";` → `export const X = 'a';`
  // in the file it moved to) sets the same (blind set BV).
  const s = settingOf(
    line.replace(/^\s*(?:export\s+)?(?:const|let|var|val|final)\s+(?=[\w$]+\s*=)/, ''),
  )
  return s ? `${s.key}=${s.value}` : norm(line)
}

/** An env file's template (`.env.example`, `env.template`, `deploy/.env.sample`): its values are placeholders. */
export function isEnvTemplate(file: string): boolean {
  return /(?:^|\/)(?:[\w.-]*\.)?env(?:\.[\w-]+)*\.(?:example|sample|template|dist)$/i.test(file)
}

/**
 * The key an env template's line sets (`GOOGLE_API_KEY=your-key`), null on another file's line:
 * a template gives a placeholder, so only its key is what it says (blind set BT: a key whose
 * `.env.example` was deleted, set by two other templates now, read as changed).
 */
export function templateKey(line: { readonly file: string; readonly text: string }): string | null {
  return isEnvTemplate(line.file) ? (settingOf(line.text)?.key ?? null) : null
}

/**
 * A manifest whose keys are commands a note runs (`"test": "vitest run"` in package.json): what
 * the command does is what the note says of it (`pnpm test # Run tests (Node.js)`), so a new
 * command under the same name is a change for the note (visible set: two stale notes).
 */
export function isScriptManifest(file: string): boolean {
  return /(?:^|\/)package\.json$/.test(file)
}

/**
 * Whether `now` is `then` with only the value of the setting `name` changed (`legal_basis:
 * "Art 63"` → `legal_basis:` with a list below, `timeout = 30` → `timeout = 60`), and the note
 * writes none of then's value: a note that names a key says it exists, and it still does (a
 * command's key is not such a key: isScriptManifest). A value the note writes is its claim
 * (stated-values.ts checks those). Blind set M: a schema key whose value became a list read as
 * suspect.
 */
export function valueOnly(then: string, now: string, name: string, noteText: string): boolean {
  const a = settingOf(then)
  const b = settingOf(now)
  if (!a || !b || a.key !== b.key || a.value === b.value) return false
  if (a.key !== name && !a.key.endsWith(`.${name}`) && !a.key.startsWith(`${name}:`)) return false
  return a.value === '' || !noteText.includes(a.value)
}

/**
 * Whether `now` keeps `then`'s call of `name` as it was, passed on to something else: both lines
 * hand the call (`new MapChunkPacketV573(`, `render(frame, area)`) as an argument or element, and
 * from the name to the end of the line they are the same; only the outer call changed
 * (`player.sendPacket(new X(` → `collected.add(new X(`). What the code does with a name's result
 * is not what a note about the name says. Blind set P: classes a refactor batched, read as
 * suspect. A call that stands alone (`clearResumeState();` → `await clearResumeState();`) is not
 * such a line.
 */
export function callPassedOn(then: string, now: string, name: string): boolean {
  const a = callOf(norm(then), name)
  const b = callOf(norm(now), name)
  return a !== null && b !== null && a.call === b.call && a.nested && b.nested
}

/** A name bound to a value: `const x = v;`, `x = v`, `x: v,` (a declaration, an assignment, a key). */
const BINDING_RE =
  /^(?:(?:export\s+)?(?:const|let|var|val|final)\s+)?([A-Za-z_$][\w$]*)\s*(?::(?!:)|=(?![=>]))\s*(.+?)\s*[,;]?$/

/**
 * Whether `now` binds `name` to the same value as `then` in another form (`const maxTurns =
 * core.getInput('max-turns');` → `maxTurns: core.getInput('max-turns'),`): a local folded into an
 * object, a key made a variable. The name still gets what it got. Blind set R.
 */
export function boundAnew(then: string, now: string, name: string): boolean {
  const a = BINDING_RE.exec(norm(then))
  const b = BINDING_RE.exec(norm(now))
  return !!a && !!b && a[1] === name && b[1] === name && a[2] === b[2] && norm(then) !== norm(now)
}

/** A line that still uses the name as it did: its call passed on (a use), or its value bound anew. */
export const sameUse = (then: string, now: string, name: string, defined: boolean): boolean =>
  (!defined && callPassedOn(then, now, name)) || boundAnew(then, now, name)

/**
 * Whether a lost line's use of the name is still made: in its own file, passed on or bound anew
 * ({@link sameUse}); or, when its file holds the name on no other line now and the note does not
 * name that file, made the same way in another file, the same text through the name
 * (`OutValidation.Add(TEXT("asset_in_registry"), …`, now in the one builder that replaced a builder
 * per type: blind set X uc-r04). A definition is never such a use: moved out, it is lost; nor is
 * the same file moved to another folder, whose line is compared as its own (visible set
 * os-fog-slider: a call whose argument changed as its file moved).
 */
export function keptUse(
  line: { readonly file: string; readonly text: string },
  here: readonly { readonly text: string }[],
  elsewhere: readonly { readonly file: string; readonly text: string }[],
  use: {
    readonly name: string
    readonly defined: boolean
    readonly named: boolean
    /** The note's text: a word it writes that the line lost is its claim (argumentKept). */
    readonly noteText?: string
  },
): boolean {
  const { name, defined } = use
  const then = line.text
  const kept = (now: string): boolean =>
    !defined && argumentKept(then, now, name, use.noteText ?? '')
  if (here.some((x) => sameUse(then, x.text, name, defined) || kept(x.text))) return true
  if (defined || use.named || here.length > 0 || name.length < 4) return false
  // A file of the same name is the file moved (`src/ui/x.tsx` → `apps/web/src/ui/x.tsx`), not another.
  const base = (f: string): string => f.slice(f.lastIndexOf('/') + 1)
  const other = elsewhere.filter((x) => base(x.file) !== base(line.file))
  if (other.some((x) => kept(x.text))) return true
  const a = norm(then)
  const i = a.indexOf(name)
  // The name as an argument (a key passed to a call), not the callee: `describe.skipIf(` is made
  // the same way by every test file.
  if (i < 8 || !a.slice(0, i).includes('(')) return false
  const through = a.slice(0, i + name.length)
  return other.some((x) => {
    const b = norm(x.text)
    const j = b.indexOf(name)
    return j >= 0 && b.slice(0, j + name.length) === through
  })
}

/** From the name's call (with `new` and a qualifier) to the end of the line; whether it is nested. */
function callOf(line: string, name: string): { call: string; nested: boolean } | null {
  if (name === '') return null
  const esc = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const m = new RegExp(
    `(?:\\bnew\\s+)?(?:[A-Za-z_$][\\w$]*\\s*\\.\\s*)*(?<![\\w$])${esc}\\s*\\(`,
  ).exec(line)
  if (!m) return null
  return { call: line.slice(m.index), nested: /[(,[{]\s*$/.test(line.slice(0, m.index)) }
}

/** A line's tokens: identifiers, numbers, and each other character but blanks. */
const TOKEN_RE = /[A-Za-z_$][\w$]*|\d+|\S/g

/**
 * Whether `now` is `then` with one local name renamed (`writeInt(data, id)` → `writeInt(buf,
 * id)`): one token differs, a lower-case identifier on both sides, not a property (`.data`), a
 * key (`data:`) nor the name itself, and the note does not write the old one. A variable's new
 * name is not a new behaviour of the call. Blind set P.
 */
export function localRenamed(then: string, now: string, name: string, noteText: string): boolean {
  const a = norm(then).match(TOKEN_RE) ?? []
  const b = norm(now).match(TOKEN_RE) ?? []
  if (a.length !== b.length) return false
  const diff = a.flatMap((t, i) => (t === b[i] ? [] : [i]))
  if (diff.length !== 1) return false
  const i = diff[0]
  const own = new Set(name.split('.'))
  const local = (t: string): boolean => /^[a-z_][\w$]*$/.test(t) && !own.has(t)
  if (!local(a[i]) || !local(b[i]) || a[i - 1] === '.' || a[i + 1] === ':') return false
  return !new RegExp(`(?<![\\w$])${a[i].replace(/\$/g, '\\$')}(?![\\w$])`).test(noteText)
}

/** Brackets a name's own phrase may carry after it: a call, an index, generic arguments. */
const CLOSE: Readonly<Record<string, string>> = { '(': ')', '[': ']', '<': '>' }

/**
 * Where a name stands in a line's tokens as an argument: its first token (not a member of
 * something else) inside an open bracket, and the end of its own phrase (its member chain, call,
 * index or generic arguments, balanced). Null: absent, or the line's head (a callee, a statement).
 */
function argumentAt(
  t: readonly string[],
  name: readonly string[],
): { s: number; e: number } | null {
  for (let s = 0; s + name.length <= t.length; s++) {
    // A name in quotes is a key whose other arguments are its value (`Add(TEXT("key"), v)`).
    if (name.some((w, k) => t[s + k] !== w) || /^[.'"`]$/.test(t[s - 1] ?? '')) continue
    let depth = 0
    for (const x of t.slice(0, s))
      depth +=
        x === '(' || x === '[' || x === '{' ? 1 : x === ')' || x === ']' || x === '}' ? -1 : 0
    if (depth <= 0 && t[s - 1] !== '<') continue
    let e = s + name.length
    for (;;) {
      if (t[e] === '.' && /^[A-Za-z_$]/.test(t[e + 1] ?? '')) e += 2
      else if (
        t[e] !== undefined &&
        CLOSE[t[e]] !== undefined &&
        (t[e] !== '<' || e === s + name.length)
      ) {
        const open = t[e]
        let d = 0
        let j = e
        for (; j < t.length; j++) {
          d += t[j] === open ? 1 : t[j] === CLOSE[open] ? -1 : 0
          if (d === 0) break
        }
        if (j === t.length) return null
        e = j + 1
      } else break
    }
    return s >= 1 ? { s, e } : null
  }
  return null
}

/**
 * Whether `now` still passes the name as `then` passed it, as an argument of something the line
 * changed around it (`reinforce(decision.target_id, boost=scoring.INTERACTION_BOOST["create"])` →
 * `reinforce(target_id, boost=…)`; `builder.Services.AddExceptionHandler<GlobalExceptionHandler>()`
 * → `services.AddExceptionHandler<…>()`): the name's own phrase (its call, index or generic
 * arguments) is the same, with the token before it (and the key before a `=`) and the one after, and the note writes
 * no word the line lost. The caller's other arguments are not what a note about the name says.
 * Blind sets AF and AG: four fresh notes called suspect.
 */
export function argumentKept(then: string, now: string, name: string, noteText: string): boolean {
  const a = norm(then).match(TOKEN_RE) ?? []
  const b = norm(now).match(TOKEN_RE) ?? []
  const n = name.match(TOKEN_RE) ?? []
  const at = n.length > 0 && norm(then) !== norm(now) ? argumentAt(a, n) : null
  if (at === null) return false
  // The token before the name, and the key or generic owner before a `=`, `:` or `<`.
  const from = (t: readonly string[], s: number): number =>
    /^[=:<]$/.test(t[s - 1]) ? s - 2 : s - 1
  const phrase = a.slice(from(a, at.s), at.e + 1).join(' ')
  const there = argumentAt(b, n)
  if (there === null || b.slice(from(b, there.s), there.e + 1).join(' ') !== phrase) return false
  const kept = new Set(b)
  const lost = a.filter((w) => /^[A-Za-z_$][\w$]{2,}$/.test(w) && !kept.has(w))
  return !lost.some((w) =>
    new RegExp(`(?<![\\w$])${w.replace(/\$/g, '\\$')}(?![\\w$])`).test(noteText),
  )
}

/** Code without its layout: no whitespace, no trailing comma before a closing bracket. */
const layoutFree = (s: string): string =>
  modernTyping(s)
    .replace(/\s+/g, '')
    .replace(/,(?=[)\]}>])/g, '')

/**
 * Whether a line as it was is the same code now, only wrapped over several lines or re-spaced
 * (a formatter's work): its text without layout lies within the lines around `line` (1-based)
 * of the file now, also without layout. A reflow changes no behaviour (set A: a `<link … />`
 * split over five lines made a fresh note suspect).
 */
export function reflowed(then: string, nowText: string, line: number, around = 12): boolean {
  const key = layoutFree(then)
  if (key.length < 8) return false
  const lines = nowText.split(/\r?\n/)
  const from = Math.max(0, line - 1 - around)
  return layoutFree(lines.slice(from, line + around).join('\n')).includes(key)
}

/**
 * Whether a line defines a name (`class X`, `def X`, `X = `, `X: `, `private void X(`, a method
 * `X(a, b) {`). A line that starts by calling it (`Failure([:timeout, msg])`, a Ruby return
 * value) does not: hidden set I, a monad's `Failure(…)` read as defined in a gateway.
 */
export function defines(text: string, name: string): boolean {
  const n = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  // `world_config: world_config,` passes a local on under its own name (blind set AH); any
  // `client_id: userId,` or `Path = x,` gives a field its value in a literal or an initializer
  // (blind sets BQ and BR: a use in a busy repository's form read as a definition).
  if (new RegExp(`^\\s*${n}\\s*:\\s*${n}\\s*,?\\s*$`).test(text)) return false
  if (new RegExp(`^\\s*${n}\\s*(?::(?!:)|=(?![=>]))\\s*\\S.*,\\s*$`).test(text)) return false
  return new RegExp(
    `\\b(?:class|def|function|func|fn|interface|type|struct|enum|trait|module|protocol|object|const|let|var|val)\\s+${n}\\b|^\\s*(?:export\\s+)?${n}\\s*[:=]|^\\s*(?:export\\s+)?${n}\\s*\\([^)]*\\)[^;{]*\\{\\s*$|\\b(?:public|private|protected|internal|static|override|virtual|async|void|fun)\\b[^=;]*\\b${n}\\s*[(<]`,
  ).test(text)
}

/**
 * The lines around a changed line that show what it belongs to (item 5: the enclosing
 * function or lines): from the nearest less indented line above (its header) down to where
 * that block closes, at most `max` lines (else `around` lines either side of it). 1-based.
 */
export function enclosingBlock(
  text: string,
  line: number,
  max = 40,
  around = 8,
): readonly [number, number] {
  const lines = text.split(/\r?\n/)
  const n = Math.min(Math.max(line, 1), Math.max(lines.length, 1))
  const indent = (s: string): number => {
    const m = /^[ \t]*/.exec(s)?.[0] ?? ''
    return m.replace(/\t/g, '    ').length
  }
  const blank = (i: number): boolean => (lines[i - 1] ?? '').trim() === ''
  const own = indent(lines[n - 1] ?? '')
  let start = n
  if (own > 0)
    for (let i = n - 1; i >= 1; i--)
      if (!blank(i) && indent(lines[i - 1]) < own) {
        start = i
        break
      }
  const head = indent(lines[start - 1] ?? '')
  let end = n
  for (let i = Math.max(n, start) + 1; i <= lines.length; i++) {
    if (blank(i)) continue
    if (indent(lines[i - 1]) <= head) {
      // The line that closes the block (`}`, `end`, `)`) belongs to it.
      if (/^[\s]*(?:[}\])]|end\b)/.test(lines[i - 1])) end = i
      break
    }
    end = i
  }
  // A statement on its own (top level, one line): the lines around it.
  if (end - start < 2) return [Math.max(1, n - 3), Math.min(lines.length, n + 3)]
  if (end - start + 1 <= max) return [start, end]
  return [Math.max(start, n - around), Math.min(end, n + around)]
}
