import { isRangeKind, type AnyField, type Entity, type Fields } from './entity'

type AnyEntity = Entity<string, Fields>

/**
 * A list's view in its address: the page, the rows per page, the order, the search text
 * and the filters (`?page=2&ordering=-name&q=dha&city=5&emp_join_date_after=2024-01-01`),
 * so that Back, a reload or a shared link shows the same rows. Pure and small: the list
 * reads and writes the router's search with it, and the server reads a page's address with
 * it to start that list's request with the page (server/http/app-page.ts).
 *
 * The filter parameters are the server's (`search/`'s): `<field>` for a choice, a flag or a
 * reference; `<field>_after` / `<field>_before` for a date or datetime (inclusive days);
 * `<field>_min` / `<field>_max` for a number or money. Values are kept as the server takes
 * them (text); what cannot be one of the field's values is left out.
 */
export const pageSizes = [30, 50, 100] as const
export type PageSize = (typeof pageSizes)[number]
export const DEFAULT_PAGE_SIZE: PageSize = 30
export const isPageSize = (n: number): n is PageSize => (pageSizes as readonly number[]).includes(n)

/**
 * "All" rows (`?size=all`): the whole list on one scrolled page, for a list of at most
 * `ALL_ROWS_MAX` rows — the screen first reads a page (its count), then the rows, asking
 * `without_pagination/all/` for at most that many (`allRowsRequestOf`).
 */
export const ALL_ROWS = 'all'
export const ALL_ROWS_MAX = 10_000
export type ListSize = PageSize | typeof ALL_ROWS

export type FilterBound = 'value' | 'after' | 'before' | 'min' | 'max'

/** One parameter of the filter bar: the field it filters and which bound it is. */
export type FilterParam = { param: string; field: string; bound: FilterBound }

export type ListView = {
  page: number
  size: ListSize
  ordering: string
  q: string
  /** By parameter name, in the entity's filter order. */
  filters: Readonly<Record<string, string>>
  /** The saved view the list was opened with (`?saved=<id>`: a shareable link to it). */
  saved?: number
}

export const emptyView: ListView = { page: 1, size: DEFAULT_PAGE_SIZE, ordering: '', q: '', filters: {} }

/** The bounds a field is filtered by: a value, a range of days, or a range of numbers. */
export function boundsOf(field: AnyField): FilterBound[] {
  if (field.kind === 'date' || field.kind === 'datetime') return ['after', 'before']
  if (isRangeKind(field.kind)) return ['min', 'max']
  return ['value']
}

export const paramName = (field: string, bound: FilterBound) => (bound === 'value' ? field : `${field}_${bound}`)

/** The filter bar's parameters, in the registry's order. */
export function filterParamsOf(entity: AnyEntity): FilterParam[] {
  return entity.filterFields.flatMap((field) => boundsOf(entity.fields[field]!).map((bound) => ({ param: paramName(field, bound), field, bound })))
}

const DAY = /^\d{4}-\d{2}-\d{2}$/
const NUMBER = /^-?\d{1,30}(\.\d{1,30})?$/

/** A value as the router read it from the address (a number, a flag or text), as the server takes it; undefined when it cannot be one. */
export function filterValueOf(field: AnyField, bound: FilterBound, raw: unknown): string | undefined {
  if (raw === undefined || raw === null) return undefined
  const text = typeof raw === 'string' ? raw.trim() : typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : undefined
  if (text === undefined || text === '') return undefined
  if (bound === 'after' || bound === 'before') return DAY.test(text) && !Number.isNaN(Date.parse(text)) ? text : undefined
  if (bound === 'min' || bound === 'max') return NUMBER.test(text) ? text : undefined
  if (field.kind === 'boolean') return text === 'true' || text === 'false' ? text : undefined
  if (field.kind === 'ref') return /^\d{1,15}$/.test(text) && Number(text) > 0 ? text : undefined
  if (field.kind === 'enum') return field.options?.includes(text) ? text : undefined
  return undefined
}

const positiveInteger = (value: unknown): number | undefined => {
  const n = typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 1 ? n : undefined
}

/** The view an address's search describes; anything else in it is ignored. */
export function listViewOf(entity: AnyEntity, search: Readonly<Record<string, unknown>>): ListView {
  const size = positiveInteger(search.size)
  const ordering = typeof search.ordering === 'string' ? search.ordering : ''
  const name = ordering.replace(/^-/, '')
  const isSortable = name === 'id' || entity.fields[name]?.isSortable === true
  const q = typeof search.q === 'string' || typeof search.q === 'number' ? String(search.q).trim() : ''
  const filters: Record<string, string> = {}
  for (const p of filterParamsOf(entity)) {
    const value = filterValueOf(entity.fields[p.field]!, p.bound, search[p.param])
    if (value !== undefined) filters[p.param] = value
  }
  const saved = positiveInteger(search.saved)
  return {
    page: search.size === ALL_ROWS ? 1 : (positiveInteger(search.page) ?? 1),
    size: search.size === ALL_ROWS ? ALL_ROWS : size !== undefined && isPageSize(size) ? size : DEFAULT_PAGE_SIZE,
    ordering: isSortable ? ordering : '',
    q,
    filters,
    ...(saved !== undefined ? { saved } : {}),
  }
}

/** A value as the address writes it: ids, flags and plain numbers unquoted (`city=5`, not `city="5"`). */
function addressValue(value: string): string | number | boolean {
  if (value === 'true') return true
  if (value === 'false') return false
  return /^-?\d{1,15}(\.\d*[1-9])?$/.test(value) && String(Number(value)) === value ? Number(value) : value
}

/** The address's search for a view: only what differs from the default. */
export function searchOfView(view: ListView): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {}
  if (view.q) out.q = view.q
  if (view.ordering) out.ordering = view.ordering
  for (const [param, value] of Object.entries(view.filters)) out[param] = addressValue(value)
  if (view.page > 1 && view.size !== ALL_ROWS) out.page = view.page
  if (view.size !== DEFAULT_PAGE_SIZE) out.size = view.size
  if (view.saved !== undefined) out.saved = view.saved
  return out
}

/** The server's query of a view's filters (the search text is `q`, beside them). */
export function hasFilters(view: ListView): boolean {
  return Object.keys(view.filters).length > 0
}

/** The same view on another page, or with other filters: a change of what is listed starts again at page 1. */
export function withFilters(view: ListView, filters: Readonly<Record<string, string | undefined>>): ListView {
  const next: Record<string, string> = {}
  for (const [param, value] of Object.entries({ ...view.filters, ...filters })) if (value !== undefined && value !== '') next[param] = value
  return { ...view, filters: next, page: 1 }
}

/** Compares two decimal numbers written as text, exactly (no float); undefined when one is not a number. */
export function compareNumbers(a: string, b: string): number | undefined {
  const parse = (v: string) => {
    const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(v)
    return m ? { sign: m[1] ? -1n : 1n, whole: m[2]!, frac: m[3] ?? '' } : undefined
  }
  const [x, y] = [parse(a), parse(b)]
  if (!x || !y) return undefined
  const scale = Math.max(x.frac.length, y.frac.length)
  const value = (p: NonNullable<ReturnType<typeof parse>>) => p.sign * BigInt(`${p.whole}${p.frac.padEnd(scale, '0')}`)
  const d = value(x) - value(y)
  return d < 0n ? -1 : d > 0n ? 1 : 0
}

/** What the list asks the server for a view: its page, size, order, search text and filters. */
export type ListParams = { page: number; size: number; ordering?: string; search?: string; filters?: Readonly<Record<string, string>> }

/** At "All" rows, the first request is the first page: its count says whether the rows may all be asked. */
export function listParamsOf(view: ListView): ListParams {
  const size = view.size === ALL_ROWS ? undefined : view.size
  return {
    page: size === undefined ? 1 : view.page,
    size: size ?? DEFAULT_PAGE_SIZE,
    ...(view.ordering ? { ordering: view.ordering } : {}),
    ...(view.q ? { search: view.q } : {}),
    ...(hasFilters(view) ? { filters: view.filters } : {}),
  }
}

/** The path of one record (`{id}`); a document kept one row per line is read whole by any of its rows' ids. */
export function recordPathOf(entity: AnyEntity, id: number | string): string {
  return `${entity.api.base}/${entity.rowsPerLine ? `document/${id}` : id}`
}

/**
 * The request of a list page: `all/`, paged; with text, `q`; with filters, `search/` (the
 * contract's filtered list) with them; a list view (`views`) names itself, the server holds
 * its filter. Undefined values are left out of the query.
 */
export function listRequestOf(entity: AnyEntity, params: ListParams): { path: string; searchParams: Record<string, string | number | undefined> } {
  const text = params.search?.trim() ?? ''
  const filters = params.filters ?? {}
  const isFiltered = Object.keys(filters).length > 0 && entity.routes.search !== false
  return {
    path: `${entity.api.base}/${isFiltered ? 'search' : 'all'}/`,
    searchParams: { ...(isFiltered ? filters : {}), view: entity.listView?.name, q: text || undefined, page: params.page, size: params.size, ordering: params.ordering || undefined },
  }
}

/**
 * The request of every row of a list ("All"): `without_pagination/all/` with its filters,
 * search text, order and list view, at most `limit` rows (the server's bound on what a screen
 * asks: server/engine/unpaged-limit.ts). Undefined when the entity does not serve that route.
 */
export function allRowsRequestOf(entity: AnyEntity, params: ListParams, limit = ALL_ROWS_MAX): { path: string; searchParams: Record<string, string | number | undefined> } | undefined {
  if (entity.routes.without_pagination !== 'generic') return undefined
  const text = params.search?.trim() ?? ''
  return {
    path: `${entity.api.base}/without_pagination/all/`,
    searchParams: { ...(params.filters ?? {}), view: entity.listView?.name, q: text || undefined, ordering: params.ordering || undefined, limit },
  }
}

// ---------------------------------------------------------------- layout and saved views

/** How tall a list's rows are: roomy, or more rows on a screen. */
export const densities = ['comfortable', 'compact'] as const
export type Density = (typeof densities)[number]

/** A column's width in CSS pixels, as a resize leaves it (bounded: a saved view keeps it). */
export const MIN_COLUMN_WIDTH = 48
export const MAX_COLUMN_WIDTH = 1200
/** The most columns a layout names. */
export const MAX_LAYOUT_COLUMNS = 200

/**
 * The columns of a list as a person arranged them (the column chooser): their order, those
 * hidden, the widths they dragged. Names are the entity's fields; what is no longer one is
 * dropped when the layout is read (src/engine/list/column-layout.ts).
 */
export type ColumnLayout = { order: string[]; hidden: string[]; widths: Record<string, number> }

/**
 * What a saved view keeps of a list (the `state` of a `saved_view`): its search text, order,
 * filters and rows per page, its columns and density — every part optional. The server
 * judges it by a zod shape (server/domain/workspace/saved-views.ts), kept out of here: the
 * list screens load this file and no zod.
 */
export type SavedViewState = {
  q?: string
  ordering?: string
  filters?: Record<string, string>
  size?: ListSize
  columns?: ColumnLayout
  density?: Density
}

/** What a saved view keeps of a list as it is shown. */
export function savedStateOf(view: ListView, columns: ColumnLayout, density: Density): SavedViewState {
  return {
    ...(view.q ? { q: view.q } : {}),
    ...(view.ordering ? { ordering: view.ordering } : {}),
    ...(hasFilters(view) ? { filters: { ...view.filters } } : {}),
    size: view.size,
    columns,
    density,
  }
}

/** The list a saved view shows (page 1), read as an address is: what the entity no longer has is left out. */
export function viewOfSavedState(entity: AnyEntity, state: SavedViewState, saved: number): ListView {
  return listViewOf(entity, { ...(state.filters ?? {}), q: state.q, ordering: state.ordering, size: state.size, saved })
}
