/**
 * A long list drawn a window at a time (issue 15 item 6: 50,000 notes must paint in 1.5 s and
 * answer a click in 200 ms). Rows have one fixed height; only the rows in view, plus `overscan`
 * above and below, are in the DOM. The scrolling element is the list itself (its role, label,
 * key handler and test id are passed through), so keyboard focus and ARIA stay as they were.
 *
 * Generic on purpose: any long list of the window (notes, queue, entries, topic files, history
 * chips) can use it. `activeIndex` is kept in view when it changes (keyboard selection).
 */
import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type HTMLAttributes,
  type ReactNode,
} from 'react'
import { scrollToShow, windowRange } from './virtual-range'

export interface VirtualListProps<T> extends Omit<HTMLAttributes<HTMLElement>, 'children'> {
  readonly items: readonly T[]
  /** Every row's height in pixels (the row's CSS must give it exactly this height). */
  readonly rowHeight: number
  readonly renderRow: (item: T, index: number) => ReactNode
  /** Rows drawn beyond the viewport on each side. */
  readonly overscan?: number
  /** Row to keep in view (e.g. the selected one); scrolled to when it changes. */
  readonly activeIndex?: number
  /** Element of the scrolling list: `ul` (rows are `li`) or `div`. */
  readonly as?: 'ul' | 'div'
  /** Height assumed before the list is measured (first paint, tests without layout). */
  readonly initialHeight?: number
  readonly testId?: string
}

export function VirtualList<T>({
  items,
  rowHeight,
  renderRow,
  overscan = 6,
  activeIndex,
  as = 'ul',
  initialHeight = 800,
  testId,
  onScroll,
  style,
  ...rest
}: VirtualListProps<T>) {
  const ref = useRef<HTMLElement | null>(null)
  const [scrollTop, setScrollTop] = useState(0)
  const [viewport, setViewport] = useState(initialHeight)

  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    const measure = (): void => {
      if (el.clientHeight > 0) setViewport(el.clientHeight)
    }
    measure()
    if (typeof ResizeObserver === 'undefined') return
    const ro = new ResizeObserver(measure)
    ro.observe(el)
    return () => ro.disconnect()
  }, [])

  // Keep the active row in view when it changes (not on every scroll: the person may scroll away).
  useEffect(() => {
    const el = ref.current
    if (!el || activeIndex === undefined || activeIndex < 0 || activeIndex >= items.length) return
    const to = scrollToShow(activeIndex, rowHeight, el.scrollTop, el.clientHeight || viewport)
    if (to !== null) {
      el.scrollTop = to
      setScrollTop(to)
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [activeIndex, rowHeight])

  // A shorter list (a filter) may leave the scroll position past its end.
  const maxTop = Math.max(0, items.length * rowHeight - viewport)
  const top = Math.min(scrollTop, maxTop)
  const { start, end } = windowRange(items.length, rowHeight, top, viewport, overscan)
  const rows: ReactNode[] = []
  for (let i = start; i < end; i++) rows.push(renderRow(items[i], i))

  const Tag = as
  const Pad = as === 'ul' ? 'li' : 'div'
  return (
    <Tag
      {...rest}
      ref={(el: HTMLElement | null) => {
        ref.current = el
      }}
      style={{ ...style, overflowY: 'auto' }}
      data-testid={testId}
      data-rows={items.length}
      onScroll={(e) => {
        setScrollTop(e.currentTarget.scrollTop)
        onScroll?.(e as never)
      }}
    >
      {start > 0 && (
        <Pad role="presentation" aria-hidden="true" style={{ height: start * rowHeight }} />
      )}
      {rows}
      {end < items.length && (
        <Pad
          role="presentation"
          aria-hidden="true"
          style={{ height: (items.length - end) * rowHeight }}
        />
      )}
    </Tag>
  )
}
