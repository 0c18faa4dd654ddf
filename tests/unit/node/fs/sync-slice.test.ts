/**
 * Synchronous work a slice at a time (src/node/fs/sync-slice.ts): when many flows of one scan
 * share the thread, the event loop gets a turn after about one slice, not after one slice per
 * flow (the window's requests waited behind ~24 of them, issue 16). The clock is a fake one that
 * each step moves by a millisecond, so the counts do not depend on the machine's load.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { yieldIfSliceUsed } from '../../../../src/node/fs/sync-slice'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('sync slices', () => {
  it('give the loop a turn after about one slice, however many flows run', async () => {
    let now = 1_000_000
    vi.spyOn(performance, 'now').mockImplementation(() => now)
    const flows = 24
    const stepsEach = 40
    let done = 0
    let doneAtRequest = -1
    let doneAtAnswer = -1
    const answered = new Promise<void>((ok) => {
      const flow = async (index: number): Promise<void> => {
        for (let i = 0; i < stepsEach; i++) {
          await yieldIfSliceUsed()
          now += 1 // a millisecond of synchronous file calls
          done++
          // A request arriving while the flows run is answered at the loop's next turn.
          if (index === 0 && i === 5 && doneAtRequest < 0) {
            doneAtRequest = done
            setImmediate(() => {
              doneAtAnswer = done
              ok()
            })
          }
        }
      }
      void Promise.all(Array.from({ length: flows }, (_, i) => flow(i)))
    })
    await answered
    // At most two 10 ms slices (a turn already queued runs before this callback, and the flows
    // it resumes run one more) plus a step of each other flow; one slice per flow was ~230 steps.
    expect(doneAtRequest).toBeGreaterThan(0)
    expect(doneAtAnswer - doneAtRequest).toBeLessThanOrEqual(2 * 10 + flows + 6)
  })
})
