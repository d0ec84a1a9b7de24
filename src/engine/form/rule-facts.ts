import type { QueryClient } from '@tanstack/react-query'
import type { RuleContext } from '../../../schema/kit'
import type { Row } from '../entity-api'
import { entityKeys } from '../queries'

/**
 * The facts the registry's rules read about referenced rows (a ledger's `is_cash_bank`), as
 * far as the browser knows them: from the rows it has read — a record, a list page, a
 * picker's options. What it has not read is unknown, and a rule then leaves the judgement to
 * the server, which knows every fact.
 */
const rowsIn = (data: unknown): Row[] => {
  if (Array.isArray(data)) return data as Row[]
  const rows = typeof data === 'object' && data !== null ? (data as { rows?: unknown }).rows : undefined
  return Array.isArray(rows) ? (rows as Row[]) : []
}

export function cachedFacts(queryClient: QueryClient): NonNullable<RuleContext['fact']> {
  return (target, id, name) => {
    const key = Number(id)
    if (!Number.isSafeInteger(key)) return undefined
    const record = queryClient.getQueryData<Row>(entityKeys.record(target, key))
    if (record && name in record) return record[name]
    for (const [, data] of queryClient.getQueriesData({ queryKey: entityKeys.all(target) })) {
      const row = rowsIn(data).find((r) => r?.id === key)
      if (row && name in row) return row[name]
    }
    return undefined
  }
}
