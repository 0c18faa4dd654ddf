import { describe, expect, it } from 'vitest'
import {
  distinctiveLines,
  lineSimilarity,
  matchSnippet,
} from '../../../../src/core/audit/snippet-match'

describe('matchSnippet', () => {
  const file = [
    'import x',
    '',
    'function f() {',
    '    const a = 1',
    '    return a + 2',
    '}',
    '',
  ].join('\n')

  it('finds exact quotes whatever the indentation', () => {
    expect(matchSnippet('const a = 1\nreturn a + 2', file)).toMatchObject({
      kind: 'exact',
      startLine: 4,
      endLine: 5,
      score: 1,
    })
    expect(matchSnippet('a = 1', file)).toMatchObject({ kind: 'exact', startLine: 4 })
  })

  it('finds a one-line quote a formatter re-spaced (hidden set K)', () => {
    const rust = 'fn dirs() {\n    ProjectDirs::from("", "", "Zord")\n}\n'
    expect(matchSnippet('ProjectDirs::from("","","Zord")', rust)).toMatchObject({
      kind: 'exact',
      startLine: 2,
    })
    expect(matchSnippet('ProjectDirs::from("","","Zorb")', rust).kind).not.toBe('exact')
  })

  it('finds a one-line quote the file wraps over lines (hidden set G)', () => {
    const toml = '[project]\nname = "x"\n\n[tool.pytest.ini_options]\npythonpath = ["src"]\n'
    expect(matchSnippet('[tool.pytest.ini_options] pythonpath = ["src"]', toml)).toMatchObject({
      kind: 'exact',
      startLine: 4,
      endLine: 5,
    })
    expect(matchSnippet('const a = 1 return a + 2', file)).toMatchObject({
      kind: 'exact',
      startLine: 4,
      endLine: 5,
    })
    // Words the file holds over lines, but not in that order, are not the quote.
    expect(matchSnippet('[tool.pytest.ini_options] pythonpath = ["lib"]', toml).kind).not.toBe(
      'exact',
    )
  })

  it('calls a lightly edited quote similar and a rewritten one gone', () => {
    expect(matchSnippet('function f() {\n  const a = 1\n  return a + 3\n}', file)).toMatchObject({
      kind: 'similar',
      startLine: 3,
      endLine: 6,
      score: 0.875,
    })
    expect(matchSnippet('while (true) {\n  sleep(1)\n}', file).kind).toBe('none')
    expect(matchSnippet('', file).kind).toBe('none')
  })

  it('picks distinctive lines and measures line similarity', () => {
    expect(distinctiveLines('}\nconst total = computeTotal(items)\nreturn total\n')).toEqual([
      'const total = computeTotal(items)',
      'return total',
    ])
    expect(lineSimilarity('abc', 'abc')).toBe(1)
    expect(lineSimilarity('const a = 1', 'let b = 2')).toBeLessThan(0.6)
  })
})
