/** Seeded pseudo-random numbers, so one seed always generates the same Claude home. */

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number
  /** Integer in [min, max] (both included). */
  int(min: number, max: number): number
  /** One item of a non-empty list. */
  pick<T>(items: readonly T[]): T
  /** True with probability `p`. */
  chance(p: number): boolean
}

/** mulberry32: tiny, fast and good enough for shaping test data (not for anything secret). */
export function createRng(seed: number): Rng {
  let s = seed >>> 0
  const next = (): number => {
    s = (s + 0x6d2b79f5) >>> 0
    let t = s
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)],
    chance: (p) => next() < p,
  }
}

/**
 * Split `total` into `n` non-negative integers with a heavy tail (a few large, many small),
 * the shape real homes have: most projects are touched a few times, a few every day.
 */
export function skewedSplit(rng: Rng, total: number, n: number, tail = 2.5): number[] {
  if (n <= 0) return []
  const weights = Array.from({ length: n }, () => Math.exp(rng.next() * tail * 2))
  const sum = weights.reduce((a, b) => a + b, 0)
  const parts = weights.map((w) => Math.floor((w / sum) * total))
  let rest = total - parts.reduce((a, b) => a + b, 0)
  for (let i = 0; rest > 0; i = (i + 1) % n, rest--) parts[i]++
  return parts
}
