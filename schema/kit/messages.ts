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
] as const

export type ValidationKey = (typeof validationKeys)[number]

export function messageOfIssue(issue: z.core.$ZodIssue): Message {
  const key = issue.message.startsWith('validation.') ? issue.message : 'validation.invalid'
  const params: Record<string, string | number> = {}
  if ('maximum' in issue && issue.maximum !== undefined) params.max = Number(issue.maximum)
  if ('minimum' in issue && issue.minimum !== undefined) params.min = Number(issue.minimum)
  return { key, params }
}
