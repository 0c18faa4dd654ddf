/**
 * Audit benchmark: builds a repository with `git fast-import` (many files, a long
 * history with edits, renames and deletions), a memory folder whose notes name
 * paths, symbols, commands and quotes in it, then times `auditMemory` (cold
 * history cache) against the raw `git log --name-status` over the same repository.
 *
 * Run through vitest (tests/unit/bench/audit-bench-smoke.test.ts); raise the size with
 * AUDIT_BENCH_SCALE=100 (20,000 files, 10,000 commits, 300 notes).
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { auditMemory } from '../src/node/audit/audit'
import { clearHistoryCache } from '../src/node/git/history'
import { runGit } from '../src/node/git/run'
import type { Verdict } from '../src/shared/model'

export interface AuditBenchOptions {
  readonly files: number
  readonly commits: number
  readonly notes: number
  /** Keep the generated folders (default: removed). */
  readonly keep?: boolean
}

export interface AuditBenchResult {
  readonly files: number
  readonly commits: number
  readonly notes: number
  readonly setupMs: number
  readonly auditMs: number
  /** A second audit of the same HEAD: the history comes from the per-commit cache. */
  readonly warmAuditMs: number
  readonly baselineMs: number
  /** auditMs / baselineMs. */
  readonly ratio: number
  readonly summary: Readonly<Record<Verdict, number>>
  readonly dir: string
}

/** A small deterministic random generator, so every run builds the same repository. */
function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0
    return s / 0x100000000
  }
}

const pathOf = (i: number): string => `src/d${i % 200}/file ${i}.ts`
const body = (i: number, v: number): string =>
  `export function fn${i}() {\n  return ${i} + ${v}\n}\n// version ${v}\n`

/** Build the repository, run the audit and the baseline, and report both times. */
export async function runAuditBench(opts: AuditBenchOptions): Promise<AuditBenchResult> {
  const started = Date.now()
  const dir = mkdtempSync(join(tmpdir(), 'mc-bench-'))
  const repo = join(dir, 'repo')
  const mem = join(dir, 'memory')
  mkdirSync(repo)
  mkdirSync(mem)
  spawnSync('git', ['init', '-q', '-b', 'main'], { cwd: repo })
  const rand = rng(42)
  const names = new Map<number, string>() // file id → current path (absent when deleted)
  const renamedFrom = new Map<string, number>()
  const deleted: string[] = []
  const chunks: string[] = []
  const data = (s: string): string => `data ${Buffer.byteLength(s)}\n${s}\n`
  const t0 = Date.parse('2025-01-01T00:00:00Z') / 1000
  const step = Math.max(1, Math.floor((365 * 86400) / Math.max(1, opts.commits)))
  for (let c = 0; c < opts.commits; c++) {
    const when = t0 + c * step
    chunks.push(`commit refs/heads/main\ncommitter t <t@t> ${when} +0000\n${data(`c${c}`)}`)
    // Later commits on the same branch chain onto the previous one (fast-import).
    if (c === 0) {
      for (let i = 0; i < opts.files; i++) {
        names.set(i, pathOf(i))
        chunks.push(`M 100644 inline ${JSON.stringify(pathOf(i))}\n${data(body(i, 0))}`)
      }
      chunks.push(
        `M 100644 inline package.json\n${data(JSON.stringify({ scripts: { build: 'tsc', test: 'vitest' } }))}`,
      )
    } else {
      const live = [...names.keys()]
      for (let k = 0; k < 3 && live.length > 0; k++) {
        const id = live[Math.floor(rand() * live.length)]
        const p = names.get(id)
        if (!p) continue
        const r = rand()
        if (r < 0.05) {
          const to = `src/moved/m${c}-${k}.ts`
          chunks.push(`R ${JSON.stringify(p)} ${JSON.stringify(to)}\n`)
          renamedFrom.set(p, id)
          names.set(id, to)
        } else if (r < 0.08) {
          chunks.push(`D ${JSON.stringify(p)}\n`)
          names.delete(id)
          deleted.push(p)
        } else {
          chunks.push(`M 100644 inline ${JSON.stringify(p)}\n${data(body(id, c))}`)
        }
      }
    }
    chunks.push('\n')
  }
  const imported = spawnSync('git', ['fast-import', '--quiet'], {
    cwd: repo,
    input: chunks.join(''),
    maxBuffer: 1 << 30,
  })
  if (imported.status !== 0)
    throw new Error(`git fast-import failed: ${imported.stderr.toString()}`)
  spawnSync('git', ['reset', '-q', '--hard', 'main'], { cwd: repo })

  // Notes: a mix of live, renamed and deleted paths, symbols, commands and quotes.
  const renamed = [...renamedFrom.keys()]
  const index: string[] = ['# Memory', '']
  const mid = new Date((t0 + (opts.commits * step) / 2) * 1000).toISOString()
  for (let n = 0; n < opts.notes; n++) {
    const id = Math.floor(rand() * opts.files)
    const kind = n % 5
    const p =
      kind === 1 && renamed.length > 0
        ? renamed[n % renamed.length]
        : kind === 2 && deleted.length > 0
          ? deleted[n % deleted.length]
          : pathOf(id)
    const text =
      kind === 3
        ? `Run \`npm run ${n % 2 === 0 ? 'build' : 'lint'}\`; \`fn${id}()\` is the entry.`
        : kind === 4
          ? `Quoted:\n\n\`\`\`ts\nexport function fn${id}() {\n  return ${id} + 0\n}\n\`\`\``
          : `See \`${p}\` and \`fn${id}()\`.`
    writeFileSync(
      join(mem, `note-${n}.md`),
      `---\nname: n${n}\ndescription: d\nupdated: ${mid}\n---\n${text}\n`,
    )
    index.push(`- [Note ${n}](note-${n}.md) — hook`)
  }
  writeFileSync(join(mem, 'MEMORY.md'), `${index.join('\n')}\n`)
  const setupMs = Date.now() - started

  clearHistoryCache()
  const a0 = performance.now()
  const result = await auditMemory({ memoryDir: mem, repo })
  const auditMs = performance.now() - a0
  const w0 = performance.now()
  await auditMemory({ memoryDir: mem, repo })
  const warmAuditMs = performance.now() - w0
  const b0 = performance.now()
  const base = await runGit(['log', '--name-status'], { cwd: repo, timeoutMs: 600_000 })
  const baselineMs = performance.now() - b0
  if (base.code !== 0) throw new Error(`baseline git log failed: ${base.stderr}`)
  if (!opts.keep) rmSync(dir, { recursive: true, force: true })
  return {
    files: opts.files,
    commits: opts.commits,
    notes: result.notes.length,
    setupMs,
    auditMs,
    warmAuditMs,
    baselineMs,
    ratio: auditMs / baselineMs,
    summary: result.summary,
    dir,
  }
}
