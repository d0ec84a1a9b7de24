import { useWatch, type Control } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { withComputed } from '../../../schema/kit'
import { labelsOf, type AnyEntity, type Row } from '../entity-api'
import { FieldCell } from '../list/FieldCell'
import type { FormValues, SubmitValues } from './form-values'

/**
 * What a form shows but does not take: the values the server set on the stored record (its
 * number, its status — as stored), then the computed ones (a document's total, its number of
 * lines), worked out from what is entered as one types by the functions the server stores
 * them with.
 */
/** A stored value as a cell shows it: a reference with its display name (`_labels`). */
function refValue(row: Row | undefined, name: string): unknown {
  const value = row?.[name]
  const label = labelsOf(row)[name]
  return typeof value === 'number' && typeof label === 'string' ? { id: value, name: label } : value
}

export function ComputedValues({ entity, names, serverNames, stored, control, labelKey }: { entity: AnyEntity; names: readonly string[]; serverNames: readonly string[]; stored: Row | undefined; control: Control<FormValues, unknown, SubmitValues>; labelKey: (field: string) => string }) {
  const { t } = useTranslation()
  const values = useWatch({ control }) as Record<string, unknown>
  let computed: Record<string, unknown> = values
  try {
    computed = withComputed(entity, withComputed(entity, values), 'virtual')
  } catch {
    // Incomplete input: nothing to show yet.
  }
  return (
    <dl className="grid gap-x-6 gap-y-3 rounded-lg bg-slate-50 px-4 py-3 sm:grid-cols-2 lg:grid-cols-3 dark:bg-slate-800/50">
      {serverNames.map((name) => (
        <div key={name} className="flex items-baseline justify-between gap-3">
          <dt className="text-sm text-slate-500 dark:text-slate-400">{t(labelKey(name))}</dt>
          <dd className="text-sm font-medium text-slate-900 dark:text-slate-100" data-testid={`stored-${name}`}>
            <FieldCell field={entity.fields[name]!} value={refValue(stored, name)} />
          </dd>
        </div>
      ))}
      {/* A flag of the clock (f.pastDue) reads the stored due time: a record not yet written has none. */}
      {names.filter((name) => stored !== undefined || !entity.fields[name]!.pastDue).map((name) => (
        <div key={name} className="flex items-baseline justify-between gap-3">
          <dt className="text-sm text-slate-500 dark:text-slate-400">{t(labelKey(name))}</dt>
          <dd className="text-sm font-semibold text-slate-900 tabular-nums dark:text-slate-100" data-testid={`computed-${name}`}>
            <FieldCell field={entity.fields[name]!} value={computed[name]} />
          </dd>
        </div>
      ))}
    </dl>
  )
}
