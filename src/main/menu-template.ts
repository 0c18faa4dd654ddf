/**
 * The application menu as data, kept free of Electron values so tests can assert it
 * (issue 11): DevTools only in a development build; links only to allow-listed hosts.
 */
import type { MenuItemConstructorOptions } from 'electron'

export const DOCS_URL = 'https://docs.claude.com/en/docs/claude-code/memory'

export interface MenuActions {
  readonly rescan: () => void
  readonly focus: () => void
  readonly openDocs: () => void
}

export function menuTemplate(
  actions: MenuActions,
  options: { readonly isMac: boolean; readonly devBuild: boolean },
): MenuItemConstructorOptions[] {
  const { isMac, devBuild } = options
  return [
    ...(isMac ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        { label: 'Rescan', accelerator: 'CmdOrCtrl+Shift+R', click: actions.rescan },
        { type: 'separator' },
        isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        ...(devBuild ? [{ role: 'toggleDevTools' as const }] : []),
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [
        { label: 'Claude Code memory documentation', click: actions.openDocs },
        { label: 'Focus window', accelerator: 'CmdOrCtrl+0', click: actions.focus },
      ],
    },
  ]
}
