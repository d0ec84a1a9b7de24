import { useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import { useWatch } from 'react-hook-form'
import type { Message } from '../../../schema/kit'
import { apiRequest } from '../../engine/api'
import { useEntity } from '../../engine/entities-context'
import type { AppForm, FormContext } from '../../engine/form/extension'
import { useDebouncedValue } from '../../engine/useDebouncedValue'

/**
 * The user resource's uniqueness checks (api-contract §3.2), asked as the user types:
 * `check_<field>_when_create/?<field>=…`, or `…_when_update/?<field>=…&user=<id>` on an
 * edit (the user's own value is not a clash). The answer `{<field>_exists}` becomes the
 * contract's message ('Username already exists', …). Employees are users: the same routes.
 */
export const CHECKED_FIELDS = ['username', 'email', 'primary_phone', 'secondary_phone'] as const
export type CheckedField = (typeof CHECKED_FIELDS)[number]

export const CHECK_DELAY_MS = 400

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

export const existsKey = (field: CheckedField) => `identity.${field}_exists`

function useCheck(form: AppForm, field: CheckedField, context: FormContext, base: string | undefined): string | undefined {
  const value = useWatch({ control: form.control, name: field })
  const text = typeof value === 'string' ? value.trim() : ''
  const settled = useDebouncedValue(text, CHECK_DELAY_MS)
  const stored = context.row ? String(context.row[field] ?? '') : ''
  // Asked once the typing stops; a value the record already has is its own.
  const shouldAsk = base !== undefined && settled !== '' && settled === text && settled !== stored
  const when = context.isNew ? 'create' : 'update'
  const userId = context.row?.id
  const { data } = useQuery({
    queryKey: ['user-check', field, when, settled, userId ?? null],
    queryFn: ({ signal }) =>
      apiRequest(`${base}/check_${field}_when_${when}/`, { searchParams: { [field]: settled, ...(userId !== undefined ? { user: userId } : {}) }, signal }),
    enabled: shouldAsk,
    staleTime: 15_000,
    retry: false,
  })
  return shouldAsk && isRecord(data) && data[`${field}_exists`] === true ? existsKey(field) : undefined
}

export function useUniquenessChecks(form: AppForm, context: FormContext): Readonly<Record<string, Message | undefined>> {
  const base = useEntity('user')?.api.base
  const username = useCheck(form, 'username', context, base)
  const email = useCheck(form, 'email', context, base)
  const primaryPhone = useCheck(form, 'primary_phone', context, base)
  const secondaryPhone = useCheck(form, 'secondary_phone', context, base)
  return useMemo(() => {
    const message = (key: string | undefined) => (key ? { key } : undefined)
    return { username: message(username), email: message(email), primary_phone: message(primaryPhone), secondary_phone: message(secondaryPhone) }
  }, [username, email, primaryPhone, secondaryPhone])
}
