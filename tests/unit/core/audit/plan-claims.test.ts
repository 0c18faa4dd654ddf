/** Plan states in plain words (src/core/audit/plan-claims.ts): which shapes are claims, and their words. */
import { describe, expect, it } from 'vitest'
import { pathWords, planClaims } from '../../../../src/core/audit/plan-claims'

describe('planClaims', () => {
  it('reads "no X yet", "X next", a bracketed "not built", "pending" and TODO lines', () => {
    const text = [
      '- flat textured water surface (no shader yet)',
      '- timecyc-driven sky/fog (+godrays next); dome done',
      '- plan 030 (researched, NOT built)',
      '- Phase 1 shipped; Phase 2 (content pipeline) pending',
      '- TODO: Guard expressions in compilation',
    ].join('\n')
    const vr = ['vehicle', 'reflection']
    expect(planClaims(text, 'Vehicle reflections plan')).toEqual([
      {
        written: 'no shader yet',
        items: ['shader'],
        subject: [...vr, 'flat', 'textured', 'water', 'surface'],
      },
      {
        written: 'godrays next',
        items: ['godray'],
        subject: [...vr, 'timecyc', 'driven', 'sky', 'fog', 'dome'],
      },
      { written: '(researched, NOT built)', items: vr, subject: ['researched'] },
      {
        written: 'Phase 2 (content pipeline) pending',
        items: ['content', 'pipeline'],
        subject: [...vr, 'shipped'],
      },
      {
        written: 'TODO: Guard expressions in compilation',
        items: ['guard', 'expression', 'compilation'],
        subject: vr,
      },
    ])
  })

  it('leaves out what only looks like a plan state', () => {
    const text = [
      'Priority fix for next session.',
      'The architectural split comes next.',
      'Hydrates from pending_requests and pending approvals.',
      'It is not yet clear why.',
      'Employee can cancel pending only. Admin can reverse approved.',
      'No formal `Connection` interface yet.',
      // A long bracket names what is not built itself, not the note's subject (DF ac-r05).
      'Role pick (F-19 = role-exclusive, one AC each; tabs = preview only, not built).',
      '```\n// no cache yet\n```',
    ].join('\n')
    expect(planClaims(text, 'Architecture')).toEqual([])
  })

  it('reads a "Still ahead:" list item by item, and a status line marked ✗ (DD ld-t01, ld-t02)', () => {
    const text = [
      '- **Still ahead:** Resend (transactional email), team-shared diagrams; `crdt` edits.',
      '- **Email:** Resend — ✗',
      '- **Auth:** Magic links — ✓',
      '- Not yet built: offline sync',
    ].join('\n')
    expect(planClaims(text, 'Roadmap').map((c) => [c.written, c.items.join(' ')])).toEqual([
      ['Still ahead: Resend (transactional email)', 'resend'],
      ['Still ahead: team-shared diagrams', 'team shared diagram'],
      ['Not yet built: offline sync', 'offline sync'],
    ])
    const marked = planClaims(text.split('\n').slice(1).join('\n'), 'Roadmap')
    expect(marked.map((c) => [c.written, c.items.join(' ')])).toEqual([
      ['Not yet built: offline sync', 'offline sync'],
      ['Email: Resend ✗', 'resend'],
    ])
    // The item's own words; the bracket tells what it is, and belongs to the subject.
    expect(planClaims(text, 'Roadmap')[0].subject).toContain('email')
  })

  it('reads a status table row whose status cell says not made yet (DG cm-t01 to t08)', () => {
    const text = [
      '| # | Item | Status |',
      '|---|---|---|',
      '| 0 | CI baseline + architectural linter | Not started |',
      '| 1 | Session cache | Done |',
      '| SOUL.md | Future / emerging |',
      '| Planned | **Dead file removal** |',
    ].join('\n')
    expect(planClaims(text, 'Roadmap').map((c) => [c.written, c.items.join(' ')])).toEqual([
      ['CI baseline + architectural linter: Not started', 'baseline architectural linter'],
      ['SOUL.md: Future / emerging', 'soul'],
      ['Dead file removal: Planned', 'dead file removal'],
    ])
  })

  it('needs words that name a thing: a status of the plan alone names nothing', () => {
    expect(planClaims('Phase 2 pending.', 'Plan')).toEqual([])
    expect(planClaims('(not built)', 'Plan 12')).toEqual([])
  })
})

describe('pathWords', () => {
  it('splits folders, kebab, snake and camel case, singular', () => {
    expect([...pathWords('packages/game/src/plugins/vehicle-reflection/envMaps_v2.ts')]).toEqual([
      'package',
      'game',
      'src',
      'plugin',
      'vehicle',
      'reflection',
      'env',
      'map',
    ])
  })
})
