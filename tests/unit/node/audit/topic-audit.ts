/**
 * The setup the audit's history tests share: a repository whose commits carry labels (their
 * short SHAs kept by label), and a memory folder of one topic note per `[name, body]` with an
 * index, audited against it with fresh history and pickaxe caches.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { auditMemory } from '../../../../src/node/audit/audit'
import { clearHistoryCache } from '../../../../src/node/git/history'
import { clearPickaxeCache } from '../../../../src/node/audit/pickaxe'
import { git, gitAt } from '../../../helpers/git'
import { base, byTitle, topic } from './scripted-repo'

/**
 * A history test's repository and memory folder (`<name>-repo`, `<name>-mem` in the temp
 * folder); `commit` commits everything at `date` (the repository is made at the first commit,
 * files written before it included) and keeps the short SHA by label in `sha`.
 */
export function historyCase(name: string): {
  readonly repo: string
  readonly mem: string
  readonly sha: Record<string, string>
  readonly commit: (label: string, date: string) => void
} {
  const repo = join(base, `${name}-repo`)
  const sha: Record<string, string> = {}
  const commit = (label: string, date: string): void => {
    if (Object.keys(sha).length === 0) {
      mkdirSync(repo, { recursive: true })
      git(repo, 'init', '-q', '-b', 'main')
    }
    git(repo, 'add', '-A')
    gitAt(date, repo, 'commit', '-q', '-m', label)
    sha[label] = git(repo, 'rev-parse', 'HEAD').trim().slice(0, 7)
  }
  return { repo, mem: join(base, `${name}-mem`), sha, commit }
}

/** Write the notes (each says it was written at `written`) and audit them against `repo`. */
export async function auditTopics(
  repo: string,
  mem: string,
  notesBy: readonly (readonly [string, string])[],
  written: string,
): Promise<readonly AuditNote[]> {
  mkdirSync(mem)
  for (const [name, body] of notesBy)
    writeFileSync(join(mem, `${name}.md`), topic(body, written).replace('name: t', `name: ${name}`))
  writeFileSync(
    join(mem, 'MEMORY.md'),
    `# Memory\n\n${notesBy.map(([n]) => `- [${n}](${n}.md) — ${n}`).join('\n')}\n`,
  )
  clearHistoryCache()
  clearPickaxeCache()
  const r = await auditMemory({ memoryDir: mem, repo })
  expect(r.problems).toEqual([])
  return r.notes
}

/**
 * Checks on an audit's notes by title: `called` (the verdict, and names its reasons give) and
 * `quiet` (neither stale nor suspect: fresh or nothing checkable, or, with `example`, a quote
 * that never matched, "not a reference" and never counted).
 */
export function verdictChecks(notes: () => readonly AuditNote[]): {
  readonly called: (title: string, verdict: string, ...named: string[]) => void
  readonly quiet: (title: string, example?: boolean) => void
} {
  return {
    called: (title, verdict, ...named) => {
      const n = byTitle(notes(), title)
      expect(n.verdict, n.reasons.join('\n')).toBe(verdict)
      for (const x of named) expect(n.reasons.join('\n')).toContain(x)
    },
    quiet: (title, example = false) => {
      const n = byTitle(notes(), title)
      const ok = ['fresh', 'unverifiable', ...(example ? ['never-matched'] : [])]
      expect(ok, `${n.verdict}: ${n.reasons.join('\n')}`).toContain(n.verdict)
    },
  }
}
