import { describe, expect, it } from 'vitest'
import { BoundedCache, clearAllCaches } from '../../../../src/node/cache/bounded-cache'

describe('BoundedCache', () => {
  it('evicts the least recently used entry when over its bound', () => {
    const c = new BoundedCache<string, number>(3)
    c.set('a', 1)
    c.set('b', 2)
    c.set('c', 3)
    // Reading `a` makes `b` the least recently used.
    expect(c.get('a')).toBe(1)
    c.set('d', 4)
    expect(c.size).toBe(3)
    expect(c.has('b')).toBe(false)
    expect([c.get('a'), c.get('c'), c.get('d')]).toEqual([1, 3, 4])
    // Setting an existing key refreshes it too.
    c.set('a', 10)
    c.set('e', 5)
    expect(c.has('c')).toBe(false)
    expect(c.get('a')).toBe(10)
  })

  it('lists its values least recently used first, without refreshing them', () => {
    const c = new BoundedCache<string, number>(3)
    c.set('a', 1)
    c.set('b', 2)
    c.get('a')
    expect([...c.values()]).toEqual([2, 1])
    expect([...c.values()]).toEqual([2, 1])
  })

  it('peek reads without refreshing', () => {
    const c = new BoundedCache<string, number>(2)
    c.set('a', 1)
    c.set('b', 2)
    expect(c.peek('a')).toBe(1)
    c.set('c', 3)
    expect(c.has('a')).toBe(false)
    expect(c.peek('b')).toBe(2)
  })

  it('hits only with the identity the entry was stored with, and drops a stale entry', () => {
    const c = new BoundedCache<string, string>(4)
    c.set('f', 'parsed', 'id-1')
    expect(c.get('f', 'id-1')).toBe('parsed')
    // Without an identity the caller does not check.
    expect(c.get('f')).toBe('parsed')
    expect(c.get('f', 'id-2')).toBeUndefined()
    expect(c.has('f')).toBe(false)
    c.set('f', 'parsed', 'id-1')
    expect(c.get('f', null)).toBeUndefined()
    expect(c.has('f')).toBe(false)
  })

  it('does not keep a value stored with a null identity (nothing to check it against)', () => {
    const c = new BoundedCache<string, number>(4)
    c.set('x', 1, 'id')
    c.set('x', 2, null)
    expect(c.has('x')).toBe(false)
  })

  it('clear and clearAllCaches empty it', () => {
    const a = new BoundedCache<string, number>(2)
    const b = new BoundedCache<string, number>(2)
    a.set('k', 1)
    b.set('k', 2)
    a.clear()
    expect(a.size).toBe(0)
    expect(b.size).toBe(1)
    clearAllCaches()
    expect(b.size).toBe(0)
  })

  it('refuses a bound below one', () => {
    expect(() => new BoundedCache<string, number>(0)).toThrow(RangeError)
  })
})
