import { sql } from 'kysely'
import type { Entity, Fields, Message } from '../../../schema/kit'
import { verifyPassword } from '../../auth/passwords'
import { forgetPrincipal } from '../../auth/principal'
import type { Executor, Row } from '../../db/types'
import { BusinessError, ForbiddenError, ValidationError } from '../../engine/errors'
import type { Actor, EntityHooks } from '../../engine/hooks'
import type { Values } from '../../engine/validate'
import { permissionNamesOf, permissionsOfRole, SET_CREDENTIALS } from './access'

/**
 * The identity rules, as engine hooks (they run inside the write's transaction):
 *
 * - nobody hands out more than they hold: a caller who is not an admin cannot make, change
 *   or remove an admin account, cannot manage a user whose role (before or after) carries a
 *   permission the caller lacks, and cannot give a role such a permission;
 * - phone numbers are unique across both phone columns of all users (api-contract §3.2);
 * - a password or sign-in e-mail is another user's to keep: changing someone else's needs
 *   USER_SET_CREDENTIALS (with it one could sign in as them); changing one's own password
 *   asks for the current one, so that a stolen token cannot lock the owner out;
 * - role names are unique with the contract's message; built-in roles keep their names;
 * - the principal cache forgets a user, role or permission that changed.
 */
const idOf = (v: unknown): number | null => (typeof v === 'number' ? v : null)

/** Refuses with `sentence` (a `detail.*` message) naming the permissions the caller lacks. */
function refuseMissing(actor: Actor, needed: readonly string[], sentence: 'detail.manage_user_permissions' | 'detail.change_role_permissions' | 'detail.give_role_permissions'): void {
  const missing = needed.filter((p) => !actor.permissions.has(p))
  if (missing.length > 0) throw new ForbiddenError({ key: sentence, params: { permissions: missing.join(', ') } })
}

/**
 * Names every phone field whose number another user holds, or that repeats the record's other
 * phone, at once. The database holds the rule too (`user_phone`, migration 3): this check
 * cannot see a concurrent write that has not committed, the table's key can, and the engine
 * answers its refusal with the same field error.
 */
async function checkPhones(db: Executor, entity: Entity<string, Fields>, selfId: number | null, values: Values): Promise<void> {
  const errors: Record<string, Message[]> = {}
  const taken = (field: string) => (errors[field] = [{ key: 'validation.unique', params: { label: entity.fieldLabelKey(field), entity: entity.labelKey } }])
  for (const field of ['primary_phone', 'secondary_phone'] as const) {
    const phone = values[field]
    if (typeof phone !== 'string') continue
    if (field === 'secondary_phone' && phone === values.primary_phone) {
      taken(field)
      continue
    }
    const holder = await sql<{ id: number }>`select user_id as id from user_phone where phone = ${phone} and user_id <> ${selfId ?? 0} limit 1`.execute(db)
    if (holder.rows.length > 0) taken(field)
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors)
}

/**
 * A change of credentials on an update by someone signed in: another user's password or
 * e-mail needs the permission (a 403 saying which; their other fields may still change), one's
 * own password the current one (a 400 on `current_password`). A new password reaches `values`
 * hashed; one left out or blank is null there.
 */
async function checkCredentials(trx: Executor, actor: Actor, before: Row, values: Values, input: Values): Promise<void> {
  const isPasswordChanged = typeof values.password === 'string'
  const isEmailChanged = typeof values.email === 'string' && values.email.toLowerCase() !== String(before.email ?? '').toLowerCase()
  if (Number(before.id) !== actor.id) {
    if ((isPasswordChanged || isEmailChanged) && !actor.isAdmin && !actor.permissions.has(SET_CREDENTIALS)) {
      throw new ForbiddenError({ key: 'detail.set_credentials', params: { permissions: SET_CREDENTIALS } })
    }
    return
  }
  if (!isPasswordChanged) return
  const current = input.current_password
  const label = { label: 'field.current_password' }
  if (typeof current !== 'string' || current === '') throw new ValidationError({ current_password: [{ key: 'validation.required', params: label }] })
  const stored = await sql<{ password: string }>`select password from "user" where id = ${actor.id}`.execute(trx)
  if (!(await verifyPassword(stored.rows[0]?.password, current))) throw new ValidationError({ current_password: [{ key: 'validation.current_password', params: label }] })
}

export const userRules: EntityHooks = {
  async beforeWrite({ trx, entity, actor, action, before, values, input }) {
    if (actor && action === 'update' && before && values) await checkCredentials(trx, actor, before, values, input)
    if (actor && !actor.isAdmin) {
      if (before?.is_admin === true || values?.is_admin === true) throw new ForbiddenError({ key: 'detail.only_admin' })
      const roles = [...new Set([idOf(before?.role), idOf(values?.role)])].filter((r): r is number => r !== null)
      for (const roleId of roles) refuseMissing(actor, await permissionsOfRole(trx, roleId), 'detail.manage_user_permissions')
    }
    if (values) await checkPhones(trx, entity, idOf(before?.id), values)
  },
  async afterWrite({ trx, rowId }) {
    await forgetPrincipal(trx, rowId)
  },
}

export const roleRules: EntityHooks = {
  async beforeWrite({ trx, actor, action, before, values }) {
    if (values) {
      const duplicate = await sql<{ id: number }>`select id from role where name = ${values.name as string} and id <> ${idOf(before?.id) ?? 0}`.execute(trx)
      if (duplicate.rows.length > 0) throw new BusinessError({ key: 'detail.role_exists', params: { role: String(values.name) } })
    }
    if (actor && !actor.isAdmin) {
      if (before) refuseMissing(actor, await permissionsOfRole(trx, before.id as number), 'detail.change_role_permissions')
      if (values) refuseMissing(actor, await permissionNamesOf(trx, (values.permissions as number[] | null) ?? []), 'detail.give_role_permissions')
    }
  },
  async afterWrite({ trx }) {
    await forgetPrincipal(trx)
  },
}

export const permissionRules: EntityHooks = {
  async afterWrite({ trx }) {
    await forgetPrincipal(trx)
  },
}
