import type { FieldError, FieldErrors, Resolver } from 'react-hook-form'
import { messageOfIssue, renderMessage, type AnyField, type Message, type RuleContext, type Translate } from '../../../schema/kit'
import { issueKey, issueLabelKey, validateRecordInput, type SchemaMode } from '../../../schema/kit/validators'
import type { AnyEntity } from '../entity-api'
import { filesOf, prepareForValidation, type FormValues, type SubmitValues } from './form-values'

/**
 * react-hook-form resolver running the entity's registry validation — the very rules the
 * server applies: each field, then the rules across fields and a document's lines — with
 * its messages (i18n keys) rendered in the interface language. An edit validates as the
 * server's update does (a blank password keeps the stored one). A form's extension may add
 * messages (rules across fields, checks as the user types) and leave fields out.
 */
export type ResolverOptions = {
  mode?: SchemaMode
  /** The label key of a field (the form's own labels first). */
  labelKey?: (field: string) => string
  /** Fields the form leaves out: not checked (the server judges what it keeps or is sent instead), never sent. */
  hidden?: ReadonlySet<string>
  /** Inputs of the form that are not fields of the entity (an extension's), checked by their own field's rules. */
  extraFields?: Readonly<Record<string, AnyField>>
  /** More messages by field, after the registry's. */
  extra?: (values: FormValues) => Readonly<Record<string, Message | undefined>>
  /** Facts about referenced rows the rules read, as far as the browser knows them (rule-facts.ts). */
  fact?: RuleContext['fact']
}

type ErrorTree = Record<string | number, unknown>

/**
 * Puts an error where react-hook-form looks for it: `items.3.quantity` in the line's entry,
 * a message about the lines together at `items.root` (useFieldArray's place for it).
 */
export function placeError(errors: ErrorTree, key: string, error: FieldError, linesFields: ReadonlySet<string>): void {
  const path = key.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p))
  if (path.length === 1 && linesFields.has(key)) {
    const list = (errors[key] ??= []) as ErrorTree
    list.root ??= error
    return
  }
  let node = errors
  path.forEach((part, i) => {
    if (i === path.length - 1) {
      node[part] ??= error
      return
    }
    node = (node[part] ??= typeof path[i + 1] === 'number' ? [] : {}) as ErrorTree
  })
}

export function registryResolver(entity: AnyEntity, t: Translate, options: ResolverOptions = {}): Resolver<FormValues, unknown, SubmitValues> {
  const labelKey = options.labelKey ?? entity.fieldLabelKey
  const linesFields = new Set(entity.linesFieldNames)
  const hidden = options.hidden ?? new Set<string>()
  // What the form checks: the entity without the fields it leaves out (a required one too: a
  // subscription's one member, where the form sends several members instead).
  const extras = options.extraFields ?? {}
  const shape =
    hidden.size > 0 || Object.keys(extras).length > 0
      ? { ...entity, fields: { ...entity.fields, ...extras }, fieldNames: [...entity.fieldNames.filter((name) => !hidden.has(name)), ...Object.keys(extras)] }
      : entity
  return async (values) => {
    const input = prepareForValidation(values)
    for (const field of hidden) delete input[field]
    const result = validateRecordInput(shape, input, options.mode, options.fact)
    const errors: ErrorTree = {}
    if (!result.success) {
      for (const issue of result.issues) {
        const key = issueKey(shape, issue.path)
        const message = renderMessage(t, messageOfIssue(issue, issueLabelKey(shape, issue.path, labelKey), entity.labelKey))
        placeError(errors, key, { type: issue.code, message }, linesFields)
      }
    }
    for (const [field, message] of Object.entries(options.extra?.(values) ?? {})) {
      if (message) placeError(errors, field, { type: 'extension', message: renderMessage(t, message) }, linesFields)
    }
    if (!result.success || Object.keys(errors).length > 0) return { values: {}, errors: errors as FieldErrors<FormValues> }
    const output = { ...result.data, ...filesOf(values) }
    for (const field of hidden) delete output[field]
    return { values: output, errors: {} }
  }
}
