/**
 * A quote whose lines the code held, and holds still in some code file (an example's import
 * line, used in other files), lost nothing when one file stopped using them: it fails as an
 * example does, never as code removed (issue 12, cause 1; blind set AT: `import { useDebugStore }
 * from "@/stores/debugStore"` over a usage example, "removed" when one component dropped it).
 */
import type { CheckedReference } from '../../core/audit/checked-reference'
import { tick } from '../../core/audit/reason-text'
import { codeHoldsAll } from './prose-grep'

/** The reference as an example when `texts` (its lines code held) are all in code now. */
export async function keptQuote(
  c: CheckedReference,
  root: string,
  texts: readonly string[],
): Promise<CheckedReference | null> {
  if (c.ref.kind !== 'snippet' || texts.length === 0) return null
  const still = await codeHoldsAll(root, texts)
  if (still === null) return null
  const why = `${c.reason ?? 'quoted code is not found'}; the lines of it the code held, it holds still (${tick(still)})`
  return { ...c, goneIn: null, reason: why }
}
