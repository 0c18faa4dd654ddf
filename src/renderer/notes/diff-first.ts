/**
 * A click on a note asks the back end for its diff first (issue 16: the diff within 150 ms of a
 * click; issue 12 item 8: one read of the kept comparison). What else the click shows and that
 * reads more (where the note came from: transcripts) waits until the diff is drawn, so that
 * neither the back end's one thread nor the machine's cores are shared while the person waits
 * for the diff. A ceiling keeps the rest from waiting on a diff that never draws.
 */
const CEILING_MS = 1500

/** A diff answered within this long was read from the kept audit (note-diffs.ts), not looked at afresh. */
const QUICK_MS = 600

let last: Promise<void> = Promise.resolve()
let release: (() => void) | null = null
let quick = true

/**
 * The diff request of the note now shown. `drawsEditor(answer)`: true when the answer is shown
 * in a diff editor, which then calls `diffDrawn` once its diff is computed.
 */
export function diffRequested<T>(request: Promise<T>, drawsEditor: (answer: T) => boolean): void {
  release?.()
  let done!: () => void
  const shown = new Promise<void>((ok) => {
    done = ok
  })
  const ceiling = setTimeout(done, CEILING_MS)
  release = done
  last = shown.then(() => clearTimeout(ceiling))
  const asked = performance.now()
  quick = false
  request.then(
    (answer) => {
      quick = performance.now() - asked <= QUICK_MS
      if (!drawsEditor(answer)) done()
    },
    () => done(),
  )
}

/**
 * True when the latest diff was answered quickly: the back end read it from a kept audit that
 * still holds, so asking for other notes' diffs ahead is cheap (otherwise each would be a fresh
 * look at the repository).
 */
export function lastDiffWasQuick(): boolean {
  return quick
}

/** The diff editor of the note now shown has drawn its diff. */
export function diffDrawn(): void {
  release?.()
  release = null
}

/**
 * Resolves once the latest diff is drawn (or failed, or the ceiling passed). Call it from an
 * effect: the wait starts after the current render's effects ran, so the diff of the same click
 * is the one awaited whatever the order of the components.
 */
export function afterDiff(): Promise<void> {
  return new Promise<void>((ok) => setTimeout(ok, 0)).then(() => last)
}
