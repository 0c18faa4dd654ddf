import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { preloadMonacoWhenIdle } from './monaco/monaco-setup'
import './styles.css'
import './common/controls.css'
import './common/shell.css'
import { App } from './app'
import { startTheme } from './common/theme'

// The saved theme before the first paint (issue 15 item 12).
startTheme()

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
// Monaco is a separate chunk (issue 7): fetched once the first MEMORY.md cutoff is on screen
// (CutoffSummary starts it), so evaluating 4 MB does not delay the window's first useful paint,
// and still before a user's first rescan or diff rather than during it. Without a cutoff to show,
// it starts after a few seconds anyway.
preloadMonacoWhenIdle(3000)
