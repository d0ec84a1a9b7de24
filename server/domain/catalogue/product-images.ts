import { sql } from 'kysely'
import { isIdText } from '../../../schema/kit/validators'
import type { EntityHooks } from '../../engine/hooks'

/**
 * A picture added to a product's gallery without a place goes last: its position is one past
 * the gallery's highest. The product's row is locked meanwhile, so two pictures added at once
 * take distinct places.
 */
export const productImageHooks: EntityHooks = {
  async beforeValidate({ trx, action, input }) {
    if (action !== 'create') return
    if (input.position !== undefined && input.position !== null && input.position !== '') return
    const productId = String(input.product ?? '')
    // A product that is not an id is the validation's to refuse.
    if (!isIdText(productId)) return
    await sql`select id from product where id = ${Number(productId)} for update`.execute(trx)
    const next = await sql<{ position: number }>`select coalesce(max(position) + 1, 0)::int as position from productimage where product = ${Number(productId)}`.execute(trx)
    input.position = Number(next.rows[0]?.position ?? 0)
  },
}
