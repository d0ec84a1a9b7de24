import { lazy, Suspense, useEffect, useState } from 'react'
import type { NavigationItem } from '../navigation'

const CommandPalette = lazy(() => import('./CommandPalette').then((m) => ({ default: m.CommandPalette })))
const KeyboardHelp = lazy(() => import('./KeyboardHelp').then((m) => ({ default: m.KeyboardHelp })))

/** Where typing goes to the field, not to a shortcut. */
const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))

/**
 * The app-wide keys: Ctrl/Cmd+K opens the command palette (from anywhere, a field included),
 * `?` the sheet of keyboard shortcuts and `/` puts the cursor in the screen's search box
 * (both only when not typing). The palette and the sheet load when first asked for.
 */
export function PaletteHost({ items }: { items: readonly NavigationItem[] }) {
  const [open, setOpen] = useState<'palette' | 'help' | null>(null)
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') {
        e.preventDefault()
        setOpen((o) => (o === 'palette' ? null : 'palette'))
        return
      }
      if (e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target) || document.querySelector('[role="dialog"]')) return
      if (e.key === '?') {
        e.preventDefault()
        setOpen('help')
      } else if (e.key === '/') {
        const search = document.querySelector<HTMLInputElement>('main input[type="search"]')
        if (search) {
          e.preventDefault()
          search.focus()
        }
      }
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [])
  return (
    <Suspense fallback={null}>
      {open === 'palette' && <CommandPalette items={items} onClose={() => setOpen(null)} onHelp={() => setOpen('help')} />}
      {open === 'help' && <KeyboardHelp onClose={() => setOpen(null)} />}
    </Suspense>
  )
}
