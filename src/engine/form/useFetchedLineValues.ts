import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import type { UseFormSetValue } from 'react-hook-form'
import { useEntities } from '../entities-context'
import { fetchRecord, type AnyEntity } from '../entity-api'
import { entityKeys } from '../queries'
import type { FormValues, LineValues } from './form-values'

/**
 * The lines' values fetched from the row a reference of the line points at (Field.fetchFrom:
 * an order line's price from its product), filled in as the reference is picked or changed —
 * never over what a stored line already holds when the form opens.
 */
export function useFetchedLineValues(name: string, line: AnyEntity, lines: readonly LineValues[], keys: readonly string[], setValue: UseFormSetValue<FormValues> | undefined): void {
  const entities = useEntities()
  const queryClient = useQueryClient()
  // The reference each line's fetched field was last filled from (or found with), by the line's key.
  const seen = useRef(new Map<string, unknown>())
  const fetched = line.fieldNames.filter((n) => line.fields[n]!.fetchFrom !== undefined)
  const linesKey = JSON.stringify(lines.map((l) => fetched.map((n) => l[line.fields[n]!.fetchFrom!.ref] ?? null)))
  useEffect(() => {
    if (!setValue || fetched.length === 0) return
    lines.forEach((values, i) => {
      for (const fieldName of fetched) {
        const { ref, field } = line.fields[fieldName]!.fetchFrom!
        const key = `${keys[i] ?? i}:${fieldName}`
        const id = values[ref] ?? null
        const first = !seen.current.has(key)
        const was = seen.current.get(key)
        seen.current.set(key, id)
        // A line as it opened keeps its value; one whose reference is picked now takes the row's.
        if ((first && (values[fieldName] ?? '') !== '') || (!first && was === id) || typeof id !== 'number') continue
        const target = entities.find((e) => e.name === line.fields[ref]!.ref?.target)
        if (!target) continue
        void queryClient
          .fetchQuery({ queryKey: entityKeys.record(target.name, id), queryFn: ({ signal }) => fetchRecord(target, id, signal), staleTime: 60_000 })
          .then((row) => {
            const value = row[field]
            if (value !== null && value !== undefined) setValue(`${name}.${i}.${fieldName}` as never, String(value) as never, { shouldDirty: true })
          })
          .catch(() => undefined)
      }
    })
    // The references picked are what it follows (`linesKey`); the rest is read as it stands then.
  }, [linesKey])
}
