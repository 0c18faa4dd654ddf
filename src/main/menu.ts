/** The application menu with the usual keyboard shortcuts. */
import { Menu, shell, type BrowserWindow, type MenuItemConstructorOptions } from 'electron'

export function buildMenu(getWindow: () => BrowserWindow | null, onRescan: () => void): Menu {
  const isMac = process.platform === 'darwin'
  const template: MenuItemConstructorOptions[] = [
    ...(isMac ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        { label: 'Rescan', accelerator: 'CmdOrCtrl+Shift+R', click: onRescan },
        { type: 'separator' },
        isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        { role: 'toggleDevTools' },
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
        {
          label: 'Claude Code memory documentation',
          click: () => void shell.openExternal('https://docs.claude.com/en/docs/claude-code/memory'),
        },
        { label: 'Focus window', accelerator: 'CmdOrCtrl+0', click: () => getWindow()?.focus() },
      ],
    },
  ]
  return Menu.buildFromTemplate(template)
}
