import { sql } from 'kysely'
import { BUILT_IN_ROLES } from '../../../schema/entities/identity/role'
import { actions, type Entity, type Fields, type Report } from '../../../schema/kit'
import { joinTableName } from '../../db/registry-schema'
import type { Executor, Trx } from '../../db/types'
import type { Registry } from '../../engine/list-query'

/**
 * Permissions and the built-in roles (decisions.md, "Identity and access"; spec §6):
 *
 * - a permission `ENTITY_ACTION` exists for every registry entity and action, created at
 *   every start (admins may add others);
 * - ADMIN holds every permission, kept complete at every start;
 * - STAFF holds every permission except those of the entities that decide access (users,
 *   roles, permissions, menu items, role menus): staff run the business, admins run access.
 *   A permission created later (a new entity) is granted to STAFF on its first start, unless it
 *   concerns access; afterwards STAFF is an ordinary role and an admin's edits stay;
 * - USER holds none: a registered account reaches no back-office data.
 * `is_admin` users pass every check whatever their role.
 */
export { BUILT_IN_ROLES }
export type BuiltInRole = (typeof BUILT_IN_ROLES)[number]

/**
 * The entities whose permissions decide who may do what; STAFF does not get them. The outbox
 * is one: its messages carry sign-in and password-reset links.
 */
export const ACCESS_ENTITIES: readonly string[] = ['user', 'role', 'permission', 'menu_item', 'role_menu', 'outbox_message']

export const rolePermissionsTable = joinTableName('role', 'permissions')

/**
 * Changing another user's password or sign-in e-mail (the user rules check it, rules.ts):
 * whoever may do it can sign in as that user, so it is an access permission — ADMIN's, not
 * STAFF's, whatever employee or user update rights a role has.
 */
export const SET_CREDENTIALS = 'USER_SET_CREDENTIALS'

/** Permissions the identity rules check beyond the routes' and actions', by the entity they concern. */
const RULE_PERMISSIONS: Readonly<Record<string, readonly string[]>> = { user: [SET_CREDENTIALS] }

/** An entity's permissions: the five of its generic routes, one per custom action, its Trash's purge and its rules' own (a line entity has none). */
export const permissionsOf = (e: Entity<string, Fields>): string[] =>
  e.isLine
    ? []
    : [...actions.map((a) => e.permissions[a]), ...Object.values(e.actions).map((a) => a.permission), ...(e.trash ? [e.trash.purgePermission] : []), ...(RULE_PERMISSIONS[e.name] ?? [])]

/** Every permission the registry declares: the entities' and the reports' (`<PREFIX>_VIEW`). */
export function permissionNames(registry: Registry, reports: readonly Report[] = []): string[] {
  return [...registry.flatMap(permissionsOf), ...reports.map((r) => r.permission)]
}

/** The permissions STAFF is given: all but those of the access entities. */
export function isStaffPermission(registry: Registry, name: string): boolean {
  const access = new Set(registry.filter((e) => ACCESS_ENTITIES.includes(e.name)).flatMap(permissionsOf))
  return !access.has(name)
}

export type RoleIds = Readonly<Record<BuiltInRole, number>>

/**
 * Creates the registry's permissions and the built-in roles, and keeps ADMIN complete.
 * Returns the built-in roles' ids and whether they were created now (the first start).
 */
export async function syncAccess(trx: Trx, registry: Registry, reports: readonly Report[] = []): Promise<{ roles: RoleIds; isFirstStart: boolean }> {
  const names = permissionNames(registry, reports)
  const created = await sql<{ id: number; name: string }>`
    insert into permission (name, is_deletable) select unnest(${names}::text[]), false
    on conflict (name) do nothing returning id, name`.execute(trx)
  // What the registry declares comes back at every start: not deletable; what it no longer declares is an ordinary permission.
  await sql`update permission set is_deletable = not (name = any(${names}::text[])) where is_deletable = (name = any(${names}::text[]))`.execute(trx)
  const newRoles = await sql<{ name: string }>`
    insert into role (name) select unnest(${[...BUILT_IN_ROLES]}::text[])
    on conflict (name) do nothing returning name`.execute(trx)
  const rows = await sql<{ id: number; name: BuiltInRole }>`select id, name from role where name = any(${[...BUILT_IN_ROLES]})`.execute(trx)
  const roles = Object.fromEntries(rows.rows.map((r) => [r.name, r.id])) as RoleIds
  const link = sql.id(rolePermissionsTable)

  await sql`insert into ${link} (owner_id, target_id) select ${roles.ADMIN}, id from permission on conflict do nothing`.execute(trx)
  const isStaffNew = newRoles.rows.some((r) => r.name === 'STAFF')
  const grant = isStaffNew ? (await sql<{ id: number; name: string }>`select id, name from permission`.execute(trx)).rows : created.rows
  const staffIds = grant.filter((p) => isStaffPermission(registry, p.name)).map((p) => p.id)
  if (staffIds.length > 0) {
    await sql`insert into ${link} (owner_id, target_id) select ${roles.STAFF}, unnest(${staffIds}::bigint[]) on conflict do nothing`.execute(trx)
  }
  return { roles, isFirstStart: newRoles.rows.some((r) => r.name === 'ADMIN') }
}

/** The permission names of a role. */
export async function permissionsOfRole(db: Executor, roleId: number): Promise<string[]> {
  const r = await sql<{ name: string }>`
    select p.name from ${sql.id(rolePermissionsTable)} rp join permission p on p.id = rp.target_id
    where rp.owner_id = ${roleId} order by p.name`.execute(db)
  return r.rows.map((x) => x.name)
}

/** The permission names of permission ids. */
export async function permissionNamesOf(db: Executor, ids: readonly number[]): Promise<string[]> {
  if (ids.length === 0) return []
  const r = await sql<{ name: string }>`select name from permission where id = any(${[...ids]}::bigint[]) order by name`.execute(db)
  return r.rows.map((x) => x.name)
}

export async function roleIdByName(db: Executor, name: string): Promise<number | null> {
  const r = await sql<{ id: number }>`select id from role where name = ${name}`.execute(db)
  return r.rows[0]?.id ?? null
}

/** `user` and the entities that extend it (employees, later customers, vendors, members). */
export function userEntities(registry: Registry): Entity<string, Fields>[] {
  return registry.filter((e) => e.name === 'user' || e.parent?.name === 'user')
}
