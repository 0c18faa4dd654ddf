/**
 * Adding and removing our SessionStart hook in a Claude Code settings file (issue 18 item 2),
 * as a text edit: only the inserted or removed span changes, every other byte stays. Pure;
 * the disk side (safe write, backup, undo) is src/node/hooks/hook-settings.ts.
 *
 * The shape Claude Code reads: `hooks.SessionStart` is a list of matcher groups, each
 * `{ "matcher"?: string, "hooks": [{ "type": "command", "command": string, "timeout"?: s }] }`;
 * a SessionStart hook's standard output is added to the session.
 *
 * Decisions:
 * - Ours is any command hook whose command ends in `hook session-start` and names memory-curator
 *   or a built `cli/index.js`: a second install finds it and changes nothing (never a duplicate).
 * - Install appends one matcher group after the existing ones, indented like the file.
 * - Uninstall removes each of our hook entries; a group left with no hook is removed, then an
 *   empty `SessionStart` list, then an empty `hooks` object, so install + uninstall gives back
 *   the original text.
 * - A file that is not a JSON object, or whose `hooks` / `SessionStart` has another type, is
 *   refused with the reason: we do not guess how to repair someone's settings.
 */
import { memberOf, parseJsonSpans, JsonSpanError, type JsonNode } from './json-spans'

/** The sources a new context starts from (resume already holds the notice). */
export const HOOK_MATCHER = 'startup|clear|compact'
/** Seconds Claude Code waits for the hook (ours answers in well under one). */
export const HOOK_TIMEOUT_SECONDS = 10

export type SettingsPlan =
  | {
      readonly ok: true
      /** False when the file already is as asked (nothing to write). */
      readonly changed: boolean
      /** The whole new text (equal to the old when unchanged). */
      readonly after: string
    }
  | { readonly ok: false; readonly reason: string }

/** Whether a hook command is ours (see the decisions above). */
export function isOurHookCommand(command: string): boolean {
  return (
    /(^|\s)hook\s+session-start\s*$/.test(command) &&
    /memory-curator|cli[/\\]index\.js/.test(command)
  )
}

interface Parsed {
  readonly root: JsonNode & { kind: 'object' }
}

function parse(text: string): Parsed | { reason: string } {
  let root: JsonNode
  try {
    root = parseJsonSpans(text)
  } catch (err) {
    if (err instanceof JsonSpanError) return { reason: `not valid JSON (${err.message})` }
    throw err
  }
  if (root.kind !== 'object') return { reason: 'not a JSON object' }
  return { root }
}

/** How many of our hook entries a settings text holds, or why it cannot be read. */
export function findOurHooks(
  text: string | null,
):
  | { readonly found: number; readonly reason: null }
  | { readonly found: 0; readonly reason: string } {
  if (text === null || text.trim() === '') return { found: 0, reason: null }
  const p = parse(text)
  if ('reason' in p) return { found: 0, reason: p.reason }
  return { found: ourEntries(p.root).length, reason: null }
}

interface Entry {
  readonly group: JsonNode & { kind: 'array' }
  readonly groupIndex: number
  readonly hooks: JsonNode & { kind: 'array' }
  readonly hookIndex: number
}

function ourEntries(root: JsonNode & { kind: 'object' }): Entry[] {
  const hooksObj = memberOf(root, 'hooks')?.value
  const list = hooksObj ? memberOf(hooksObj, 'SessionStart')?.value : null
  if (!list || list.kind !== 'array') return []
  const out: Entry[] = []
  list.items.forEach((g, gi) => {
    const hooks = memberOf(g, 'hooks')?.value
    if (!hooks || hooks.kind !== 'array') return
    hooks.items.forEach((h, hi) => {
      const command = memberOf(h, 'command')?.value
      if (command?.kind === 'string' && isOurHookCommand(command.value))
        out.push({ group: list, groupIndex: gi, hooks, hookIndex: hi })
    })
  })
  return out
}

/** The indent unit of a file: the whitespace before its first member on a new line, else two spaces. */
function indentUnit(text: string, root: JsonNode & { kind: 'object' }): string {
  const first = root.members[0]
  if (!first) return '  '
  const lineStart = text.lastIndexOf('\n', first.start) + 1
  const ws = text.slice(lineStart, first.start)
  return lineStart > root.start && /^[ \t]+$/.test(ws) ? ws : '  '
}

/** `value` as JSON, its lines after the first indented by `base`. */
function render(value: unknown, unit: string, base: string): string {
  return JSON.stringify(value, null, unit).split('\n').join(`\n${base}`)
}

/** Insert `piece` (already rendered for depth `depth`) as a new last child of `container`. */
function appendChild(
  text: string,
  container: JsonNode & ({ kind: 'object' } | { kind: 'array' }),
  piece: string,
  unit: string,
  depth: number,
): string {
  const children = container.kind === 'object' ? container.members : container.items
  const inner = unit.repeat(depth + 1)
  const last = children[children.length - 1]
  if (last) return `${text.slice(0, last.end)},\n${inner}${piece}${text.slice(last.end)}`
  const open = container.start + 1
  const close = container.end - 1
  return `${text.slice(0, open)}\n${inner}${piece}\n${unit.repeat(depth)}${text.slice(close)}`
}

/** Remove child `k` of `container` with its separating comma and the space before it. */
function removeChild(
  text: string,
  container: JsonNode & ({ kind: 'object' } | { kind: 'array' }),
  k: number,
): string {
  const children: readonly { start: number; end: number }[] =
    container.kind === 'object' ? container.members : container.items
  if (children.length === 1)
    return text.slice(0, container.start + 1) + text.slice(container.end - 1)
  if (k > 0) return text.slice(0, children[k - 1]!.end) + text.slice(children[k]!.end)
  return text.slice(0, children[0]!.start) + text.slice(children[1]!.start)
}

/** The hook entry we add, for `command`. */
export function hookGroup(command: string): Record<string, unknown> {
  return {
    matcher: HOOK_MATCHER,
    hooks: [{ type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS }],
  }
}

/** Plan adding our SessionStart hook running `command` to the settings text (null: no file yet). */
export function planHookInstall(text: string | null, command: string): SettingsPlan {
  if (text === null || text.trim() === '') {
    const fresh = { hooks: { SessionStart: [hookGroup(command)] } }
    return { ok: true, changed: true, after: `${JSON.stringify(fresh, null, 2)}\n` }
  }
  const p = parse(text)
  if ('reason' in p) return { ok: false, reason: p.reason }
  const { root } = p
  if (ourEntries(root).length > 0) return { ok: true, changed: false, after: text }
  const unit = indentUnit(text, root)
  const hooks = memberOf(root, 'hooks')
  if (!hooks) {
    const piece = `"hooks": ${render({ SessionStart: [hookGroup(command)] }, unit, unit)}`
    return { ok: true, changed: true, after: appendChild(text, root, piece, unit, 0) }
  }
  if (hooks.value.kind !== 'object') return { ok: false, reason: '"hooks" is not an object' }
  const list = memberOf(hooks.value, 'SessionStart')
  if (!list) {
    const piece = `"SessionStart": ${render([hookGroup(command)], unit, unit.repeat(2))}`
    return { ok: true, changed: true, after: appendChild(text, hooks.value, piece, unit, 1) }
  }
  if (list.value.kind !== 'array')
    return { ok: false, reason: '"hooks.SessionStart" is not a list' }
  const piece = render(hookGroup(command), unit, unit.repeat(3))
  return { ok: true, changed: true, after: appendChild(text, list.value, piece, unit, 2) }
}

/** Plan removing every one of our SessionStart hooks from the settings text. */
export function planHookUninstall(text: string | null): SettingsPlan {
  if (text === null || text.trim() === '') return { ok: true, changed: false, after: text ?? '' }
  let current = text
  // One removal at a time, parsing again after each: offsets never go stale.
  for (let guard = 0; guard < 10_000; guard++) {
    const p = parse(current)
    if ('reason' in p) return { ok: false, reason: p.reason }
    const entry = ourEntries(p.root)[0]
    if (!entry) return { ok: true, changed: current !== text, after: current }
    if (entry.hooks.items.length > 1) {
      current = removeChild(current, entry.hooks, entry.hookIndex)
      continue
    }
    // The group holds only our hook: remove the group, then containers left empty.
    if (entry.group.items.length > 1) {
      current = removeChild(current, entry.group, entry.groupIndex)
      continue
    }
    const hooks = memberOf(p.root, 'hooks')!.value as JsonNode & { kind: 'object' }
    const listIndex = hooks.members.lastIndexOf(memberOf(hooks, 'SessionStart')!)
    if (hooks.members.length > 1) {
      current = removeChild(current, hooks, listIndex)
      continue
    }
    const hooksIndex = p.root.members.lastIndexOf(memberOf(p.root, 'hooks')!)
    current = removeChild(current, p.root, hooksIndex)
  }
  return { ok: false, reason: 'too many hook entries' }
}
