/**
 * The programs a note's shell blocks run (`black . --exclude venv`, `uv run isort .`): like a
 * bold package name (manifest-names.ts), each counts only through a manifest's dependency line,
 * listed when the note was written and in no manifest now (src/node/audit/prose-then.ts). Blind
 * set CG: a block of `black`, `isort` and `flake8` commands after the repository replaced all
 * three with Ruff. Pure.
 */
import { cutFences } from './note-fences'
import { isShellBlock, stripPrompt } from './reference-commands'

/** Runners whose next word is the program they run (`uv run black`, `npx eslint`). */
const RUNNER_RE =
  /^(?:(?:uv|poetry|pipenv|pdm|hatch|rye|pipx|bundle|cargo)\s+(?:run|exec)|npx|pnpm\s+exec|pnpm\s+dlx|yarn\s+dlx|bunx|(?:py|python3?)\s+-m)\s+/
/** A program's name: lower case, as a package is named. */
const PROGRAM_RE = /^[a-z][a-z0-9_-]{2,40}$/

/** The programs the note's shell blocks run, in order, each once. */
export function fencePrograms(text: string): string[] {
  const out: string[] = []
  for (const f of cutFences(text).fences) {
    if (!isShellBlock(f.lang, f.code)) continue
    for (const raw of f.code.split(/\r?\n/)) {
      const line = stripPrompt(raw).trim()
      if (line === '' || line.startsWith('#')) continue
      for (const part of line.split(/\s*(?:&&|\|\||;|\|)\s*/)) {
        const cmd = part.trim().replace(/^(?:[A-Z_][A-Z0-9_]*=\S*\s+)+/, '')
        const word = cmd.replace(RUNNER_RE, '').split(/\s+/)[0] ?? ''
        if (PROGRAM_RE.test(word) && !out.includes(word)) out.push(word)
      }
    }
  }
  return out
}
