import { useId, type ComponentType } from 'react'
import { useController as useFieldController, type Control } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import type { AnyField } from '../../../schema/kit'
import { FieldWidget } from '../widgets/FieldWidget'
import type { WidgetProps } from '../widgets/types'
import type { FormValues, SubmitValues } from './form-values'

/**
 * One labelled input of a form with its message: the registry's widget for the field's
 * kind unless another is given. Used by the generic form and by bespoke forms alike.
 */
export function FieldRow({
  name,
  field,
  labelKey,
  control,
  Widget = FieldWidget,
  knownLabels,
}: {
  name: string
  field: AnyField
  labelKey: string
  control: Control<FormValues, unknown, SubmitValues>
  Widget?: ComponentType<WidgetProps>
  /** Names of the rows a reference points at, as the record came with them. */
  knownLabels?: Readonly<Record<string, string>>
}) {
  const { t } = useTranslation()
  const id = useId()
  const { field: input, fieldState } = useFieldController({ name, control })
  const label = t(labelKey)
  const errorId = `${id}-error`
  const message = fieldState.error?.message
  const isWide = field.widget === 'textarea' || field.widget === 'json' || field.widget === 'refs-select'
  const isCheckbox = field.widget === 'checkbox'
  return (
    // A checkbox has no label above it: it sits level with the inputs beside it.
    <div className={isWide ? 'sm:col-span-2' : isCheckbox ? 'sm:pt-7' : ''}>
      {!isCheckbox && (
        <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-300">
          {label}
          {field.isRequired && (
            <span className="ms-0.5 text-red-600 dark:text-red-400" aria-hidden="true">
              *
            </span>
          )}
          {field.isRequired && <span className="sr-only"> ({t('form.required')})</span>}
        </label>
      )}
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
      />
      {message && (
        <p id={errorId} className="mt-1.5 text-sm text-red-600 dark:text-red-400">
          {message}
        </p>
      )}
    </div>
  )
}
