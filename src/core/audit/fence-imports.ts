/**
 * The Python modules a quoted block imports by their dotted path (`from src.config.ssot_config
 * import config`, `import app.services.mail`): files of the repository, even where the block is
 * an example to follow (blind set BB: a "✅ use the SSOT config" block whose module the repository
 * later deleted). Relative imports and one-word modules (`import os`) are left out; a module under
 * no top folder of the repository is another package's (check-path.ts). Pure.
 */
import type { Reference } from './reference'
import { pathRef } from './reference-paths'

const IMPORT_RE =
  /^[ \t]*(?:from[ \t]+([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)[ \t]+import[ \t]|import[ \t]+([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)[ \t]*$)/gm

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
