/**
 * The window on the large home: the built `serve` in Debian's Chromium (playwright-core). Times,
 * measured inside the page: from navigation until the project list and the first MEMORY.md with
 * its cutoff are visible; a note's diff after a click; the longest frame while a rescan runs
 * (the widest gap between animation frames, with PerformanceObserver 'longtask' entries beside it).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { CHROMIUM_ARGS } from '../chromium-args'
import { processPeakRssMiB, SAMPLE_MS } from './measure'
import { budgetRow, skippedRow, TARGETS, type BenchRow } from './report'
import {
  BLANK_PAGE,
  BLANK_READY,
  DIFF_AFTER_CLICK_COUNT,
  PAGE_PROBES,
  PHASES,
  READY_CHECK,
  diffAfterClick,
  longestSince,
} from './window-probes'
import { listAtSecondStart, SECOND_START_ROW } from './window-restart'

export interface WindowOptions {
  readonly claudeHome: string
  /** A scratch folder: state, HOME, empty Codex home and managed folder live here. */
  readonly workDir: string
  readonly chromium: string
  /** The built CLI (default out/cli/index.js). */
  readonly cli?: string
  /** Launch directory (or folder name) of a project with notes and a repository, for the diff timing (null: skip). */
  readonly notesProject: string | null
  readonly timeoutMs?: number
  readonly log?: (line: string) => void
}

interface Served {
  readonly url: string
  readonly child: ChildProcess
  peakRssMiB(): number | null
  stop(): Promise<void>
}

/** Start `serve` on a free port with every home pointed into `workDir`; resolves with its URL. */
function startServe(
  cli: string,
  claudeHome: string,
  workDir: string,
  rendererDir: string,
): Promise<Served> {
  const dirs = ['home', 'codex', 'managed', 'state', 'xdg']
  for (const d of dirs) mkdirSync(join(workDir, d), { recursive: true })
  // BENCH_SERVE_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/p") profiles the back end.
  const nodeArgs = (process.env.BENCH_SERVE_NODE_ARGS ?? '').split(' ').filter((a) => a !== '')
  const child = spawn(
    process.execPath,
    [
      ...nodeArgs,
      cli,
      'serve',
      '--port',
      '0',
      '--claude-home',
      claudeHome,
      '--codex-home',
      join(workDir, 'codex'),
      '--managed-dir',
      join(workDir, 'managed'),
      '--state-dir',
      join(workDir, 'state'),
    ],
    {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: join(workDir, 'home'),
        XDG_CACHE_HOME: join(workDir, 'xdg', 'cache'),
        XDG_STATE_HOME: join(workDir, 'xdg', 'state'),
        XDG_DATA_HOME: join(workDir, 'xdg', 'data'),
        CLAUDE_CONFIG_DIR: claudeHome,
        CODEX_HOME: join(workDir, 'codex'),
        MEMORY_CURATOR_RENDERER_DIR: rendererDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let peak: number | null = null
  const timer = setInterval(() => {
    const p = child.pid === undefined ? null : processPeakRssMiB(child.pid)
    if (p !== null) peak = Math.max(peak ?? 0, p)
  }, SAMPLE_MS)
  let err = ''
  child.stderr?.on('data', (d: Buffer) => {
    if (err.length < 16 * 1024) err += d.toString()
  })
  const stop = (): Promise<void> =>
    new Promise((done) => {
      clearInterval(timer)
      if (child.exitCode !== null || child.signalCode !== null) return done()
      child.once('exit', () => done())
      child.kill('SIGTERM')
    })
  return new Promise((ok, fail) => {
    let out = ''
    const t = setTimeout(() => {
      void stop()
      fail(new Error(`serve printed no URL in 60 s; stderr: ${err}`))
    }, 60_000)
    child.once('exit', (code) => {
      clearTimeout(t)
      clearInterval(timer)
      fail(new Error(`serve exited with ${code}; stderr: ${err}`))
    })
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString()
      const nl = out.indexOf('\n')
      if (nl < 0) return
      clearTimeout(t)
      ok({ url: out.slice(0, nl).trim(), child, peakRssMiB: () => peak, stop })
    })
  })
}

/** Time between two clicks of the diff row. */
const READ_PAUSE_MS = 1000

const LIST_ROW = 'window: project list drawn'
const CUTOFF_ROW = 'window: project list + first cutoff'

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

interface DiffClick {
  readonly ms?: number
  readonly error?: string
  readonly title?: string
  readonly noLoadingSeen?: boolean
  /** The noteDiffs request of the click: when it started after the click, and how long it took. */
  readonly apiStartMs?: number
  readonly apiMs?: number
}

/** Open the window on the home and time it; one row per measurement, skipped rows say why. */
export async function benchWindow(opts: WindowOptions): Promise<BenchRow[]> {
  const log = opts.log ?? (() => undefined)
  const cli = resolve(opts.cli ?? 'out/cli/index.js')
  const readyTarget = `≤ ${TARGETS.windowReadyMs} ms`
  const diffTarget = `≤ ${TARGETS.diffMs} ms`
  const taskTarget = `≤ ${TARGETS.longTaskMs} ms`
  const skipAll = (why: string): BenchRow[] => [
    skippedRow(LIST_ROW, readyTarget, why),
    skippedRow(CUTOFF_ROW, readyTarget, why),
    skippedRow('window: longest frame during a rescan', taskTarget, why),
    skippedRow('window: note diff after a click', diffTarget, why),
    skippedRow(SECOND_START_ROW, readyTarget, why),
  ]
  const renderer = process.env.MEMORY_CURATOR_RENDERER_DIR ?? resolve(cli, '..', '..', 'renderer')
  if (!existsSync(cli) || !existsSync(join(renderer, 'index.html'))) {
    return skipAll(`no build at ${cli} with a renderer at ${renderer}: run npm run build`)
  }
  if (!existsSync(opts.chromium)) return skipAll(`no Chromium at ${opts.chromium}`)
  const timeout = opts.timeoutMs ?? 300_000
  let served: Served | null = null
  let browser: Browser | null = null
  const rows: BenchRow[] = []
  try {
    const start = (): Promise<Served> => startServe(cli, opts.claudeHome, opts.workDir, renderer)
    served = await start()
    browser = await chromium.launch({ executablePath: opts.chromium, args: CHROMIUM_ARGS })
    // The page's CSP forbids eval; the timing probes below are strings evaluated in the page.
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      bypassCSP: true,
    })
    // The baseline: a blank page's first paint in this browser, a few times (median).
    const blank: number[] = []
    const blankPage = await context.newPage()
    for (let i = 0; i < 3; i++) {
      await blankPage.goto(BLANK_PAGE, { waitUntil: 'commit' })
      const h = await blankPage.waitForFunction(BLANK_READY, undefined, { polling: 'raf', timeout })
      blank.push((await h.jsonValue()) as number)
    }
    await blankPage.close()
    const blankMs = median(blank)
    const page: Page = await context.newPage()
    await page.addInitScript(PAGE_PROBES)
    await page.goto(served.url, { waitUntil: 'commit' })
    await page.waitForFunction('window.__mcListAt', undefined, { polling: 'raf', timeout })
    const ready = (await (
      await page.waitForFunction(READY_CHECK, undefined, { polling: 'raf', timeout })
    ).jsonValue()) as number
    const loadTasks = (await page.evaluate(longestSince(0))) as {
      longest: number
      count: number
    } | null
    // Where the time went: the bundle (DOMContentLoaded), the first scan's answer, the list drawn.
    const phases = (await page.evaluate(PHASES)) as Record<string, number | null>
    const options = await page.locator('[data-testid=project-list] [role=option]').count()
    const listMs = phases.listDrawnMs ?? ready
    log(
      `window: list drawn in ${listMs} ms, cutoff in ${Math.round(ready)} ms, blank page ${Math.round(blankMs)} ms, ${options} projects`,
    )
    const loadDetails = {
      projectsListed: options,
      blankPageMs: Math.round(blankMs),
      ...phases,
      longestTaskDuringLoadMs: loadTasks ? Math.round(loadTasks.longest) : null,
      longTasksDuringLoad: loadTasks?.count ?? null,
    }
    rows.push(
      budgetRow(LIST_ROW, listMs, TARGETS.windowReadyMs, served.peakRssMiB(), {
        ...loadDetails,
        timesBlankPage: Math.round((listMs / Math.max(1, blankMs)) * 10) / 10,
      }),
      budgetRow(CUTOFF_ROW, ready, TARGETS.windowReadyMs, served.peakRssMiB(), {
        ...loadDetails,
        timesBlankPage: Math.round((ready / Math.max(1, blankMs)) * 10) / 10,
      }),
    )

    // A rescan from the button: the page must stay responsive while the back end walks the home.
    const from = (await page.evaluate('window.__mcFrameMax = 0, performance.now()')) as number
    const scanResponse = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/scan', {
      timeout,
    })
    const r0 = Date.now()
    await page.getByRole('button', { name: 'Rescan' }).click()
    await scanResponse
    const rescanMs = Date.now() - r0
    await page.waitForTimeout(500)
    const scanTasks = (await page.evaluate(longestSince(from))) as {
      longest: number
      count: number
    } | null
    const frameMax = (await page.evaluate('window.__mcFrameMax')) as number
    rows.push(
      budgetRow(
        'window: longest frame during a rescan',
        frameMax,
        TARGETS.longTaskMs,
        served.peakRssMiB(),
        {
          rescanMs,
          longestLongTaskMs: scanTasks ? Math.round(scanTasks.longest) : null,
          longTasks: scanTasks?.count ?? null,
        },
      ),
    )

    // A note's diff: the notes project, its Notes tab, then clicks on notes not yet shown.
    const notesTab = page.getByTestId('tab-notes')
    if (opts.notesProject === null) {
      rows.push(
        skippedRow(
          'window: note diff after a click',
          diffTarget,
          'no project with notes and a repository',
        ),
      )
    } else {
      // By its launch directory (the row's tooltip) when given as a path: a generated project may
      // share the fixture's folder name.
      const notesRow = opts.notesProject.startsWith('/')
        ? page.locator(`[data-testid=project-row][title=${JSON.stringify(opts.notesProject)}]`)
        : page
            .getByTestId('project-list')
            .getByRole('option', { name: new RegExp(`\\b${opts.notesProject}\\b`) })
      await notesRow.first().click()
      if ((await notesTab.count()) === 0) {
        rows.push(
          skippedRow('window: note diff after a click', diffTarget, 'the window has no Notes tab'),
        )
      } else {
        const n0 = Date.now()
        await notesTab.click()
        await page
          .getByTestId('notes-list')
          .getByTestId('note-row')
          .nth(DIFF_AFTER_CLICK_COUNT)
          .waitFor({ timeout })
        const notesListMs = Date.now() - n0
        log(`window: notes listed ${Math.round(notesListMs)} ms after opening the tab`)
        // The first row is selected when the tab opens; each click shows a note not shown yet.
        const clicks: DiffClick[] = []
        // A second between clicks, as a person reads one diff before the next (the window asks
        // for the next notes' diffs ahead while idle: notes/diff-warm.ts).
        for (let i = 1; i <= DIFF_AFTER_CLICK_COUNT; i++) {
          await page.waitForTimeout(READ_PAUSE_MS)
          clicks.push((await page.evaluate(diffAfterClick(i))) as DiffClick)
        }
        const failed = clicks.find((c) => c.error)
        if (failed) {
          rows.push(
            skippedRow('window: note diff after a click', diffTarget, failed.error ?? 'failed'),
          )
        } else {
          const times = clicks.map((c) => c.ms as number)
          rows.push(
            budgetRow(
              'window: note diff after a click',
              median(times),
              TARGETS.diffMs,
              served.peakRssMiB(),
              {
                clicksMs: times.map((t) => Math.round(t)).join(' / '),
                apiMs: clicks.map((c) => Math.round(c.apiMs ?? -1)).join(' / '),
                apiStartMs: clicks.map((c) => Math.round(c.apiStartMs ?? -1)).join(' / '),
                pauseBetweenClicksMs: READ_PAUSE_MS,
                minMs: Math.round(Math.min(...times)),
                maxMs: Math.round(Math.max(...times)),
                blankPageMs: Math.round(blankMs),
                notesListAfterTabMs: notesListMs,
                loadingNotSeen: clicks.some((c) => c.noLoadingSeen === true),
              },
            ),
          )
        }
      }
    }
    // Every launch after the first finds the state folder the first one left.
    const again = await listAtSecondStart(page, served, start, context, blankMs, timeout)
    served = again.served
    rows.push(again.row)
    log(`window: second start, list drawn in ${again.row.ms} ms`)
  } catch (err) {
    const why = (err as Error).message.split('\n')[0].slice(0, 200)
    const have = new Set(rows.map((r) => r.job))
    for (const r of skipAll(`failed: ${why}`)) if (!have.has(r.job)) rows.push(r)
  } finally {
    await browser?.close().catch(() => undefined)
    await served?.stop()
  }
  return rows
}
