/** The files a fenced example's language is written in (issue 12, precision; blind set AM). */
import { describe, expect, it } from 'vitest'
import { languageFiles, namesByLanguage } from '../../../../src/core/audit/fence-languages'
import { proseNames } from '../../../../src/core/audit/prose-names'
import { exampleSign } from '../../../../src/core/audit/placeholder-names'

describe('names a fenced example gives, by its language', () => {
  it('maps a fence language to its family of files', () => {
    expect(languageFiles('tsx')?.test('web/Form.jsx')).toBe(true)
    expect(languageFiles('tsx')?.test('api/forms.py')).toBe(false)
    expect(languageFiles('python')?.test('api/forms.py')).toBe(true)
    expect(languageFiles('')).toBeNull()
    expect(languageFiles('bash')).toBeNull()
  })

  it('restricts only names that fences of one known language alone give', () => {
    const by = namesByLanguage(
      [
        { lang: 'tsx', names: ['onSubmitDraft', 'sharedName', 'inProse'] },
        { lang: 'py', names: ['sharedName', 'load_rows'] },
        { lang: 'bash', names: ['load_rows'] },
      ],
      new Set(['inProse']),
    )
    expect([...by.keys()]).toEqual(['onSubmitDraft'])
  })

  it('gives them from a note, beside its names', () => {
    const text = 'The Form keeps drafts:\n\n```tsx\n<Form onSubmitDraft={save} />\n```\n'
    const p = proseNames(text)
    expect(p.names).toContain('onSubmitDraft')
    expect(p.fencedIn.get('onSubmitDraft')?.test('web/Form.tsx')).toBe(true)
    expect(p.fencedIn.has('Form')).toBe(false)
  })
})

describe('signs that a quote is an example', () => {
  it('reads placeholder names and good/bad markers, not an ordinary comment', () => {
    expect(exampleSign('func resourceFooRead() {}')).toBe(
      'it names `resourceFooRead`, a placeholder',
    )
    expect(exampleSign('// ❌ Bad - only metadata\nlogger.debug({ n })')).toBe(
      'it is marked as an example (`❌`)',
    )
    expect(exampleSign('# Wrong:\nrows = query(sql)')).toBe(
      'it is marked as an example (`# Wrong:`)',
    )
    expect(exampleSign('// avoid double render\nuseMemo(() => x, [x])')).toBeNull()
    expect(exampleSign('const football = 1\nconst barcode = 2')).toBeNull()
  })
})
