/**
 * A Go module's path a note gives (`github.com/acme/agent-v3`): the `module` line of go.mod,
 * which every import of the repository's own packages starts with. Renamed since, the note's
 * path no longer names the module (blind set CW sd-t01: "Go module: `github.com/…/super-agent-v3`"
 * after go.mod moved to another). Pure: src/node/audit/dependency-flips.ts greps go.mod then and
 * now.
 */
import { findCodeSpans } from './code-spans'
import { cutFences } from './note-fences'

/** A host with a dot, then at least an owner and a name: `github.com/acme/agent`, `go.acme.io/x/y`. */
const MODULE_PATH_RE = /^[a-z0-9-]+(?:\.[a-z0-9-]+)+\/[\w.-]+\/[\w.-]+(?:\/[\w.-]+)*$/

/**
 * The back-ticked module paths of a note's prose: any such path, as a go.mod must have declared
 * it when the note was written for it to count (blind set DS nk-t01: "**Bowrain CLI**
 * (`github.com/neokapi/neokapi/bowrain/cli`)", no word "module" beside it).
 */
export function modulePaths(text: string): string[] {
  const { prose } = cutFences(text)
  const out: string[] = []
  for (const line of prose.split('\n')) {
    for (const s of findCodeSpans(line)) {
      const path = line.slice(s.contentStart, s.contentEnd).trim()
      if (MODULE_PATH_RE.test(path) && !out.includes(path)) out.push(path)
    }
  }
  return out
}

/** The module a go.mod line declares (`module github.com/acme/agent`), else null. */
export function declaredModule(path: string, line: string): string | null {
  if (!/(?:^|\/)go\.mod$/.test(path)) return null
  return /^\s*module\s+"?([^\s"/]+(?:\/[^\s"]+)*)"?\s*(?:\/\/.*)?$/.exec(line)?.[1] ?? null
}
