/** Products a note names in prose, as manifest names (src/core/audit/product-names.ts). */
import { describe, expect, it } from 'vitest'
import { productNames } from '../../../../src/core/audit/product-names'

describe('productNames', () => {
  it('takes capitalised words in use, with the names packages give them', () => {
    const got = productNames('- **Vector:** ChromaDB 0.5.0 (current), Qdrant 1.13.x (planned)')
    expect(got).toContain('chromadb')
    expect(got).toContain('qdrant')
    expect(got).toContain('qdrant-client')
  })

  it("leaves out a line's label (blind set Q)", () => {
    expect(productNames('- **Vector:** ChromaDB 0.5.0')).not.toContain('vector')
    expect(productNames('- Tests: `pnpm test` (vitest)')).toEqual([])
    expect(productNames('1. Storage: Postgres')).not.toContain('storage')
    // A label is left out even when it names a product; a product opening a sentence is not.
    expect(productNames('- Qdrant: the vector store')).toEqual([])
    expect(productNames('Qdrant holds the vectors')).toContain('qdrant')
    // A label of up to three words (blind set AE: "Path" is no use of the npm package `path`).
    expect(productNames('- Path aliases: `@` → `resources/`')).toEqual([])
    const labelled = productNames('- **Vector store backend:** ChromaDB')
    expect(labelled).not.toContain('vector')
    expect(labelled).toContain('chromadb')
    expect(productNames('- Qdrant holds the vectors: all of them')).toContain('qdrant')
  })

  it('leaves out what the note says is not, or no longer, in use', () => {
    const got = productNames(
      'Vector DB: Qdrant (replacing ChromaDB); no Redis, migrated from Moment',
    )
    expect(got).toContain('qdrant')
    for (const n of ['chromadb', 'redis', 'moment']) expect(got).not.toContain(n)
  })

  it('leaves out code, links, short words and dotted names', () => {
    const got = productNames(
      'Use `Supabase` and [Stripe](https://stripe.com/Docs) in Go; see Config.ts',
    )
    expect(got).not.toContain('supabase')
    expect(got).toContain('stripe')
    for (const n of ['docs', 'go', 'config']) expect(got).not.toContain(n)
  })
})
