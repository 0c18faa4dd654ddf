/**
 * Whether the Monaco chunk is loaded (app.tsx `useMonacoLoaded`: it starts once the project list
 * has painted, issue 16). The project view draws without it — its head, its tabs and the Memory
 * tab's cutoff summary are plain React — and only the parts that are editors wait for it, so
 * the first cutoff shows with the list rather than after 4 MB of editor are evaluated.
 */
import { createContext, useContext } from 'react'

export const MonacoReady = createContext(false)

export function useMonacoReady(): boolean {
  return useContext(MonacoReady)
}
