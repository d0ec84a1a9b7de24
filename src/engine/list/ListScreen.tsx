import { columnSizingFeature, createColumnHelper, tableFeatures, useTable, type ColumnDef, type ColumnSizingState, type Updater } from '@tanstack/react-table'
import { Link, useNavigate } from '@tanstack/react-router'
import { createContext, lazy, Suspense, useCallback, useContext, useId, useMemo, useRef, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { type AnyEntity, type Row } from '../entity-api'
import { errorText } from '../errors'
import { useAccess } from '../access-context'
import { Banner } from '../ui/Banner'
import { Icon } from '../ui/icons'
import { isNumericCell } from './FieldCell'
import { FilterChips, ViewFilterChips } from './FilterChips'
import { SkeletonRows } from './ListSkeleton'
import { useListController, type ListController } from './useListController'
import { ListSearchBox, NewRecordLink } from './ListToolbar'
import { pinnedHeaderCell, TableFrame } from './TableFrame'
import { LazyDeleteDialog } from './LazyDeleteDialog'
import { ListTools } from './ListTools'
import { SelectionTools } from './SelectionTools'
import { ColumnChooserTool, SavedViewsTool } from './list-tools-lazy'
import { ColumnResizeHandle } from './ColumnResizeHandle'
import { clampWidth, defaultWidthOf, withColumnWidth, type Density } from './column-layout'
import { ListFooter } from './ListFooter'
import { formHref, ListTableRow, useRowKit, type RowSizing } from './ListTableRow'

// "All" rows' virtualiser loads when a list is first shown whole, not with every list.
const VirtualRows = lazy(() => import('./VirtualRows').then((m) => ({ default: m.VirtualRows })))

export { formHref }

/**
 * The generic list screen of any registry entity: header with search, filters, saved views,
 * the column chooser, the list's tools and "New"; the filters in force as chips; a
 * server-paged, sortable, selectable table of the columns the user chose (entity.listColumns
 * by default), their widths dragged on the headers, whose rows open their record (a real
 * link: Ctrl/Cmd- and middle-click open a new tab); "All" rows drawn as they scroll into view;
 * delete with a confirmation that says what it would do. Behaviour lives in
 * `useListController`; this file renders.
 */
const features = tableFeatures({ columnSizingFeature })
type Features = typeof features
const helper = createColumnHelper<Features, Row>()

// Cells read the controller from context, so the column definitions stay stable.
const ControllerContext = createContext<ListController | null>(null)
function useController(): ListController {
  const controller = useContext(ControllerContext)
  if (!controller) throw new Error('List cells render inside ListScreen')
  return controller
}

const checkboxClass =
  'size-4 rounded border-slate-300 text-indigo-600 accent-indigo-600 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-600'

/** Header padding by density (the rows' is ListTableRow's); the rows of "All" are drawn at about these heights (VirtualRows measures them). */
const headPadding: Record<Density, string> = { comfortable: 'px-4 py-3', compact: 'px-3 py-2' }
export const rowHeights: Record<Density, number> = { comfortable: 45, compact: 33 }
/** A row's buttons (delete, actions: 30 px) make it taller than its text: the estimate of rows not yet drawn says so, or "All" ends short of its last row until each is measured. */
const BUTTON_ROW_EXTRA = 10

/** Whether the last thing the user did was with the keyboard (a Tab) rather than a pointer: focus-visible's own test. */
let isKeyboardInput = false
if (typeof document !== 'undefined') {
  document.addEventListener('keydown', () => (isKeyboardInput = true), true)
  document.addEventListener('pointerdown', () => (isKeyboardInput = false), true)
}
/** Focus the keyboard gave (Tab), not a click's. */
const isKeyboardFocus = (_target: EventTarget): boolean => isKeyboardInput

function SelectAllCheckbox() {
  const { t } = useTranslation()
  const c = useController()
  const isSome = c.selection.size > 0 && !c.isAllSelected
  return (
    <input
      type="checkbox"
      className={checkboxClass}
      checked={c.isAllSelected}
      ref={(el) => {
        if (el) el.indeterminate = isSome
      }}
      onChange={c.toggleAll}
      disabled={!c.hasSelectable}
      aria-label={t('list.select_all')}
    />
  )
}

function SortHeader({ field }: { field: string }) {
  const { t } = useTranslation()
  const c = useController()
  const label = t(c.entity.fieldLabelKey(field))
  const spec = c.entity.fields[field]
  if (!spec?.isSortable) return <>{label}</>
  const direction = c.sortDirection(field)
  return (
    <button
      type="button"
      onClick={() => c.toggleSort(field)}
      className={`group inline-flex max-w-full items-center gap-1 rounded uppercase hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:text-white ${direction ? 'text-slate-900 dark:text-white' : ''}`}
    >
      <span className="truncate">{label}</span>
      <Icon
        name={direction === 'asc' ? 'arrowUp' : direction === 'desc' ? 'arrowDown' : 'selector'}
        className={`size-3.5 shrink-0 ${direction ? 'text-indigo-600 dark:text-indigo-400' : 'text-slate-300 group-hover:text-slate-500 dark:text-slate-600'}`}
      />
    </button>
  )
}

function ColumnsHeaderLabel({ id }: { id: 'serial' | 'actions' }) {
  const { t } = useTranslation()
  return id === 'serial' ? <>{t('list.serial')}</> : <span className="sr-only">{t('list.actions')}</span>
}

/** The widths of the columns that are not fields: a checkbox, a serial number up to five digits, the row's buttons. */
const SELECT_WIDTH = 48
const SERIAL_WIDTH = 80
const actionsWidthOf = (entity: AnyEntity, canDelete: boolean) => 24 + (Object.keys(entity.actions).length > 0 ? 48 : 0) + (canDelete ? 40 : 0)

/**
 * The table's columns: selection for users who may delete or change several rows at once (the
 * server enforces it either way), the serial number, the chosen fields in their order — each
 * with the width a drag set, else one by what it shows — and a record's actions and delete for
 * those who may run them.
 */
function columnsOf(
  entity: AnyEntity,
  { names, labelOf: labelFor, canSelect, canDelete, hasActions }: { names: readonly string[]; labelOf: (name: string) => string; canSelect: boolean; canDelete: boolean; hasActions: boolean },
): ColumnDef<Features, Row, unknown>[] {
  // Headers and widths only: the rows draw their cells themselves (ListTableRow), by these ids.
  return [
    ...(canSelect ? [helper.display({ id: 'select', size: SELECT_WIDTH, header: () => <SelectAllCheckbox /> })] : []),
    helper.display({ id: 'serial', size: SERIAL_WIDTH, header: () => <ColumnsHeaderLabel id="serial" /> }),
    ...names.map((name) => helper.display({ id: name, size: defaultWidthOf(entity.fields[name]!, labelFor(name)), header: () => <SortHeader field={name} /> })),
    ...(canDelete || hasActions ? [helper.display({ id: 'actions', size: actionsWidthOf(entity, canDelete), header: () => <ColumnsHeaderLabel id="actions" /> })] : []),
  ]
}

const ariaSortOf = (direction: 'asc' | 'desc' | null) => (direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none')

/** The column whose cell is the row's link: the label's when it is shown, or the first shown. */
const linkColumnOf = (entity: AnyEntity, names: readonly string[]) => (names.includes(entity.labelField) ? entity.labelField : names[0])

const FilterPanel = lazy(() => import('./FilterPanel').then((m) => ({ default: m.FilterPanel })))

function FiltersButton({ count, isOpen, onToggle, controls }: { count: number; isOpen: boolean; onToggle: () => void; controls: string }) {
  const { t } = useTranslation()
  return (
    <button
      type="button"
      onClick={onToggle}
      aria-expanded={isOpen}
      aria-controls={controls}
      className={`inline-flex items-center gap-1.5 rounded-lg border px-3 py-2 text-sm font-medium shadow-xs focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 ${isOpen || count > 0 ? 'border-indigo-300 bg-indigo-50 text-indigo-800 dark:border-indigo-800 dark:bg-indigo-950/60 dark:text-indigo-100' : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800'}`}
    >
      <Icon name="adjustments" className="size-4" />
      {t('list.filters')}{' '}
      {count > 0 && (
        <>
          <span className="rounded-full bg-indigo-600 px-1.5 text-xs font-semibold text-white tabular-nums" aria-hidden="true">
            {count}
          </span>
          {/* Said once, in words: "Filters (2 filters in use)". */}
          <span className="sr-only">{`(${t('list.filters_active', { count })})`}</span>
        </>
      )}
    </button>
  )
}

/** `headerExtra`: a module's own control in the list's toolbar (the groups' List/Tree switch). */
export function ListScreen({ entity, headerExtra }: { entity: AnyEntity; headerExtra?: ReactNode }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const controller = useListController(entity)
  const access = useAccess()
  // By permission, or to their own rows by the entity's `own` (the server lists them theirs alone).
  const canCreate = access.canDo(entity, 'CREATE') && entity.routes.create !== false
  const canOpen = access.canDo(entity, 'DETAILS') && entity.routes.read !== false
  const hasActions = Object.values(entity.actions).some((a) => access.canDo(entity, a.name))
  const { canSelect, canDelete, canBulkDelete, layout } = controller
  const names = layout.visibleColumns
  const linkColumn = linkColumnOf(entity, names)
  const labelFor = useCallback((name: string) => t(entity.fieldLabelKey(name)), [t, entity])
  const columns = useMemo(
    () => columnsOf(entity, { names, labelOf: labelFor, canSelect, canDelete, hasActions }),
    // The names as text: a new array of the same columns keeps the definitions.
    [entity, names.join(','), labelFor, canSelect, canDelete, hasActions],
  )
  const columnIds = useMemo(() => columns.map((c) => c.id!), [columns])
  const widths = layout.columns.widths
  // TanStack Table's column sizing holds the widths dragged; the layout keeps them (per user, and in a saved view).
  const onColumnSizingChange = useCallback(
    (updater: Updater<ColumnSizingState>) =>
      layout.setColumns((was) => {
        const next = typeof updater === 'function' ? updater(was.widths) : updater
        return { ...was, widths: Object.fromEntries(Object.entries(next).filter(([name]) => entity.fields[name] !== undefined).map(([name, w]) => [name, clampWidth(w)])) }
      }),
    [layout, entity],
  )
  const table = useTable({ features, columns, data: controller.rows as Row[], state: { columnSizing: widths }, onColumnSizingChange })
  const plural = t(`${entity.labelKey}.other`)
  const { query, pendingDelete } = controller
  // The dialog keeps its text while it animates closed.
  const [asked, setAsked] = useState(pendingDelete)
  if (pendingDelete && pendingDelete !== asked) setAsked(pendingDelete)
  const [isFilterOpen, setIsFilterOpen] = useState(false)
  // The column whose header the keyboard is in: its resize handle is named and reachable there (ColumnResizeHandle).
  const [keyboardColumn, setKeyboardColumn] = useState<string | null>(null)
  const filterPanelId = useId()
  const scrollRef = useRef<HTMLDivElement>(null)
  const isFirstLoad = query.isPending
  const isEmpty = !isFirstLoad && !query.isError && controller.rows.length === 0
  const isFiltered = controller.activeFilters.length > 0
  const searchField = entity.searchFields[0]
  const isFixed = controller.isAll
  const sizing: RowSizing = useMemo(() => ({ isFixed, widths, density: layout.density }), [isFixed, widths, layout.density])
  const headers = table.getHeaderGroups()
  const fixedWidth = isFixed ? headers[0]!.headers.reduce((sum, h) => sum + h.getSize(), 0) : undefined
  const isBusy = query.isFetching || controller.allQuery.isFetching
  const listError = query.error ?? controller.allQuery.error

  const open = useCallback(
    (row: Row, inNewTab: boolean) => {
      if (!canOpen) return
      const href = formHref(entity, row)
      if (inNewTab) window.open(href, '_blank', 'noopener')
      else void navigate({ to: href })
    },
    [canOpen, entity, navigate],
  )
  const rowKit = useRowKit(controller, { columns: columnIds, linkColumn: canOpen ? linkColumn : undefined, sizing, canOpen, t, onOpen: open })
  const rows = controller.rows
  const renderRow = (index: number, measure?: (el: HTMLTableRowElement | null) => void) => {
    const row = rows[index]!
    return (
      <ListTableRow
        key={index}
        row={row}
        index={index}
        kit={rowKit}
        isSelected={canSelect ? controller.selection.has(row.id) : undefined}
        measure={measure}
        ariaRowIndex={isFixed ? index + 2 : undefined}
      />
    )
  }

  return (
    <ControllerContext.Provider value={controller}>
      <div className="min-w-0 space-y-4">
        <header className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <h1 className="text-2xl font-semibold tracking-tight">{t(entity.listTitleKey)}</h1>
            <p className="mt-1 text-sm text-slate-500 dark:text-slate-400" aria-live="polite">
              {query.data ? (controller.totalIsLowerBound ? t('list.records_more', { total: controller.totalElements }) : t('dashboard.records', { count: controller.totalElements })) : '\u00a0'}
              {controller.savedLink.current && <span className="ms-2 font-medium text-indigo-700 dark:text-indigo-300">· {controller.savedLink.current.name}</span>}
            </p>
          </div>
          <div className="flex w-full flex-wrap items-center gap-3 sm:w-auto">
            {headerExtra}
            {searchField && (
              <ListSearchBox
                label={t('list.search', { entity: plural })}
                value={controller.searchText}
                onChange={controller.setSearchText}
                isBusy={query.isFetching && !isFirstLoad}
              />
            )}
            {controller.filterParams.length > 0 && (
              <FiltersButton count={new Set(controller.activeFilters.map((f) => f.field)).size} isOpen={isFilterOpen} onToggle={() => setIsFilterOpen((o) => !o)} controls={filterPanelId} />
            )}
            {controller.savedLink.isAvailable && <SavedViewsTool controller={controller} />}
            <ColumnChooserTool entity={entity} layout={layout} />
            <ListTools controller={controller} />
            {canCreate && <NewRecordLink entity={entity} />}
          </div>
        </header>

        <div id={filterPanelId} hidden={!isFilterOpen}>
          {isFilterOpen && (
            <Suspense fallback={<div className="h-24 animate-pulse rounded-xl bg-slate-100 dark:bg-slate-800" aria-hidden="true" />}>
              <FilterPanel
                // A new set of filters in the address (a chip removed, Back) starts the panel over from it.
                key={JSON.stringify(controller.view.filters)}
                entity={entity}
                filters={controller.view.filters}
                onApply={controller.setFilters}
                onClose={() => setIsFilterOpen(false)}
              />
            </Suspense>
          )}
        </div>
        <ViewFilterChips entity={entity} />
        <FilterChips
          entity={entity}
          filters={controller.activeFilters}
          onRemove={(params) => controller.setFilters(Object.fromEntries(params.map((p) => [p, undefined])))}
          onClear={controller.clearFilters}
        />

        {controller.savedLink.isMissing && (
          <Banner kind="warning" onDismiss={controller.savedLink.forget} dismissLabel={t('common.dismiss')}>
            {t('views.missing')}
          </Banner>
        )}
        {listError && <Banner kind="error">{errorText(t, listError)}</Banner>}
        {controller.deleteError && (
          <Banner kind="error" onDismiss={controller.dismissDeleteError} dismissLabel={t('common.dismiss')}>
            {errorText(t, controller.deleteError)}
          </Banner>
        )}

        <TableFrame
          isBusy={isBusy}
          label={plural}
          scrollRef={scrollRef}
          fixedWidth={fixedWidth}
          above={canSelect && (controller.selection.size > 0 || controller.isAllMatching) ? <SelectionBar canBulkDelete={canBulkDelete} plural={plural} /> : undefined}
          below={
            <>
              {isEmpty && (
                <div className="flex flex-col items-center gap-3 px-6 py-16 text-center">
                  <div className="flex size-12 items-center justify-center rounded-full bg-slate-100 text-slate-400 dark:bg-slate-800">
                    <Icon name={controller.search || isFiltered ? 'search' : 'folder'} className="size-6" />
                  </div>
                  <p className="font-medium">
                    {isFiltered ? t('list.empty_filtered') : controller.search ? t('list.empty_search', { text: controller.search }) : t('list.empty', { entity: plural })}
                  </p>
                  {isFiltered && (
                    <button type="button" onClick={controller.clearFilters} className="text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400">
                      {t('list.clear_filters')}
                    </button>
                  )}
                  {!controller.search && !isFiltered && canCreate && (
                    <Link to={`${entity.ui.formPath}/new`} className="text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400">
                      {t('list.create_first')}
                    </Link>
                  )}
                </div>
              )}
              <ListFooter controller={controller} />
            </>
          }
          head={
            <>
              {headers.map((group) => (
                <tr key={group.id} aria-rowindex={isFixed ? 1 : undefined}>
                  {group.headers.map((header) => {
                    const id = header.column.id
                    const field = entity.fields[id]
                    const width = widths[id]
                    const size = isFixed || width !== undefined ? header.getSize() : undefined
                    return (
                      <th
                        key={header.id}
                        scope="col"
                        data-column={id}
                        aria-sort={field?.isSortable ? ariaSortOf(controller.sortDirection(id)) : undefined}
                        // Its resize handle is named (and reached by Tab) while the keyboard is in it.
                        onFocus={(e) => isKeyboardFocus(e.target) && setKeyboardColumn(id)}
                        onBlur={(e) => !e.currentTarget.contains(e.relatedTarget as Node | null) && setKeyboardColumn((c) => (c === id ? null : c))}
                        style={size === undefined ? undefined : { width: size, minWidth: size, maxWidth: size }}
                        className={`whitespace-nowrap ${headPadding[layout.density]} ${field ? 'relative' : ''} ${!isFixed && id === 'select' ? 'w-12' : ''} ${!isFixed && id === 'serial' ? 'w-16' : ''} ${id === 'actions' ? `${isFixed ? '' : 'w-16'} text-end ${pinnedHeaderCell}` : ''} ${field && isNumericCell(field) ? 'text-end' : 'text-start'}`}
                      >
                        {header.isPlaceholder ? null : field ? (
                          <>
                            <span className={size === undefined ? undefined : 'block overflow-hidden text-ellipsis'}>
                              <table.FlexRender header={header} />
                            </span>
                            <ColumnResizeHandle
                              label={labelFor(id)}
                              isNamed={keyboardColumn === id}
                              width={size ?? header.getSize()}
                              measure={() => scrollRef.current?.querySelector<HTMLElement>(`th[data-column="${id}"]`)?.getBoundingClientRect().width || header.getSize()}
                              onResize={(w) => table.setColumnSizing((old) => ({ ...old, [id]: w }))}
                              onReset={() => layout.setColumns((was) => withColumnWidth(was, id, undefined))}
                            />
                          </>
                        ) : (
                          <table.FlexRender header={header} />
                        )}
                      </th>
                    )
                  })}
                </tr>
              ))}
            </>
          }
        >
          {isFixed && !isFirstLoad ? (
            <Suspense
              fallback={
                <tbody>
                  <SkeletonRows columns={columns.length} />
                </tbody>
              }
            >
              <VirtualRows
                count={rows.length}
                scrollRef={scrollRef}
                estimateSize={rowHeights[layout.density] + (columns.some((c) => c.id === 'actions') ? BUTTON_ROW_EXTRA : 0)}
                columns={columns.length}
                renderRow={renderRow}
              />
            </Suspense>
          ) : (
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {isFirstLoad && <SkeletonRows columns={columns.length} />}
              {rows.map((_, index) => renderRow(index))}
            </tbody>
          )}
        </TableFrame>
      </div>

      <LazyDeleteDialog
        entity={entity}
        pending={asked}
        isOpen={pendingDelete !== null}
        isBusy={controller.isDeleting}
        onConfirm={controller.confirmDelete}
        onCancel={controller.cancelDelete}
      />
    </ControllerContext.Provider>
  )
}

/**
 * Above the table while rows are selected: how many, "Select all N rows of this list" once a
 * whole page is (Gmail's), the list's tools for several rows (SelectionTools), and delete —
 * of the selected rows only: a delete by the list's filter is not offered.
 */
function SelectionBar({ canBulkDelete, plural }: { canBulkDelete: boolean; plural: string }) {
  const { t } = useTranslation()
  const c = useController()
  const linkClass = 'rounded font-medium text-indigo-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-300'
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 border-b border-indigo-100 bg-indigo-50 px-4 py-2 text-sm dark:border-indigo-900 dark:bg-indigo-950/50">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1" aria-live="polite">
        <span className="font-medium text-indigo-900 dark:text-indigo-200">
          {c.isAllMatching ? t('list.all_selected', { count: c.totalElements, entity: plural }) : t('list.selected', { count: c.selection.size })}
        </span>
        {c.canSelectAllMatching && (
          <button type="button" onClick={c.selectAllMatching} className={linkClass}>
            {t('list.select_all_matching', { count: c.totalElements, entity: plural })}
          </button>
        )}
        {c.isAllMatching && (
          <button type="button" onClick={c.clearSelection} className={linkClass}>
            {t('list.clear_selection')}
          </button>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <SelectionTools controller={c} />
        {canBulkDelete && !c.isAllMatching && c.selection.size > 0 && (
          <button
            type="button"
            onClick={c.askDeleteSelected}
            className="inline-flex items-center gap-1.5 rounded-md px-2.5 py-1.5 font-medium text-red-700 hover:bg-red-100 dark:text-red-300 dark:hover:bg-red-950"
          >
            <Icon name="trash" className="size-4" />
            {t('list.delete_selected')}
          </button>
        )}
      </div>
    </div>
  )
}
