import type { Registry } from './list-query'

/**
 * `LIST_REFS_AS_IDS`: references listed as their raw ids (names in the row's `_labels`), as
 * `listAs: 'id'` in the registry would, for a client that renders a list cell as it comes —
 * the original admin client at the commit measured crashes (React #31) on the nested
 * `{id, name}` the contract and our default give. Named `entity.field`; lists, searches and
 * unpaged lists alike, through the engine's list columns.
 */
export function refsAsIdsRefusal(registry: Registry, pair: string): string | null {
  const [entityName, fieldName, ...rest] = pair.split('.')
  const entity = registry.find((e) => e.name === entityName && !e.isLine)
  if (!entity || !fieldName || rest.length > 0) return `'${pair}' is not entity.field (an entity: ${registry.filter((e) => !e.isLine).map((e) => e.name).join(', ')})`
  const field = entity.fields[fieldName]
  if (!field) return `'${pair}': '${entityName}' has no field '${fieldName}' (its fields: ${entity.fieldNames.join(', ')})`
  if (field.kind !== 'ref' && field.kind !== 'refs') return `'${pair}' is not a reference`
  return null
}

/** The registry with the named references listed as raw ids; refuses what `refsAsIdsRefusal` refuses. */
export function withRefsAsIds(registry: Registry, pairs: readonly string[]): Registry {
  if (pairs.length === 0) return registry
  const refusals = pairs.map((p) => refsAsIdsRefusal(registry, p)).filter((r): r is string => r !== null)
  if (refusals.length > 0) throw new Error(`LIST_REFS_AS_IDS: ${refusals.join('; ')}`)
  return registry.map((e) => {
    const named = pairs.filter((p) => p.startsWith(`${e.name}.`)).map((p) => p.slice(e.name.length + 1))
    if (named.length === 0 || e.isLine) return e
    return { ...e, fields: { ...e.fields, ...Object.fromEntries(named.map((n) => [n, { ...e.fields[n]!, listAs: 'id' as const }])) } }
  })
}
