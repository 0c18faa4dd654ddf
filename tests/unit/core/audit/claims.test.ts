/** The pure readers of claims no reference carries: absence, counts, stated values. */
import { describe, expect, it } from 'vitest'
import { absenceClaims } from '../../../../src/core/audit/absence-claims'
import {
  changedCounts,
  countClaims,
  documentCounts,
  folderCounts,
  seriesClaims,
} from '../../../../src/core/audit/count-claims'
import { extractReferences } from '../../../../src/core/audit/references'
import {
  fractionOf,
  holdsValue,
  keyOf,
  valueChanged,
  valueClaims,
} from '../../../../src/core/audit/stated-values'

describe('absenceClaims', () => {
  it('reads TODO lines, plan sections, build verbs and negated lists', () => {
    const text = [
      '- TODO: `forget` word',
      'Components: `Shipped.astro`.',
      '**Phase 2 (not yet started):**',
      '- Pipeline (`shibui:distill`)',
      '',
      'Then `afterPlan` runs.',
      '**How to apply:** Build a tool (`reconcile.py` or `log-dm` command).',
      'This project has no `type-check` or `build` scripts.',
    ].join('\n')
    expect(absenceClaims(text)).toEqual([
      { name: 'forget', kind: 'word', why: 'planned' },
      { name: 'shibui:distill', kind: 'word', why: 'planned' },
      { name: 'reconcile.py', kind: 'path', why: 'planned' },
      { name: 'log-dm', kind: 'word', why: 'planned' },
      { name: 'type-check', kind: 'script', why: 'negated' },
      { name: 'build', kind: 'script', why: 'negated' },
    ])
  })

  it('reads a task line that adds back-ticked names as a plan (blind set S)', () => {
    const text = [
      '- Add `_picking_mcp`, `_mcp_list` state to `HiveApp`',
      '- The adder calls `addItem` when asked.',
    ].join('\n')
    expect(absenceClaims(text)).toEqual([
      { name: '_picking_mcp', kind: 'word', why: 'planned' },
      { name: '_mcp_list', kind: 'word', why: 'planned' },
      { name: 'HiveApp', kind: 'word', why: 'planned' },
    ])
  })

  it('reads a lower-case "todo" as the Spanish word, not a plan', () => {
    const text =
      'El token vive en una cookie `HttpOnly`; todo lo "en vivo" se resuelve con `refresh()`.'
    expect(absenceClaims(text)).toEqual([])
    expect(absenceClaims('TODO: `HttpOnly` cookie')).toEqual([
      { name: 'HttpOnly', kind: 'word', why: 'planned' },
    ])
  })

  it('reads an open task item as a plan in any language, not a done one (blind set BY)', () => {
    const text = [
      '- [ ] 实现 `getMe` 接口',
      '- [x] Implement `listUsers` in `UserController`',
      '1. [ ] `exportCsv` for reports',
    ].join('\n')
    expect(absenceClaims(text)).toEqual([
      { name: 'getMe', kind: 'word', why: 'planned' },
      { name: 'exportCsv', kind: 'word', why: 'planned' },
    ])
  })

  it('scopes a plan word to its sentence in a long paragraph', () => {
    const text = 'Runs `worker` today. A roadmap issue is open. Also `other` exists.'
    expect(absenceClaims(text)).toEqual([])
  })
})

describe('countClaims', () => {
  it('pairs a prose number with a path in the same sentence, not list numbers, dates or units', () => {
    const text =
      '1. There are 20 pages under `src/pages/`. Written 2026-03-01, 1200kB.\n- `base/` (five templates)'
    const claims = countClaims(text, extractReferences(text))
    expect(claims.map((c) => [c.count, c.path])).toEqual([
      [20, 'src/pages'],
      [5, 'base'],
    ])
  })

  it('takes a product’s version beside a folder for no count', () => {
    const text = '- `webapp/` — Next.js 15 (App Router) + Python 3, with 12 pages in `webapp/`'
    expect(countClaims(text, extractReferences(text)).map((c) => c.count)).toEqual([12])
  })

  it('counts folder entries and numbered document items, and says which changed', () => {
    const then = folderCounts([
      { name: 'a.html', dir: false },
      { name: 'a.pdf', dir: false },
      { name: 'b.html', dir: false },
    ])
    expect(then.get('`.html` files')).toBe(2)
    const now = folderCounts([{ name: 'a.html', dir: false }])
    expect(changedCounts(2, then, now)).toEqual([{ what: '`.html` files', then: 2, now: 1 }])
    expect(documentCounts('# T\n## 1. A\n## 2. B\n1. x\n')).toEqual(
      new Map([
        ['numbered headings', 2],
        ['numbered list items', 1],
      ]),
    )
  })
})

describe('valueClaims', () => {
  it('reads pairs, URLs with their sites, and numbers with their sentence words', () => {
    const claims = valueClaims('Limit is 1200kB. `entries: []` at https://a.example.io/docs/ now.')
    expect(claims.map((c) => c.needle)).toEqual([
      'entries',
      'https://a.example.io/docs',
      'https://a.example.io',
      '1200',
    ])
    const num = claims[3]
    expect(holdsValue(num, '  chunkSizeWarningLimit: 1200,')).toBe(true)
    expect(holdsValue(num, 'export const width = 1200')).toBe(false)
    expect(
      valueChanged(num, '  chunkSizeWarningLimit: 1200,', 'x\n  chunkSizeWarningLimit: 1800,\n'),
    ).toEqual({
      line: 2,
      text: '  chunkSizeWarningLimit: 1800,',
    })
    // A key gone now says nothing.
    expect(valueChanged(num, '  chunkSizeWarningLimit: 1200,', 'x\n')).toBeNull()
  })

  it("leaves a unit's scale alone, not a value set by arithmetic (blind set AA gs-t02)", () => {
    const [total] = valueClaims('Min stock counts: 50 long, 100 total.').filter(
      (c) => c.needle === '100',
    )
    expect(holdsValue(total, '    avg_long_pct = np.sum(long_positions) / total * 100')).toBe(false)
    expect(holdsValue(total, '    min_total = 100  # long and short')).toBe(true)
    const [secs] = valueClaims('The lock timeout is 30 minutes.').filter((c) => c.needle === '30')
    expect(holdsValue(secs, '  LOCK_TIMEOUT = 30 * 60')).toBe(true)
  })

  it('reads a path of names as a name, not a pair (blind set R)', () => {
    expect(valueClaims('Tool results must use `Role::Tool`, not `Role::User`.')).toEqual([])
    expect(valueClaims('Set `mode: strict` here.').map((c) => c.needle)).toEqual(['mode'])
  })
})

describe('percentages, times of day and words of other scripts (hidden set H)', () => {
  it('reads a percentage as the fraction code sets', () => {
    expect(['0.18', '1.0', '0.5', '15', '3', '100', '0', '250'].map(fractionOf)).toEqual([
      '0.0018',
      '0.01',
      '0.005',
      '0.15',
      '0.03',
      null,
      null,
      null,
    ])
    const [stop] = valueClaims('| stop_loss | -0.5% | MDD control |')
    expect(stop).toMatchObject({ value: '0.005', written: '0.5%', fraction: true })
    expect(holdsValue(stop, '    stop_loss: float = -0.005  # -0.5%')).toBe(true)
    expect(holdsValue(stop, '    take_profit: float = 0.005')).toBe(false)
    const then = '    stop_loss: float = -0.005  # -0.5%'
    expect(valueChanged(stop, then, 'x\n    stop_loss: float = -0.015  # wider\n')).toEqual({
      line: 2,
      text: '    stop_loss: float = -0.015  # wider',
    })
    // The same number written with another trailing zero is the same setting.
    const [tp] = valueClaims('Take profit at +1.0% fixed.')
    expect(valueChanged(tp, '  take_profit = 0.010', 'x\n  take_profit = 0.01 # same\n')).toBeNull()
  })

  it('matches a sentence in another script by the words of the line and its comment', () => {
    const [tax] = valueClaims('- 거래세: 0.18% (매도 시)')
    expect(tax.words).toEqual(['거래세', '매도'])
    expect(holdsValue(tax, '    tax_rate: float = 0.0018  # 매도 시 거래세 0.18%')).toBe(true)
    expect(holdsValue(tax, '    fee_rate: float = 0.0018')).toBe(false)
  })

  it('reads a setting a formatter wrapped over lines', () => {
    const [close] = valueClaims('- 강제: 14:30 미청산 포지션 청산')
    const then = '    force_close_time: str = "14:30"  # 강제 청산 시각'
    const now = (v: string): string =>
      `    force_close_time: str = (\n        "${v}"  # 강제 청산 시각\n    )\n    other: int = 1\n`
    expect(valueChanged(close, then, now('15:15'))?.text).toContain('"15:15"')
    expect(valueChanged(close, then, now('14:30'))).toBeNull()
    // A longer name that starts with the key's is another setting.
    expect(
      valueChanged(close, then, '    force_close_time_utc: str = (\n  "05:30"\n)\n'),
    ).toBeNull()
  })

  it('reads a time of day whole, not its hour as a number', () => {
    const claims = valueClaims('- 강제: 14:30 미청산 포지션 청산')
    expect(claims.map((c) => c.value)).toEqual(['14:30'])
    const line = '    force_close_time: str = "14:30"  # 강제 청산 시각'
    expect(holdsValue(claims[0], line)).toBe(true)
    expect(
      valueChanged(claims[0], line, '    force_close_time: str = "15:15"  # 강제 청산\n'),
    ).toEqual({
      line: 1,
      text: '    force_close_time: str = "15:15"  # 강제 청산',
    })
  })
})

describe('a URL is held only where the code sets it', () => {
  const [url, , site] = valueClaims(
    'See https://git.example.io/someone/other-repo for the original.',
  )
  it('a shorter prefix only as a whole URL', () => {
    expect(site.value).toBe('https://git.example.io')
    expect(holdsValue(site, "  host: 'https://git.example.io',")).toBe(true)
    expect(holdsValue(site, "  host: 'https://git.example.io/',")).toBe(true)
    expect(holdsValue(site, "  repo: 'https://git.example.io/someone/other-repo',")).toBe(false)
    expect(holdsValue(url, "  repo: 'https://git.example.io/someone/other-repo',")).toBe(true)
  })
  it('on a host of many owners, the owner and repository at least (blind set CS tp-r02)', () => {
    const urls = valueClaims('The project points to https://github.com/tutur3u/platform/tree/main.')
    expect(urls.map((c) => c.value)).toEqual([
      'https://github.com/tutur3u/platform/tree/main',
      'https://github.com/tutur3u/platform/tree',
      'https://github.com/tutur3u/platform',
    ])
    expect(valueClaims('See https://github.com/tutur3u.').map((c) => c.value)).toEqual([
      'https://github.com/tutur3u',
    ])
  })
  it('after one key, not in a line of prose or markup that links it', () => {
    expect(keyOf(url, "  repo: 'https://git.example.io/someone/other-repo',")).toBe("repo: '")
    expect(keyOf(url, 'export const UPSTREAM = "https://git.example.io/someone/other-repo"')).toBe(
      'export const UPSTREAM = "',
    )
    const markup =
      '<p class="sub">Ported from <a href="https://git.example.io/someone/other-repo">the original</a></p>'
    expect(keyOf(url, markup)).toBeNull()
    expect(valueChanged(url, markup, '<p class="sub">Ported from elsewhere</p>\n')).toBeNull()
  })
})

describe('seriesClaims', () => {
  it('reads a series written by its ends, the name repeated or not', () => {
    const text = 'Handlers BT1~BT7 map the menu; Step2..Step4 run in order, then CH_1-CH_12.'
    expect(seriesClaims(text).map((c) => [c.written, c.prefix, c.last])).toEqual([
      ['BT1~BT7', 'BT', 7],
      ['Step2..Step4', 'Step', 4],
      ['CH_1-CH_12', 'CH_', 12],
    ])
  })

  it('leaves out versions, dates, plain ranges and mixed names', () => {
    const text = 'Built on v10~v11, 2026-03-24, pages 1-7, ISO9001-2015, AB1-CD4, A1-A3, BT7-BT2.'
    expect(seriesClaims(text)).toEqual([])
  })
})
