import { describe, expect, it } from 'vitest'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import {
  REFERENCE_SENTENCES,
  REFERENCE_WORDS,
  codeTooltip,
  isProblemCode,
  limitWords,
  problemSentence,
  problemText,
} from '../../../../src/renderer/common/wording'

/** Every string literal the back end passes as a code: `code: '…'`, skip(…, '…'), drop(…, '…'). */
function emittedCodes(): Set<string> {
  const codes = new Set<string>()
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name)
      if (statSync(p).isDirectory()) walk(p)
      else if (p.endsWith('.ts')) {
        const text = readFileSync(p, 'utf8')
        for (const m of text.matchAll(/\bcode: '([a-z0-9-]+)'/g)) codes.add(m[1])
        for (const m of text.matchAll(/\b(?:skip|drop)\(\s*(?:ctx,\s*)?\w+,\s*'([a-z0-9-]+)'/g))
          codes.add(m[1])
        for (const m of text.matchAll(/problem(?:: |\(path, )'([a-z0-9-]+)'/g)) codes.add(m[1])
      }
    }
  }
  for (const dir of [
    'src/core/load-order',
    'src/node/load-order',
    'src/node/memory',
    'src/node/fs',
  ])
    walk(dir)
  for (const api of ['bad-request', 'forbidden', 'not-found', 'internal']) codes.delete(api)
  return codes
}

describe('problem codes become sentences', () => {
  it('knows every code the back end emits (a new code needs its sentence)', () => {
    const codes = emittedCodes()
    expect(codes.size).toBeGreaterThan(20)
    for (const named of ['agents-md-shadowed', 'import-needs-approval', 'binary', 'shadowed'])
      expect(codes, named).toContain(named)
    for (const code of codes) {
      const sentence = problemSentence(code)
      expect(sentence, code).not.toBe(code)
      // A written sentence, not the code spelled out from its words.
      expect(sentence.toLowerCase().replace(/[.]$/, ''), code).not.toBe(code.replace(/-/g, ' '))
    }
  })

  it('turns the codes the issue names into sentences and keeps the code in the tooltip', () => {
    expect(problemText('agents-md-shadowed')).toMatch(/CLAUDE\.md .* takes its place/)
    expect(problemText('import-missing')).toMatch(/does not exist/)
    expect(codeTooltip('import-missing')).toBe('code: import-missing')
    expect(codeTooltip('shadowed', 'AGENTS.override.md wins')).toContain('(code: shadowed)')
  })

  it('adds the back end detail after the sentence', () => {
    expect(problemText('excluded', 'matches claudeMdExcludes')).toBe(
      'Left out by the claudeMdExcludes setting. Matches claudeMdExcludes.',
    )
  })

  it('leaves free text alone and spells out an unknown code', () => {
    expect(isProblemCode('cannot read project folder: EACCES')).toBe(false)
    expect(problemText('cannot read project folder: EACCES')).toBe(
      'cannot read project folder: EACCES',
    )
    expect(problemSentence('some-new-code')).toBe('Some new code.')
  })
})

describe('limits and reference states in words', () => {
  it('names the MEMORY.md limit that cut the file, with its number', () => {
    expect(limitWords('lines')).toBe('the 200-line limit')
    expect(limitWords('chars')).toMatch(/^the 25.000-character limit$/)
    expect(limitWords(null)).toBe('the size limit')
  })

  it('has short words and a sentence for every reference state', () => {
    for (const status of ['ok', 'missing', 'moved', 'changed'] as const) {
      expect(REFERENCE_WORDS[status]).not.toBe('')
      expect(REFERENCE_SENTENCES[status]).toMatch(/^[A-Z].*\.$/)
    }
    expect(REFERENCE_WORDS.ok).toBe('still there')
  })
})
