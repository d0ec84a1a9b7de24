import { createColumnHelper, tableFeatures, useTable, type ColumnDef } from '@tanstack/react-table'
import { Link, useNavigate } from '@tanstack/react-router'
import { createContext, lazy, Suspense, useContext, useId, useMemo, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { isDeletableRow } from '../../../schema/kit'
import { labelOf, titleOf, type AnyEntity, type Row } from '../entity-api'
import { errorText } from '../errors'
import { useAccess } from '../access-context'
import { Banner } from '../ui/Banner'
import { Icon } from '../ui/icons'
import { cellValueOf, FieldCell, isNumericCell } from './FieldCell'
import { FilterChips, ViewFilterChips } from './FilterChips'
import { SkeletonRows } from './ListSkeleton'
import { Pagination } from '../ui/Pagination'
import { isPageSize, pageSizes, useListController, type ListController } from './useListController'
import { ListSearchBox, NewRecordLink } from './ListToolbar'
import { pinnedCell, pinnedHeaderCell, TableFrame } from './TableFrame'
import { RecordActions } from '../actions/RecordActions'
import { LazyDeleteDialog } from './LazyDeleteDialog'

/**
 * The generic list screen of any registry entity: header with search, filters and "New",
 * the filters in force as chips, a server-paged, sortable, selectable table of
 * `entity.listColumns` whose rows open their record (a real link: Ctrl/Cmd- and
 * middle-click open a new tab), delete with a confirmation that says what it would do.
 * Behaviour lives in `useListController`; this file renders.
 */
const features = tableFeatures({})
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

function SelectRowCheckbox({ row }: { row: Row }) {
  const { t } = useTranslation()
  const c = useController()
  // Rows that cannot be deleted (built in, or locked by their status) cannot be selected for it.
  if (!isDeletableRow(c.entity, row)) return null
  return (
    <input
      type="checkbox"
      className={checkboxClass}
      checked={c.selection.has(row.id)}
      onChange={() => c.toggleRow(row.id)}
      aria-label={t('list.select_row', { label: titleOf(c.entity, row) })}
    />
  )
}

function SerialCell({ index }: { index: number }) {
  const c = useController()
  return <span className="tabular-nums text-slate-500 dark:text-slate-400">{c.serialOf(index)}</span>
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
      className={`group inline-flex items-center gap-1 rounded uppercase hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:text-white ${direction ? 'text-slate-900 dark:text-white' : ''}`}
    >
      {label}
      <Icon
        name={direction === 'asc' ? 'arrowUp' : direction === 'desc' ? 'arrowDown' : 'selector'}
        className={`size-3.5 ${direction ? 'text-indigo-600 dark:text-indigo-400' : 'text-slate-300 group-hover:text-slate-500 dark:text-slate-600'}`}
      />
    </button>
  )
}

function RowActions({ row, canDelete }: { row: Row; canDelete: boolean }) {
  const c = useController()
  return (
    <div className="flex items-center justify-end gap-1">
      {Object.keys(c.entity.actions).length > 0 && <RecordActions entity={c.entity} row={row} size="compact" />}
      {canDelete && isDeletableRow(c.entity, row) && <DeleteButton row={row} />}
    </div>
  )
}

function DeleteButton({ row }: { row: Row }) {
  const { t } = useTranslation()
  const c = useController()
  return (
    <button
      type="button"
      onClick={() => c.askDelete(row)}
      className="rounded-md p-1.5 text-slate-400 hover:bg-red-50 hover:text-red-600 focus-visible:outline-2 focus-visible:outline-red-500 dark:hover:bg-red-950 dark:hover:text-red-400"
      aria-label={t('list.delete_row', { label: titleOf(c.entity, row) })}
    >
      <Icon name="trash" className="size-4.5" />
    </button>
  )
}

function ColumnsHeaderLabel({ id }: { id: 'serial' | 'actions' }) {
  const { t } = useTranslation()
  return id === 'serial' ? <>{t('list.serial')}</> : <span className="sr-only">{t('list.actions')}</span>
}

/** The row's link to its record (the label column's cell): a real link, so the browser can open it in a new tab. */
function RowLink({ row, name }: { row: Row; name: string }) {
  const c = useController()
  const field = c.entity.fields[name]!
  const value = row[name]
  const isEmpty = value === null || value === undefined || value === ''
  return (
    <Link
      to={formHref(c.entity, row)}
      aria-label={isEmpty ? labelOf(c.entity, row) : undefined}
      className="rounded text-slate-900 decoration-indigo-400 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:text-slate-100"
    >
      {/* A link cell (an e-mail) is plain text here: a link cannot hold another. */}
      {field.cell === 'link' && !isEmpty ? String(value) : <FieldCell field={field} value={value} />}
    </Link>
  )
}

/** Selection and delete are there for users who may delete (the server enforces it either way); a record's actions for those who may run them. */
function columnsOf(
  entity: AnyEntity,
  { canSelect, canDelete, hasActions, linkColumn }: { canSelect: boolean; canDelete: boolean; hasActions: boolean; linkColumn?: string },
): ColumnDef<Features, Row, unknown>[] {
  return [
    ...(canSelect
      ? [helper.display({ id: 'select', header: () => <SelectAllCheckbox />, cell: ({ row }) => <SelectRowCheckbox row={row.original} /> })]
      : []),
    helper.display({ id: 'serial', header: () => <ColumnsHeaderLabel id="serial" />, cell: ({ row }) => <SerialCell index={row.index} /> }),
    ...entity.listColumns.map((name) =>
      helper.accessor((row: Row) => cellValueOf(entity.fields[name]!, row, name), {
        id: name,
        header: () => <SortHeader field={name} />,
        cell: (info) => (name === linkColumn ? <RowLink row={info.row.original} name={name} /> : <FieldCell field={entity.fields[name]!} value={info.getValue()} />),
      }),
    ),
    ...(canDelete || hasActions
      ? [helper.display({ id: 'actions', header: () => <ColumnsHeaderLabel id="actions" />, cell: ({ row }) => <RowActions row={row.original} canDelete={canDelete} /> })]
      : []),
  ]
}

const ariaSortOf = (direction: 'asc' | 'desc' | null) => (direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none')

export function formHref(entity: AnyEntity, row: Row): string {
  const label = labelOf(entity, row)
  return `${entity.ui.formPath}/${row.id}${label ? `/${encodeURIComponent(label)}` : ''}`
}

/** The column whose cell is the row's link: the label's, or the first. */
const linkColumnOf = (entity: AnyEntity) => (entity.listColumns.includes(entity.labelField) ? entity.labelField : entity.listColumns[0])

/** Short values stay on one line (a wide table scrolls in its card); free text and long lists may wrap. */
const keepsOneLine = (field: AnyEntity['fields'][string]) => field.cell !== 'refs' && (field.kind !== 'text' || (field.maxLength ?? Infinity) <= 50)
/**
 * A long text wraps within a sensible width: never squeezed to a word (a site's address was one
 * character wide beside the other columns), never taking the row's width from the decisive ones.
 */
const wrapsWithin = (field: AnyEntity['fields'][string]) => field.kind === 'text' && (field.widget === 'textarea' || (field.maxLength ?? Infinity) > 200)

/** A click on a control inside a row (a checkbox, a button, a link) is that control's, not the row's. */
const isOnControl = (target: EventTarget) => target instanceof Element && target.closest('a, button, input, select, textarea, label, summary, [role="button"]') !== null

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
  const canDelete = access.canDo(entity, 'DELETE') && entity.routes.delete !== false
  const canBulkDelete = canDelete && entity.routes.delete_multiple !== false
  const canOpen = access.canDo(entity, 'DETAILS') && entity.routes.read !== false
  const hasActions = Object.values(entity.actions).some((a) => access.canDo(entity, a.name))
  const linkColumn = linkColumnOf(entity)
  const columns = useMemo(() => columnsOf(entity, { canSelect: canBulkDelete, canDelete, hasActions, linkColumn: canOpen ? linkColumn : undefined }), [entity, canBulkDelete, canDelete, hasActions, canOpen, linkColumn])
  const table = useTable({ features, columns, data: controller.rows as Row[] })
  const plural = t(`${entity.labelKey}.other`)
  const { query, pendingDelete } = controller
  // The dialog keeps its text while it animates closed.
  const [asked, setAsked] = useState(pendingDelete)
  if (pendingDelete && pendingDelete !== asked) setAsked(pendingDelete)
  const [isFilterOpen, setIsFilterOpen] = useState(false)
  const filterPanelId = useId()
  const isFirstLoad = query.isPending
  const isEmpty = !isFirstLoad && !query.isError && controller.rows.length === 0
  const isFiltered = controller.activeFilters.length > 0
  const searchField = entity.searchFields[0]

  const open = (row: Row, inNewTab: boolean) => {
    if (!canOpen) return
    const href = formHref(entity, row)
    if (inNewTab) window.open(href, '_blank', 'noopener')
    else void navigate({ to: href })
  }

  return (
    <ControllerContext.Provider value={controller}>
      <div className="min-w-0 space-y-4">
        <header className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <h1 className="text-2xl font-semibold tracking-tight">{t(entity.listTitleKey)}</h1>
            <p className="mt-1 text-sm text-slate-500 dark:text-slate-400" aria-live="polite">
              {query.data ? t('dashboard.records', { count: controller.totalElements }) : '\u00a0'}
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

        {query.isError && <Banner kind="error">{errorText(t, query.error)}</Banner>}
        {controller.deleteError && (
          <Banner kind="error" onDismiss={controller.dismissDeleteError} dismissLabel={t('common.dismiss')}>
            {errorText(t, controller.deleteError)}
          </Banner>
        )}

        <TableFrame
          isBusy={query.isFetching}
          label={plural}
          above={
            <>
              {canBulkDelete && controller.selection.size > 0 && (
                <div className="flex items-center justify-between gap-3 border-b border-indigo-100 bg-indigo-50 px-4 py-2 text-sm dark:border-indigo-900 dark:bg-indigo-950/50">
                  <span className="font-medium text-indigo-900 dark:text-indigo-200">{t('list.selected', { count: controller.selection.size })}</span>
                  <button
                    type="button"
                    onClick={controller.askDeleteSelected}
                    className="inline-flex items-center gap-1.5 rounded-md px-2.5 py-1.5 font-medium text-red-700 hover:bg-red-100 dark:text-red-300 dark:hover:bg-red-950"
                  >
                    <Icon name="trash" className="size-4" />
                    {t('list.delete_selected')}
                  </button>
                </div>
              )}
            </>
          }
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
              <Pagination paging={{ ...controller, setSize: (n) => isPageSize(n) && controller.setSize(n) }} sizes={pageSizes} />
            </>
          }
          head={
            <>
              {table.getHeaderGroups().map((group) => (
                <tr key={group.id}>
                  {group.headers.map((header) => {
                    const field = entity.fields[header.column.id]
                    const isData = field !== undefined
                    return (
                      <th
                        key={header.id}
                        scope="col"
                        aria-sort={isData && field.isSortable ? ariaSortOf(controller.sortDirection(header.column.id)) : undefined}
                        className={`whitespace-nowrap px-4 py-3 ${header.column.id === 'select' ? 'w-12' : ''} ${header.column.id === 'serial' ? 'w-16' : ''} ${header.column.id === 'actions' ? `w-16 text-end ${pinnedHeaderCell}` : ''} ${field && isNumericCell(field) ? 'text-end' : 'text-start'}`}
                      >
                        {header.isPlaceholder ? null : <table.FlexRender header={header} />}
                      </th>
                    )
                  })}
                </tr>
              ))}
            </>
          }
        >
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {isFirstLoad && <SkeletonRows columns={columns.length} />}
            {table.getRowModel().rows.map((row) => (
              <tr
                key={row.id}
                data-open={canOpen || undefined}
                // A row opens its record like the link in it: a click here, Ctrl/Cmd- or middle-click in a new tab.
                onClick={(e) => {
                  if (!isOnControl(e.target)) open(row.original, e.ctrlKey || e.metaKey || e.shiftKey)
                }}
                onMouseDown={(e) => {
                  // No autoscroll on a middle click that opens a tab.
                  if (e.button === 1 && canOpen && !isOnControl(e.target)) e.preventDefault()
                }}
                onAuxClick={(e) => {
                  if (e.button === 1 && !isOnControl(e.target)) open(row.original, true)
                }}
                aria-selected={canBulkDelete ? controller.selection.has(row.original.id) : undefined}
                className="group transition-colors hover:bg-slate-50 focus-within:bg-indigo-50/60 aria-selected:bg-indigo-50/60 data-[open]:cursor-pointer dark:hover:bg-slate-800/60 dark:focus-within:bg-indigo-950/30 dark:aria-selected:bg-indigo-950/30"
              >
                {row.getAllCells().map((cell) => {
                  const field = entity.fields[cell.column.id]
                  return (
                    <td
                      key={cell.id}
                      className={`px-4 py-3 ${field && keepsOneLine(field) ? 'whitespace-nowrap' : ''} ${field && isNumericCell(field) ? 'text-end tabular-nums' : ''} ${cell.column.id === entity.labelField ? 'font-medium text-slate-900 dark:text-slate-100' : 'text-slate-600 dark:text-slate-300'} ${cell.column.id === 'actions' ? pinnedCell : ''}`}
                    >
                      {field && wrapsWithin(field) ? (
                        <div className="min-w-48 max-w-80">
                          <table.FlexRender cell={cell} />
                        </div>
                      ) : (
                        <table.FlexRender cell={cell} />
                      )}
                    </td>
                  )
                })}
              </tr>
            ))}
          </tbody>
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
