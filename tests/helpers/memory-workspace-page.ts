/** Page object for the memory workspace and instructions view (VS Code test/automation style: one per view). */
import type { Page } from '@playwright/test'

export function memoryWorkspace(page: Page) {
  const list = page.getByTestId('project-list')
  return {
    selectProject: (name: RegExp) => list.getByRole('option', { name }).first().click(),
    unloadedEntries: page.getByTestId('unloaded-entries'),
    unloadedEntry: (title: string) => page.getByTestId('unloaded-entry').filter({ hasText: title }),
    planDialog: page.getByTestId('plan-dialog'),
    editor: page.getByTestId('memory-editor'),
    fileList: page.getByTestId('memory-file-list'),
    openFile: (name: string) =>
      page.getByTestId('memory-file-item').filter({ hasText: name }).first().click(),
    openUndoHistory: () => page.getByTestId('open-undo-history').click(),
    undoHistory: page.getByTestId('undo-history'),
    openInstructions: () => page.getByTestId('tab-instructions').click(),
  }
}

/** 1-based line of the first line of `text` that contains `needle`, or 0. */
export function lineOf(text: string, needle: string): number {
  return text.split('\n').findIndex((l) => l.includes(needle)) + 1
}
