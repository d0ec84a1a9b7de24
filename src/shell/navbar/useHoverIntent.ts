import { useEffect, useRef, useState } from 'react'
import { SUBMENU_HOVER_DEBOUNCE_MS } from '../settings/settings'

/**
 * Open while hovered, with the submenu debounce of spec §9: the state follows the pointer
 * only once it has stayed in (or out) for 150 ms, so crossing a menu does not flash every
 * submenu on the way. Clicks and keys set it at once.
 */
export function useHoverIntent(delayMs: number = SUBMENU_HOVER_DEBOUNCE_MS) {
  const [isOpen, setIsOpen] = useState(false)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const later = (next: boolean) => {
    clearTimeout(timer.current)
    timer.current = setTimeout(() => setIsOpen(next), delayMs)
  }
  const now = (next: boolean) => {
    clearTimeout(timer.current)
    setIsOpen(next)
  }
  useEffect(() => () => clearTimeout(timer.current), [])
  return {
    isOpen,
    setIsOpen: now,
    hoverProps: { onMouseEnter: () => later(true), onMouseLeave: () => later(false) },
  }
}
