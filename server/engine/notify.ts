import { sql } from 'kysely'
import type { Json } from '../../schema/kit'
import { joinTableName } from '../db/registry-schema'
import type { Executor, Trx } from '../db/types'
import type { HookRegistry } from './hooks'
import type { Registry } from './list-query'
import { createRow } from './operations/create'

/**
 * Notifications (issue 23, the Inbox): a module says who should know what about which record,
 * and `notify` writes one `notification` per recipient through the engine — as the system,
 * audited, in the transaction of the write that causes it, so that a notification exists
 * exactly when its cause commits (a refused confirmation notifies nobody). The rule of who is
 * told stays in the module (a purchase request → those who list them); how is here.
 */
export type Notice = {
  /** Users by id, or every active user whose role holds the permission and every admin (at most MAX_RECIPIENTS). */
  to: readonly number[] | { permission: string }
  /** One of the notification's kinds (the registry judges it): what the Inbox filters by. */
  kind: string
  /** An i18n key of the shell's catalogue (`notification.order_confirmed`) and its parameters: the browser says it in the reader's language. */
  message: { key: string; params?: Readonly<Record<string, Json>> }
  /** The registry name of the record it is about (its form opens from the Inbox), and its id. */
  entity: string
  recordId: number
  /** The user who caused it (the actor of the write): not told of their own doing. */
  except?: number | null
}

/** The most people one event notifies by permission: enough for any office, bounded for the write that pays for them. */
export const MAX_RECIPIENTS = 200

const rolePermissions = joinTableName('role', 'permissions')

/** Active users among `ids`, or those who hold `permission` (admins hold them all), in id order. */
async function recipientsOf(db: Executor, to: Notice['to']): Promise<number[]> {
  if (Array.isArray(to)) {
    const ids = [...new Set(to)].filter((id) => Number.isSafeInteger(id) && id > 0)
    if (ids.length === 0) return []
    const found = await sql<{ id: number }>`select id from "user" where id = any(${ids}::bigint[]) and is_active order by id`.execute(db)
    return found.rows.map((r) => Number(r.id))
  }
  const { permission } = to as { permission: string }
  const found = await sql<{ id: number }>`
    select u.id from "user" u
    where u.is_active and (u.is_admin or exists (
      select 1 from ${sql.id(rolePermissions)} rp join permission p on p.id = rp.target_id
      where rp.owner_id = u.role and p.name = ${permission}))
    order by u.id limit ${MAX_RECIPIENTS}`.execute(db)
  return found.rows.map((r) => Number(r.id))
}

/**
 * Writes the notice for each recipient (but `except`) inside `trx`; answers the notifications'
 * ids. A registry without notifications (a test's) is told nothing.
 */
export async function notify(trx: Trx, registry: Registry, hooks: HookRegistry | undefined, notice: Notice): Promise<number[]> {
  const entity = registry.find((e) => e.name === 'notification')
  if (!entity) return []
  if (!registry.some((e) => e.name === notice.entity)) throw new Error(`notify: '${notice.entity}' is not an entity of the registry`)
  const recipients = (await recipientsOf(trx, notice.to)).filter((id) => id !== notice.except)
  const ctx = { db: trx, registry, entity, actor: null, access: 'system' as const, hooks }
  const ids: number[] = []
  for (const user of recipients) {
    const row = await createRow(ctx, {
      user,
      kind: notice.kind,
      message: notice.message.key,
      params: (notice.message.params ?? {}) as Json,
      entity: notice.entity,
      record_id: notice.recordId,
    })
    ids.push(Number(row.id))
  }
  return ids
}
