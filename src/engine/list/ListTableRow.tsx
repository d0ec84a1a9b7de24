import { Link } from '@tanstack/react-router'
import { memo, useCallback, useMemo, useRef, type CSSProperties } from 'react'
import type { TFunction } from 'i18next'
import { isDeletableRow, isEditableIn } from '../../../schema/kit'
import { RecordActions } from '../actions/RecordActions'
import { labelOf, titleOf, type AnyEntity, type Row } from '../entity-api'
import { Icon } from '../ui/icons'
import type { Density } from './column-layout'
import { cellValueOf, FieldCell, isNumericCell } from './FieldCell'
import { pinnedCell } from './TableFrame'
import { serialNumber, type ListController } from './useListController'

/**
 * A row of the generic list's table and its cells. Drawn once when it enters the window and
 * again only when what it shows changes (its record, its selection, the columns, their
 * widths, the density, the language): a scroll step of "All" draws the rows that enter, a
 * click on one row's checkbox draws that row. Everything a row needs comes in its props —
 * the row's own (record, index, selected or not) and the list's, shared by every row and held
 * steady across the list's renders (`RowKit`, from `useRowKit`) — not from the list's
 * controller, which is new on every render of the screen.
 */

/** How cells are laid out: by the widths set (pages), or every column at its width, on one line ("All"). */
export type RowSizing = { isFixed: boolean; widths: Readonly<Record<string, number>>; density: Density }

/** What every row of one list shares; a new one (every row drawn again) only when one of these changes. */
export type RowKit = {
  entity: AnyEntity
  /** The table's columns in their order: 'select', 'serial', the fields shown, 'actions'. */
  columns: readonly string[]
  /** The field whose cell is the row's link to its record, if the user may open records. */
  linkColumn: string | undefined
  sizing: RowSizing
  canOpen: boolean
  canDelete: boolean
  canBulkDelete: boolean
  /** Serial numbers: the page shown and its size (the whole list's numbers in "All"). */
  page: number
  size: number
  t: TFunction
  onOpen: (row: Row, inNewTab: boolean) => void
  onToggle: (id: number) => void
  onDelete: (row: Row) => void
}

/** The list's part of every row, steady while the screen renders for other reasons (a selection, a dialog, the filters panel). */
export function useRowKit(
  controller: ListController,
  { columns, linkColumn, sizing, canOpen, t, onOpen }: Pick<RowKit, 'columns' | 'linkColumn' | 'sizing' | 'canOpen' | 't' | 'onOpen'>,
): RowKit {
  // The controller's callbacks are new on every render; the rows call the latest through these.
  const latest = useRef(controller)
  latest.current = controller
  const onToggle = useCallback((id: number) => latest.current.toggleRow(id), [])
  const onDelete = useCallback((row: Row) => latest.current.askDelete(row), [])
  const { entity, canDelete, canBulkDelete, page, size } = controller
  return useMemo(
    () => ({ entity, columns, linkColumn, sizing, canOpen, canDelete, canBulkDelete, page, size, t, onOpen, onToggle, onDelete }),
    [entity, columns, linkColumn, sizing, canOpen, canDelete, canBulkDelete, page, size, t, onOpen, onToggle, onDelete],
  )
}

export function formHref(entity: AnyEntity, row: Row): string {
  const label = labelOf(entity, row)
  return `${entity.ui.formPath}/${row.id}${label ? `/${encodeURIComponent(label)}` : ''}`
}

const checkboxClass =
  'size-4 rounded border-slate-300 text-indigo-600 accent-indigo-600 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-600'

/** Cell padding by density; the rows of "All" are drawn at about these heights (VirtualRows measures them). */
const cellPadding: Record<Density, string> = { comfortable: 'px-4 py-3', compact: 'px-3 py-1.5' }

/** Short values stay on one line (a wide table scrolls in its card); free text and long lists may wrap. */
const keepsOneLine = (field: AnyEntity['fields'][string]) => field.cell !== 'refs' && (field.kind !== 'text' || (field.maxLength ?? Infinity) <= 50)
/**
 * A long text wraps within a sensible width: never squeezed to a word (a site's address was one
 * character wide beside the other columns), never taking the row's width from the decisive ones.
 */
const wrapsWithin = (field: AnyEntity['fields'][string]) => field.kind === 'text' && (field.widget === 'textarea' || (field.maxLength ?? Infinity) > 200)

/** A click on a control inside a row (a checkbox, a button, a link) is that control's, not the row's. */
const isOnControl = (target: EventTarget) => target instanceof Element && target.closest('a, button, input, select, textarea, label, summary, [role="button"], [role="separator"]') !== null

/** Whether the row may be selected: for a delete, one that may be deleted; for a change only, one its status does not lock. */
const isSelectableRow = (kit: RowKit, row: Row) => (kit.canBulkDelete ? isDeletableRow(kit.entity, row) : isEditableIn(kit.entity, row))

function SelectRowCheckbox({ row, kit, isSelected }: { row: Row; kit: RowKit; isSelected: boolean }) {
  // Rows that cannot be deleted (built in, or locked by their status) cannot be selected for it.
  if (!isSelectableRow(kit, row)) return null
  return (
    <input
      type="checkbox"
      className={checkboxClass}
      checked={isSelected}
      onChange={() => kit.onToggle(row.id)}
      aria-label={kit.t('list.select_row', { label: titleOf(kit.entity, row) })}
    />
  )
}

function RowActions({ row, kit }: { row: Row; kit: RowKit }) {
  return (
    <div className="flex items-center justify-end gap-1">
      {Object.keys(kit.entity.actions).length > 0 && <RecordActions entity={kit.entity} row={row} size="compact" />}
      {kit.canDelete && isDeletableRow(kit.entity, row) && (
        <button
          type="button"
          onClick={() => kit.onDelete(row)}
          className="rounded-md p-1.5 text-slate-400 hover:bg-red-50 hover:text-red-600 focus-visible:outline-2 focus-visible:outline-red-500 dark:hover:bg-red-950 dark:hover:text-red-400"
          aria-label={kit.t('list.delete_row', { label: titleOf(kit.entity, row) })}
        >
          <Icon name="trash" className="size-4.5" />
        </button>
      )}
    </div>
  )
}

/** The row's link to its record (the label column's cell): a real link, so the browser can open it in a new tab. */
function RowLink({ row, name, entity }: { row: Row; name: string; entity: AnyEntity }) {
  const field = entity.fields[name]!
  const value = row[name]
  const isEmpty = value === null || value === undefined || value === ''
  return (
    <Link
      to={formHref(entity, row)}
      aria-label={isEmpty ? labelOf(entity, row) : undefined}
      className="rounded text-slate-900 decoration-indigo-400 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:text-slate-100"
    >
      {/* A link cell (an e-mail) is plain text here: a link cannot hold another. */}
      {field.cell === 'link' && !isEmpty ? String(value) : <FieldCell field={field} value={value} />}
    </Link>
  )
}

/** What a column's cell shows for the row (a function, not a component: one fewer component per cell to draw). */
function cellContent(id: string, row: Row, index: number, kit: RowKit, isSelected: boolean | undefined) {
  switch (id) {
    case 'select':
      return <SelectRowCheckbox row={row} kit={kit} isSelected={isSelected === true} />
    case 'serial':
      return <span className="tabular-nums text-slate-500 dark:text-slate-400">{serialNumber(kit.page, kit.size, index)}</span>
    case 'actions':
      return <RowActions row={row} kit={kit} />
    default: {
      const field = kit.entity.fields[id]!
      return id === kit.linkColumn ? <RowLink row={row} name={id} entity={kit.entity} /> : <FieldCell field={field} value={cellValueOf(field, row, id)} />
    }
  }
}

/** One row of the table: memoised, so the rows that stay in view while "All" scrolls, and the rows not clicked, are not drawn again. */
export const ListTableRow = memo(function ListTableRow({
  row,
  index,
  kit,
  isSelected,
  measure,
  ariaRowIndex,
}: {
  row: Row
  /** The row's place in the list shown (its serial number's). */
  index: number
  kit: RowKit
  /** Whether the row is selected, where rows can be; undefined where they cannot. */
  isSelected: boolean | undefined
  measure?: (el: HTMLTableRowElement | null) => void
  ariaRowIndex?: number
}) {
  const { entity, sizing, canOpen, onOpen } = kit
  return (
    <tr
      ref={measure}
      data-index={index}
      aria-rowindex={ariaRowIndex}
      data-open={canOpen || undefined}
      // A row opens its record like the link in it: a click here, Ctrl/Cmd- or middle-click in a new tab.
      onClick={(e) => {
        if (!isOnControl(e.target)) onOpen(row, e.ctrlKey || e.metaKey || e.shiftKey)
      }}
      onMouseDown={(e) => {
        // No autoscroll on a middle click that opens a tab.
        if (e.button === 1 && canOpen && !isOnControl(e.target)) e.preventDefault()
      }}
      onAuxClick={(e) => {
        if (e.button === 1 && !isOnControl(e.target)) onOpen(row, true)
      }}
      aria-selected={isSelected}
      className="group transition-colors hover:bg-slate-50 focus-within:bg-indigo-50/60 aria-selected:bg-indigo-50/60 data-[open]:cursor-pointer dark:hover:bg-slate-800/60 dark:focus-within:bg-indigo-950/30 dark:aria-selected:bg-indigo-950/30"
    >
      {kit.columns.map((id) => {
        const field = entity.fields[id]
        const width = sizing.widths[id]
        // A width set (or every width, in "All"): the cell keeps to it, its text cut with an ellipsis.
        const isBounded = field !== undefined && (sizing.isFixed || width !== undefined)
        const bound: CSSProperties | undefined = isBounded && !sizing.isFixed ? { maxWidth: width } : undefined
        const content = cellContent(id, row, index, kit, isSelected)
        return (
          <td
            key={id}
            className={`${cellPadding[sizing.density]} ${(field && keepsOneLine(field)) || isBounded ? 'whitespace-nowrap' : ''} ${field && isNumericCell(field) ? 'text-end tabular-nums' : ''} ${id === entity.labelField ? 'font-medium text-slate-900 dark:text-slate-100' : 'text-slate-600 dark:text-slate-300'} ${id === 'actions' ? pinnedCell : ''} ${sizing.isFixed ? 'overflow-hidden text-ellipsis' : ''}`}
          >
            {isBounded ? (
              <div className="overflow-hidden text-ellipsis" style={bound}>
                {content}
              </div>
            ) : field && wrapsWithin(field) ? (
              <div className="min-w-48 max-w-80">{content}</div>
            ) : (
              content
            )}
          </td>
        )
      })}
    </tr>
  )
})
