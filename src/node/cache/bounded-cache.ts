/**
 * The one kind of in-process cache the back end keeps: a map with a size bound that forgets the
 * least recently used entry first, where each entry may carry the identity (file-identity.ts) of
 * what it was built from. A lookup with the current identity misses, and drops the entry, when
 * the identity changed. A long-lived back end (window, `serve`) then holds bounded memory
 * however many folders and repositories it is shown.
 *
 * Decisions:
 * - Every cache registers itself, so tests (and benchmarks that time cold runs) can empty them
 *   all with `clearAllCaches()`; each module also keeps its own `clear…Cache()`.
 * - An entry stored without an identity holds until it is evicted or cleared.
 */
import type { Identity } from './file-identity'

interface Slot<V> {
  readonly value: V
  readonly identity: Identity | undefined
}

/** Every cache made, weakly: one made per object (an audit cache) may still be collected. */
const all = new Set<WeakRef<{ clear(): void }>>()

export class BoundedCache<K, V> {
  readonly #slots = new Map<K, Slot<V>>()

  /** `max`: entries kept at most; the least recently used one goes first. */
  constructor(readonly max: number) {
    if (!(max >= 1)) throw new RangeError(`cache bound must be at least 1, got ${max}`)
    all.add(new WeakRef(this))
  }

  get size(): number {
    return this.#slots.size
  }

  /**
   * The value for `key`, made most recently used. With `identity` given, only when the entry was
   * stored with that same identity (a null identity never hits); a stale entry is dropped.
   */
  get(key: K, identity?: Identity | null): V | undefined {
    const slot = this.#slots.get(key)
    if (slot === undefined) return undefined
    if (identity !== undefined && (identity === null || slot.identity !== identity)) {
      this.#slots.delete(key)
      return undefined
    }
    this.#slots.delete(key)
    this.#slots.set(key, slot)
    return slot.value
  }

  /** The value for `key` without touching its recency or checking its identity. */
  peek(key: K): V | undefined {
    return this.#slots.get(key)?.value
  }

  has(key: K): boolean {
    return this.#slots.has(key)
  }

  /** Store `value` as most recently used; a null identity means "cannot be cached": dropped. */
  set(key: K, value: V, identity?: Identity | null): void {
    this.#slots.delete(key)
    if (identity === null) return
    this.#slots.set(key, { value, identity })
    for (const oldest of this.#slots.keys()) {
      if (this.#slots.size <= this.max) break
      this.#slots.delete(oldest)
    }
  }

  /** The values, least recently used first, without touching their recency or identity. */
  *values(): IterableIterator<V> {
    for (const slot of this.#slots.values()) yield slot.value
  }

  delete(key: K): void {
    this.#slots.delete(key)
  }

  clear(): void {
    this.#slots.clear()
  }
}

/** Empty every cache (tests, and benchmarks of cold runs). */
export function clearAllCaches(): void {
  for (const ref of all) {
    const c = ref.deref()
    if (c) c.clear()
    else all.delete(ref)
  }
}
