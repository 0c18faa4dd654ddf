/**
 * The heavy part of Monaco, loaded on first use (monaco-setup.ts): editor core, language
 * colouring, and the editor worker the diff editor needs. Bundled locally, never from a CDN
 * (docs/stack.md §4).
 */
import * as monaco from 'monaco-editor/editor'
import 'monaco-editor/features/register.all'
import 'monaco-editor/languages/definitions/register.all'
import EditorWorker from 'monaco-editor/editor/editor.worker?worker'

// One worker may be started ahead of need (prewarmDiffs): the first diff then skips its start-up.
let spare: Worker | null = null
self.MonacoEnvironment = {
  getWorker: () => {
    const w = spare ?? new EditorWorker()
    spare = null
    return w
  },
}

/** Start the editor worker and load the colouring of `languages` before the first diff needs them. */
export function prewarm(languages: readonly string[]): void {
  spare ??= new EditorWorker()
  for (const id of languages) monaco.editor.createModel('', id).dispose()
}

export { monaco }
