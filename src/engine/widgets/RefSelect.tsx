import { Combobox, ComboboxButton, ComboboxInput, ComboboxOption, ComboboxOptions } from '@headlessui/react'
import { useQueries } from '@tanstack/react-query'
import { lazy, Suspense, useMemo, useRef, useState, type MouseEvent, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useAccess } from '../access-context'
import { useEntity } from '../entities-context'
import type { FormValues } from '../form/form-values'
import { canCreateInDialog, newRowValues, useScreensOf } from '../form/reference-new'
import { fetchRecord, labelOf, type AnyEntity, type OptionFilters, type Row } from '../entity-api'
import { entityKeys, useEntityOptions, useEntityRecord } from '../queries'
import { Icon } from '../ui/icons'
import { Spinner } from '../ui/PageSpinner'
import { useDebouncedValue } from '../useDebouncedValue'
import { borderClass, inputClass, type WidgetProps } from './types'

// The dialog holds a whole generic form (whose pickers are these): loaded when first opened.
const ReferenceNewDialog = lazy(() => import('../form/ReferenceNewDialog').then((m) => ({ default: m.ReferenceNewDialog })))

/**
 * Reference fields: an async, searchable select over the target entity. Typing queries
 * `all/?q=text&size=20`, which matches any searchable field of the target; the current
 * value's name comes with the record (`_labels`), or else from the target's `{id}` (a cached
 * query), so an edit form shows a name, not a number, without a request per reference.
 */
export const OPTIONS_SIZE = 20
export const SEARCH_DELAY_MS = 250

const optionsClass =
  'z-50 max-h-72 w-max min-w-(--input-width) max-w-[min(24rem,calc(100vw-1rem))] overflow-y-auto rounded-lg border border-slate-200 bg-white p-1 text-sm shadow-lg outline-none [--anchor-gap:4px] empty:invisible dark:border-slate-700 dark:bg-slate-900'
const optionClass =
  'flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-slate-700 select-none data-focus:bg-indigo-50 data-focus:text-indigo-900 data-selected:font-medium dark:text-slate-200 dark:data-focus:bg-indigo-950 dark:data-focus:text-indigo-100'

/**
 * The options open on a click in the input, on typing, or with the arrow keys — not on focus
 * alone (the ARIA combobox pattern): a form that puts the keyboard in its first field, or in
 * the first one in error, must not pop a list open over the page by doing so.
 */
function useOpenOnClick() {
  const button = useRef<HTMLButtonElement>(null)
  const onClick = (e: MouseEvent<HTMLElement>) => {
    if (e.currentTarget.getAttribute('aria-expanded') !== 'true') button.current?.click()
  }
  return { button, onClick }
}

function useOptionSearch(target: AnyEntity, filters?: OptionFilters) {
  const [query, setQuery] = useState('')
  const text = useDebouncedValue(query, SEARCH_DELAY_MS)
  const options = useEntityOptions(target, text, OPTIONS_SIZE, filters)
  return { query, setQuery, options }
}

/** What a module adds to an option after its name (a ledger's "Cash or bank" mark). */
export type OptionMark = (row: Row) => ReactNode

function OptionList({ target, rows, isFetching, isEmpty, markOf }: { target: AnyEntity; rows: readonly Row[]; isFetching: boolean; isEmpty: boolean; markOf?: OptionMark }) {
  const { t } = useTranslation()
  return (
    <ComboboxOptions anchor="bottom start" className={optionsClass} modal={false}>
      {isEmpty && (
        <div className="flex items-center gap-2 px-3 py-2 text-slate-500 dark:text-slate-400">
          {isFetching ? <Spinner className="size-4" /> : null}
          {isFetching ? t('common.loading') : t('form.no_results')}
        </div>
      )}
      {rows.map((row) => (
        <ComboboxOption key={row.id} value={row.id} className={optionClass}>
          <Icon name="check" className="invisible size-4 shrink-0 text-indigo-600 in-data-selected:visible dark:text-indigo-400" />
          <span className="truncate">{labelOf(target, row)}</span>
          {markOf?.(row)}
        </ComboboxOption>
      ))}
    </ComboboxOptions>
  )
}

/**
 * The input of a single-choice combobox: the chosen row's text, typing to search, and its
 * clear (when it may be emptied) and open buttons, after `extra` ones (a "New …"). Shared by
 * the reference pickers.
 */
export function ChoiceInput({
  id,
  text,
  placeholder,
  onType,
  onClear,
  isInvalid,
  describedBy,
  isRequired,
  extra,
}: {
  id: string
  text: string
  placeholder: string
  onType: (text: string) => void
  onClear?: () => void
  isInvalid: boolean
  describedBy?: string
  isRequired: boolean
  extra?: ReactNode
}) {
  const { t } = useTranslation()
  const opener = useOpenOnClick()
  return (
    <div className="relative">
      <ComboboxInput
        id={id}
        className={`${inputClass} ${borderClass(isInvalid)} ${extra ? 'pe-24' : 'pe-16'}`}
        displayValue={() => text}
        onChange={(e) => onType(e.target.value)}
        onClick={opener.onClick}
        placeholder={placeholder}
        aria-invalid={isInvalid || undefined}
        aria-describedby={describedBy}
        aria-required={isRequired || undefined}
        autoComplete="off"
      />
      <div className="absolute inset-y-0 end-0 flex items-center gap-0.5 pe-1.5">
        {extra}
        {onClear && (
          <button type="button" onClick={onClear} className="rounded p-1 text-slate-400 hover:text-slate-600 dark:hover:text-slate-200" aria-label={t('common.clear')}>
            <Icon name="x" className="size-4" />
          </button>
        )}
        <ComboboxButton ref={opener.button} aria-label={t('form.show_options')} className="rounded p-1 text-slate-400 hover:text-slate-600 dark:hover:text-slate-200">
          <Icon name="selector" className="size-4" />
        </ComboboxButton>
      </div>
    </div>
  )
}

export function RefSelect(props: WidgetProps) {
  const target = useEntity(props.field.ref?.target ?? '')
  if (!target) return <MissingTarget {...props} />
  return <SingleRefSelect {...props} target={target} />
}

export function SingleRefSelect({ id, name, field, value, onChange, onBlur, isInvalid, describedBy, target, knownLabels, filters, markOf, offersNew }: WidgetProps & { target: AnyEntity; markOf?: OptionMark }) {
  const { t } = useTranslation()
  const selected = typeof value === 'number' ? value : null
  const { setQuery, options } = useOptionSearch(target, filters)
  const rows = options.data ?? []
  const [picked, setPicked] = useState<{ id: number; label: string } | null>(null)
  const knownLabel = picked?.id === selected ? picked.label : selected !== null ? knownLabels?.[String(selected)] : undefined
  const current = useEntityRecord(target, selected !== null && knownLabel === undefined ? selected : null)
  const selectedLabel = selected === null ? '' : (knownLabel ?? (current.data ? labelOf(target, current.data) : ''))
  const access = useAccess()
  const screens = useScreensOf(target)
  const canCreate = offersNew === true && canCreateInDialog(target, access, screens)
  // What was last typed: a missing District's name starts the new one (the options close, and forget it, before "New" is clicked).
  const typed = useRef('')
  // The values the new row starts with while its dialog is open.
  const [newRow, setNewRow] = useState<FormValues | null>(null)
  const newLabel = t('form.new_title', { entity: t(`${target.labelKey}.one`) })

  return (
    <>
      <Combobox
        value={selected}
        onChange={(next: number | null) => {
          const row = rows.find((r) => r.id === next)
          setPicked(next !== null && row ? { id: next, label: labelOf(target, row) } : null)
          // Closed on a search that found nothing, it answers null: what was typed stays, for "New …".
          if (next !== null) typed.current = ''
          onChange(next)
        }}
        // The field counts as left when its options close — after a choice is made, not when
        // the pointer leaves the input to click an option (that read the old value: a flash of 'required').
        onClose={() => {
          setQuery('')
          onBlur()
        }}
        name={name}
      >
        <ChoiceInput
          id={id}
          text={selectedLabel}
          onType={(text) => {
            typed.current = text
            setQuery(text)
          }}
          placeholder={selected !== null && current.isPending && knownLabel === undefined ? t('common.loading') : t('form.type_to_search')}
          onClear={
            selected !== null && !field.isRequired
              ? () => {
                  setPicked(null)
                  onChange(null)
                }
              : undefined
          }
          isInvalid={isInvalid}
          describedBy={describedBy}
          isRequired={field.isRequired}
          extra={
            canCreate ? (
              <button
                type="button"
                onClick={() => setNewRow(newRowValues(target, filters, typed.current))}
                title={newLabel}
                className="rounded p-1 text-slate-400 hover:text-indigo-600 dark:hover:text-indigo-400"
              >
                <Icon name="plus" className="size-4" />
                {/* Named by its text, not an aria-label: the field's own label then finds the picker alone. */}
                <span className="sr-only">{newLabel}</span>
              </button>
            ) : undefined
          }
        />
        <OptionList target={target} rows={rows} isFetching={options.isFetching} isEmpty={rows.length === 0} markOf={markOf} />
      </Combobox>
      {newRow && (
        <Suspense fallback={null}>
          <ReferenceNewDialog
            target={target}
            initialValues={newRow}
            onClose={() => setNewRow(null)}
            onCreated={(row) => {
              // Selected with its name as saved: no request for a label the answer has.
              setPicked({ id: row.id, label: labelOf(target, row) })
              typed.current = ''
              setNewRow(null)
              onChange(row.id)
              onBlur()
            }}
          />
        </Suspense>
      )}
    </>
  )
}

/** Many-to-many references: chips for the chosen rows and the same searchable list. */
export function RefsSelect(props: WidgetProps) {
  const target = useEntity(props.field.ref?.target ?? '')
  if (!target) return <MissingTarget {...props} />
  return <MultiRefSelect {...props} target={target} />
}

function MultiRefSelect({ id, name, value, onChange, onBlur, isInvalid, describedBy, target, knownLabels, filters }: WidgetProps & { target: AnyEntity }) {
  const { t } = useTranslation()
  const selected = useMemo(() => (Array.isArray(value) ? [...value].filter((v): v is number => typeof v === 'number') : []), [value])
  const { query, setQuery, options } = useOptionSearch(target, filters)
  const opener = useOpenOnClick()
  const rows = options.data ?? []
  const [labels, setLabels] = useState<ReadonlyMap<number, string>>(() => new Map(Object.entries(knownLabels ?? {}).map(([k, v]) => [Number(k), v])))
  const unknown = selected.filter((sid) => !labels.has(sid))
  const records = useQueries({
    queries: unknown.map((sid) => ({
      queryKey: entityKeys.record(target.name, sid),
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchRecord(target, sid, signal),
      staleTime: 60_000,
    })),
  })
  const labelFor = (sid: number) => {
    const known = labels.get(sid)
    if (known !== undefined) return known
    const row = records[unknown.indexOf(sid)]?.data
    return row ? labelOf(target, row) : `#${sid}`
  }

  return (
    <Combobox
      multiple
      value={selected}
      onChange={(next: number[]) => {
        setLabels((prev) => {
          const map = new Map(prev)
          for (const row of rows) if (next.includes(row.id)) map.set(row.id, labelOf(target, row))
          return map
        })
        setQuery('')
        onChange(next)
      }}
      onClose={() => {
        setQuery('')
        onBlur()
      }}
      name={name}
    >
      <div className={`${inputClass} ${borderClass(isInvalid)} flex flex-wrap items-center gap-1.5 py-1.5`}>
        {selected.map((sid) => (
          <span key={sid} className="inline-flex items-center gap-1 rounded-md bg-indigo-50 py-0.5 ps-2 pe-1 text-xs font-medium text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200">
            {labelFor(sid)}
            <button
              type="button"
              className="rounded p-0.5 hover:bg-indigo-100 dark:hover:bg-indigo-900"
              onClick={() => onChange(selected.filter((x) => x !== sid))}
              aria-label={t('form.remove', { label: labelFor(sid) })}
            >
              <Icon name="x" className="size-3" />
            </button>
          </span>
        ))}
        <ComboboxInput
          id={id}
          value={query}
          className="min-w-24 flex-1 border-0 bg-transparent p-0.5 text-sm outline-none placeholder:text-slate-400"
          onChange={(e) => setQuery(e.target.value)}
          onClick={opener.onClick}
          placeholder={t('form.type_to_search')}
          aria-invalid={isInvalid || undefined}
          aria-describedby={describedBy}
          autoComplete="off"
        />
        <ComboboxButton ref={opener.button} className="sr-only" aria-hidden="true" />
      </div>
      <OptionList target={target} rows={rows} isFetching={options.isFetching} isEmpty={rows.length === 0} />
    </Combobox>
  )
}

/** A reference to an entity this router does not know: the raw id, read-only. */
function MissingTarget({ id, value, field }: WidgetProps) {
  const text = Array.isArray(value) ? value.join(', ') : typeof value === 'number' ? String(value) : ''
  return <input id={id} value={text} readOnly disabled title={field.ref?.target} className={`${inputClass} ${borderClass(false)}`} />
}
