/**
 * What the window rows (window.ts) run inside the page, as strings (the page's CSP forbids eval;
 * Playwright evaluates them with CSP bypassed). Times are performance.now() of the page: ms since
 * its navigation started.
 */

/**
 * Collects long tasks from the first frame on, and the longest gap between animation frames
 * since the last reset (a string: the page, not Node, runs it).
 */
export const PAGE_PROBES = `
  window.__mcLongTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__mcLongTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch (e) { window.__mcLongTasks = null; }
  window.__mcFrameMax = 0;
  // What a person sees first: a project row with its name (not the "Scanning…" placeholder).
  const listDrawn = () => {
    const t = document.querySelector('[data-testid=project-list] [role=option] [data-testid=project-title]');
    return !!t && t.getClientRects().length > 0 && t.textContent.trim().length > 0;
  };
  let last = 0;
  const tick = (t) => {
    if (last > 0 && t - last > window.__mcFrameMax) window.__mcFrameMax = t - last;
    if (!window.__mcListAt && listDrawn()) window.__mcListAt = performance.now();
    last = t;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
`

/** performance.now() when the project list and the first MEMORY.md's cutoff are both visible. */
export const READY_CHECK = `(() => {
  const visible = (el) => !!el && el.getClientRects().length > 0;
  const option = document.querySelector('[data-testid=project-list] [role=option]');
  const cutoff = document.querySelector('[data-testid=cutoff-summary]');
  return visible(option) && visible(cutoff) ? performance.now() : false;
})()`

/** Milestones of the first load, in ms since navigation started. */
export const PHASES = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const res = (name) => {
    const e = performance.getEntriesByType('resource').find((r) => new URL(r.name).pathname === name);
    return e ? Math.round(e.responseEnd) : null;
  };
  return {
    domContentLoadedMs: nav ? Math.round(nav.domContentLoadedEventEnd) : null,
    scanAnsweredMs: res('/api/scan'),
    listDrawnMs: window.__mcListAt ? Math.round(window.__mcListAt) : null,
  };
})()`

/** Longest task since `from` (ms of performance.now()), or null when the browser reports none. */
export const longestSince = (from: number): string => `(() => {
  const l = window.__mcLongTasks;
  if (!l) return null;
  const mine = l.filter((t) => t.start + t.duration >= ${from});
  return { longest: mine.reduce((m, t) => Math.max(m, t.duration), 0), count: mine.length };
})()`

/** Notes clicked, one after the other, for the diff row. */
export const DIFF_AFTER_CLICK_COUNT = 5

/** The first paint of a blank page in the same browser (the ready rows' baseline). */
export const BLANK_PAGE = 'data:text/html,<!doctype html><title>blank</title><p id=blank>blank</p>'
export const BLANK_READY = `(() => {
  const el = document.getElementById('blank');
  return !!el && el.getClientRects().length > 0 ? performance.now() : false;
})()`

/**
 * Click the note row at `index` (a note not shown yet, so no click re-reads a note already seen) and time, in the page, until its diff is drawn (or the
 * "nothing to compare" text shows): the loading text must appear first, so an old diff never counts.
 */
export const diffAfterClick = (index: number): string => `(async () => {
  const rows = [...document.querySelectorAll('[data-testid=notes-list] [data-testid=note-row]')];
  const row = rows[${index}];
  if (!row || row.getAttribute('aria-selected') === 'true') return { error: 'no unselected note row ${index}' };
  const loading = () => [...document.querySelectorAll('p.empty')].some((p) => p.textContent.includes('Comparing with the code'));
  const drawn = () => {
    if (loading()) return false;
    if (document.querySelector('[data-testid=no-diffs]')) return true;
    // Monaco has drawn both sides; one may be empty ("nothing now" for a deleted path).
    const sides = [...document.querySelectorAll('[data-testid=note-diff] .editor .view-lines')];
    if (sides.length >= 2 && sides.some((l) => l.textContent.length > 0)) return true;
    return !!document.querySelector('[data-testid=note-diffs]') && !document.querySelector('[data-testid=note-diff]');
  };
  const t0 = performance.now();
  row.click();
  let sawLoading = false;
  return await new Promise((resolve) => {
    const step = () => {
      const now = performance.now() - t0;
      if (!sawLoading && loading()) sawLoading = true;
      // The request's share: the noteDiffs call this click made (resource timing).
      const api = () => {
        const e = performance.getEntriesByType('resource').filter((r) => r.name.endsWith('/api/noteDiffs') && r.startTime >= t0).pop();
        return e ? { apiStartMs: e.startTime - t0, apiMs: e.responseEnd - e.startTime } : {};
      };
      if (sawLoading && drawn()) return resolve({ ms: now, title: row.textContent.slice(0, 60), ...api() });
      if (!sawLoading && now > 2000 && drawn()) return resolve({ ms: now, title: row.textContent.slice(0, 60), noLoadingSeen: true });
      if (now > 30000) return resolve({ error: 'no diff within 30 s' });
      requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  });
})()`
