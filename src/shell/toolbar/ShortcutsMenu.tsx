import { Link } from '@tanstack/react-router'
import { lazy, Suspense, useEffect, useId, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '../../engine/ui/icons'
import { toolbarButtonClass } from '../DropdownMenu'
import { flattenNavigation, labelOf, type NavigationItem } from '../navigation'
import { usePinnedShortcuts, type ShortcutEntry } from './shortcuts'

const ShortcutsPanel = lazy(() => import('./ShortcutsPanel').then((m) => ({ default: m.ShortcutsPanel })))

/**
 * The shortcuts (spec §2): the pinned pages as icons, and the star menu with a search
 * over the apps and pages of the navigation — at most 10 matches on the title, ignoring
 * case and accents, 'No results..' when none (spec §5) — where a page is pinned or unpinned.
 * Pins are saved with the settings.
 */
export function ShortcutsMenu({ items }: { items: readonly NavigationItem[] }) {
  const { t } = useTranslation()
  const shortcuts = usePinnedShortcuts()
  const [isOpen, setIsOpen] = useState(false)
  const rootRef = useRef<HTMLDivElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const panelId = useId()

  const entries = useMemo<ShortcutEntry[]>(
    () => flattenNavigation(items).map((item) => ({ id: item.id, title: labelOf(t, item), url: item.url!, icon: item.icon })),
    [items, t],
  )
  const byId = useMemo(() => new Map(entries.map((e) => [e.id, e])), [entries])
  const pinned = shortcuts.flatMap((id) => byId.get(id) ?? [])

  useEffect(() => {
    if (!isOpen) return
    const onPointerDown = (e: PointerEvent) => {
      if (e.target instanceof Node && !rootRef.current?.contains(e.target)) setIsOpen(false)
    }
    document.addEventListener('pointerdown', onPointerDown)
    return () => document.removeEventListener('pointerdown', onPointerDown)
  }, [isOpen])

  const close = () => {
    setIsOpen(false)
    buttonRef.current?.focus()
  }

  return (
    <div className="flex items-center gap-0.5">
      <ul className="hidden items-center gap-0.5 md:flex" aria-label={t('shortcuts.pinned')}>
        {pinned.map((entry) => (
          <li key={entry.id}>
            <Link to={entry.url} className={toolbarButtonClass} title={entry.title} aria-label={entry.title}>
              <Icon name={entry.icon ?? 'document'} className="size-5" />
            </Link>
          </li>
        ))}
      </ul>
      <div ref={rootRef} className="relative" onKeyDown={(e) => e.key === 'Escape' && isOpen && (e.stopPropagation(), close())}>
        <button
          ref={buttonRef}
          type="button"
          className={toolbarButtonClass}
          aria-label={t('shortcuts.title')}
          aria-expanded={isOpen}
          aria-controls={isOpen ? panelId : undefined}
          data-open={isOpen || undefined}
          onClick={() => (isOpen ? close() : setIsOpen(true))}
        >
          <Icon name="star" className="size-5 text-amber-500" />
        </button>
        {isOpen && (
          <Suspense fallback={null}>
            <ShortcutsPanel entries={entries} panelId={panelId} close={close} />
          </Suspense>
        )}
      </div>
    </div>
  )
}
