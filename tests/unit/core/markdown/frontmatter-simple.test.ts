import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'
import { parseFrontmatter, parseSimpleMapping } from '../../../../src/core/markdown/frontmatter'

/** What `yaml` makes of a body, as parseFrontmatter did before the line scanner. */
function viaYaml(body: string): unknown {
  const v: unknown = parse(body, { maxAliasCount: 50, prettyErrors: false })
  return v && typeof v === 'object' && !Array.isArray(v) ? v : {}
}

const VALUES = [
  'infra feedback note 2',
  'g bucket is eventually consistent. Prefer small pull requests',
  'ba85827c-aa3c-46da-86c2-cde511f62555',
  '8069f8bf-e66a-48b1-8f7a-4947cbd63566',
  'C# and F#',
  "don't push on Fridays",
  'say "hi" twice',
  'http://example.com/a?b=c',
  'uses {x} and [y], z',
  'a — b – c … ü ß 日本',
  '(parenthesised)',
  '/abs/path.md',
  '2024-01-01',
  '2024 plans',
  '1_000',
  '0b101',
  '1:20',
  '1e',
  '12abc',
  'x: y',
  'ends with colon:',
  'has # comment',
  'true',
  'False',
  'NULL',
  'yes',
  'no',
  'on',
  '~',
  '42',
  '0o17',
  '0x1F',
  '3.14',
  '1e10',
  '6.',
  '.5',
  '-1',
  '+1',
  '.inf',
  '.nan',
  '- item',
  '-dash',
  '"quoted"',
  "'single'",
  '&anchor x',
  '*alias',
  '!tag x',
  '|',
  '>',
  '[a, b]',
  '{a: b}',
  '@at',
  '`tick`',
  '%pct',
  '?q',
  ':colon',
  '. The build runs',
  '; the staging bucket',
  ', so keep it',
  '-v flag',
  '-.inf',
  '.Inf',
  '.NaN',
  '.5e3',
  '.e5',
  '...',
  '..',
  '.',
  ';',
  '-',
  '-x: y',
  'trailing spaces   ',
  '',
]

describe('parseSimpleMapping', () => {
  it('reads simple key: value lines exactly as yaml does, or declines', () => {
    for (const v of VALUES) {
      for (const key of ['name', 'description', 'type', 'originSessionId']) {
        const body = `${key}: ${v}\n`
        const simple = parseSimpleMapping(body)
        if (simple !== null) expect({ v, got: simple }).toEqual({ v, got: viaYaml(body) })
      }
    }
  })

  it('handles the topic files scan sees without yaml', () => {
    const body =
      'name: infra feedback note 2\ndescription: the bucket is eventually consistent\n' +
      'type: feedback\noriginSessionId: ba85827c-aa3c-46da-86c2-cde511f62555\n'
    expect(parseSimpleMapping(body)).toEqual(viaYaml(body))
    expect(parseSimpleMapping('')).toEqual({})
    expect(parseSimpleMapping('\n\nname: a\n\n')).toEqual({ name: 'a' })
    // Descriptions cut mid-sentence (issue 16): read without yaml too.
    for (const v of ['. The build runs', '; the bucket', '-v flag'])
      expect(parseSimpleMapping(`description: ${v}\n`)).toEqual({ description: v })
  })

  it('declines anything beyond simple lines', () => {
    const declined = [
      'name: a\nname: b\n', // duplicate key: a yaml error
      'name:\n', // null value
      'name: a\n  more\n', // continuation
      '# comment\nname: a\n',
      'tags:\n  - a\n',
      'name: a\r\n',
      'name:\ta\n',
      'true: x\n',
      'name: 42\n',
      'name: "q"\n',
      'name:a\n',
      '  name: a\n',
      'name: a # c\n',
      'name: \ufeffa\n',
      'name: a\u2028b\n',
    ]
    for (const body of declined)
      expect({ body, r: parseSimpleMapping(body) }).toEqual({ body, r: null })
  })

  it('agrees with yaml on generated bodies (differential)', () => {
    let seed = 12345
    const rnd = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed % n
    }
    let accepted = 0
    const alphabet = 'ab Z09_-:;#."\'{}[],&*!|>%@`~?/()\\ü—\t'
    for (let i = 0; i < 3000; i++) {
      const lines: string[] = []
      const n = 1 + rnd(4)
      for (let j = 0; j < n; j++) {
        let v = ''
        const len = rnd(12)
        for (let k = 0; k < len; k++) v += alphabet[rnd(alphabet.length)]
        lines.push(`${['name', 'type', 'description', 'k'][rnd(4)]}:${rnd(5) === 0 ? '' : ' '}${v}`)
      }
      const body = `${lines.join('\n')}\n`
      const simple = parseSimpleMapping(body)
      if (simple === null) continue
      accepted++
      expect({ body, simple }).toEqual({ body, simple: viaYaml(body) })
    }
    // The comparison means something only when the scanner accepted a good share.
    expect(accepted).toBeGreaterThan(200)
  })

  it('leaves parseFrontmatter results unchanged', () => {
    const text = '---\nname: a\ntype: project\n---\nbody\n'
    expect(parseFrontmatter(text)).toEqual({
      kind: 'ok',
      data: { name: 'a', type: 'project' },
      lineCount: 4,
      length: 30,
    })
    const big = `---\nname: ${'x'.repeat(70 * 1024)}\n---\n`
    expect(parseFrontmatter(big).kind).toBe('error')
  })
})
