import { useSyncExternalStore } from 'react'
import { getSettings, updateSettings } from '../settings/store'

/**
 * The navbar's moment-to-moment state (spec §4), not saved: the mobile drawer below the
 * large breakpoint and the folded navbar opened for a while by hovering it. Its style and
 * folded flag are settings.
 */
export type NavbarState = { isMobileOpen: boolean; isFoldedOpen: boolean }

let state: NavbarState = { isMobileOpen: false, isFoldedOpen: false }
const listeners = new Set<() => void>()

function set(next: Partial<NavbarState>): void {
  state = { ...state, ...next }
  for (const listener of listeners) listener()
}

export const setMobileOpen = (isMobileOpen: boolean) => set({ isMobileOpen })
export const setFoldedOpen = (isFoldedOpen: boolean) => set({ isFoldedOpen })
export const getNavbarState = () => state

/** The large breakpoint (Tailwind's `lg`, 1024 px): below it the navbar is a drawer (spec §9). */
export const LARGE_BREAKPOINT_QUERY = '(min-width: 64rem)'

export function isMobileViewport(): boolean {
  return !(globalThis.matchMedia?.(LARGE_BREAKPOINT_QUERY).matches ?? true)
}

/**
 * The navbar toggle (spec §4): on mobile it opens or closes the drawer; in style-2 it
 * folds or unfolds the navbar; otherwise it switches between style-1 and style-3-dense.
 */
export function toggleNavbar(isMobile: boolean = isMobileViewport()): void {
  if (isMobile) {
    setMobileOpen(!state.isMobileOpen)
    return
  }
  const { navbar } = getSettings().layout.config
  if (navbar.style === 'style-2') {
    setFoldedOpen(false)
    updateSettings((s) => ({ ...s, layout: { ...s.layout, config: { ...s.layout.config, navbar: { ...navbar, folded: !navbar.folded } } } }))
    return
  }
  const style = navbar.style === 'style-1' ? 'style-3-dense' : 'style-1'
  updateSettings((s) => ({ ...s, layout: { ...s.layout, config: { ...s.layout.config, navbar: { ...navbar, style } } } }))
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function useNavbarState(): NavbarState {
  return useSyncExternalStore(subscribe, () => state, () => state)
}

/** Whether the viewport is below the large breakpoint, following resizes. */
export function useIsMobile(): boolean {
  return useSyncExternalStore(
    (listener) => {
      const query = globalThis.matchMedia?.(LARGE_BREAKPOINT_QUERY)
      query?.addEventListener('change', listener)
      return () => query?.removeEventListener('change', listener)
    },
    isMobileViewport,
    () => false,
  )
}
