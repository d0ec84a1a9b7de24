import { sql } from 'kysely'
import { storageOf, type Entity, type Fields } from '../../../schema/kit'
import type { EntityHooks, HookRegistry } from '../../engine/hooks'
import { ensureLedger, type LedgerDeps } from './ledgers'

/** A record's ledger name: its `ledger.name` field, else the entity and its id. */
const ledgerName = (entity: Entity<string, Fields>, value: unknown, rowId: number) => (typeof value === 'string' && value.trim() !== '' ? value : `${entity.name} ${rowId}`)

/**
 * The ledger a record of `entity` has by its registry `ledger` (a vendor's, a member's), got —
 * or made now, for a record from before its entity had one — as the record's create makes it.
 */
export async function ledgerOfRecord(deps: LedgerDeps, entity: Entity<string, Fields>, rowId: number): Promise<number> {
  const spec = entity.ledger
  if (!spec) throw new Error(`${entity.name} has no ledger of its own (\`ledger\` of the registry)`)
  const found = await sql<{ name: unknown }>`select ${sql.ref(spec.name)} as name from ${sql.id(storageOf(entity, spec.name).name)} where id = ${rowId}`.execute(deps.trx)
  return ensureLedger(deps, { type: spec.type, referenceId: rowId, group: spec.group, name: ledgerName(entity, found.rows[0]?.name, rowId) })
}

/**
 * Automatic ledgers (api-contract §4.1, §5.1): every registry entity that declares `ledger`
 * gets, for each record created, its ledger account in the same transaction — under the
 * declared group, of the declared type, `reference_id` the record's id. A missing group
 * refuses the create (nothing is written) with the contract's message.
 */
export function autoLedgerHooks(entities: readonly Entity<string, Fields>[], engineHooks: () => HookRegistry | undefined): Record<string, EntityHooks> {
  return Object.fromEntries(
    entities.flatMap((entity) => {
      const spec = entity.ledger
      if (!spec) return []
      const hooks: EntityHooks = {
        async afterWrite({ trx, registry, actor, action, rowId, after }) {
          if (action !== 'create' || !after || !registry.some((e) => e.name === 'ledger_account')) return
          await ensureLedger({ trx, registry, actor, hooks: engineHooks() }, { type: spec.type, referenceId: rowId, group: spec.group, name: ledgerName(entity, after[spec.name], rowId) })
        },
      }
      return [[entity.name, hooks] as const]
    }),
  )
}
