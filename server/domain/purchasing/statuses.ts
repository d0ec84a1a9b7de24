import { sql } from 'kysely'
import type { Trx } from '../../db/types'
import type { EntityHooks } from '../../engine/hooks'

/**
 * The contract's `purchase_status` (the lookup's row) follows a document's workflow status:
 * a request's status is named as the lookup names it; a final purchase's draft is `pending`,
 * its confirmation `verified`, its cancellation `cancelled`. Set as the record is written and
 * after every transition, in the same transaction.
 */
const lookupName = (entity: string, status: string): string =>
  entity === 'purchase_final' ? ({ draft: 'pending', confirmed: 'verified' } as Record<string, string>)[status] ?? status : status

async function mirror(trx: Trx, entity: string, id: number, status: string): Promise<void> {
  await sql`update ${sql.id(entity)} set purchase_status = (select id from purchase_status where name = ${lookupName(entity, status)}) where id = ${id}`.execute(trx)
}

export const statusMirror = (entity: 'purchase_request' | 'purchase_final'): EntityHooks => ({
  async beforeWrite({ trx, action, values }) {
    if (action !== 'create' || !values) return
    const found = await sql<{ id: number }>`select id from purchase_status where name = ${lookupName(entity, String(values.status ?? 'pending'))}`.execute(trx)
    values.purchase_status = found.rows[0]?.id ?? null
  },
  async afterTransition({ trx, rowId, after }) {
    await mirror(trx, entity, rowId, String(after.status))
  },
})
