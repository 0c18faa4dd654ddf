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
      '```\n// no cache yet\n```',
    ].join('\n')
    expect(planClaims(text, 'Architecture')).toEqual([])
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
