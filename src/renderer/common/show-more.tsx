/**
 * Long lists shown a page at a time: a MEMORY.md with thousands of entries past the cutoff or
 * thousands of dangling links (bad input, issue 8) must not put tens of thousands of buttons in
 * the page, which froze the window for seconds at a time.
 */
import { useEffect, useState, type ReactNode } from 'react'
import { formatNumber } from './format'

/** Rows shown at first, and added by each "Show more". */
export const LIST_PAGE = 100

/** The first rows of `items`, and a button that shows more (null when all are shown). */
export function useShowMore<T>(
  items: readonly T[],
  testId: string,
  page = LIST_PAGE,
): [readonly T[], ReactNode] {
  const [limit, setLimit] = useState(page)
  // Another file or project: start from the first page again.
  useEffect(() => setLimit(page), [items.length, page])
  if (items.length <= limit) return [items, null]
  const rest = items.length - limit
  const button = (
    <button className="link show-more" data-testid={testId} onClick={() => setLimit(limit + page)}>
      Show {formatNumber(Math.min(page, rest))} more ({formatNumber(rest)} not shown)
    </button>
  )
  return [items.slice(0, limit), button]
}
