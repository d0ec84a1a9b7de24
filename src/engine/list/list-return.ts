import type { AnyEntity } from '../entity-api'

/**
 * Where a form goes back to: the list as the user left it (its page, order, search and
 * filters), not the list's bare path. The list remembers its address's search as it shows
 * it; the form's Back link, Cancel and the navigation after Save read it. Kept for the tab
 * (sessionStorage), so a reload of the form still returns to the same view.
 */
export type ListSearchParams = Readonly<Record<string, string | number | boolean>>

/** Values by name kept for the tab (sessionStorage), or for the page's life when the browser keeps nothing. */
function tabRecord<V>(storageKey: string) {
  const fallback = new Map<string, V>()
  const readAll = (): Record<string, V> => {
    try {
      if (!globalThis.sessionStorage) return Object.fromEntries(fallback)
      const stored = JSON.parse(globalThis.sessionStorage.getItem(storageKey) ?? '{}') as unknown
      return stored && typeof stored === 'object' ? (stored as Record<string, V>) : {}
    } catch {
      return Object.fromEntries(fallback)
    }
  }
  return {
    get: (name: string): V | undefined => readAll()[name],
    set(name: string, value: V): void {
      const all = readAll()
      if (JSON.stringify(all[name] ?? null) === JSON.stringify(value)) return
      fallback.set(name, value)
      try {
        globalThis.sessionStorage?.setItem(storageKey, JSON.stringify({ ...all, [name]: value }))
      } catch {
        /* storage full or refused: remembered for this page's life */
      }
    },
  }
}

const views = tabRecord<ListSearchParams>('list_views')
const origins = tabRecord<string>('list_origins')

/** Called by a list each time its address changes. */
export function rememberListView(listPath: string, search: ListSearchParams): void {
  views.set(listPath, search)
}

/** The search a list was last shown with in this tab; none when it was not shown yet. */
export function rememberedListView(listPath: string): ListSearchParams {
  const search = views.get(listPath)
  return search && typeof search === 'object' ? search : {}
}

/** Called by a list as it is shown: the entity's records opened from here return here (a view of it, or its own list). */
export function rememberListOrigin(entityName: string, listPath: string): void {
  origins.set(entityName, listPath)
}

/**
 * Where to return to an entity's list: `{ to, search }` for a Link or `navigate` — the list
 * view the user came from (a view of the entity, or its own list), as they left it.
 */
export function listReturn(entity: Pick<AnyEntity, 'ui' | 'name' | 'views' | 'listView'>): { to: string; search: ListSearchParams } {
  // A form at a view's own address (`route.form`: a department's ticket thread) is that view's: it returns there.
  if (entity.listView?.ui.formPath !== undefined) return { to: entity.ui.listPath, search: rememberedListView(entity.ui.listPath) }
  const origin = origins.get(entity.name)
  const to = origin && (origin === entity.ui.listPath || Object.values(entity.views ?? {}).some((v) => v.ui.listPath === origin)) ? origin : entity.ui.listPath
  return { to, search: rememberedListView(to) }
}
