/**
 * The heavy part of Monaco, loaded on first use (monaco-setup.ts): editor core, language
 * colouring, and the editor worker the diff editor needs. Bundled locally, never from a CDN
 * (stack-notes.md "Configuration that mattered").
 */
import * as monaco from 'monaco-editor/editor'
import 'monaco-editor/features/register.all'
import 'monaco-editor/languages/definitions/register.all'
import EditorWorker from 'monaco-editor/editor/editor.worker?worker'

self.MonacoEnvironment = { getWorker: () => new EditorWorker() }

export { monaco }
