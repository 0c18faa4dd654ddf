/**
 * A quote that elides its arguments, on a real git repository (issue 12 item 1; blind set X:
 * "`FindObject<UClass>(ANY_PACKAGE, ...)` first", the code then had `*Spec.ParentClass` where
 * the note has `...`, and the lookup was removed since). It was code when the note was written:
 * stale, naming the commit; never "never was in its code history".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { quoteNeedles } from '../../../../src/node/audit/reference-history'
import type { AuditNote } from '../../../../src/shared/model'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('quoteNeedles', () => {
  it('asks an elided argument list by its longest part, and keeps a spread as code', () => {
    expect(quoteNeedles('FindObject<UClass>(ANY_PACKAGE, ...)')).toEqual([
      { kind: 'text', text: 'FindObject<UClass>(ANY_PACKAGE,' },
    ])
    expect(quoteNeedles('merge(...parts)')).toEqual([{ kind: 'text', text: 'merge(...parts)' }])
  })
})

describe('a quote with elided arguments whose code went away', () => {
  const { repo, mem, commit, sha } = historyCase('elided-quote')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(
      repo,
      'Source/Builder.cpp',
      'UClass* Resolve(const FSpec& Spec)\n{\n    UClass* ParentClass = FindObject<UClass>(ANY_PACKAGE, *Spec.ParentClass);\n    return ParentClass;\n}\n',
    )
    write(
      repo,
      'Source/Keep.cpp',
      'void Keep()\n{\n    KeepObject(ANY_PACKAGE, *Spec.Name, Flags);\n}\n',
    )
    write(
      repo,
      'docs/plan.md',
      '    UClass* ParentClass = FindObject<UClass>(ANY_PACKAGE, *Spec.ParentClass);\n    KeepObject(ANY_PACKAGE, *S);\n',
    )
    commit('c1', '2026-05-20T12:00:00Z')
    write(
      repo,
      'Source/Builder.cpp',
      'UClass* Resolve(const FSpec& Spec)\n{\n    return LoadObject<UClass>(nullptr, *Spec.ParentClass);\n}\n',
    )
    write(
      repo,
      'Source/Keep.cpp',
      'void Keep()\n{\n    if (bReady) { KeepObject(ANY_PACKAGE, *Spec.Other, EKeep::All | EKeep::Deep); }\n}\n',
    )
    commit('load object', '2026-06-02T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Keep', 'Objects are kept with `KeepObject(ANY_PACKAGE, ...)`.'],
        [
          'Parent',
          '**Parent class:** `FindObject<UClass>(ANY_PACKAGE, ...)` first, then a fallback.',
        ],
      ],
      '2026-05-26T12:00:00Z',
    )
  }, 120_000)

  it('calls the note stale, naming the commit that removed the code', () => {
    const n = byTitle(notes, 'Parent')
    const text = n.reasons.join('\n')
    expect(n.verdict, text).toBe('stale')
    expect(text).toContain(sha['load object'].slice(0, 7))
    expect(text).toContain('was code when the note was written (`Source/Builder.cpp`)')
  })

  it('leaves a quote whose line the code still holds, changed, as it was', () => {
    const n = byTitle(notes, 'Keep')
    expect(n.verdict, n.reasons.join('\n')).not.toBe('stale')
  })
})
