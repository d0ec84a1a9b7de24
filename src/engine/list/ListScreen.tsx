import { createColumnHelper, tableFeatures, useTable, type ColumnDef } from '@tanstack/react-table'
import { Link, useNavigate } from '@tanstack/react-router'
import { createContext, useContext, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { labelOf, type AnyEntity, type Row } from '../entity-api'
import { errorText } from '../errors'
import { useAccess } from '../../auth/useAccess'
import { Banner } from '../ui/Banner'
import { LazyConfirmDialog } from '../ui/LazyConfirmDialog'
import { Icon } from '../ui/icons'
import { FieldCell, isNumericCell } from './FieldCell'
import { Pagination } from '../ui/Pagination'
import { isPageSize, pageSizes, useListController, type ListController } from './useListController'
import { ListSearchBox, NewRecordLink } from './ListToolbar'
import { TableFrame } from './TableFrame'
import { RecordActions } from '../actions/RecordActions'

/**
 * The generic list screen of any registry entity: header with search and "New", a
 * server-paged, sortable, selectable table of `entity.listColumns`, row click to the form,
 * delete with confirmation. Behaviour lives in `useListController`; this file renders.
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
      disabled={c.rows.length === 0}
      aria-label={t('list.select_all')}
    />
  )
}

function SelectRowCheckbox({ row }: { row: Row }) {
  const { t } = useTranslation()
  const c = useController()
  return (
    <input
      type="checkbox"
      className={checkboxClass}
      checked={c.selection.has(row.id)}
      onChange={() => c.toggleRow(row.id)}
      onClick={(e) => e.stopPropagation()}
      aria-label={t('list.select_row', { label: labelOf(c.entity, row) })}
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
      {canDelete && <DeleteButton row={row} />}
    </div>
  )
}

function DeleteButton({ row }: { row: Row }) {
  const { t } = useTranslation()
  const c = useController()
  return (
    <button
      type="button"
      onClick={(e) => {
        e.stopPropagation()
        c.askDelete(row)
      }}
      className="rounded-md p-1.5 text-slate-400 hover:bg-red-50 hover:text-red-600 focus-visible:outline-2 focus-visible:outline-red-500 dark:hover:bg-red-950 dark:hover:text-red-400"
      aria-label={t('list.delete_row', { label: labelOf(c.entity, row) })}
    >
      <Icon name="trash" className="size-4.5" />
    </button>
  )
}

function ColumnsHeaderLabel({ id }: { id: 'serial' | 'actions' }) {
  const { t } = useTranslation()
  return id === 'serial' ? <>{t('list.serial')}</> : <span className="sr-only">{t('list.actions')}</span>
}

/** Selection and delete are there for users who may delete (the server enforces it either way); a record's actions for those who may run them. */
function columnsOf(entity: AnyEntity, { canSelect, canDelete, hasActions }: { canSelect: boolean; canDelete: boolean; hasActions: boolean }): ColumnDef<Features, Row, unknown>[] {
  return [
    ...(canSelect
      ? [helper.display({ id: 'select', header: () => <SelectAllCheckbox />, cell: ({ row }) => <SelectRowCheckbox row={row.original} /> })]
      : []),
    helper.display({ id: 'serial', header: () => <ColumnsHeaderLabel id="serial" />, cell: ({ row }) => <SerialCell index={row.index} /> }),
    ...entity.listColumns.map((name) =>
      helper.accessor((row: Row) => row[name], {
        id: name,
        header: () => <SortHeader field={name} />,
        cell: (info) => <FieldCell field={entity.fields[name]!} value={info.getValue()} />,
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

export function ListScreen({ entity }: { entity: AnyEntity }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const controller = useListController(entity)
  const access = useAccess()
  const canCreate = access.can(entity.permissions.CREATE)
  const canDelete = access.can(entity.permissions.DELETE) && entity.routes.delete !== false
  const canBulkDelete = canDelete && entity.routes.delete_multiple !== false
  const canOpen = access.can(entity.permissions.DETAILS) && entity.routes.read !== false
  const hasActions = Object.values(entity.actions).some((a) => access.can(a.permission))
  const columns = useMemo(() => columnsOf(entity, { canSelect: canBulkDelete, canDelete, hasActions }), [entity, canBulkDelete, canDelete, hasActions])
  const table = useTable({ features, columns, data: controller.rows as Row[] })
  const plural = t(`${entity.labelKey}.other`)
  const one = t(`${entity.labelKey}.one`)
  const { query, pendingDelete } = controller
  // The dialog keeps its text while it animates closed.
  const [asked, setAsked] = useState(pendingDelete)
  if (pendingDelete && pendingDelete !== asked) setAsked(pendingDelete)
  const isFirstLoad = query.isPending
  const isEmpty = !isFirstLoad && !query.isError && controller.rows.length === 0
  const searchField = entity.searchFields[0]

  const openRow = (row: Row) => {
    if (canOpen) void navigate({ to: formHref(entity, row) })
  }

  return (
    <ControllerContext.Provider value={controller}>
      <div className="space-y-4">
        <header className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <h1 className="text-2xl font-semibold tracking-tight">{plural}</h1>
            <p className="mt-1 text-sm text-slate-500 dark:text-slate-400" aria-live="polite">
              {query.data ? t('dashboard.records', { count: controller.totalElements }) : '\u00a0'}
            </p>
          </div>
          <div className="flex w-full flex-wrap items-center gap-3 sm:w-auto">
            {searchField && (
              <ListSearchBox
                label={t('list.search', { entity: plural })}
                value={controller.searchText}
                onChange={controller.setSearchText}
                isBusy={query.isFetching && !isFirstLoad}
              />
            )}
            {canCreate && <NewRecordLink entity={entity} />}
          </div>
        </header>

        {query.isError && <Banner kind="error">{errorText(t, query.error)}</Banner>}
        {controller.deleteError && (
          <Banner kind="error" onDismiss={controller.dismissDeleteError} dismissLabel={t('common.dismiss')}>
            {errorText(t, controller.deleteError)}
          </Banner>
        )}

        <TableFrame
          isBusy={query.isFetching}
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
                    <Icon name={controller.search ? 'search' : 'folder'} className="size-6" />
                  </div>
                  <p className="font-medium">{controller.search ? t('list.empty_search', { text: controller.search }) : t('list.empty', { entity: plural })}</p>
                  {!controller.search && canCreate && (
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
                        className={`whitespace-nowrap px-4 py-3 ${header.column.id === 'select' ? 'w-12' : ''} ${header.column.id === 'serial' ? 'w-16' : ''} ${header.column.id === 'actions' ? 'w-16 text-end' : ''} ${field && isNumericCell(field) ? 'text-end' : 'text-start'}`}
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
            {isFirstLoad &&
              Array.from({ length: 6 }, (_, i) => (
                <tr key={`skeleton-${i}`} aria-hidden="true">
                  {columns.map((column, j) => (
                    <td key={column.id ?? j} className="px-4 py-3.5">
                      <div className="h-4 animate-pulse rounded bg-slate-100 dark:bg-slate-800" style={{ width: `${40 + ((i * 7 + j * 13) % 50)}%` }} />
                    </td>
                  ))}
                </tr>
              ))}
            {table.getRowModel().rows.map((row) => (
              <tr
                key={row.id}
                data-open={canOpen || undefined}
                onClick={() => openRow(row.original)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' && e.target === e.currentTarget) openRow(row.original)
                }}
                tabIndex={canOpen ? 0 : undefined}
                aria-selected={canBulkDelete ? controller.selection.has(row.original.id) : undefined}
                className="data-[open]:cursor-pointer transition-colors hover:bg-slate-50 focus-visible:bg-indigo-50 focus-visible:outline-none aria-selected:bg-indigo-50/60 dark:hover:bg-slate-800/60 dark:focus-visible:bg-indigo-950/40 dark:aria-selected:bg-indigo-950/30"
              >
                {row.getAllCells().map((cell) => {
                  const field = entity.fields[cell.column.id]
                  return (
                    <td
                      key={cell.id}
                      className={`px-4 py-3 ${field && isNumericCell(field) ? 'text-end tabular-nums' : ''} ${cell.column.id === entity.labelField ? 'font-medium text-slate-900 dark:text-slate-100' : 'text-slate-600 dark:text-slate-300'}`}
                    >
                      <table.FlexRender cell={cell} />
                    </td>
                  )
                })}
              </tr>
            ))}
          </tbody>

        </TableFrame>
      </div>

      <LazyConfirmDialog
        isOpen={pendingDelete !== null}
        title={asked?.kind === 'many' ? t('list.confirm_bulk_title') : t('list.confirm_delete_title', { entity: one })}
        confirmLabel={t('common.delete')}
        cancelLabel={t('common.cancel')}
        onConfirm={controller.confirmDelete}
        onCancel={controller.cancelDelete}
        isBusy={controller.isDeleting}
      >
        {asked?.kind === 'many'
          ? t('list.confirm_bulk_text', { count: asked.ids.length, entity: plural })
          : t('list.confirm_delete_text', { label: asked?.kind === 'one' ? asked.label : '' })}
      </LazyConfirmDialog>
    </ControllerContext.Provider>
  )
}
