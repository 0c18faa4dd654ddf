/**
 * Claude Code rule files (`.claude/rules/**\/*.md`): when a rule loads, from its `paths`
 * frontmatter (docs/memory-rules.md §3.3 "`paths`").
 */
import ignore from 'ignore'
import { parseFrontmatter, parseYaml } from '../markdown/frontmatter'
import { BRACE_EXPANSION_MAX, FRONTMATTER_MAX_CHARS } from '../limits'

/** When a rule loads: at start, or when Claude reads a file matching one of `patterns`. */
export type RuleCondition =
  | { readonly kind: 'unconditional' }
  | { readonly kind: 'paths'; readonly patterns: readonly string[] }

export interface RuleWarning {
  readonly code: 'globs-not-paths' | 'paths-invalid' | 'paths-empty' | 'frontmatter-invalid'
  readonly message: string
}

export interface RuleInfo {
  readonly condition: RuleCondition
  readonly warnings: readonly RuleWarning[]
}

/** Brace expansions allowed per pattern, so `{a,b}{c,d}…` can't explode. */

/**
 * Read a rule's frontmatter: `paths` as a YAML list or one comma-separated string (braces
 * expand); only `**` means unconditional; `globs:` without `paths` loads unconditionally
 * and earns a `globs-not-paths` warning (docs/memory-rules.md §3.3).
 */
export function parseRule(text: string): RuleInfo {
  const fm = parseFrontmatter(text)
  if (fm.kind === 'none') return unconditional([])
  const data =
    fm.kind === 'ok' ? fm.data : fm.kind === 'error' ? lenientData(text, fm.length) : null
  if (!data) {
    return unconditional([
      {
        code: 'frontmatter-invalid',
        message: `${'reason' in fm ? fm.reason : 'unreadable frontmatter'}; the rule loads unconditionally`,
      },
    ])
  }
  if (!('paths' in data) || data.paths === null || data.paths === undefined) {
    if ('globs' in data) {
      return unconditional([
        {
          code: 'globs-not-paths',
          message:
            'uses `globs:`, which Claude Code ignores, so this rule loads in every session; ' +
            'rename the key to `paths:` to load it only for matching files',
        },
      ])
    }
    return unconditional([])
  }
  const raw = data.paths
  let items: string[]
  if (typeof raw === 'string') items = splitTopLevelCommas(raw)
  else if (Array.isArray(raw) && raw.every((v) => typeof v === 'string')) items = raw as string[]
  else {
    return unconditional([
      {
        code: 'paths-invalid',
        message:
          '`paths` is neither a list of strings nor a string; the rule loads unconditionally',
      },
    ])
  }
  const patterns = items
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .flatMap((s) => expandBraces(s))
  if (patterns.length === 0) {
    return unconditional([
      { code: 'paths-empty', message: '`paths` is empty; the rule loads unconditionally' },
    ])
  }
  if (patterns.every((p) => p === '**')) return unconditional([])
  return { condition: { kind: 'paths', patterns }, warnings: [] }
}

/**
 * Unquoted globs are often invalid YAML (`globs: **\/*.ts` starts with an alias `*`), as in
 * the corpus rules. Like Claude Code, retry once with such plain values quoted; a value
 * that opens a flow list or map is left alone.
 */
function lenientData(text: string, blockLength: number): Readonly<Record<string, unknown>> | null {
  // The retry keeps the size cap of parseFrontmatter: a block over it is not parsed at all.
  if (blockLength > FRONTMATTER_MAX_CHARS) return null
  const lines = text.slice(0, blockLength).split(/\r?\n/)
  // Drop the opening fence, and the closing fence (plus the empty piece after its line break).
  const body = lines.slice(1, lines[lines.length - 1] === '' ? -2 : -1)
  const quoted = body.map((line) => {
    const m = /^(\s*[A-Za-z0-9_-]+:[ \t]+)(\S.*?)\s*$/.exec(line)
    if (!m || /^["'[{]/.test(m[2]) || !/[*{}[\]&!|>%@`#]/.test(m[2])) return line
    return m[1] + JSON.stringify(m[2])
  })
  const parsed = parseYaml(quoted.join('\n'))
  if (!('value' in parsed)) return null
  const value = parsed.value
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null
}

function unconditional(warnings: RuleWarning[]): RuleInfo {
  return { condition: { kind: 'unconditional' }, warnings }
}

/** Split a `paths` string at commas that are not inside `{…}`. */
export function splitTopLevelCommas(value: string): string[] {
  const out: string[] = []
  let depth = 0
  let current = ''
  for (const ch of value) {
    if (ch === '{') depth++
    else if (ch === '}' && depth > 0) depth--
    if (ch === ',' && depth === 0) {
      out.push(current)
      current = ''
    } else current += ch
  }
  out.push(current)
  return out
}

/** Expand `{a,b}` alternatives (nested too); an unbalanced or single-item brace stays literal. */
export function expandBraces(pattern: string): string[] {
  const results: string[] = []
  const stack = [pattern]
  while (stack.length > 0) {
    const p = stack.pop() as string
    const group = firstBraceGroup(p)
    if (!group) {
      results.push(p)
      continue
    }
    if (results.length + stack.length + group.options.length > BRACE_EXPANSION_MAX) {
      results.push(p)
      continue
    }
    // Push in reverse so results keep the written order.
    for (let i = group.options.length - 1; i >= 0; i--) {
      stack.push(p.slice(0, group.start) + group.options[i] + p.slice(group.end + 1))
    }
  }
  return results
}

/** The first `{…}` holding a top-level comma, with its options. */
function firstBraceGroup(p: string): { start: number; end: number; options: string[] } | null {
  for (let start = p.indexOf('{'); start >= 0; start = p.indexOf('{', start + 1)) {
    let depth = 0
    const commas: number[] = []
    for (let i = start; i < p.length; i++) {
      const ch = p[i]
      if (ch === '{') depth++
      else if (ch === '}') {
        depth--
        if (depth === 0) {
          if (commas.length === 0) break
          const options: string[] = []
          let from = start + 1
          for (const c of commas) {
            options.push(p.slice(from, c))
            from = c + 1
          }
          options.push(p.slice(from, i))
          return { start, end: i, options }
        }
      } else if (ch === ',' && depth === 1) commas.push(i)
    }
  }
  return null
}

/**
 * Whether a conditional rule applies to a file, gitignore-style (the `ignore` package),
 * `relPath` being relative to the folder that contains `.claude/` (docs/memory-rules.md §3.3).
 */
export function ruleMatches(condition: RuleCondition, relPath: string): boolean {
  if (condition.kind === 'unconditional') return true
  const rel = relPath.replace(/^\.\/+/, '')
  // `ignore` refuses paths that leave the base folder; such files never match.
  if (rel === '' || rel.startsWith('/') || rel === '..' || rel.startsWith('../')) return false
  try {
    return ignore()
      .add(condition.patterns as string[])
      .ignores(rel)
  } catch {
    return false
  }
}

/** The trigger text shown for a conditional rule, e.g. `paths: src/**\/*.ts, lib/**`. */
export function pathsTrigger(condition: RuleCondition): string {
  return condition.kind === 'paths' ? `paths: ${condition.patterns.join(', ')}` : 'always'
}
