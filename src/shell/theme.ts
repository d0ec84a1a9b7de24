import { useSyncExternalStore } from 'react'

/** Light or dark interface: the `dark` class on `<html>`, remembered in localStorage. */
export type Theme = 'light' | 'dark'
export const THEME_KEY = 'theme'

const listeners = new Set<() => void>()

function preferred(): Theme {
  try {
    const stored = globalThis.localStorage?.getItem(THEME_KEY)
    if (stored === 'light' || stored === 'dark') return stored
  } catch {
    // Storage unavailable: fall back to the system preference.
  }
  return globalThis.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'
}

let theme: Theme = 'light'

function apply(next: Theme): void {
  theme = next
  const root = globalThis.document?.documentElement
  root?.classList.toggle('dark', next === 'dark')
  if (root) root.style.colorScheme = next
  for (const listener of listeners) listener()
}

export function initTheme(): void {
  apply(preferred())
}

export function setTheme(next: Theme): void {
  try {
    globalThis.localStorage?.setItem(THEME_KEY, next)
  } catch {
    // Keep it for this page only.
  }
  apply(next)
}

export function useTheme(): Theme {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    () => theme,
    () => theme,
  )
}
