import { describe, expect, it } from 'vitest'
import { chargeCard, type PaymentGateway } from '../src/payments/charge'

describe('chargeCard', () => {
  it('reuses one idempotency key across retries', async () => {
    const keys: string[] = []
    let calls = 0
    const gateway: PaymentGateway = {
      async charge(_req, key) {
        keys.push(key)
        if (++calls < 2) throw new Error('ECONNRESET')
        return { kind: 'ok', chargeId: 'ch_1' }
      },
    }
    const result = await chargeCard(gateway, { orderId: '42', amount: 1200, cardToken: 'tok' })
    expect(result).toEqual({ kind: 'ok', chargeId: 'ch_1' })
    expect(keys).toEqual(['order-42', 'order-42'])
  })
})
