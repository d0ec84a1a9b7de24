import { sql } from 'kysely'
import type { Entity, Fields } from '../../../schema/kit'
import { BusinessError } from '../../engine/errors'
import type { EntityHooks, HookRegistry } from '../../engine/hooks'
import { createRow } from '../../engine/service'

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
          const ledger = registry.find((e) => e.name === 'ledger_account')
          if (action !== 'create' || !ledger || !after) return
          const found = await sql<{ id: number }>`select id from "group" where name = ${spec.group} order by id limit 1`.execute(trx)
          const group = found.rows[0]
          if (!group) throw new BusinessError({ key: 'detail.ledger_group_missing', params: { group: spec.group } })
          const name = after[spec.name]
          await createRow(
            { db: trx, registry, entity: ledger, actor, access: 'system', hooks: engineHooks() },
            { name: typeof name === 'string' && name.trim() !== '' ? name : `${entity.name} ${rowId}`, ledger_type: spec.type, reference_id: String(rowId), head_group: Number(group.id) },
          )
        },
      }
      return [[entity.name, hooks] as const]
    }),
  )
}
