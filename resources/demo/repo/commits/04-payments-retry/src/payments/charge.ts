import type { Money } from '../cart/money'

/** Transient gateway failures are retried this many times. */
export const MAX_RETRIES = 3

export interface ChargeRequest {
  readonly orderId: string
  readonly amount: Money
  readonly cardToken: string
}

export type ChargeResult =
  | { readonly kind: 'ok'; readonly chargeId: string }
  | { readonly kind: 'declined'; readonly reason: string }

export interface PaymentGateway {
  charge(req: ChargeRequest, idempotencyKey: string): Promise<ChargeResult>
}

/** Retry a call that throws on transient failures; a decline is a result, not an error. */
export async function withRetry<T>(fn: () => Promise<T>, retries = MAX_RETRIES): Promise<T> {
  let lastError: unknown
  for (let attempt = 0; attempt <= retries; attempt++) {
    try {
      return await fn()
    } catch (err) {
      lastError = err
      await sleep(200 * 2 ** attempt)
    }
  }
  throw lastError
}

/** Charge a card once per order: the order id is the idempotency key. */
export function chargeCard(gateway: PaymentGateway, req: ChargeRequest): Promise<ChargeResult> {
  return withRetry(() => gateway.charge(req, `order-${req.orderId}`))
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
