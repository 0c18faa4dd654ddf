/**
 * Values a note states that a code line set when it was written and sets otherwise now
 * (src/core/audit/stated-values.ts): one `git grep` over the notes' commits finds the lines
 * then; the files now are read from HEAD; one `git log -S` per changed value names the commit.
 * Defaults a note gives a named setting (src/core/audit/stated-defaults.ts) ride on the same
 * grep; one more over HEAD, for their names only, finds the files that hold them now.
 */
import { isCommentLine, isTestFile, type CodeLine } from '../../core/audit/name-loss'
import { day, short, tick } from '../../core/audit/reason-text'
import {
  holdsValue,
  valueChanged,
  valueClaims,
  VALUE_LINES_MAX,
  type ValueClaim,
} from '../../core/audit/stated-values'
import { defaultClaims, setsDefault, type DefaultClaim } from '../../core/audit/stated-defaults'
import { showAt } from '../git/history'
import { runGit } from '../git/run'
import { grepTrees, key, type Found } from './tree-grep'
import type { Needle } from './pickaxe'

const SHOW_MAX_BYTES = 2 * 1024 * 1024
const GIT_TIMEOUT_MS = 30_000

const needleOf = (c: ValueClaim): Needle => ({
  kind: c.text || c.fraction ? 'text' : 'word',
  text: c.needle,
})

/** For each note (its text and the commit it was written on), the values that changed since. */
export async function valueFlips(
  root: string,
  head: string,
  thens: readonly (string | null)[],
  texts: readonly string[],
): Promise<string[][]> {
  const out: string[][] = texts.map(() => [])
  const claims = texts.map((t, i) => (thens[i] === null || thens[i] === head ? [] : valueClaims(t)))
  const defaults = texts.map((t, i) =>
    thens[i] === null || thens[i] === head ? [] : defaultClaims(t),
  )
  const revs = [...new Set(thens.filter((t): t is string => t !== null && t !== head))]
  const needles = [
    ...new Map(
      [...claims.flat().map(needleOf), ...defaults.flat().map(nameNeedle)].map((n) => [key(n), n]),
    ).values(),
  ]
  if (revs.length === 0 || needles.length === 0) return out
  const found: Found = new Map()
  const unread = new Set<string>()
  const ok = await Promise.all([
    grepTrees(root, revs, needles, null, true, found, unread),
    grepTrees(root, revs, needles, null, false, found, unread),
  ])
  if (ok.includes(false)) return out
  const files = new Map<string, Promise<string | null>>()
  const nowText = (file: string): Promise<string | null> => {
    let hit = files.get(file)
    if (!hit) {
      hit = showAt(root, head, file, SHOW_MAX_BYTES).then((r) => (r.ok ? r.text : null))
      files.set(file, hit)
    }
    return hit
  }
  const moved = await defaultFlips(root, head, thens, defaults, found, nowText)
  for (let i = 0; i < claims.length; i++) {
    out[i].push(...moved[i])
    const then = thens[i]
    if (then === null) continue
    const said = new Set<string>()
    for (const c of claims[i]) {
      if (said.has(c.written)) continue
      const lines = (found.get(then)?.get(key(needleOf(c))) ?? []).filter(
        (l) => !isCommentLine(l.text) && !isTestFile(l.file) && holdsValue(c, l.text),
      )
      // Only a number can match by chance: a URL or a `key: value` pair is the one meant.
      if (lines.length === 0 || (c.words !== null && lines.length > VALUE_LINES_MAX)) continue
      const why = await firstChanged(root, then, c, lines, nowText)
      if (why) {
        said.add(c.written)
        out[i].push(why)
      }
    }
  }
  return out
}

const nameNeedle = (c: DefaultClaim): Needle => ({ kind: 'word', text: c.name })

/** Code lines, not comments nor tests. */
const codeLines = (lines: readonly CodeLine[] | undefined): CodeLine[] =>
  (lines ?? []).filter((l) => !isCommentLine(l.text) && !isTestFile(l.file))

/**
 * Per note, its defaults that a code line set with the name when it was written and that no code
 * file holding the name holds now (stated-defaults.ts). `found` holds the lines then.
 */
async function defaultFlips(
  root: string,
  head: string,
  thens: readonly (string | null)[],
  defaults: readonly (readonly DefaultClaim[])[],
  found: Found,
  nowText: (file: string) => Promise<string | null>,
): Promise<string[][]> {
  const out = defaults.map((): string[] => [])
  const setThen = defaults.map((cs, i) =>
    cs.flatMap((c) => {
      const then = thens[i]
      const at = then === null ? [] : codeLines(found.get(then)?.get(key(nameNeedle(c))))
      const line = at.find((l) => setsDefault(c, l.text))
      return line ? [{ c, line }] : []
    }),
  )
  const asked = [...new Map(setThen.flat().map(({ c }) => [c.name, nameNeedle(c)])).values()]
  if (asked.length === 0) return out
  const now: Found = new Map()
  if (!(await grepTrees(root, [head], asked, null, true, now, new Set()))) return out
  for (let i = 0; i < setThen.length; i++) {
    const then = thens[i]
    if (then === null) continue
    for (const { c, line } of setThen[i]) {
      const files = [
        ...new Set(codeLines(now.get(head)?.get(key(nameNeedle(c)))).map((l) => l.file)),
      ]
      // Held by no code file now: name-loss speaks to that.
      if (files.length === 0) continue
      const texts = await Promise.all(files.map(nowText))
      if (texts.some((t) => t === null || t.includes(c.value))) continue
      const by = await firstChange(root, then, [`-S${c.value}`], line.file)
      const when = by ? `; ${tick(line.file)} changed in ${short(by.sha)} on ${day(by.date)}` : ''
      const where = files.slice(0, 2).map(tick).join(', ') + (files.length > 2 ? ', …' : '')
      out[i].push(
        `the note gives ${tick(c.name)} the default ${tick(c.value)}: ${tick(line.file)}:${line.line} held ${tick(cut(line.text))} when it was written; no code file that holds ${tick(c.name)} now holds ${tick(c.value)} (${where})${when}`,
      )
    }
  }
  return out
}

async function firstChanged(
  root: string,
  then: string,
  c: ValueClaim,
  lines: readonly CodeLine[],
  nowText: (file: string) => Promise<string | null>,
): Promise<string | null> {
  for (const l of lines) {
    const now = await nowText(l.file)
    if (now === null) continue
    const changed = valueChanged(c, l.text, now)
    if (!changed) continue
    const by = await firstChange(root, then, [`-S${c.key === null ? c.value : c.key}`], l.file)
    const when = by ? `, changed in ${short(by.sha)} on ${day(by.date)}` : ''
    return `the note states ${tick(c.written)}: ${tick(l.file)}:${l.line} held ${tick(cut(l.text))} when it was written; now ${tick(cut(changed.text))} (line ${changed.line})${when}`
  }
  return null
}

function cut(text: string): string {
  const t = text.trim().replace(/`/g, "'")
  return t.length > 100 ? `${t.slice(0, 99)}…` : t
}

/** The oldest commit after `then` that changed `file` as `filter` asks (`-S…`, `--diff-filter=A`). */
export async function firstChange(
  root: string,
  then: string,
  filter: readonly string[],
  file: string,
): Promise<{ sha: string; date: string } | null> {
  const r = await runGit(
    [
      'log',
      '--reverse',
      '--format=%H%x1f%cI',
      ...filter,
      `${then}..HEAD`,
      '--',
      `:(literal)${file}`,
    ],
    { cwd: root, timeoutMs: GIT_TIMEOUT_MS },
  )
  const [sha, date] = (r.stdout.split('\n')[0] ?? '').split('\x1f')
  return r.code === 0 && sha && date ? { sha, date } : null
}
