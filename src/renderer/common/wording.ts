/**
 * Words, not codes (issue 15 item 14): every code the back end emits (load-order warnings,
 * files skipped or dropped, read problems, verdicts, reference states, agent-check results)
 * as a sentence a person reads. Views show the sentence and keep the code in a tooltip
 * (`codeTooltip`), so nothing is lost for someone searching the docs for it.
 * Codes come from src/core/load-order (claude-load.ts, claude.ts, rules.ts, codex.ts),
 * src/node/load-order, src/node/memory/homes.ts and src/node/fs/safe-read.ts.
 */
import type { AgentCheckRow, ReferenceStatus, Verdict } from '../../shared/model'
import { MEMORY_MAX_CHARS, MEMORY_MAX_LINES } from '../../shared/limits'
import { formatNumber } from './format'

/** Why a file does not load, or what is wrong with it: code → sentence. */
const PROBLEM_SENTENCES: Readonly<Record<string, string>> = {
  // Files Claude Code skips (src/core/load-order/claude-load.ts, claude-context.ts).
  'agents-md-shadowed': 'AGENTS.md is not loaded: a CLAUDE.md in the same folder takes its place.',
  'import-missing': 'The imported file does not exist; Claude Code skips it without a word.',
  'import-cycle': 'Imported again by a file it imports itself; loaded only once.',
  'import-repeat': 'Already loaded earlier; not loaded a second time.',
  'import-depth': 'Too many imports deep; Claude Code stops following imports here.',
  'import-needs-approval':
    'Outside the launch directory: it loads only once external imports are approved.',
  'outside-worktree':
    'In the main checkout around this nested worktree; Claude Code does not load it from here.',
  disabled: 'Instruction files are switched off (CLAUDE_CODE_DISABLE_CLAUDE_MDS).',
  excluded: 'Left out by the claudeMdExcludes setting.',
  empty: 'Blank (whitespace only), so nothing of it is sent.',
  // Read problems (src/node/fs/safe-read.ts, src/core/load-order/claude-context.ts).
  missing: 'The file does not exist.',
  'not-a-file': 'Not a regular file (a folder, socket or device).',
  unreadable: 'The file could not be read.',
  'too-large': 'The file is too large to read.',
  binary: 'Not text (the file holds NUL bytes).',
  'invalid-utf8': 'Not valid UTF-8 text.',
  // Files Codex drops (src/core/load-order/codex.ts).
  shadowed: 'Another instruction file wins this folder, so this one is not read.',
  'budget-exhausted': 'The byte budget is used up by files nearer the project root.',
  'project-docs-off': 'Project instruction files are switched off (project_doc_max_bytes is 0).',
  // Warnings (src/core/load-order, src/node/load-order, src/node/memory/homes.ts).
  'over-200-lines': 'Longer than the advised 200 lines.',
  'over-40k-chars': 'Longer than 40,000 characters; Claude Code warns about it.',
  'import-outside-repo': 'Imported from outside the repository and the Claude home.',
  'cwd-not-a-directory': 'The launch directory is not a folder.',
  'on-demand-walk-capped':
    'Too many folders to look through; deeper on-demand files are not listed.',
  'globs-not-paths': 'The rule says `globs:`; Claude Code reads only `paths:`, so it always loads.',
  'paths-invalid': 'The rule’s `paths:` is not a list of patterns; the rule always loads.',
  'paths-empty': 'The rule’s `paths:` is empty; the rule always loads.',
  'frontmatter-invalid': 'The rule’s frontmatter is not valid YAML; the rule always loads.',
  'settings-invalid-excludes': 'claudeMdExcludes in the settings is not a list of patterns.',
  'settings-unreadable': 'The settings file could not be read.',
  'settings-invalid-json': 'The settings file is not valid JSON; its settings are ignored.',
  'auto-memory-off': 'Auto memory is off, so no MEMORY.md loads.',
  'auto-memory-directory-invalid':
    'autoMemoryDirectory in the settings is neither absolute nor under ~/; it is ignored.',
}

/** Looks like a code (`agents-md-shadowed`), not already a sentence. */
const CODE_SHAPE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/** Whether `text` is one of the codes the back end emits (or has their shape). */
export function isProblemCode(text: string): boolean {
  return text in PROBLEM_SENTENCES || CODE_SHAPE.test(text)
}

/**
 * The sentence for a problem code. An unknown code is spelled out from its words
 * ("some-new-code" → "Some new code."); text that is already a sentence comes back unchanged.
 */
export function problemSentence(code: string): string {
  const known = PROBLEM_SENTENCES[code]
  if (known) return known
  if (!CODE_SHAPE.test(code)) return code
  const words = code.replace(/-/g, ' ')
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}.`
}

/** The tooltip that keeps the code beside its sentence (and the back end's detail, if any). */
export function codeTooltip(code: string, detail?: string | null): string {
  return detail ? `${detail}\n(code: ${code})` : `code: ${code}`
}

/**
 * A problem's reason as a person reads it: a code becomes its sentence, with the back end's own
 * detail after it when there is one; free text (most reasons already are) stays as it is.
 */
export function problemText(reason: string, detail?: string | null): string {
  if (!isProblemCode(reason)) return reason
  const sentence = problemSentence(reason)
  return detail ? `${sentence} ${capitalise(detail)}${/[.!?]$/.test(detail) ? '' : '.'}` : sentence
}

const capitalise = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1)

/** A note's verdict as a short label and a sentence (docs/memory-rules.md §6). */
export const VERDICT_WORDS: Readonly<Record<Verdict, { label: string; sentence: string }>> = {
  fresh: { label: 'fresh', sentence: 'Everything the note names still holds.' },
  suspect: {
    label: 'suspect',
    sentence: 'Files the note names changed since it was written; it may be out of date.',
  },
  stale: { label: 'stale', sentence: 'Something the note names is gone or moved.' },
  'never-matched': {
    label: 'wrong from the start',
    sentence: 'What the note names did not exist even when it was written.',
  },
  unverifiable: {
    label: 'cannot be checked',
    sentence: 'The note names nothing that can be checked against the code.',
  },
}

/** A reference's state as words. */
export const REFERENCE_WORDS: Readonly<Record<ReferenceStatus, string>> = {
  ok: 'still there',
  missing: 'gone',
  moved: 'moved',
  changed: 'changed since the note',
}

/** A reference's state as a sentence, for a tooltip beside the short words. */
export const REFERENCE_SENTENCES: Readonly<Record<ReferenceStatus, string>> = {
  ok: 'The file or name the note points at is still there.',
  missing: 'The file or name the note points at no longer exists.',
  moved: 'The file the note points at was moved or renamed.',
  changed: 'The file the note points at changed since the note was written.',
}

/** Which of Claude Code's MEMORY.md limits cut the file (docs/memory-rules.md §2), in words. */
export function limitWords(limit: 'lines' | 'chars' | null): string {
  if (limit === 'lines') return `the ${formatNumber(MEMORY_MAX_LINES)}-line limit`
  if (limit === 'chars') return `the ${formatNumber(MEMORY_MAX_CHARS)}-character limit`
  return 'the size limit'
}

/** "Check with the installed agent" result rows as words. */
export const AGENT_ROW_WORDS: Readonly<Record<AgentCheckRow['status'], string>> = {
  same: 'same',
  moved: 'other order',
  'only-agent': 'only the agent loads it',
  'only-ours': 'only our model loads it',
  'cut-differs': 'cut differently',
}
