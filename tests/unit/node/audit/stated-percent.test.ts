/**
 * Values a note states as a percentage or a time of day, in English or another script, that a
 * setting held when the note was written and holds no more (hidden set H, docs/eval-audit.md):
 * `-0.5%` beside `stop_loss: float = -0.005`, `거래세: 0.18%` beside a line whose comment names
 * 거래세, `14:30` beside `force_close_time`. A value the setting still holds keeps its note fresh.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

const params = (stop: string, tax: string, close: string): string =>
  [
    '@dataclass',
    'class MomentumParams:',
    `    stop_loss: float = ${stop}  # stop`,
    '    take_profit: float = 0.010  # +1.0%',
    `    force_close_time: str = "${close}"  # 강제 청산 시각 (HH:MM)`,
    `    tax_rate: float = ${tax}  # 매도 시 거래세`,
    '',
  ].join('\n')

describe('percentages and times a setting no longer holds, on a real repository', () => {
  const { repo, mem, sha, commit } = historyCase('pct')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(repo, 'src/backtest/strategy.py', params('-0.005', '0.0018', '14:30'))
    commit('c1', '2026-01-01T12:00:00Z')
    write(repo, 'src/backtest/strategy.py', params('-0.015', '0.0020', '15:15'))
    commit('retune', '2026-03-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Stop', '| stop_loss | -0.5% | -0.3%~-0.8% | MDD control |'],
        ['Tax', '## 거래비용\n- 거래세: 0.18% (매도 시)'],
        ['Close', '- 강제: 14:30 미청산 포지션 전량 청산'],
        ['Profit', '- take profit is fixed at +1.0%'],
      ],
      '2026-02-15T00:00:00Z',
    )
  }, 120_000)

  it('calls a note suspect when the setting holds another fraction now, naming the commit', () => {
    const n = byTitle(notes, 'Stop')
    expect(n.verdict).toBe('suspect')
    expect(n.reasons[0]).toContain('the note states `0.5%`')
    expect(n.reasons[0]).toContain('stop_loss: float = -0.015')
    expect(n.reasons[0]).toContain(sha.retune)
  })

  it('reads a sentence in Korean by the words of the line and its comment', () => {
    expect(byTitle(notes, 'Tax').verdict).toBe('suspect')
    expect(byTitle(notes, 'Tax').reasons[0]).toContain('tax_rate: float = 0.0020')
    expect(byTitle(notes, 'Close').verdict).toBe('suspect')
    expect(byTitle(notes, 'Close').reasons[0]).toContain('the note states `14:30`')
  })

  it('keeps a note fresh when the setting still holds its value', () => {
    expect(byTitle(notes, 'Profit').verdict).not.toBe('suspect')
  })
})
