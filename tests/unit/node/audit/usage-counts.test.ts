/**
 * A count of the files using a piece of code, on a real git repository (issue 12: counts that
 * changed; blind set Z: "30 个测试文件使用 `import pytest`", 93 files since). A count that held
 * when the note was written and differs now flags the note; a value beside a name, or a count
 * that never held, says nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { usageCountClaims } from '../../../../src/core/audit/count-claims'
import type { AuditNote } from '../../../../src/shared/model'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('usageCountClaims', () => {
  it('reads a number of files or places beside one back-ticked piece of code', () => {
    expect(usageCountClaims('- 30 test files use `import pytest`')).toEqual([
      { count: 30, written: '30', code: 'import pytest' },
    ])
    expect(usageCountClaims('- 30 个测试文件使用 `import pytest`')).toEqual([
      { count: 30, written: '30', code: 'import pytest' },
    ])
    expect(usageCountClaims('`useAuth()` is called in 14 places.')).toEqual([
      { count: 14, written: '14', code: 'useAuth()' },
    ])
  })

  it('reads no value beside a name, and no count of two pieces of code', () => {
    expect(usageCountClaims('`MAX_RETRIES` is 3 by default')).toEqual([])
    expect(usageCountClaims('12 files use `foo` or `bar`')).toEqual([])
    expect(usageCountClaims('`src/app.ts` has 30 lines')).toEqual([])
  })
})

describe('a count of the files that use some code', () => {
  const { repo, mem, commit } = historyCase('usage-counts')
  let notes: readonly AuditNote[] = []
  const tests = (n: number): void => {
    for (let i = 0; i < n; i++)
      write(repo, `tests/test_${i}.py`, `import pytest\n\ndef test_${i}(): pass\n`)
  }

  beforeAll(async () => {
    tests(3)
    write(repo, 'docs/testing.md', 'Every test starts with `import pytest`.\n')
    commit('c1', '2026-03-01T12:00:00Z')
    tests(5)
    commit('more tests', '2026-03-20T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Pytest', '- 3 test files use `import pytest`'],
        ['Wrong', '- 7 test files use `import pytest`'],
      ],
      '2026-03-10T12:00:00Z',
    )
  }, 120_000)

  it('flags a count that held then and differs now, with both counts', () => {
    const n = byTitle(notes, 'Pytest')
    const text = n.reasons.join('\n')
    expect(n.verdict, text).toBe('suspect')
    expect(text).toContain('3 code files holding it when the note was written')
    expect(text).toContain('5 now')
  })

  it('says nothing of a count that never held', () => {
    expect(byTitle(notes, 'Wrong').reasons.join('\n')).not.toContain('uses of')
  })
})
