import { Link } from '@tanstack/react-router'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '../../engine/ui/icons'
import { searchNavigation } from '../navigation'
import { toggleShortcut } from '../settings/store'
import { usePinnedShortcuts, useRegistryShortcuts, type ShortcutEntry } from './shortcuts'

/** The star menu's panel: the search over apps and pages, pin and unpin (loaded on first open). */
export function ShortcutsPanel({ entries, panelId, close }: { entries: readonly ShortcutEntry[]; panelId: string; close: () => void }) {
  const { t } = useTranslation()
  const shortcuts = usePinnedShortcuts()
  const registryShortcuts = useRegistryShortcuts()
  const [query, setQuery] = useState('')
  const byId = useMemo(() => new Map(entries.map((e) => [e.id, e])), [entries])
  const pinned = shortcuts.flatMap((id) => byId.get(id) ?? [])
  const matches = query.trim() === '' ? pinned : searchNavigation(entries, query)
  return (
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
                  onClick={() => toggleShortcut(entry.id, registryShortcuts)}
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
  )
}
