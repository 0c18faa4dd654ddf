// The evaluation's confusion matrix and figures (docs/eval-audit.md).

// ---- report ------------------------------------------------------------------------------------

export const LABELS = ['stale', 'fresh', 'uncheckable']
export const VERDICTS = ['stale', 'suspect', 'never-matched', 'fresh', 'unverifiable', 'error']
export const AGREE = { stale: 'stale', fresh: 'fresh', uncheckable: 'unverifiable' }

export function pct(num, den) {
  return den === 0 ? 'n/a' : `${Math.round((100 * num) / den)}%`
}

export function summarise(rows) {
  const matrix = Object.fromEntries(
    LABELS.map((l) => [l, Object.fromEntries(VERDICTS.map((v) => [v, 0]))]),
  )
  for (const r of rows) matrix[r.label][r.verdict]++
  const ran = rows.filter((r) => r.verdict !== 'error')
  const labelStale = ran.filter((r) => r.label === 'stale')
  const verdictStale = ran.filter((r) => r.verdict === 'stale')
  const labelFresh = ran.filter((r) => r.label === 'fresh')
  const recallHits = labelStale.filter(
    (r) => r.verdict === 'stale' || r.verdict === 'suspect',
  ).length
  const precisionHits = verdictStale.filter((r) => r.label === 'stale').length
  const freshSuspect = labelFresh.filter((r) => r.verdict === 'suspect').length
  const figures = {
    staleRecall: labelStale.length ? recallHits / labelStale.length : null,
    stalePrecision: verdictStale.length ? precisionHits / verdictStale.length : null,
    freshCalledSuspect: labelFresh.length ? freshSuspect / labelFresh.length : null,
    notes: ran.length,
  }
  const line = `stale recall ${pct(recallHits, labelStale.length)}, stale precision ${pct(precisionHits, verdictStale.length)}, fresh called suspect ${pct(freshSuspect, labelFresh.length)} over ${ran.length} notes`
  const disagreements = rows.filter((r) => AGREE[r.label] !== r.verdict)
  return { matrix, figures, line, disagreements }
}

export function textReport(s, rows, skipped, warnings) {
  const out = []
  for (const m of skipped) out.push(`skipped: ${m}`)
  for (const w of warnings) out.push(`warning: ${w}`)
  const byRepo = new Map()
  for (const r of rows) byRepo.set(r.repo, (byRepo.get(r.repo) ?? 0) + 1)
  out.push(
    `notes: ${rows.length} from ${byRepo.size} repositories (${[...byRepo].map(([k, v]) => `${k} ${v}`).join(', ')})`,
  )
  out.push('')
  out.push('confusion matrix (rows: label, columns: verdict)')
  const w = 15
  out.push(
    [
      'label \\ verdict'.padEnd(16),
      ...VERDICTS.map((v) => v.padStart(w)),
      'total'.padStart(8),
    ].join(''),
  )
  for (const l of LABELS) {
    const row = s.matrix[l]
    const total = VERDICTS.reduce((a, v) => a + row[v], 0)
    out.push(
      [
        l.padEnd(16),
        ...VERDICTS.map((v) => String(row[v]).padStart(w)),
        String(total).padStart(8),
      ].join(''),
    )
  }
  out.push('')
  out.push(
    `disagreements (${s.disagreements.length}): id | label | verdict | tool's first reason | label's reason`,
  )
  for (const r of s.disagreements)
    out.push(
      `${r.id} | ${r.label} | ${r.verdict} | ${oneLine(r.toolReason)} | ${oneLine(r.reason)}`,
    )
  out.push('')
  out.push(s.line)
  return out.join('\n')
}

export const oneLine = (s) =>
  String(s ?? '')
    .replace(/\s+/g, ' ')
    .trim()
