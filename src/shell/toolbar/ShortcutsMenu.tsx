import { Link } from '@tanstack/react-router'
import { useEffect, useId, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '../../engine/ui/icons'
import { toolbarButtonClass } from '../DropdownMenu'
import { flattenNavigation, searchNavigation, type NavigationItem } from '../navigation'
import { toggleShortcut, useSettings } from '../settings/store'

type Entry = { id: string; title: string; url: string; icon?: NavigationItem['icon'] }

/**
 * The shortcuts (spec §2): the pinned pages as icons, and the star menu with a search
 * over the apps and pages of the navigation — at most 10 matches on the title, ignoring
 * case and accents, 'No results..' when none (spec §5) — where a page is pinned or unpinned.
 * Pins are saved with the settings.
 */
export function ShortcutsMenu({ items }: { items: readonly NavigationItem[] }) {
  const { t } = useTranslation()
  const { shortcuts } = useSettings()
  const [isOpen, setIsOpen] = useState(false)
  const [query, setQuery] = useState('')
  const rootRef = useRef<HTMLDivElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const panelId = useId()

  const entries = useMemo<Entry[]>(
    () => flattenNavigation(items).map((item) => ({ id: item.id, title: item.translate ? t(item.translate) : item.title, url: item.url!, icon: item.icon })),
    [items, t],
  )
  const byId = useMemo(() => new Map(entries.map((e) => [e.id, e])), [entries])
  const pinned = shortcuts.flatMap((id) => byId.get(id) ?? [])
  const matches = query.trim() === '' ? pinned : searchNavigation(entries, query)

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
    setQuery('')
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
          <div id={panelId} role="dialog" aria-label={t('shortcuts.title')} className="absolute start-0 top-full z-40 mt-1.5 w-80 rounded-lg border border-th-border bg-th-paper p-2 text-th-fg shadow-lg">
            <input
              type="search"
              autoFocus
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              placeholder={t('shortcuts.search_placeholder')}
              aria-label={t('shortcuts.search')}
              className="mb-2 w-full rounded-md border border-th-border bg-transparent px-3 py-2 text-sm outline-none focus:border-th-accent"
            />
            {query.trim() !== '' && matches.length === 0 ? (
              <p className="px-3 py-4 text-center text-sm text-th-muted">{t('shortcuts.no_results')}</p>
            ) : query.trim() === '' && matches.length === 0 ? (
              <p className="px-3 py-4 text-center text-sm text-th-muted">{t('shortcuts.none_pinned')}</p>
            ) : (
              <ul className="max-h-80 overflow-y-auto" aria-label={query.trim() === '' ? t('shortcuts.pinned') : t('shortcuts.results')}>
                {matches.map((entry) => {
                  const isPinned = shortcuts.includes(entry.id)
                  return (
                    <li key={entry.id} className="flex items-center gap-1">
                      <Link to={entry.url} onClick={close} className="flex min-w-0 flex-1 items-center gap-3 rounded-md px-3 py-2 text-sm hover:bg-th-hover">
                        <Icon name={entry.icon ?? 'document'} className="size-5 shrink-0 text-th-muted" />
                        <span className="truncate">{entry.title}</span>
                      </Link>
                      <button
                        type="button"
                        onClick={() => toggleShortcut(entry.id)}
                        aria-pressed={isPinned}
                        aria-label={t(isPinned ? 'shortcuts.unpin' : 'shortcuts.pin', { title: entry.title })}
                        className="rounded-md p-2 hover:bg-th-hover"
                      >
                        <svg viewBox="0 0 24 24" className={`size-4 ${isPinned ? 'fill-amber-500 text-amber-500' : 'fill-none text-th-muted'}`} stroke="currentColor" strokeWidth={1.5} aria-hidden="true">
                          <path strokeLinejoin="round" d="M11.48 3.499a.562.562 0 0 1 1.04 0l2.125 5.111a.563.563 0 0 0 .475.345l5.518.442c.499.04.701.663.321.988l-4.204 3.602a.563.563 0 0 0-.182.557l1.285 5.385a.562.562 0 0 1-.84.61l-4.725-2.885a.562.562 0 0 0-.586 0L6.982 20.54a.562.562 0 0 1-.84-.61l1.285-5.386a.562.562 0 0 0-.182-.557l-4.204-3.602a.562.562 0 0 1 .321-.988l5.518-.442a.563.563 0 0 0 .475-.345L11.48 3.5Z" />
                        </svg>
                      </button>
                    </li>
                  )
                })}
              </ul>
            )}
          </div>
        )}
      </div>
    </div>
  )
}
