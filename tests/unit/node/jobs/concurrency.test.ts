import { describe, expect, it } from 'vitest'
import { mapLimited } from '../../../../src/node/jobs/concurrency'

describe('mapLimited', () => {
  it('keeps the input order, caps the calls in flight and gives each its worker', async () => {
    let inFlight = 0
    let most = 0
    const busy = new Set<number>()
    const out = await mapLimited([5, 1, 4, 2, 3, 0, 6], 3, async (n, worker) => {
      expect(busy.has(worker)).toBe(false)
      busy.add(worker)
      inFlight++
      most = Math.max(most, inFlight)
      await new Promise((r) => setTimeout(r, n))
      inFlight--
      busy.delete(worker)
      expect(worker).toBeLessThan(3)
      return n * 10
    })
    expect(out).toEqual([50, 10, 40, 20, 30, 0, 60])
    expect(most).toBe(3)
    expect(await mapLimited([], 4, async () => 1)).toEqual([])
  })

  it('rejects with the first failure and starts nothing after it', async () => {
    const started: number[] = []
    await expect(
      mapLimited([0, 1, 2, 3, 4], 1, async (n) => {
        started.push(n)
        if (n === 1) throw new Error('boom')
        return n
      }),
    ).rejects.toThrow('boom')
    expect(started).toEqual([0, 1])
  })
})
