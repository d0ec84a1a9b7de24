import type { z } from 'zod'

/**
 * Validation messages are i18n keys with parameters, never English text, so the same
 * zod schema gives translated messages in the browser and English ones from the API.
 */
export type Message = { key: string; params?: Record<string, string | number> }

/** Keys every catalogue must define; the registry check verifies them. */
export const validationKeys = [
  'validation.required',
  'validation.invalid',
  'validation.text',
  'validation.max_length',
  'validation.min_length',
  'validation.email',
  'validation.phone',
  'validation.url',
  'validation.integer',
  'validation.min_value',
  'validation.max_value',
  'validation.decimal',
  'validation.boolean',
  'validation.date',
  'validation.datetime',
  'validation.choice',
  'validation.ref',
  'validation.refs',
  'validation.file',
  'validation.json',
  'validation.unique',
  'validation.ref_missing',
  'validation.unknown_field',
  'validation.password_match',
  'validation.lines',
  'validation.lines_min',
  'validation.lines_max',
  'validation.too_many',
  'validation.line_id',
  'validation.stale',
  'validation.id_from',
  'validation.above_value',
  'validation.max_amount',
  'validation.tree_cycle',
  'validation.tree_depth',
  'validation.tree_subtree_depth',
] as const

export type ValidationKey = (typeof validationKeys)[number]

/**
 * The message of one zod issue on one field. `label` and `entity` are i18n keys in
 * the params; `renderMessage` translates them before interpolating.
 */
export function messageOfIssue(issue: z.core.$ZodIssue, labelKey: string, entityKey?: string): Message {
  const key = issue.message.startsWith('validation.') ? issue.message : 'validation.invalid'
  const params: Record<string, string | number> = { label: labelKey }
  if (entityKey) params.entity = entityKey
  if ('maximum' in issue && issue.maximum !== undefined) params.max = Number(issue.maximum)
  if ('minimum' in issue && issue.minimum !== undefined) params.min = Number(issue.minimum)
  if (issue.code === 'custom' && issue.params) {
    for (const [k, v] of Object.entries(issue.params)) if (typeof v === 'string' || typeof v === 'number') params[k] = v
  }
  return { key, params }
}

export type Translate = (key: string, params?: Record<string, string | number>) => string

/**
 * Renders a message in the translator's language; `label`/`other`/`entity` params are keys
 * (`other`: another field's label), and so are `status` and `action` (`option.confirmed`,
 * `action.confirm`: a workflow's words).
 */
export function renderMessage(t: Translate, m: Message): string {
  const params = { ...m.params }
  if (typeof params.label === 'string') params.label = t(params.label)
  if (typeof params.status === 'string') params.status = t(params.status)
  if (typeof params.action === 'string') params.action = t(params.action)
  if (typeof params.other === 'string') params.other = t(params.other)
  if (typeof params.entity === 'string') params.entity = t(`${params.entity}.one`)
  return t(m.key, params)
}

/**
 * The `money` format of messages (`{{difference, money}}`): two places, grouped, in the
 * message's language with Latin digits (as the screens show amounts) — from the decimal
 * string itself, never a float. Added to the server's i18next and the browser's alike.
 */
export function addMessageFormats(formatter: { add: (name: string, format: (value: unknown, lng: string | undefined) => string) => void } | undefined): void {
  const formats = new Map<string, Intl.NumberFormat>()
  formatter?.add('money', (value, lng) => {
    const text = String(value)
    if (!/^-?\d+(\.\d+)?$/.test(text)) return text
    const locale = lng === 'ar' ? 'ar-u-nu-latn' : (lng ?? 'en')
    let format = formats.get(locale)
    if (!format) formats.set(locale, (format = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 })))
    return format.format(text as `${number}`)
  })
}
