/** The arithmetic of VirtualList (virtual-list.tsx): which rows to draw, where to scroll. */

/** Rows to draw: the first and one past the last, for a scroll position and viewport height. */
export function windowRange(
  count: number,
  rowHeight: number,
  scrollTop: number,
  viewport: number,
  overscan: number,
): { start: number; end: number } {
  if (count <= 0 || rowHeight <= 0) return { start: 0, end: 0 }
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight)
  const shown = Math.ceil(Math.max(viewport, rowHeight) / rowHeight) + 1
  const start = Math.max(0, Math.min(count - 1, first) - overscan)
  const end = Math.min(count, first + shown + overscan)
  return { start, end }
}

/** The scrollTop that brings row `index` into view with the least movement (null: already in view). */
export function scrollToShow(
  index: number,
  rowHeight: number,
  scrollTop: number,
  viewport: number,
): number | null {
  const top = index * rowHeight
  const bottom = top + rowHeight
  if (top < scrollTop) return top
  if (bottom > scrollTop + viewport) return Math.max(0, bottom - viewport)
  return null
}
