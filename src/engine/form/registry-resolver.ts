import type { FieldErrors, Resolver } from 'react-hook-form'
import { messageOfIssue, renderMessage, type Translate } from '../../../schema/kit'
import { schemaOf } from '../../../schema/kit/validators'
import type { AnyEntity } from '../entity-api'
import { filesOf, prepareForValidation, type FormValues, type SubmitValues } from './form-values'

/**
 * react-hook-form resolver running the entity's registry schema — the very rules the
 * server applies — with its messages (i18n keys) rendered in the interface language.
 */
export function registryResolver(entity: AnyEntity, t: Translate): Resolver<FormValues, unknown, SubmitValues> {
  return async (values) => {
    const result = await schemaOf(entity).safeParseAsync(prepareForValidation(values))
    if (result.success) return { values: { ...result.data, ...filesOf(values) }, errors: {} }
    const errors: FieldErrors<FormValues> = {}
    for (const issue of result.error.issues) {
      const field = issue.path[0]
      if (typeof field !== 'string' || errors[field]) continue
      const message = renderMessage(t, messageOfIssue(issue, entity.fieldLabelKey(field), entity.labelKey))
      errors[field] = { type: issue.code, message }
    }
    return { values: {}, errors }
  }
}
