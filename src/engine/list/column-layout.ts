import { useCallback, useMemo, useState } from 'react'
import type { AnyField } from '../../../schema/kit'
import { densities, MAX_COLUMN_WIDTH, MAX_LAYOUT_COLUMNS, MIN_COLUMN_WIDTH, type ColumnLayout, type Density, type SavedViewState } from '../../../schema/kit/list-view'
import { useSession } from '../../auth/useSession'
import type { AnyEntity } from '../entity-api'

/**
 * The columns of a list as a person arranged them — which of the entity's list-worthy fields
 * show, in what order, how wide — and how dense its rows are: kept per user per list in
 * localStorage (what a saved view stores, schema/kit/list-view.ts), read back forgivingly: a
 * field the registry no longer has is dropped, one it gained appears where the registry puts it.
 */
export type { ColumnLayout, Density } from '../../../schema/kit/list-view'

export const DEFAULT_DENSITY: Density = 'comfortable'

/**
 * A field worth a column: one value a cell can show (not the lines of a document, not a list of
 * references, not JSON), that a client may read, not a long text (which a row cannot hold).
 */
export function isListWorthy(field: AnyField): boolean {
  if (field.isWriteOnly || field.kind === 'lines' || field.kind === 'refs' || field.kind === 'json' || field.markup === 'html' || field.kind === 'password') return false
  return !(field.kind === 'text' && (field.widget === 'textarea' || (field.maxLength ?? Infinity) > 200))
}

/** The columns a list may show: its own columns first, then the other list-worthy fields in the registry's order. */
export function columnChoicesOf(entity: AnyEntity): string[] {
  const own = entity.listColumns.filter((name) => entity.fields[name] !== undefined)
  const others = entity.fieldNames.filter((name) => !own.includes(name) && isListWorthy(entity.fields[name]!))
  return [...own, ...others]
}

/** The registry's arrangement: the list's columns shown, the others offered hidden. */
export function defaultLayout(entity: AnyEntity): ColumnLayout {
  const choices = columnChoicesOf(entity)
  return { order: choices, hidden: choices.filter((name) => !entity.listColumns.includes(name)), widths: {} }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const namesOf = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [])

/** A column's width kept within bounds, in whole pixels. */
export const clampWidth = (width: number) => Math.round(Math.min(MAX_COLUMN_WIDTH, Math.max(MIN_COLUMN_WIDTH, width)))

/**
 * A stored or saved layout made fit for the entity as it is now: unknown names dropped, each
 * column once, a column it lacks inserted after its neighbour in the registry's order (shown
 * when it is one of the list's columns), widths kept in bounds.
 */
export function normalizeLayout(entity: AnyEntity, raw: unknown): ColumnLayout {
  const fallback = defaultLayout(entity)
  if (!isRecord(raw)) return fallback
  const choices = fallback.order
  const order = [...new Set(namesOf(raw.order).filter((name) => choices.includes(name)))].slice(0, MAX_LAYOUT_COLUMNS)
  const hidden = new Set(namesOf(raw.hidden).filter((name) => choices.includes(name)))
  for (const name of choices) {
    if (order.includes(name)) continue
    // One of the list's columns goes after its neighbour; another field, offered hidden, last.
    if (fallback.hidden.includes(name)) {
      order.push(name)
      hidden.add(name)
      continue
    }
    const before = choices.slice(0, choices.indexOf(name)).reverse().find((n) => order.includes(n))
    order.splice(before === undefined ? 0 : order.indexOf(before) + 1, 0, name)
  }
  const widths: Record<string, number> = {}
  if (isRecord(raw.widths)) for (const [name, width] of Object.entries(raw.widths)) if (choices.includes(name) && typeof width === 'number' && Number.isFinite(width)) widths[name] = clampWidth(width)
  return { order, hidden: order.filter((name) => hidden.has(name)), widths }
}

export const isDensity = (v: unknown): v is Density => (densities as readonly unknown[]).includes(v)

/** The columns shown, in their order. */
export const visibleColumnsOf = (layout: ColumnLayout): string[] => layout.order.filter((name) => !layout.hidden.includes(name))

/** `name` shown or hidden; the last shown column stays (a list shows something). */
export function withColumnShown(layout: ColumnLayout, name: string, isShown: boolean): ColumnLayout {
  if (isShown) return { ...layout, hidden: layout.hidden.filter((n) => n !== name) }
  if (visibleColumnsOf(layout).filter((n) => n !== name).length === 0) return layout
  return { ...layout, hidden: layout.order.filter((n) => n === name || layout.hidden.includes(n)) }
}

/** `name` moved to another place in the order (from a drag, or one step with the keyboard). */
export function withColumnMoved(layout: ColumnLayout, name: string, to: number): ColumnLayout {
  const from = layout.order.indexOf(name)
  if (from < 0 || to < 0 || to >= layout.order.length || to === from) return layout
  const order = layout.order.filter((n) => n !== name)
  order.splice(to, 0, name)
  return { ...layout, order }
}

export function withColumnWidth(layout: ColumnLayout, name: string, width: number | undefined): ColumnLayout {
  const widths = { ...layout.widths }
  if (width === undefined) delete widths[name]
  else widths[name] = clampWidth(width)
  return { ...layout, widths }
}

// ---------------------------------------------------------------- kept per user per list

type Stored = { columns: ColumnLayout; density: Density }

/** One list's key: the entity, or the entity as one of its registry views shows it (other columns). */
const listKeyOf = (entity: AnyEntity) => (entity.listView ? `${entity.name}.${entity.listView.name}` : entity.name)
const storageKey = (userId: number | null, entity: AnyEntity) => `list_layout:${userId ?? 'guest'}:${listKeyOf(entity)}`

function readStored(key: string): unknown {
  try {
    return JSON.parse(globalThis.localStorage?.getItem(key) ?? 'null') as unknown
  } catch {
    return null
  }
}

function writeStored(key: string, value: Stored): void {
  try {
    globalThis.localStorage?.setItem(key, JSON.stringify(value))
  } catch {
    /* storage full or refused: kept for this page's life */
  }
}

/**
 * The current layout and density of a list for the signed-in user, with what changes them; each
 * change is kept at once. `apply` takes what a saved view stored.
 */
export function useListLayout(entity: AnyEntity) {
  const { userId } = useSession()
  const key = storageKey(userId, entity)
  const read = useCallback((): Stored => {
    const stored = readStored(key)
    const record = isRecord(stored) ? stored : {}
    return { columns: normalizeLayout(entity, record.columns), density: isDensity(record.density) ? record.density : DEFAULT_DENSITY }
  }, [key, entity])
  const [state, setState] = useState<{ key: string; value: Stored }>(() => ({ key, value: read() }))
  // Another list (or another user) reads its own.
  const current = state.key === key ? state.value : read()
  if (state.key !== key) setState({ key, value: current })

  const save = useCallback(
    (next: (was: Stored) => Stored) =>
      setState((s) => {
        const value = next(s.key === key ? s.value : read())
        writeStored(key, value)
        return { key, value }
      }),
    [key, read],
  )

  return useMemo(
    () => ({
      columns: current.columns,
      density: current.density,
      visibleColumns: visibleColumnsOf(current.columns),
      setColumns: (update: (was: ColumnLayout) => ColumnLayout) => save((was) => ({ ...was, columns: update(was.columns) })),
      setDensity: (density: Density) => save((was) => ({ ...was, density })),
      /** Back to the registry's columns and the default density. */
      reset: () => save(() => ({ columns: defaultLayout(entity), density: DEFAULT_DENSITY })),
      /** What a saved view stored (its columns and density, where it has them). */
      apply: (state: Pick<SavedViewState, 'columns' | 'density'>) =>
        save((was) => ({ columns: state.columns ? normalizeLayout(entity, state.columns) : was.columns, density: isDensity(state.density) ? state.density : was.density })),
    }),
    [current, save, entity],
  )
}

export type ListLayout = ReturnType<typeof useListLayout>

// ---------------------------------------------------------------- widths

/**
 * A column's width before anyone drags it, when the table needs one (the rows of "All" are laid
 * out by fixed widths, so a window of rows scrolled into view cannot move the columns): by what
 * the cell shows, never narrower than its heading.
 */
export function defaultWidthOf(field: AnyField, label: string): number {
  const heading = Math.round(label.length * 7.5) + 64
  const byCell = (): number => {
    switch (field.cell) {
      case 'boolean':
        return 96
      case 'number':
      case 'decimal':
      case 'money':
      case 'date':
        return 128
      case 'datetime':
        return 176
      case 'enum':
      case 'status':
        return 144
      case 'image':
        return 80
      case 'ref':
        return 184
      case 'link':
        return 224
      default:
        return field.maxLength !== undefined && field.maxLength <= 20 ? 128 : field.maxLength !== undefined && field.maxLength <= 60 ? 192 : 256
    }
  }
  return clampWidth(Math.max(byCell(), heading))
}
