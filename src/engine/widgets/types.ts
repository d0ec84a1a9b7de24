import type { AnyField } from '../../../schema/kit'
import type { OptionFilters } from '../entity-api'
import type { FormValue } from '../form/form-values'

/** What every field widget receives: a controlled value plus its accessibility wiring. */
export type WidgetProps<V extends FormValue = FormValue> = {
  id: string
  name: string
  field: AnyField
  label: string
  value: V
  onChange: (value: V) => void
  onBlur: () => void
  isInvalid: boolean
  /** Id of the error message element, when there is one. */
  describedBy?: string
  /** Names of referenced rows the record came with (`_labels`), by id: a select shows them without asking the server. */
  knownLabels?: Readonly<Record<string, string>>
  /** A reference's picker lists only the rows that meet these (`{ city: 5 }`: the chosen district's police stations). */
  filters?: OptionFilters
  /** The form's value of the field this one is made from (`slugFrom`: a slug's title), as it is typed. */
  source?: FormValue
  /** A reference's picker offers "New …" for its target in a dialog, to those who may create it (a form's pickers; a filter's do not). */
  offersNew?: boolean
}

export const inputClass =
  'block w-full rounded-lg border bg-white px-3 py-2 text-sm text-slate-900 shadow-xs outline-none transition placeholder:text-slate-400 focus:border-indigo-500 focus:ring-3 focus:ring-indigo-500/20 disabled:bg-slate-50 disabled:text-slate-500 dark:bg-slate-900 dark:text-slate-100 dark:disabled:bg-slate-800'

export const borderClass = (isInvalid: boolean) =>
  isInvalid ? 'border-red-500 focus:border-red-500 focus:ring-red-500/20 dark:border-red-500' : 'border-slate-300 dark:border-slate-700'
