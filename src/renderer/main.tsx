import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { preloadMonacoWhenIdle } from './monaco-setup'
import './styles.css'
import { App } from './App'

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
// Monaco is a separate chunk (issue 7): fetched beside the first scan instead of before the first
// paint, and evaluated before a user's first rescan or diff rather than during it.
preloadMonacoWhenIdle(0)
