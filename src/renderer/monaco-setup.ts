/**
 * Monaco bundled locally, never from a CDN (stack-notes.md "Configuration that mattered"):
 * editor core, language colouring, and the editor worker the diff editor needs.
 */
import * as monaco from 'monaco-editor/editor'
import 'monaco-editor/features/register.all'
import 'monaco-editor/languages/definitions/register.all'
import EditorWorker from 'monaco-editor/editor/editor.worker?worker'
import { loader } from '@monaco-editor/react'

declare global {
  interface Window {
    MonacoEnvironment?: { getWorker: () => Worker }
  }
}

self.MonacoEnvironment = { getWorker: () => new EditorWorker() }
loader.config({ monaco })

export { monaco }
