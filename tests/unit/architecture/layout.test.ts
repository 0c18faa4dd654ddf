/**
 * The layout's promises (issue 17): no import cycle among src/ modules (type imports count:
 * a cycle of types is still two modules that cannot be read apart), and no source file in
 * src/ or scripts/ over 400 lines.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

function files(dir: string, re: RegExp): string[] {
  const out: string[] = []
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    if (e.isDirectory()) out.push(...files(p, re))
    else if (re.test(e.name) && !e.name.endsWith('.d.mts')) out.push(resolve(p))
  }
  return out
}

/** Relative imports of a module, resolved to files. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const out: string[] = []
  for (const m of text.matchAll(/(?:from|import)\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const base = resolve(dirname(file), m[1]!)
    const found = [base, `${base}.ts`, `${base}.tsx`, base.replace(/\.m?js$/, '.ts')].find(
      (c) => existsSync(c) && statSync(c).isFile(),
    )
    if (found) out.push(found)
  }
  return out
}

describe('layout', () => {
  it('has no import cycle in src/', () => {
    const all = files('src', /\.(ts|tsx|mjs)$/)
    const edges = new Map(all.map((f) => [f, importsOf(f)]))
    const state = new Map<string, 1 | 2>()
    const stack: string[] = []
    const cycles: string[] = []
    const visit = (f: string): void => {
      state.set(f, 1)
      stack.push(f)
      for (const g of edges.get(f) ?? []) {
        if (state.get(g) === 1)
          cycles.push(
            [...stack.slice(stack.indexOf(g)), g].map((p) => relative('.', p)).join(' → '),
          )
        else if (!state.has(g)) visit(g)
      }
      stack.pop()
      state.set(f, 2)
    }
    for (const f of all) if (!state.has(f)) visit(f)
    expect(all.length).toBeGreaterThan(100)
    expect(cycles).toEqual([])
  })

  it('has no source file over 400 lines in src/ or scripts/', () => {
    const long = [...files('src', /\.(ts|tsx|mjs|css)$/), ...files('scripts', /\.(ts|mjs)$/)]
      .map((f) => ({ f: relative('.', f), n: readFileSync(f, 'utf8').split('\n').length - 1 }))
      .filter(({ n }) => n > 400)
      .map(({ f, n }) => `${f}: ${n} lines`)
    expect(long).toEqual([])
  })
})
