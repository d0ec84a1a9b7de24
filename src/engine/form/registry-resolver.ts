import type { FieldErrors, Resolver } from 'react-hook-form'
import { messageOfIssue, renderMessage, type Message, type Translate } from '../../../schema/kit'
import { schemaOf, type SchemaMode } from '../../../schema/kit/validators'
import type { AnyEntity } from '../entity-api'
import { filesOf, prepareForValidation, type FormValues, type SubmitValues } from './form-values'

/**
 * react-hook-form resolver running the entity's registry schema — the very rules the
 * server applies — with its messages (i18n keys) rendered in the interface language. An
 * edit validates as the server's update does (a blank password keeps the stored one).
 * A form's extension may add messages (rules across fields, checks as the user types)
 * and leave fields out.
 */
export type ResolverOptions = {
  mode?: SchemaMode
  /** The label key of a field (the form's own labels first). */
  labelKey?: (field: string) => string
  /** Fields the form leaves out: validated as absent (they must be optional then), never sent. */
  hidden?: ReadonlySet<string>
  /** More messages by field, after the registry's. */
  extra?: (values: FormValues) => Readonly<Record<string, Message | undefined>>
}

export function registryResolver(entity: AnyEntity, t: Translate, options: ResolverOptions = {}): Resolver<FormValues, unknown, SubmitValues> {
  const labelKey = options.labelKey ?? entity.fieldLabelKey
  return async (values) => {
    const input = prepareForValidation(values)
    for (const field of options.hidden ?? []) delete input[field]
    const result = await schemaOf(entity, options.mode).safeParseAsync(input)
    const errors: FieldErrors<FormValues> = {}
    if (!result.success) {
      for (const issue of result.error.issues) {
        const field = issue.path[0]
        if (typeof field !== 'string' || errors[field]) continue
        const message = renderMessage(t, messageOfIssue(issue, labelKey(field), entity.labelKey))
        errors[field] = { type: issue.code, message }
      }
    }
    for (const [field, message] of Object.entries(options.extra?.(values) ?? {})) {
      if (message && !errors[field]) errors[field] = { type: 'extension', message: renderMessage(t, message) }
    }
    if (!result.success || Object.keys(errors).length > 0) return { values: {}, errors }
    const output = { ...result.data, ...filesOf(values) }
    for (const field of options.hidden ?? []) delete output[field]
    return { values: output, errors: {} }
  }
}
