import { useWatch, type Control } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { withComputed } from '../../../schema/kit'
import type { AnyEntity } from '../entity-api'
import { FieldCell } from '../list/FieldCell'
import type { FormValues, SubmitValues } from './form-values'

/**
 * A record's computed values (a document's total, its number of lines), worked out from what
 * is entered as one types — by the same functions the server stores them with.
 */
export function ComputedValues({ entity, names, control, labelKey }: { entity: AnyEntity; names: readonly string[]; control: Control<FormValues, unknown, SubmitValues>; labelKey: (field: string) => string }) {
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
      {names.map((name) => (
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
