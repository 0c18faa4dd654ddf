/**
 * A click on a note asks the back end for its diff first (issue 16: the diff within 150 ms of a
 * click, issue 12 item 8: one read of the kept comparison). What else the click shows and that
 * reads more (where the note came from: transcripts) waits until that answer is in, so the two do
 * not share the back end's one thread while the person waits for the diff.
 */
let last: Promise<void> = Promise.resolve()

/** The diff request of the note now shown. */
export function diffRequested(request: Promise<unknown>): void {
  last = request.then(
    () => undefined,
    () => undefined,
  )
}

/**
 * Resolves once the latest diff request is answered (or failed). Call it from an effect: the
 * wait starts after the current render's effects ran, so the diff of the same click is the one
 * awaited whatever the order of the components.
 */
export function afterDiff(): Promise<void> {
  return new Promise<void>((ok) => setTimeout(ok, 0)).then(() => last)
}
