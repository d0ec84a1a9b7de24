import { useQueryClient, type QueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import type { FieldValues, UseFormReturn } from 'react-hook-form'
import type { AnyField } from '../../../schema/kit'
import { useEntities } from '../entities-context'
import { fetchRecord, type AnyEntity, type Row } from '../entity-api'
import { entityKeys } from '../queries'

/**
 * The registry's `within` between a form's references (a police station within its
 * district, a district within its country), kept as the user picks:
 *
 * - choosing a row fills in what it lies within (a police station its district — and then,
 *   the district being chosen, its country);
 * - changing what a chosen row lies within clears that row if it no longer does (another
 *   district clears a police station of the old one; clearing the district clears it too).
 *
 * The pickers themselves list only the rows within the current choice (FieldRow passes the
 * filters). Rows are read with `{id}` through the query cache, so the picker's label of a
 * filled-in value and the cascade share one request.
 */
export type CascadeLink = { field: string; target: string; theirs: string; mine: string }

/** The `within` links among the fields a form shows: `field`'s target row has `theirs`, which must equal the form's `mine`. */
export function cascadeLinks(names: readonly string[], fieldOf: (name: string) => AnyField | undefined): CascadeLink[] {
  const shown = new Set(names)
  return names.flatMap((field) => {
    const spec = fieldOf(field)
    if (spec?.kind !== 'ref' || !spec.within || !spec.ref) return []
    return Object.entries(spec.within)
      .filter(([, mine]) => shown.has(mine))
      .map(([theirs, mine]) => ({ field, target: spec.ref!.target, theirs, mine }))
  })
}

const idOf = (value: unknown): number | null => {
  if (typeof value === 'number') return value
  if (typeof value === 'object' && value !== null && 'id' in value && typeof value.id === 'number') return value.id
  return null
}

function readRow(queryClient: QueryClient, target: AnyEntity, rowId: number): Promise<Row | null> {
  return queryClient
    .fetchQuery({ queryKey: entityKeys.record(target.name, rowId), queryFn: ({ signal }) => fetchRecord(target, rowId, signal), staleTime: 60_000 })
    .catch(() => null)
}

export function useRefCascades<T extends FieldValues>(form: UseFormReturn<T, unknown, FieldValues>, names: readonly string[], fieldOf: (name: string) => AnyField | undefined): void {
  const entities = useEntities()
  const queryClient = useQueryClient()
  const key = names.join(',')
  useEffect(() => {
    const links = cascadeLinks(names, fieldOf)
    if (links.length === 0) return
    const targetOf = (name: string) => entities.find((e) => e.name === name)
    const get = (name: string): unknown => form.getValues(name as never)
    // Our own writes are followed explicitly below, not through the subscription.
    let isWriting = false
    const write = (name: string, value: number | null) => {
      isWriting = true
      try {
        form.setValue(name as never, value as never, { shouldDirty: true, shouldValidate: true })
      } finally {
        isWriting = false
      }
      void follow(name)
    }

    /** After `name` changed: fill in what its row lies within, and clear the rows no longer within it. */
    async function follow(name: string): Promise<void> {
      const value = idOf(get(name))
      const fills = links.filter((l) => l.field === name)
      const target = fills[0] && targetOf(fills[0].target)
      if (value !== null && target) {
        const row = await readRow(queryClient, target, value)
        // The choice may have moved on while the row was read.
        if (row && idOf(get(name)) === value) {
          for (const link of fills) {
            const wanted = idOf(row[link.theirs])
            if (wanted !== null && idOf(get(link.mine)) !== wanted) write(link.mine, wanted)
          }
        }
      }
      for (const link of links.filter((l) => l.mine === name)) {
        const chosen = idOf(get(link.field))
        if (chosen === null) continue
        if (value === null) {
          write(link.field, null)
          continue
        }
        const dependentTarget = targetOf(link.target)
        const row = dependentTarget ? await readRow(queryClient, dependentTarget, chosen) : null
        if (!row || idOf(get(link.field)) !== chosen || idOf(get(name)) !== value) continue
        if (idOf(row[link.theirs]) !== value) write(link.field, null)
      }
    }

    const watched = new Set(links.flatMap((l) => [l.field, l.mine]))
    const subscription = form.watch((_values, { name, type }) => {
      // A reset (the record loaded again) names no field: nothing was chosen.
      if (isWriting || !name || type !== 'change' || !watched.has(name)) return
      void follow(name)
    })
    return () => subscription.unsubscribe()
    // `names` is read through its key: the same fields in a new array change nothing.
  }, [form, key, fieldOf, entities, queryClient])
}
