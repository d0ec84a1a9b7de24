import { useSyncExternalStore } from 'react'

/** Which side panel is open: the quick panel, theme settings or colour schemes (one at a time). */
export type PanelName = 'quick' | 'settings' | 'schemes'

let open: PanelName | null = null
const listeners = new Set<() => void>()

export function setOpenPanel(next: PanelName | null): void {
  open = next
  for (const listener of listeners) listener()
}

export function togglePanel(name: PanelName): void {
  setOpenPanel(open === name ? null : name)
}

export function useOpenPanel(): PanelName | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    () => open,
    () => open,
  )
}
