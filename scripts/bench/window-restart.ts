/**
 * The project list at a second start (issue 16): `serve` stopped and started again on the same
 * state folder, as every launch after the first finds it (the scan cache, src/node/memory/
 * scan-cache.ts, lives there), then a new page timed to the list drawn as the first load is.
 */
import type { BrowserContext, Page } from 'playwright-core'
import { budgetRow, TARGETS, type BenchRow } from './report'
import { PAGE_PROBES, PHASES } from './window-probes'

export const SECOND_START_ROW = 'window: project list drawn, second start'

/** A served window this row can stop (window.ts `Served`). */
export interface Restartable {
  readonly url: string
  peakRssMiB(): number | null
  stop(): Promise<void>
}

/**
 * Close the first load's page, stop `served`, start it again with `start` (same folders), and
 * time the list on a new page. Returns the row and the new server (the caller stops it).
 */
export async function listAtSecondStart<S extends Restartable>(
  first: Page,
  served: S,
  start: () => Promise<S>,
  context: BrowserContext,
  blankMs: number,
  timeout: number,
): Promise<{ row: BenchRow; served: S }> {
  // The first page would keep reconnecting to the stopped server and share the CPU.
  await first.close()
  await served.stop()
  const again = await start()
  let phases: Record<string, number | null>
  try {
    const page = await context.newPage()
    await page.addInitScript(PAGE_PROBES)
    await page.goto(again.url, { waitUntil: 'commit' })
    await page.waitForFunction('window.__mcListAt', undefined, { polling: 'raf', timeout })
    phases = (await page.evaluate(PHASES)) as Record<string, number | null>
    await page.close()
  } catch (err) {
    await again.stop()
    throw err
  }
  const listMs = phases.listDrawnMs ?? 0
  const row = budgetRow(SECOND_START_ROW, listMs, TARGETS.windowReadyMs, again.peakRssMiB(), {
    ...phases,
    blankPageMs: Math.round(blankMs),
    timesBlankPage: Math.round((listMs / Math.max(1, blankMs)) * 10) / 10,
  })
  return { row, served: again }
}
