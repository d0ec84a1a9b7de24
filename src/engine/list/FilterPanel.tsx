import { useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type { AnyField } from '../../../schema/kit'
import type { AnyEntity } from '../entity-api'
import { DateInput } from '../widgets/DateInput'
import { RefSelect } from '../widgets/RefSelect'
import { borderClass, inputClass } from '../widgets/types'
import { boundsOf, compareNumbers, paramName, type FilterBound } from '../../../schema/kit/list-view'

/**
 * The list's filter bar, generated from the kinds of the entity's filter fields: a choice
 * or a flag is a select, a reference the picker the forms use, a date or a number a from–to
 * pair. What is entered is applied together (Apply, or Enter), so the address gets one
 * entry per change of filters, not one per key. Loaded when first opened.
 */
type Draft = Record<string, string>

const labelClass = 'mb-1 block text-xs font-medium text-slate-600 dark:text-slate-300'

function orderProblem(field: AnyField, lower: string | undefined, upper: string | undefined): string | undefined {
  if (!lower || !upper) return undefined
  const isDate = field.kind === 'date' || field.kind === 'datetime'
  const order = isDate ? lower.localeCompare(upper) : compareNumbers(lower, upper)
  if (order === undefined || order <= 0) return undefined
  return isDate ? 'validation.date_order' : 'validation.range_order'
}

const NUMBER = /^-?\d{1,30}([.,]\d{1,30})?$/

export function FilterPanel({
  entity,
  filters,
  onApply,
  onClose,
}: {
  entity: AnyEntity
  filters: Readonly<Record<string, string>>
  onApply: (filters: Readonly<Record<string, string | undefined>>) => void
  onClose: () => void
}) {
  const { t } = useTranslation()
  const baseId = useId()
  const [draft, setDraft] = useState<Draft>(() => ({ ...filters }))
  const [problems, setProblems] = useState<Readonly<Record<string, string>>>({})
  const set = (param: string, value: string) => setDraft((d) => ({ ...d, [param]: value }))
  const params = entity.filterFields.flatMap((field) => boundsOf(entity.fields[field]!).map((bound) => paramName(field, bound)))

  const apply = (e: FormEvent) => {
    e.preventDefault()
    const found: Record<string, string> = {}
    const next: Record<string, string | undefined> = {}
    for (const field of entity.filterFields) {
      const spec = entity.fields[field]!
      const bounds = boundsOf(spec)
      for (const bound of bounds) {
        const param = paramName(field, bound)
        // A decimal comma is a decimal point.
        const value = (draft[param] ?? '').trim().replace(/^(-?\d+),(\d+)$/, '$1.$2')
        if ((bound === 'min' || bound === 'max') && value !== '' && !NUMBER.test(value)) found[field] = 'validation.number'
        next[param] = value === '' ? undefined : value
      }
      if (bounds.length === 2 && !found[field]) {
        const problem = orderProblem(spec, next[paramName(field, bounds[0]!)], next[paramName(field, bounds[1]!)])
        if (problem) found[field] = problem
      }
    }
    setProblems(found)
    if (Object.keys(found).length === 0) onApply(next)
  }

  const reset = () => {
    setDraft({})
    setProblems({})
    onApply(Object.fromEntries(params.map((p) => [p, undefined])))
  }

  const control = (field: string, bound: FilterBound) => {
    const spec = entity.fields[field]!
    const param = paramName(field, bound)
    const id = `${baseId}-${param}`
    const label = t(entity.fieldLabelKey(field))
    const value = draft[param] ?? ''
    const isInvalid = problems[field] !== undefined
    if (spec.kind === 'ref') {
      // Any row may be picked: the field's own rules (required) are the form's, not the filter's.
      const optional = { ...spec, presence: 'optional', isRequired: false } as AnyField
      return (
        <div key={param}>
          <label htmlFor={id} className={labelClass}>
            {label}
          </label>
          <RefSelect
            id={id}
            name={param}
            field={optional}
            label={label}
            value={value === '' ? null : Number(value)}
            onChange={(next) => set(param, typeof next === 'number' ? String(next) : '')}
            onBlur={() => undefined}
            isInvalid={false}
          />
        </div>
      )
    }
    if (spec.kind === 'enum' || spec.kind === 'boolean') {
      const options = spec.kind === 'boolean' ? ['true', 'false'] : (spec.options ?? [])
      return (
        <div key={param}>
          <label htmlFor={id} className={labelClass}>
            {label}
          </label>
          <select id={id} value={value} onChange={(e) => set(param, e.target.value)} className={`${inputClass} ${borderClass(false)}`}>
            <option value="">{t('list.filter_any')}</option>
            {options.map((o) => (
              <option key={o} value={o}>
                {spec.kind === 'boolean' ? t(o === 'true' ? 'list.true' : 'list.false') : t(`option.${o}`, { defaultValue: o })}
              </option>
            ))}
          </select>
        </div>
      )
    }
    const isDate = bound === 'after' || bound === 'before'
    const boundLabel = t(bound === 'after' || bound === 'min' ? 'list.filter_from' : 'list.filter_to')
    return (
      <div key={param} className="min-w-0 flex-1">
        <label htmlFor={id} className={labelClass}>
          {boundLabel}
        </label>
        {isDate ? (
          // The forms' date entry (YYYY-MM-DD or the calendar, in the interface's language), not the browser's own.
          <DateInput
            id={id}
            name={param}
            field={{ ...spec, presence: 'optional', isRequired: false } as AnyField}
            label={`${t(entity.fieldLabelKey(field))} ${boundLabel}`}
            value={value}
            onChange={(next) => set(param, typeof next === 'string' ? next : '')}
            onBlur={() => {}}
            isInvalid={isInvalid}
            describedBy={isInvalid ? `${baseId}-${field}-problem` : undefined}
          />
        ) : (
          <input
            id={id}
            type="text"
            inputMode="decimal"
            dir="ltr"
            value={value}
            onChange={(e) => set(param, e.target.value)}
            aria-invalid={isInvalid || undefined}
            aria-describedby={isInvalid ? `${baseId}-${field}-problem` : undefined}
            className={`${inputClass} ${borderClass(isInvalid)} text-end tabular-nums`}
          />
        )}
      </div>
    )
  }

  return (
    <form onSubmit={apply} className="rounded-xl border border-slate-200 bg-white shadow-xs dark:border-slate-800 dark:bg-slate-900" aria-label={t('list.filters')}>
      <div className="grid gap-4 p-4 sm:grid-cols-2 lg:grid-cols-3">
        {entity.filterFields.map((field) => {
          const bounds = boundsOf(entity.fields[field]!)
          if (bounds.length === 1) return control(field, bounds[0]!)
          const problem = problems[field]
          return (
            <fieldset key={field} className="min-w-0">
              <legend className="mb-1 text-xs font-semibold text-slate-700 dark:text-slate-200">{t(entity.fieldLabelKey(field))}</legend>
              <div className="flex gap-2">{bounds.map((bound) => control(field, bound))}</div>
              {problem && (
                <p id={`${baseId}-${field}-problem`} className="mt-1 text-xs text-red-600 dark:text-red-400">
                  {t(problem, { label: t(entity.fieldLabelKey(field)) })}
                </p>
              )}
            </fieldset>
          )
        })}
      </div>
      <div className="flex flex-wrap items-center justify-end gap-2 border-t border-slate-200 bg-slate-50 px-4 py-3 dark:border-slate-800 dark:bg-slate-900/60">
        <button type="button" onClick={onClose} className="rounded-lg px-3 py-1.5 text-sm font-medium text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800">
          {t('common.close')}
        </button>
        <button type="button" onClick={reset} className="rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800">
          {t('list.reset_filters')}
        </button>
        <button type="submit" className="rounded-lg bg-indigo-600 px-3.5 py-1.5 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600">
          {t('list.apply_filters')}
        </button>
      </div>
    </form>
  )
}
