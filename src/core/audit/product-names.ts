/**
 * Products a note names in plain prose ("Qdrant", "ChromaDB", "FastAPI"), as the manifest names
 * they may go by (`qdrant`, `qdrant-client`, `chromadb`). Pure. A capitalised word says nothing
 * on its own: like a bold package name (manifest-names.ts `boldNames`) it counts only through a
 * manifest's dependency line, listed when the note was written and in no manifest now
 * (src/node/audit/prose-then.ts). Blind set L: a vector store the code replaced while the notes
 * still named it as the one in use.
 */
import { isCommentLine, isTestFile, type CodeLine } from './name-loss'
import { proseOf } from './prose-names'

/** A capitalised word with a lower-case letter: `Qdrant`, `ChromaDB`, `FastAPI`, `LangChain`. */
const PRODUCT_RE = /(?<![\w@./-])[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*(?![\w/-]|\.[A-Za-z])/g
/** Words shorter than this are never taken (`Go`, `Vue`: too many other things). */
const PRODUCT_MIN = 4
/** What comes before a product that the note says is not, or no longer, in use. */
const NOT_IN_USE =
  /\b(?:no|not|non|never|without|instead\s+of|replac\w*|from|remov\w*|drop\w*|deprecat\w*|legacy|former\w*|old|migrat\w*|than|vs\.?|versus|over|ex|phas\w*\s+out|avoid\w*|don't\s+use)\s*[:(]?\s*(?:the\s+)?$/i
/** Manifest names a product goes by besides its own: `qdrant-client`, `stripe-python`. */
const SUFFIXES = ['', '-client', '_client', '-sdk', '-js', '-py', '-python']

/** Every manifest name of the product `name` is one of (`gradio-client` → `gradio`, `gradio-sdk`, …). */
export function productForms(name: string): string[] {
  const base = SUFFIXES.reduce(
    (b, s) => (s !== '' && b.endsWith(s) && b.length > s.length ? b.slice(0, -s.length) : b),
    name,
  )
  return SUFFIXES.map((s) => base + s)
}

/**
 * A line's label (`- Tests: \`pnpm test\``, `**Vector:** ChromaDB`): the word that opens a line
 * or bullet and ends with a colon names a topic, not a product (blind set Q: "Tests" matched a
 * `testpaths = ["tests"]` setting as a dependency that went away). A label may run to three words
 * ("Path aliases:", blind set AE: "Path" read as the npm package `path`).
 */
function isLabel(prose: string, at: number, length: number): boolean {
  const start = prose.lastIndexOf('\n', at - 1) + 1
  return (
    /^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:\*\*|__)?$/.test(prose.slice(start, at)) &&
    /^(?:[ \t]+[\w-]+){0,2}(?:\*\*|__)?:/.test(prose.slice(at + length))
  )
}

/** The manifest names of the products a note's prose names in use (see above). */
export function productNames(text: string): string[] {
  const prose = proseOf(text, false)
  const out: string[] = []
  for (const m of prose.matchAll(PRODUCT_RE)) {
    if (m[0].length < PRODUCT_MIN) continue
    if (NOT_IN_USE.test(prose.slice(Math.max(0, m.index - 40), m.index))) continue
    if (isLabel(prose, m.index, m[0].length)) continue
    const base = m[0].toLowerCase()
    for (const s of SUFFIXES) if (!out.includes(base + s)) out.push(base + s)
  }
  // Two capitalised words are one product whose package joins them (`Mercado Pago`,
  // `mercadopago`; blind set BN: the payment provider a commit removed) or writes them in kebab
  // case (`mercado-pago`).
  for (const m of prose.matchAll(PAIR_RE)) {
    if (NOT_IN_USE.test(prose.slice(Math.max(0, m.index - 40), m.index))) continue
    if (isLabel(prose, m.index, m[0].length)) continue
    for (const name of [`${m[1]}${m[2]}`, `${m[1]}-${m[2]}`].map((x) => x.toLowerCase()))
      if (!out.includes(name)) out.push(name)
  }
  return out
}

/** Two capitalised words side by side (`Mercado Pago`, `Framer Motion`). */
const PAIR_RE = /(?<![\w@./-])([A-Z][a-z]{2,}) ([A-Z][a-z]{2,})(?![\w/-]|\.[A-Za-z])/g

/**
 * The lower-case form a capitalised product goes by in code (`Context7` → `context7`, the key of
 * its server in `.mcp.json`); null when the name has none (mixed-case identifiers, one letter).
 */
export function lowerForm(name: string): string | null {
  const low = name.toLowerCase()
  return low !== name && /^[a-z][a-z0-9]{3,}$/.test(low) && /^[A-Z][a-z0-9]+$/.test(name)
    ? low
    : null
}

/**
 * Whether code still holds a product's lower-case form where it held it when the note was
 * written: a code line, not a comment or a test, in a file unchanged since the note or in a file
 * that held it then too. Then the capitalised name leaving the code (name-loss.ts leftEveryFile)
 * is wording that changed, not the product (blind set CE: "Context7" in the note, its server
 * still configured as `context7`). `now`: the form's lines now in every code file; `then`: its
 * lines at the note's commit in the files changed since; `changed`: those files.
 */
export function stillHeldInLowerCase(
  now: readonly CodeLine[],
  then: readonly CodeLine[],
  changed: ReadonlySet<string>,
): boolean {
  const code = (l: CodeLine): boolean => !isCommentLine(l.text) && !isTestFile(l.file)
  const heldThen = new Set(then.filter(code).map((l) => l.file))
  return now.some((l) => code(l) && (!changed.has(l.file) || heldThen.has(l.file)))
}
