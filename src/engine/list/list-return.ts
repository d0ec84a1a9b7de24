import type { AnyEntity } from '../entity-api'

/**
 * Where a form goes back to: the list as the user left it (its page, order, search and
 * filters), not the list's bare path. The list remembers its address's search as it shows
 * it; the form's Back link, Cancel and the navigation after Save read it. Kept for the tab
 * (sessionStorage), so a reload of the form still returns to the same view.
 */
export type ListSearchParams = Readonly<Record<string, string | number | boolean>>

const STORAGE_KEY = 'list_views'
/** Where the views are kept when the browser keeps nothing (storage refused). */
const fallback = new Map<string, ListSearchParams>()

function readAll(): Record<string, ListSearchParams> {
  try {
    if (!globalThis.sessionStorage) return Object.fromEntries(fallback)
    const raw = globalThis.sessionStorage.getItem(STORAGE_KEY)
    if (raw === null) return {}
    const stored = JSON.parse(raw) as unknown
    return stored && typeof stored === 'object' ? (stored as Record<string, ListSearchParams>) : {}
  } catch {
    return Object.fromEntries(fallback)
  }
}

/** Called by a list each time its address changes. */
export function rememberListView(listPath: string, search: ListSearchParams): void {
  const all = readAll()
  if (JSON.stringify(all[listPath] ?? {}) === JSON.stringify(search)) return
  fallback.set(listPath, search)
  try {
    globalThis.sessionStorage?.setItem(STORAGE_KEY, JSON.stringify({ ...all, [listPath]: search }))
  } catch {
    /* storage full or refused: the view is remembered for this page's life */
  }
}

/** The search a list was last shown with in this tab; none when it was not shown yet. */
export function rememberedListView(listPath: string): ListSearchParams {
  const search = readAll()[listPath]
  return search && typeof search === 'object' ? search : {}
}

const ORIGIN_KEY = 'list_origins'
const origins = new Map<string, string>()

/** Called by a list as it is shown: the entity's records opened from here return here (a view of it, or its own list). */
export function rememberListOrigin(entityName: string, listPath: string): void {
  origins.set(entityName, listPath)
  try {
    const all = JSON.parse(globalThis.sessionStorage?.getItem(ORIGIN_KEY) ?? '{}') as Record<string, string>
    if (all[entityName] !== listPath) globalThis.sessionStorage?.setItem(ORIGIN_KEY, JSON.stringify({ ...all, [entityName]: listPath }))
  } catch {
    /* storage refused: remembered for this page's life */
  }
}

function listOrigin(entityName: string): string | undefined {
  try {
    const stored = (JSON.parse(globalThis.sessionStorage?.getItem(ORIGIN_KEY) ?? '{}') as Record<string, unknown>)[entityName]
    if (typeof stored === 'string') return stored
  } catch {
    /* fall back to what this page remembers */
  }
  return origins.get(entityName)
}

/**
 * Where to return to an entity's list: `{ to, search }` for a Link or `navigate` — the list
 * view the user came from (a view of the entity, or its own list), as they left it.
 */
export function listReturn(entity: Pick<AnyEntity, 'ui' | 'name' | 'views'>): { to: string; search: ListSearchParams } {
  const origin = listOrigin(entity.name)
  const to = origin && (origin === entity.ui.listPath || Object.values(entity.views ?? {}).some((v) => v.ui.listPath === origin)) ? origin : entity.ui.listPath
  return { to, search: rememberedListView(to) }
}
