import { Combobox, ComboboxInput, ComboboxOption, ComboboxOptions, Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react'
import { useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useAccess } from '../../engine/access-context'
import { apiRequest } from '../../engine/api'
import { useEntities } from '../../engine/entities-context'
import { Icon, type IconName } from '../../engine/ui/icons'
import { Spinner } from '../../engine/ui/PageSpinner'
import { useDebouncedValue } from '../../engine/useDebouncedValue'
import { flattenNavigation, labelOf, type NavigationItem } from '../navigation'
import { matchCommands, recordUrl, type PaletteCommand } from './palette-commands'

/** The server's answer to `GET /api/search/?q=` (server/engine/global-search.ts). */
type SearchAnswer = { results: Array<{ entity: string; total: number; rows: Array<{ id: number; label: string }> }> }

const SEARCH_PATH = '/api/search/'
const MIN_SEARCH = 2
const DEBOUNCE_MS = 250

const iconOf: Record<PaletteCommand['kind'], IconName> = { screen: 'document', new: 'plus', record: 'search', more: 'search' }

/**
 * The command palette (Ctrl/Cmd+K), built from the registry and the navigation and aware of
 * the user's permissions: go to any screen of their menu, "New …" for every entity they may
 * create, and records found by the text across every entity they may list (the server
 * decides which: each entity's LIST and row scope). Arrow keys move, Enter opens, Escape closes.
 */
export function CommandPalette({ items, onClose, onHelp }: { items: readonly NavigationItem[]; onClose: () => void; onHelp: () => void }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const entities = useEntities()
  const access = useAccess()
  const [text, setText] = useState('')
  const q = useDebouncedValue(text.trim(), DEBOUNCE_MS)

  const screens = useMemo<PaletteCommand[]>(
    () => flattenNavigation(items).map((item) => ({ id: `screen:${item.id}`, kind: 'screen', title: labelOf(t, item), url: item.url!, icon: item.icon })),
    [items, t],
  )
  const creates = useMemo<PaletteCommand[]>(
    () =>
      entities
        .filter((e) => !e.isLine && e.routes.create !== false && access.canDo(e, 'CREATE'))
        .map((e) => ({ id: `new:${e.name}`, kind: 'new', title: t('palette.new', { entity: t(`${e.labelKey}.one`) }), url: `${e.ui.formPath}/new` })),
    [entities, access, t],
  )
  const found = useQuery({
    queryKey: ['global-search', q],
    queryFn: ({ signal }) => apiRequest(SEARCH_PATH, { searchParams: { q }, signal }) as Promise<SearchAnswer>,
    enabled: q.length >= MIN_SEARCH,
    staleTime: 30_000,
  })
  const records = useMemo<PaletteCommand[]>(() => {
    if (q.length < MIN_SEARCH || !found.data) return []
    return found.data.results.flatMap((result) => {
      const entity = entities.find((e) => e.name === result.entity)
      if (!entity) return []
      const name = t(`${entity.labelKey}.one`)
      const rows: PaletteCommand[] = result.rows.map((row) => ({ id: `record:${entity.name}:${row.id}`, kind: 'record', title: row.label || `#${row.id}`, hint: name, url: recordUrl(entity.ui.formPath, row.id, row.label) }))
      const rest = result.total - result.rows.length
      return rest > 0
        ? [...rows, { id: `more:${entity.name}`, kind: 'more', title: t('palette.more', { count: rest, entity: t(`${entity.labelKey}.other`) }), url: `${entity.ui.listPath}?q=${encodeURIComponent(q)}` }]
        : rows
    })
  }, [found.data, q, entities, t])

  const sections: Array<{ key: string; title: string; commands: PaletteCommand[] }> = [
    { key: 'screens', title: t('palette.screens'), commands: matchCommands(screens, text) },
    { key: 'new', title: t('palette.create'), commands: text.trim() === '' ? [] : matchCommands(creates, text) },
    { key: 'records', title: t('palette.records'), commands: records },
  ].filter((s) => s.commands.length > 0)
  const isSearching = q.length >= MIN_SEARCH && found.isFetching
  const isEmpty = sections.length === 0 && !isSearching

  const go = (command: PaletteCommand | null) => {
    if (!command) return
    onClose()
    void navigate({ to: command.url })
  }

  return (
    <Dialog open onClose={onClose} className="relative z-50">
      <DialogBackdrop className="fixed inset-0 bg-slate-900/40 dark:bg-black/60" />
      <div className="fixed inset-0 flex items-start justify-center p-4 pt-[12vh]">
        <DialogPanel className="w-full max-w-xl overflow-hidden rounded-xl bg-white shadow-2xl ring-1 ring-black/5 dark:bg-slate-900 dark:ring-white/10">
          <DialogTitle className="sr-only">{t('palette.title')}</DialogTitle>
          <Combobox onChange={go}>
            <div className="relative border-b border-slate-200 dark:border-slate-700">
              <Icon name="search" className="pointer-events-none absolute inset-y-0 start-4 my-auto size-5 text-slate-400" />
              <ComboboxInput
                autoFocus
                className="h-12 w-full border-0 bg-transparent ps-12 pe-12 text-base text-slate-900 outline-none placeholder:text-slate-400 dark:text-slate-100"
                placeholder={t('palette.placeholder')}
                aria-label={t('palette.title')}
                onChange={(e) => setText(e.target.value)}
                // The combobox keeps Escape for its options; here the options are the dialog, so it closes.
                onKeyDown={(e) => e.key === 'Escape' && (e.preventDefault(), onClose())}
                value={text}
              />
              {isSearching && <Spinner className="absolute inset-y-0 end-4 my-auto size-4 text-slate-400" />}
            </div>
            <ComboboxOptions static className="max-h-[60vh] overflow-y-auto py-2">
              {sections.map((section) => (
                <div key={section.key} role="presentation">
                  <p className="px-4 pt-2 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400" role="presentation">
                    {section.title}
                  </p>
                  {section.commands.map((command) => (
                    <ComboboxOption
                      key={command.id}
                      value={command}
                      className="flex cursor-pointer items-center gap-3 px-4 py-2 text-sm text-slate-700 data-[focus]:bg-indigo-600 data-[focus]:text-white dark:text-slate-200"
                    >
                      <Icon name={(command.icon as IconName | undefined) ?? iconOf[command.kind]} className="size-4 shrink-0 opacity-70" />
                      <span className="min-w-0 flex-1 truncate">{command.title}</span>
                      {command.hint && <span className="shrink-0 text-xs opacity-70">{command.hint}</span>}
                    </ComboboxOption>
                  ))}
                </div>
              ))}
              {isEmpty && <p className="px-4 py-6 text-center text-sm text-slate-500 dark:text-slate-400">{t('palette.no_results')}</p>}
              {found.isError && q.length >= MIN_SEARCH && <p className="px-4 py-2 text-sm text-red-600 dark:text-red-400">{t('palette.search_failed')}</p>}
            </ComboboxOptions>
          </Combobox>
          <div className="flex items-center justify-between gap-3 border-t border-slate-200 px-4 py-2 text-xs text-slate-500 dark:border-slate-700 dark:text-slate-400">
            <span>{t('palette.footer')}</span>
            <button type="button" onClick={onHelp} className="rounded font-medium text-indigo-600 hover:underline dark:text-indigo-400">
              {t('palette.shortcuts')}
            </button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  )
}
