import { useTranslation } from 'react-i18next'
import type { AnyField } from '../../../schema/kit'
import { useFormat, type Formatters } from '../../i18n/useFormat'
import { useEntity } from '../entities-context'
import { labelOf, type AnyEntity } from '../entity-api'
import { useEntityRecord } from '../queries'
import { Icon } from '../ui/icons'
import type { ActiveFilter } from './useListController'

/**
 * The filters in force, as chips under the list's header: one per field ("District:
 * Dhaka", "Join Date: 1 Jan 2024 – 31 Mar 2024"), each with a button that removes it, and
 * one that removes them all.
 */
type Translate = (key: string, params?: Record<string, unknown>) => string

/** A bound's value as the user reads it: a date, a number, an option, yes or no. */
export function shownValue(t: Translate, format: Formatters, field: AnyField, value: string): string {
  if (field.kind === 'date' || field.kind === 'datetime') return format.date(value)
  if (field.kind === 'integer' || field.kind === 'decimal') {
    const scale = value.split('.')[1]?.length ?? 0
    return format.decimal(value, scale)
  }
  if (field.kind === 'boolean') return t(value === 'true' ? 'list.true' : 'list.false')
  if (field.kind === 'enum') return t(`option.${value}`, { defaultValue: value })
  return value
}

/** A reference's value: the name of the row it points to (`#5` until it is known, or if it cannot be read). */
function RefName({ field, id }: { field: AnyField; id: string }) {
  const target = useEntity(field.ref?.target ?? '')
  return target ? <TargetName target={target} id={id} /> : <>#{id}</>
}

function TargetName({ target, id }: { target: AnyEntity; id: string }) {
  const record = useEntityRecord(target, id)
  return <>{record.data ? labelOf(target, record.data) : `#${id}`}</>
}

function ChipValue({ field, filters }: { field: AnyField; filters: readonly ActiveFilter[] }) {
  const { t } = useTranslation()
  const format = useFormat()
  const bound = (name: ActiveFilter['bound']) => filters.find((f) => f.bound === name)?.value
  if (field.kind === 'ref' && bound('value')) return <RefName field={field} id={bound('value')!} />
  const single = bound('value')
  if (single !== undefined) return <>{shownValue(t, format, field, single)}</>
  const lower = bound('after') ?? bound('min')
  const upper = bound('before') ?? bound('max')
  const show = (v: string) => shownValue(t, format, field, v)
  if (lower !== undefined && upper !== undefined) return <>{t('list.filter_between', { from: show(lower), to: show(upper) })}</>
  if (lower !== undefined) return <>{t('list.filter_from_value', { value: show(lower) })}</>
  return <>{t('list.filter_to_value', { value: show(upper!) })}</>
}

export function FilterChips({ entity, filters, onRemove, onClear }: { entity: AnyEntity; filters: readonly ActiveFilter[]; onRemove: (params: readonly string[]) => void; onClear: () => void }) {
  const { t } = useTranslation()
  if (filters.length === 0) return null
  const fields = [...new Set(filters.map((f) => f.field))]
  return (
    <ul className="flex flex-wrap items-center gap-2" aria-label={t('list.active_filters')}>
      {fields.map((name) => {
        const mine = filters.filter((f) => f.field === name)
        const label = t(entity.fieldLabelKey(name))
        return (
          <li key={name} className="inline-flex max-w-full items-center gap-1 rounded-full border border-indigo-200 bg-indigo-50 py-0.5 ps-3 pe-1 text-sm text-indigo-900 dark:border-indigo-900 dark:bg-indigo-950/60 dark:text-indigo-100">
            <span className="min-w-0 truncate">
              <span className="font-medium">{label}:</span> <ChipValue field={entity.fields[name]!} filters={mine} />
            </span>
            <button
              type="button"
              onClick={() => onRemove(mine.map((f) => f.param))}
              className="shrink-0 rounded-full p-1 text-indigo-500 hover:bg-indigo-100 hover:text-indigo-800 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-300 dark:hover:bg-indigo-900"
              aria-label={t('list.remove_filter', { label })}
            >
              <Icon name="x" className="size-3.5" />
            </button>
          </li>
        )
      })}
      {fields.length > 1 && (
        <li>
          <button type="button" onClick={onClear} className="rounded-md px-2 py-1 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800">
            {t('list.clear_filters')}
          </button>
        </li>
      )}
    </ul>
  )
}

/**
 * A list view's own filter (`views` of the registry): shown like the chips, but fixed — the
 * server holds it whatever else the list asks, so there is nothing to remove.
 */
export function ViewFilterChips({ entity }: { entity: AnyEntity }) {
  const { t } = useTranslation()
  const format = useFormat()
  const view = entity.listView
  if (!view) return null
  const valueOf = (field: AnyField, value: string | number | boolean | readonly (string | number)[]) =>
    [value].flat().map((v) => (field.kind === 'ref' && typeof v === 'string' ? v : shownValue(t, format, field, String(v)))).join(', ')
  return (
    <ul className="flex flex-wrap items-center gap-2" aria-label={t('list.view_filters')} data-testid="view-filters">
      {Object.entries(view.filter).map(([name, value]) => (
        <li key={name} className="inline-flex max-w-full items-center gap-1.5 rounded-full border border-slate-200 bg-slate-100 px-3 py-0.5 text-sm text-slate-700 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-200">
          <Icon name="lock" className="size-3.5 shrink-0 text-slate-500 dark:text-slate-400" />
          <span className="min-w-0 truncate">
            <span className="font-medium">{t(entity.fieldLabelKey(name))}:</span> {valueOf(entity.fields[name]!, value)}
          </span>
        </li>
      ))}
    </ul>
  )
}
