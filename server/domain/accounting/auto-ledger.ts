import type { Entity, Fields } from '../../../schema/kit'
import type { EntityHooks, HookRegistry } from '../../engine/hooks'
import { ensureLedger } from './ledgers'

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
          const name = after[spec.name]
          await ensureLedger({ trx, registry, actor, hooks: engineHooks() }, { type: spec.type, referenceId: rowId, group: spec.group, name: typeof name === 'string' && name.trim() !== '' ? name : `${entity.name} ${rowId}` })
        },
      }
      return [[entity.name, hooks] as const]
    }),
  )
}
