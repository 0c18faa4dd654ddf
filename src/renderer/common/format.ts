/**
 * Numbers and dates as a person reads them (issue 15 item 14): thousands separators, and dates
 * in the person's own locale, never a raw ISO stamp such as `2026-12-01T17:43:15.524Z`.
 * Every view formats through these, so one locale rule holds everywhere.
 */

/** The locale the window formats in: the browser's (or Electron's) own, undefined = the default. */
function locale(): string | undefined {
  const nav = (globalThis as { navigator?: { language?: string } }).navigator
  return nav?.language || undefined
}

const numberFormats = new Map<string, Intl.NumberFormat>()
function numberFormat(maxFraction: number): Intl.NumberFormat {
  const key = `${locale() ?? ''}|${maxFraction}`
  let f = numberFormats.get(key)
  if (!f) {
    f = new Intl.NumberFormat(locale(), { maximumFractionDigits: maxFraction })
    numberFormats.set(key, f)
  }
  return f
}

/** A count or size with thousands separators in the person's locale (12345 → "12,345"). */
export function formatNumber(n: number, maxFraction = 0): string {
  if (!Number.isFinite(n)) return String(n)
  return numberFormat(maxFraction).format(n)
}

/** "1 note", "2,048 notes": a count with its noun, singular or plural (English nouns). */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatNumber(n)} ${n === 1 ? singular : plural}`
}

/** Bytes as a person reads them: "812 bytes", "14.2 KB", "3.1 MB". */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n)) return String(n)
  if (Math.abs(n) < 1024) return countOf(n, 'byte')
  if (Math.abs(n) < 1024 * 1024) return `${formatNumber(n / 1024, 1)} KB`
  return `${formatNumber(n / (1024 * 1024), 1)} MB`
}

type DateInput = string | number | Date | null | undefined

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null
  const d = value instanceof Date ? value : new Date(value)
  return Number.isNaN(d.getTime()) ? null : d
}

/** A day in the person's locale ("1 Dec 2026", "Dec 1, 2026"); `fallback` when unknown or invalid. */
export function formatDate(value: DateInput, fallback = 'unknown date'): string {
  const d = toDate(value)
  return d ? d.toLocaleDateString(locale(), { dateStyle: 'medium' }) : fallback
}

/** A moment in the person's locale, to the minute ("1 Dec 2026, 17:43"). */
export function formatDateTime(value: DateInput, fallback = 'unknown time'): string {
  const d = toDate(value)
  return d ? d.toLocaleString(locale(), { dateStyle: 'medium', timeStyle: 'short' }) : fallback
}

/** The exact moment, for a tooltip beside a shorter date (still localised, with seconds). */
export function formatExactTime(value: DateInput, fallback = ''): string {
  const d = toDate(value)
  return d ? d.toLocaleString(locale(), { dateStyle: 'full', timeStyle: 'long' }) : fallback
}

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600_000],
  ['month', 30 * 24 * 3600_000],
  ['week', 7 * 24 * 3600_000],
  ['day', 24 * 3600_000],
  ['hour', 3600_000],
  ['minute', 60_000],
]

/** How long ago, in words ("3 days ago", "yesterday"), relative to `now`. */
export function formatRelative(value: DateInput, now: number = Date.now(), fallback = ''): string {
  const d = toDate(value)
  if (!d) return fallback
  const diff = d.getTime() - now
  const rtf = new Intl.RelativeTimeFormat(locale(), { numeric: 'auto' })
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms) return rtf.format(Math.round(diff / ms), unit)
  }
  return rtf.format(0, 'minute')
}
