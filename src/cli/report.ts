/** Readable reports for a person (the CLI without --json). Pure formatting of the contract's shapes. */
import type {
  AuditResult,
  CutoffResult,
  LoadOrderResult,
  ProvenanceResult,
  ScanResult,
} from '../shared/model'
import { MEMORY_MAX_CHARS, MEMORY_MAX_LINES } from '../core/limits'

export function scanReport(r: ScanResult): string {
  const out = [`Claude home: ${r.claudeHome}`, `${r.projects.length} project folder(s)`]
  for (const p of r.problems) out.push(`  ! ${p.path}: ${p.reason}`)
  for (const p of r.projects) {
    out.push('', `${p.name}  (${p.id})`)
    out.push(`  launched in: ${p.cwds.length ? p.cwds.join(', ') : 'unknown'}`)
    if (p.repoRoot) out.push(`  repository:  ${p.repoRoot}`)
    out.push(`  sessions:    ${p.sessions}`)
    if (p.memoryDir) out.push(`  memory:      ${p.memoryDir} (${p.memoryFiles.length} file(s))`)
    for (const q of p.problems) out.push(`  ! ${q.path}: ${q.reason}`)
  }
  return out.join('\n')
}

export function cutoffReport(r: CutoffResult): string {
  const out = [
    r.file,
    `  loaded: ${r.loadedLines} of ${MEMORY_MAX_LINES} lines, ${r.loadedChars} of ${MEMORY_MAX_CHARS} characters (UTF-16 units; ${r.loadedBytes} UTF-8 bytes)`,
    `  file:   ${r.totalLines} lines, ${r.totalChars} characters, ${r.totalBytes} bytes`,
    r.limitHit
      ? `  cut by the ${r.limitHit} limit: from line ${r.firstUnloadedLine ?? '?'} on, nothing loads at session start`
      : '  everything loads',
  ]
  const unloaded = r.entries.filter((e) => !e.loaded)
  if (unloaded.length) {
    out.push(`  ${unloaded.length} entr${unloaded.length === 1 ? 'y does' : 'ies do'} not load:`)
    for (const e of unloaded)
      out.push(`    line ${e.line}: ${e.title}${e.target ? ` → ${e.target}` : ''}`)
  }
  for (const d of r.dangling)
    out.push(`  dangling link, line ${d.line}: ${d.target} does not exist`)
  for (const o of r.orphans) out.push(`  orphan topic file (no entry links it): ${o}`)
  for (const p of r.problems) out.push(`  ! ${p.path}: ${p.reason}`)
  return out.join('\n')
}

export function loadOrderReport(r: LoadOrderResult): string {
  const out = [`Launched in ${r.cwd}`, '', 'Claude Code loads at start, in order:']
  r.claude.startup.forEach((f, i) =>
    out.push(
      `  ${i + 1}. [${f.scope}] ${f.path}${f.importedBy ? ` (imported by ${f.importedBy})` : ''} — ${f.lines} lines, ${f.chars} chars`,
    ),
  )
  if (r.claude.onDemand.length) out.push('', 'On demand:')
  for (const f of r.claude.onDemand) out.push(`  [${f.scope}] ${f.path} — when ${f.trigger}`)
  if (r.claude.skipped.length) out.push('', 'Skipped:')
  for (const s of r.claude.skipped) out.push(`  ${s.path}: ${s.reason}`)
  if (r.claude.warnings.length) out.push('', 'Warnings:')
  for (const w of r.claude.warnings) out.push(`  ${w.code} ${w.path}: ${w.message}`)
  out.push('', `Codex (budget ${r.codex.budgetBytes} bytes):`)
  for (const f of r.codex.files) {
    out.push(
      `  [${f.scope}] ${f.path} — ${f.includedBytes} of ${f.bytes} bytes${f.truncated ? ' (cut)' : ''}`,
    )
  }
  for (const d of r.codex.dropped) out.push(`  dropped ${d.path}: ${d.reason}`)
  return out.join('\n')
}

export function auditReport(r: AuditResult): string {
  const s = r.summary
  const out = [
    `Repository: ${r.repo ?? 'none'}`,
    `${s.stale} stale, ${s.suspect} suspect, ${s.fresh} fresh, ${s['never-matched']} never matched, ${s.unverifiable} unverifiable`,
  ]
  for (const p of r.problems ?? []) out.push(`  ! ${p.path}: ${p.reason}`)
  const order = { stale: 0, suspect: 1, 'never-matched': 2, unverifiable: 3, fresh: 4 } as const
  for (const n of [...r.notes].sort((a, b) => order[a.verdict] - order[b.verdict])) {
    out.push('', `${n.verdict.toUpperCase()}  ${n.title}  (${n.file}:${n.line})`)
    for (const reason of n.reasons) out.push(`  - ${reason}`)
  }
  return out.join('\n')
}

/** A provenance file as the CLI prints it: with the evidence of its notes when known (issue 12 item 10). */
type ReportedFile = ProvenanceResult['files'][number] & {
  readonly evidence?: readonly {
    readonly line: number
    readonly title: string
    readonly state: string
    readonly reason: string
  }[]
}

export function provenanceReport(r: { readonly files: readonly ReportedFile[] }): string {
  const out: string[] = []
  for (const f of r.files) {
    out.push(f.path)
    for (const e of f.evidence ?? [])
      out.push(
        `  evidence, line ${e.line} "${e.title}": ${EVIDENCE_WORDS[e.state] ?? e.state} — ${e.reason}`,
      )
    for (const w of f.writes) {
      out.push(
        `  ${w.timestamp}  ${w.tool.padEnd(9)} ${w.ok ? 'ok    ' : 'FAILED'} session ${w.sessionId} on ${w.gitBranch || '-'} in ${w.cwd}`,
      )
    }
    for (const l of f.lost)
      out.push(`  lost: "${l.text}" (added by ${l.addedBy}, removed by ${l.removedBy})`)
    out.push('')
  }
  return out.length ? out.join('\n') : 'no memory writes found in transcripts'
}

const EVIDENCE_WORDS: Readonly<Record<string, string>> = {
  live: 'transcript on disk',
  archived: 'archived',
  none: 'none',
}
