/** The application menu with the usual keyboard shortcuts (its template: menu-template.ts). */
import { Menu, shell, type BrowserWindow } from 'electron'
import { DOCS_URL, menuTemplate } from './menu-template'
import { isSafeExternalUrl } from './security'

export function buildMenu(
  getWindow: () => BrowserWindow | null,
  onRescan: () => void,
  devBuild: boolean,
): Menu {
  const template = menuTemplate(
    {
      rescan: onRescan,
      focus: () => getWindow()?.focus(),
      openDocs: () => {
        if (isSafeExternalUrl(DOCS_URL)) void shell.openExternal(DOCS_URL)
      },
    },
    { isMac: process.platform === 'darwin', devBuild },
  )
  return Menu.buildFromTemplate(template)
}
