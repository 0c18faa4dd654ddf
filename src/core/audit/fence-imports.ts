/**
 * The Python modules a quoted block imports by their dotted path (`from src.config.ssot_config
 * import config`, `import app.services.mail`): files of the repository, even where the block is
 * an example to follow (blind set BB: a "✅ use the SSOT config" block whose module the repository
 * later deleted). Relative imports and `import os` are left out; a one-word module a block imports
 * from (`from observability import tracer`) is the repository's only where it has or had that file
 * or folder at its root (blind set CG: a root module moved into the package), and a module under
 * no top folder of the repository is another package's (check-path.ts). The names a block
 * imports from such a module are placed in it (src/node/audit/prose-candidates.ts `located`), and
 * a file a block's first line names in a comment (`# tests/test_x.py`) is the block's file. Pure.
 */
import type { Reference } from './reference'
import { pathRef } from './reference-paths'

const IMPORT_RE =
  /^[ \t]*(?:from[ \t]+([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)[ \t]+import[ \t]|import[ \t]+([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)[ \t]*$)/gm

/** The dotted modules a block of code imports, as path references (Reference `module`). */
export function moduleImports(code: string): Reference[] {
  const out: Reference[] = []
  for (const m of code.matchAll(IMPORT_RE)) {
    const dotted = m[1] ?? m[2]
    const ref = pathRef(`${dotted.split('.').join('/')}.py`)
    if (ref && !out.some((r) => r.text === dotted)) out.push({ ...ref, text: dotted, module: true })
  }
  return out
}

const FROM_RE =
  /^[ \t]*from[ \t]+([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)[ \t]+import[ \t]+\(?([\w, \t]+?)\)?[ \t]*(?:#.*)?$/gm

/**
 * The names each `from a.b import X, Y` of a block imports, by dotted module (`as` aliases
 * dropped): blind set BZ, `run_preflight` no longer in the `specify_cli.merge` the block imports
 * it from.
 */
export function importedNames(code: string): { module: string; names: string[] }[] {
  const out: { module: string; names: string[] }[] = []
  for (const m of code.matchAll(FROM_RE)) {
    const names = m[2]
      .split(',')
      .map((x) => x.trim().split(/\s+as\s+/)[0])
      .filter((x) => /^[A-Za-z_]\w{2,}$/.test(x))
    if (names.length > 0) out.push({ module: m[1], names })
  }
  return out
}

/** `# tests/test_x.py`, `// src/app.ts`: a block whose first line names its file in a comment. */
export function headerPath(code: string): Reference[] {
  const first = code.split(/\r?\n/).find((l) => l.trim() !== '') ?? ''
  const m =
    /^\s*(?:#|\/\/|--|;+|<!--)\s*([\w@.+-]+(?:\/[\w@.+-]+)+\.[A-Za-z]\w*)\s*(?:-->)?\s*$/.exec(
      first,
    )
  const ref = m ? pathRef(m[1]) : null
  return ref ? [ref] : []
}

/** What a quoted block names besides its code: the modules it imports, the file its header names. */
export const fenceRefs = (code: string): Reference[] => [
  ...moduleImports(code),
  ...headerPath(code),
]

/** A JavaScript import line: `import { a, b as c } from 'x'`, `import D from 'y'`. */
const JS_IMPORT_RE = /^[ \t]*import[ \t]+(?:type[ \t]+)?([^;'"]*?)[ \t]+from[ \t]+['"][^'"]+['"]/gm

/**
 * The components a quoted JSX example renders without importing or declaring them, in a block
 * that imports what it means (`import { testcaseMolecule } from …`, then `<Skeleton />`,
 * `<NotFound />`): stand-ins for the reader's own components, no names of this repository (blind
 * set DO ag-r09: `NotFound`, gone from a file it once named something else, read as stale).
 */
export function jsxStandIns(code: string): Set<string> {
  const imports = [...code.matchAll(JS_IMPORT_RE)]
  if (imports.length === 0) return new Set()
  const known = new Set(imports.flatMap((m) => m[1].match(/[A-Za-z_$][\w$]*/g) ?? []))
  for (const m of code.matchAll(/\b(?:function|const|let|var|class)[ \t]+([A-Z][\w$]*)/g))
    known.add(m[1])
  const out = new Set<string>()
  for (const m of code.matchAll(/<([A-Z][\w$]*)[\s/>]/g)) if (!known.has(m[1])) out.add(m[1])
  return out
}
