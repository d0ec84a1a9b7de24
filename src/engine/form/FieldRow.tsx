import { useId, useMemo, type ComponentType } from 'react'
import { useController as useFieldController, useWatch, type Control } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import type { AnyField } from '../../../schema/kit'
import type { OptionFilters } from '../entity-api'
import { FieldWidget } from '../widgets/FieldWidget'
import type { WidgetProps } from '../widgets/types'
import { Icon } from '../ui/icons'
import { inputClass } from '../widgets/types'
import type { FormValues, SubmitValues } from './form-values'

type FormControl = Control<FormValues, unknown, SubmitValues>

const idOf = (value: unknown): number | null => (typeof value === 'number' ? value : null)

/**
 * The filters of a reference that lies within others of the form (`within: { city: 'city' }`):
 * its picker lists the rows within what is chosen now. Nothing chosen, nothing filtered.
 */
function useWithinFilters(field: AnyField, control: FormControl): OptionFilters | undefined {
  const pairs = useMemo(() => Object.entries(field.within ?? {}), [field])
  const values = useWatch({ control, name: pairs.length > 0 ? pairs.map(([, mine]) => mine) : ['__none__'], disabled: pairs.length === 0 }) as unknown[]
  const key = pairs.map(([theirs], i) => `${theirs}=${String(idOf(values[i]))}`).join('&')
  return useMemo(() => {
    const filters: Record<string, number> = {}
    pairs.forEach(([theirs], i) => {
      const value = idOf(values[i])
      if (value !== null) filters[theirs] = value
    })
    return Object.keys(filters).length > 0 ? filters : undefined
    // Keyed by the values, not the array useWatch gives: a new array of the same values changes nothing.
  }, [key])
}

/**
 * One labelled input of a form with its message: the registry's widget for the field's
 * kind unless another is given. Used by the generic form and by bespoke forms alike. An
 * invalid field's row is marked (`data-invalid`) so that a failed save can bring the first
 * one into view (focus.ts).
 */
export function FieldRow({
  name,
  field,
  labelKey,
  control,
  Widget = FieldWidget,
  knownLabels,
  lockedNote,
  offersNew = false,
}: {
  name: string
  field: AnyField
  labelKey: string
  control: FormControl
  Widget?: ComponentType<WidgetProps>
  /** Names of the rows a reference points at, as the record came with them. */
  knownLabels?: Readonly<Record<string, string>>
  /** Shown but not editable, with this note (i18n key) saying why: a built-in role's name. */
  lockedNote?: string
  /** A reference's picker offers "New …" for its target in a dialog (the generic form's: not a list's filter). */
  offersNew?: boolean
}) {
  const { t } = useTranslation()
  const id = useId()
  const { field: input, fieldState } = useFieldController({ name, control })
  const filters = useWithinFilters(field, control)
  // A slug follows its source as it is typed: the form's value, not the source input's events.
  const source = useWatch({ control, name: field.slugFrom ?? name, disabled: field.slugFrom === undefined })
  const label = t(labelKey)
  const errorId = `${id}-error`
  const message = fieldState.error?.message
  const isWide = field.widget === 'textarea' || field.widget === 'json' || field.widget === 'refs-select' || field.widget === 'richtext' || field.widget === 'lines'
  const isCheckbox = field.widget === 'checkbox'
  return (
    // A checkbox has no label above it: it sits level with the inputs beside it.
    <div className={`min-w-0 ${isWide ? 'sm:col-span-2' : isCheckbox ? 'sm:pt-7' : ''}`} data-field={name} data-invalid={message ? '' : undefined}>
      {!isCheckbox && (
        <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-300">
          {label}
          {field.isRequired && !lockedNote && (
            <span className="ms-0.5 text-red-600 dark:text-red-400" aria-hidden="true">
              *
            </span>
          )}
          {field.isRequired && !lockedNote && <span className="sr-only"> ({t('form.required')})</span>}
        </label>
      )}
      {lockedNote && isCheckbox ? (
        <>
          <label htmlFor={id} className="inline-flex items-center gap-3 py-1.5">
            <input id={id} name={name} type="checkbox" checked={input.value === true} disabled aria-describedby={`${id}-note`} className="size-4 rounded border-slate-300 accent-indigo-600 dark:border-slate-600" />
            <span className="text-sm text-slate-500 dark:text-slate-400">{label}</span>
          </label>
          <p id={`${id}-note`} className="mt-1.5 flex items-center gap-1 text-xs text-slate-500 dark:text-slate-400">
            <Icon name="lock" className="size-3.5 shrink-0" />
            {t(lockedNote)}
          </p>
        </>
      ) : lockedNote ? (
        <>
          <input id={id} name={name} readOnly value={lockedText(input.value, knownLabels)} aria-describedby={`${id}-note`} className={`${inputClass} border-slate-200 bg-slate-50 text-slate-600 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-300`} />
          <p id={`${id}-note`} className="mt-1.5 flex items-center gap-1 text-xs text-slate-500 dark:text-slate-400">
            <Icon name="lock" className="size-3.5 shrink-0" />
            {t(lockedNote, { entity: field.ref ? t(`entity.${field.ref.target}.other`) : '' })}
          </p>
        </>
      ) : (
        <Widget
          id={id}
          name={name}
          field={field}
          label={label}
          value={input.value}
          onChange={input.onChange}
          onBlur={input.onBlur}
          isInvalid={Boolean(message)}
          describedBy={message ? errorId : undefined}
          knownLabels={knownLabels}
          filters={filters}
          source={field.slugFrom === undefined ? undefined : source}
          offersNew={offersNew}
        />
      )}
      {message && (
        <p id={errorId} className="mt-1.5 text-sm text-red-600 dark:text-red-400">
          {message}
        </p>
      )}
    </div>
  )
}

/** What a locked field shows: a reference by its name when the record came with it. */
function lockedText(value: unknown, knownLabels: Readonly<Record<string, string>> | undefined): string {
  if (value === null || value === undefined) return ''
  return knownLabels?.[String(value)] ?? String(value)
}
