import { useEffect, useId, useRef, type ComponentType, type KeyboardEvent } from 'react'
import { useController, useFieldArray, useFormState, useWatch, type Control, type UseFormSetValue } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { hasComputed, money, withComputed, type AnyField } from '../../../schema/kit'
import { useFormat } from '../../i18n/useFormat'
import type { AnyEntity, RecordLabels } from '../entity-api'
import { isNumericCell } from '../list/FieldCell'
import { Icon } from '../ui/icons'
import { FieldWidget } from '../widgets/FieldWidget'
import type { WidgetProps } from '../widgets/types'
import { emptyLine, type FormValue, type FormValues, type LineValues, type SubmitValues } from './form-values'
import { BalanceIndicator } from './BalanceIndicator'
import { useFetchedLineValues } from './useFetchedLineValues'

/**
 * The lines of a document in the generic form (react-hook-form `useFieldArray`): a row per
 * line with the line entity's inputs, its computed values worked out as one types, and a
 * totals row for its money and number columns. Lines are added, removed and moved with
 * buttons or the keyboard: Enter goes to the same column of the next line (adding one after
 * the last), Alt+↑/↓ moves the line. Each line's messages stand under its inputs.
 */
type Props = {
  name: string
  field: AnyField
  labelKey: string
  control: Control<FormValues, unknown, SubmitValues>
  /** The stored lines' display names of their references, by line id. */
  storedLabels: ReadonlyMap<number, RecordLabels>
  isDisabled?: boolean
  /** A module's widgets for the lines' cells, by `<lines>.<field>` (`items.ledger`). */
  widgets?: Readonly<Record<string, ComponentType<WidgetProps>>>
  /** The document's rule that the lines balance (`rules.balanced`): shown live under them. */
  balance?: { readonly debit: string; readonly credit: string; readonly tolerance?: string }
  /** Judges the lines again (the form's `trigger`): after a save was tried, rules over the lines follow each change. */
  revalidate?: (name: string) => Promise<boolean>
  /** The form's `setValue`: a line's value fetched from the row it refers to (Field.fetchFrom) is filled in with it. */
  setValue?: UseFormSetValue<FormValues>
}

const cellInput = 'min-w-44'
const iconButton =
  'rounded-md p-1.5 text-slate-400 hover:bg-slate-100 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:opacity-30 disabled:hover:bg-transparent dark:hover:bg-slate-800 dark:hover:text-slate-200'

/** The columns a line is entered with, and those worked out from them. */
export function lineColumns(line: AnyEntity): { inputs: string[]; outputs: string[] } {
  return {
    inputs: line.fieldNames.filter((n) => !line.fields[n]!.isReadOnly && !line.fields[n]!.isTransient),
    outputs: line.fieldNames.filter((n) => line.fields[n]!.compute !== undefined),
  }
}

/** Columns totalled under the lines: the ones the lines field names, or its computed money (added in minor units). */
const totalledColumns = (spec: NonNullable<AnyField['lines']>, columns: readonly string[]) =>
  spec.totals ?? columns.filter((n) => spec.entity.fields[n]!.kind === 'decimal' && spec.entity.fields[n]!.compute !== undefined)

function totalOf(field: AnyField, values: ReadonlyArray<Record<string, unknown>>, name: string): string {
  if (field.kind === 'integer') return String(values.reduce((sum, v) => sum + (Number(v[name]) || 0), 0))
  return money.sum(values.map((v) => (typeof v[name] === 'string' || typeof v[name] === 'number' ? (v[name] as string) : null)))
}

/** A line's values with its computed ones, as the server will work them out (best effort while the input is incomplete). */
function computedLine(line: AnyEntity, values: LineValues): Record<string, unknown> {
  if (!hasComputed(line, 'stored') && !hasComputed(line, 'virtual')) return values
  try {
    return withComputed(line, withComputed(line, values), 'virtual')
  } catch {
    return values
  }
}

/** One input of a line, in its table cell with its message; a module's lines table may give another widget. */
export function LineCell({ name, field, label, control, knownLabels, isSubmitted, onKeyDown, Widget = FieldWidget, className = cellInput }: { name: string; field: AnyField; label: string; control: Props['control']; knownLabels?: Readonly<Record<string, string>>; isSubmitted: boolean; onKeyDown: (e: KeyboardEvent) => void; Widget?: ComponentType<WidgetProps>; className?: string }) {
  const id = useId()
  const { field: input, fieldState } = useController({ name, control })
  // Read before the condition: react-hook-form only updates the state a render has read.
  const error = fieldState.error?.message
  // The field array validates itself on every append: a line just added is not yet wrong.
  const message = fieldState.isTouched || isSubmitted ? error : undefined
  return (
    <td className={`px-2 py-2 align-top ${className}`} onKeyDown={onKeyDown} data-invalid={message ? '' : undefined}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <Widget
        id={id}
        name={name}
        field={field}
        label={label}
        value={input.value as FormValue}
        onChange={input.onChange}
        onBlur={input.onBlur}
        isInvalid={Boolean(message)}
        describedBy={message ? `${id}-error` : undefined}
        knownLabels={knownLabels}
      />
      {message && (
        <p id={`${id}-error`} className="mt-1 text-xs text-red-600 dark:text-red-400">
          {message}
        </p>
      )}
    </td>
  )
}

export function LinesEditor({ name, field, labelKey, control, storedLabels, isDisabled = false, widgets, balance, revalidate, setValue }: Props) {
  const { t } = useTranslation()
  const format = useFormat()
  const tableId = useId()
  const line = field.lines!.entity
  const { inputs, outputs } = lineColumns(line)
  // `_key`: the field array's own React keys, so a stored line's `id` stays its value.
  const { fields: rows, append, remove, move, insert } = useFieldArray({ control, name: name as never, keyName: '_key' as never })
  const watched = (useWatch({ control, name }) as LineValues[] | undefined) ?? []
  const computed = watched.map((values) => computedLine(line, values))
  useFetchedLineValues(name, line, watched, rows.map((r) => String((r as { _key?: string })._key)), setValue)
  // `errors` is read so that a submit re-renders the lines; `isSubmitted` rides along with it.
  const { errors, isSubmitted } = useFormState({ control, name })
  const listError = (errors[name] as { root?: { message?: string }; message?: string } | undefined)?.root?.message ?? (errors[name] as { message?: string } | undefined)?.message
  const totals = totalledColumns(field.lines!, [...inputs, ...outputs])
  // Once a save was tried, a message about the lines together (the difference of two totals)
  // follows every change of a line: one that no longer applies goes away.
  const linesKey = JSON.stringify(watched)
  useEffect(() => {
    if (isSubmitted) void revalidate?.(name)
  }, [linesKey, isSubmitted, revalidate, name])
  const labelOfColumn = (n: string) => t(line.fieldLabelKey(n))

  // Where the keyboard goes next, once React has drawn the lines (a new one, or one moved).
  const pendingFocus = useRef<{ row: number; column: number } | null>(null)
  useEffect(() => {
    const target = pendingFocus.current
    if (!target) return
    pendingFocus.current = null
    cellAt(target.row, target.column)?.focus()
  })
  const cellAt = (row: number, column: number) =>
    document.querySelector<HTMLElement>(`#${CSS.escape(tableId)} tbody tr:nth-child(${row + 1}) td:nth-child(${column + 2}) :is(input:not([type=hidden]), select, textarea, button)`)
  /** Focus after the lines change (added, moved): once drawn. */
  const focusAfterDraw = (row: number, column: number) => {
    pendingFocus.current = { row, column }
  }
  const addLine = (at?: number) => {
    const values = emptyLine(line) as Record<string, unknown>
    // Asked before the change: the field array may draw the lines at once.
    focusAfterDraw(at ?? rows.length, 0)
    if (at === undefined) append(values as never)
    else insert(at, values as never)
  }
  const onCellKey = (row: number, column: number) => (e: KeyboardEvent) => {
    if (e.altKey && (e.key === 'ArrowUp' || e.key === 'ArrowDown')) {
      const to = e.key === 'ArrowUp' ? row - 1 : row + 1
      if (to < 0 || to >= rows.length) return
      e.preventDefault()
      focusAfterDraw(to, column)
      move(row, to)
      return
    }
    // Enter moves down the column, as in a spreadsheet; the form saves with Ctrl+Enter. A
    // list of options open under the input keeps Enter for itself.
    if (e.key !== 'Enter' || e.ctrlKey || e.metaKey || (e.target as HTMLElement).getAttribute('aria-expanded') === 'true') return
    if ((e.target as HTMLElement).tagName === 'TEXTAREA') return
    e.preventDefault()
    if (row === rows.length - 1) addLine()
    else cellAt(row + 1, column)?.focus()
  }

  return (
    <section className="min-w-0 sm:col-span-2" aria-labelledby={`${tableId}-title`} data-field={name} data-invalid={listError ? '' : undefined}>
      <div className="mb-2 flex items-center justify-between gap-3">
        <h2 id={`${tableId}-title`} className="text-sm font-medium text-slate-700 dark:text-slate-300">
          {t(labelKey)}
          {(field.lines?.min ?? 0) > 0 && (
            <span className="ms-0.5 text-red-600 dark:text-red-400" aria-hidden="true">
              *
            </span>
          )}
        </h2>
        <span className="text-xs text-slate-500 tabular-nums dark:text-slate-400" aria-live="polite">
          {t('lines.count', { count: rows.length })}
        </span>
      </div>
      {listError && (
        <p className="mb-2 text-sm text-red-600 dark:text-red-400" role="alert">
          {listError}
        </p>
      )}
      <div className="relative overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-800">
        <table id={tableId} className="w-full text-sm">
          <thead className="bg-slate-50 text-xs font-medium text-slate-500 uppercase dark:bg-slate-800/60 dark:text-slate-400">
            <tr>
              <th scope="col" className="w-10 px-2 py-2 text-start">
                #
              </th>
              {inputs.map((n) => (
                <th key={n} scope="col" className={`px-2 py-2 ${isNumericCell(line.fields[n]!) ? 'text-end' : 'text-start'}`}>
                  {labelOfColumn(n)}
                  {line.fields[n]!.isRequired && <span className="ms-0.5 text-red-600 dark:text-red-400" aria-hidden="true">*</span>}
                </th>
              ))}
              {outputs.map((n) => (
                <th key={n} scope="col" className="px-2 py-2 text-end">
                  {labelOfColumn(n)}
                </th>
              ))}
              <th scope="col" className="w-28 px-2 py-2">
                <span className="sr-only">{t('list.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {rows.map((row, i) => {
              const stored = typeof watched[i]?.id === 'number' ? storedLabels.get(watched[i]!.id!) : undefined
              return (
                <tr key={(row as { _key: string })._key} className="align-top">
                  <td className="px-2 py-3.5 text-slate-500 tabular-nums dark:text-slate-400">{i + 1}</td>
                  {inputs.map((n, column) => {
                    const known = stored?.[n]
                    const value = watched[i]?.[n]
                    return (
                      <LineCell
                        key={n}
                        name={`${name}.${i}.${n}`}
                        field={line.fields[n]!}
                        label={`${labelOfColumn(n)}, ${t('lines.line', { number: i + 1 })}`}
                        control={control}
                        knownLabels={typeof known === 'string' && typeof value === 'number' ? { [String(value)]: known } : typeof known === 'object' ? known : undefined}
                        isSubmitted={isSubmitted}
                        onKeyDown={onCellKey(i, column)}
                        Widget={widgets?.[`${name}.${n}`]}
                      />
                    )
                  })}
                  {outputs.map((n) => (
                    <td key={n} className="px-2 py-3.5 text-end text-slate-700 tabular-nums dark:text-slate-300" data-testid={`${name}.${i}.${n}`}>
                      {formatOutput(line.fields[n]!, computed[i]?.[n], format)}
                    </td>
                  ))}
                  <td className="px-2 py-2">
                    <div className="flex items-center justify-end gap-0.5">
                      <button type="button" className={iconButton} disabled={isDisabled || i === 0} onClick={() => move(i, i - 1)} aria-label={t('lines.move_up', { number: i + 1 })}>
                        <Icon name="arrowUp" className="size-4" />
                      </button>
                      <button type="button" className={iconButton} disabled={isDisabled || i === rows.length - 1} onClick={() => move(i, i + 1)} aria-label={t('lines.move_down', { number: i + 1 })}>
                        <Icon name="arrowDown" className="size-4" />
                      </button>
                      <button
                        type="button"
                        className={`${iconButton} hover:text-red-600 dark:hover:text-red-400`}
                        disabled={isDisabled}
                        onClick={() => remove(i)}
                        aria-label={t('lines.remove', { number: i + 1 })}
                      >
                        <Icon name="trash" className="size-4" />
                      </button>
                    </div>
                  </td>
                </tr>
              )
            })}
            {rows.length === 0 && (
              <tr>
                <td colSpan={inputs.length + outputs.length + 2} className="px-3 py-6 text-center text-slate-500 dark:text-slate-400">
                  {t('lines.empty')}
                </td>
              </tr>
            )}
          </tbody>
          {totals.length > 0 && rows.length > 0 && (
            <tfoot className="border-t border-slate-200 bg-slate-50 font-medium dark:border-slate-800 dark:bg-slate-800/60">
              <tr>
                <th scope="row" className="px-2 py-2.5 text-start text-xs text-slate-500 uppercase dark:text-slate-400">
                  {t('lines.total')}
                </th>
                {[...inputs, ...outputs].map((n) => (
                  <td key={n} className="px-2 py-2.5 text-end tabular-nums" data-testid={totals.includes(n) ? `${name}.total.${n}` : undefined}>
                    {totals.includes(n) ? formatOutput(line.fields[n]!, totalOf(line.fields[n]!, computed, n), format) : null}
                  </td>
                ))}
                <td />
              </tr>
            </tfoot>
          )}
        </table>
      </div>
      <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
        <button
          type="button"
          onClick={() => addLine()}
          disabled={isDisabled}
          className="inline-flex items-center gap-1.5 rounded-md px-2.5 py-1.5 text-sm font-medium text-indigo-600 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:opacity-50 dark:text-indigo-400 dark:hover:bg-indigo-950"
        >
          <Icon name="plus" className="size-4" />
          {t('lines.add')}
        </button>
        {balance && <BalanceIndicator lines={computed} debit={balance.debit} credit={balance.credit} tolerance={balance.tolerance} />}
      </div>
    </section>
  )
}

function formatOutput(field: AnyField, value: unknown, format: ReturnType<typeof useFormat>): string {
  if (value === null || value === undefined || value === '') return '—'
  if (field.kind === 'decimal') return format.decimal(String(value), field.scale ?? 2)
  if (field.kind === 'integer' && typeof value === 'number') return format.integer(value)
  return String(value)
}
