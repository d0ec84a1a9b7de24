import { useSearch } from '@tanstack/react-router'
import { useMemo } from 'react'
import { useEntities } from '../entities-context'
import type { AnyEntity } from '../entity-api'

/**
 * A new record started from another (a related list's "New Qualification" under an
 * employee): its address fills in references, `?employee_id=3`, and names the record it was
 * started from, `&from=employee`, to return there after the save. Both are judged against
 * the registry, never trusted: only a reference the form lets one pick takes a value, and
 * only an id; the way back is the form of the row one of those references points at, so an
 * address cannot send a save anywhere else.
 */
export type FormPrefill = {
  /** Reference values the new record starts with, by field. */
  readonly initialValues?: Readonly<Record<string, number>>
  /** The form of the record it was started from: Save, Save & close and Cancel go back there. */
  readonly returnTo?: string
}

/** The search parameter naming the entity a new record was started from. */
export const FROM_PARAM = 'from'

const idIn = (value: unknown): number | null => {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : ''
  return /^\d{1,15}$/.test(text) && Number(text) > 0 ? Number(text) : null
}

export function prefillOf(entity: AnyEntity, search: Readonly<Record<string, unknown>>, entities: readonly AnyEntity[]): FormPrefill {
  const values: Record<string, number> = {}
  for (const [name, value] of Object.entries(search)) {
    const field = entity.fields[name]
    if (field?.kind !== 'ref' || !field.ref || field.isReadOnly) continue
    const id = idIn(value)
    if (id !== null) values[name] = id
  }
  if (Object.keys(values).length === 0) return {}
  const from = typeof search[FROM_PARAM] === 'string' ? entities.find((e) => e.name === search[FROM_PARAM] && !e.isLine) : undefined
  // A row of an entity that extends the target (a customer, by its user reference) is the same id.
  const via = from && Object.keys(values).find((name) => [from.name, from.parent?.name].includes(entity.fields[name]!.ref!.target))
  return { initialValues: values, ...(from && via ? { returnTo: `${from.ui.formPath}/${values[via]}` } : {}) }
}

/** The address search of a new `entity` record referring by `via` to `row` of `from` (RelatedLists' "New …"). */
export function relatedNewSearch(via: string, id: number, from: string): Record<string, string | number> {
  return { [via]: id, [FROM_PARAM]: from }
}

/** The prefill of a new record's form from its address; nothing for a stored record. */
export function useFormPrefill(entity: AnyEntity, isNew: boolean): FormPrefill {
  const search = useSearch({ strict: false }) as Readonly<Record<string, unknown>>
  const entities = useEntities()
  const key = isNew ? JSON.stringify(search) : ''
  // Keyed by the address's values: the same search in a new object changes nothing.
  return useMemo(() => (isNew ? prefillOf(entity, search, entities) : {}), [entity, entities, key])
}
