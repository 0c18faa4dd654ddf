/**
 * What a changed code line changed, when it is not what a note says (src/core/audit/name-loss.ts
 * uses these to keep a line that only changed so): a version literal a release bumps, an access
 * modifier. Pure.
 */

/** A line trimmed, runs of blanks as one. */
export const norm = (s: string): string => s.trim().replace(/\s+/g, ' ')

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
  use: { readonly name: string; readonly defined: boolean; readonly named: boolean },
): boolean {
  const { name, defined } = use
  const then = line.text
  if (here.some((x) => sameUse(then, x.text, name, defined))) return true
  if (defined || use.named || here.length > 0 || name.length < 4) return false
  const a = norm(then)
  const i = a.indexOf(name)
  // The name as an argument (a key passed to a call), not the callee: `describe.skipIf(` is made
  // the same way by every test file.
  if (i < 8 || !a.slice(0, i).includes('(')) return false
  const through = a.slice(0, i + name.length)
  // A file of the same name is the file moved (`src/ui/x.tsx` → `apps/web/src/ui/x.tsx`), not another.
  const base = (f: string): string => f.slice(f.lastIndexOf('/') + 1)
  return elsewhere.some((x) => {
    if (base(x.file) === base(line.file)) return false
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
