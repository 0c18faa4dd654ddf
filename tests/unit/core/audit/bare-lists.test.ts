import { describe, expect, it } from 'vitest'
import { bareLists, heldInList, listFolder } from '../../../../src/core/audit/bare-lists'

describe('bare lists of names (blind set AV)', () => {
  it('reads a whole table cell or list item of four or more bare names', () => {
    expect(bareLists('| 🔴 CRITICAL | database, redis, qdrant, jwt | Blocks startup |')).toEqual([
      ['database', 'redis', 'qdrant', 'jwt'],
    ])
    expect(bareLists('- oauth, email, n8n, storage, smoldocling/reranker')).toEqual([
      ['oauth', 'email', 'n8n', 'storage', 'smoldocling', 'reranker'],
    ])
    // Three names, a sentence, capitals: not a list of one folder's files.
    expect(bareLists('| x | database, redis, jwt |')).toEqual([])
    expect(bareLists('We use database, redis, qdrant, jwt for this.')).toEqual([])
    expect(bareLists('| Python, Go, Rust, Java |')).toEqual([])
  })

  it('finds the folder holding two thirds of the names, at least three, as files or folders', () => {
    const files = [
      'infra/secrets/database.secret.example',
      'infra/secrets/redis.secret.example',
      'infra/secrets/jwt.secret.example',
      'skills/redis/SKILL.md',
      'src/database.ts',
    ]
    const names = ['database', 'redis', 'qdrant', 'jwt']
    expect(listFolder(files, names)).toBe('infra/secrets')
    expect(heldInList(files, names, 'redis')).toBe(true)
    expect(heldInList(files, names, 'qdrant')).toBe(false)
    // Two of six in any one folder: no folder is the list's.
    expect(listFolder(files, [...names, 'admin', 'email'])).toBeNull()
    expect(
      listFolder(
        ['skills/a/SKILL.md', 'skills/b/SKILL.md', 'skills/c/SKILL.md'],
        ['a', 'b', 'c', 'd'],
      ),
    ).toBe('skills')
  })
})
