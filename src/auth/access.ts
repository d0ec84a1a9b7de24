import type { AnyEntity } from '../engine/entity-api'
import type { SessionUser } from './session'

/**
 * Who may open what, in the browser (spec §4, §6; decisions.md "Identity and access").
 * The server is the authority — it answers 403 whatever the browser shows — so these
 * rules only keep the screens honest: the guard, the navigation and the buttons.
 *
 * - Levels (spec §6): `admin` is allowed for admins only, `staff` for admins and staff,
 *   `user` for admins, staff and users. The built-in roles ADMIN, STAFF and USER are those
 *   levels; `is_admin` is an admin whatever the role; any other role is a STAFF-like role
 *   (a set of permissions an admin made). No role at all is a guest.
 * - Permissions `ENTITY_ACTION`: a registry screen needs its entity's permission
 *   (`THANA_LIST` for the list, `_CREATE` to create, `_DETAILS` to open a record).
 * - Own rows (the registry's `own`: a customer's tickets): what an entity lets everyone do to
 *   their own rows needs no permission, only a role — the server narrows them to their rows.
 */
export type Level = 'admin' | 'staff' | 'user'

/**
 * What a route or an item needs: a level, or a permission — which, `isOwnAllowed`, anyone
 * signed in may do without to reach their own rows (the entity's `own`).
 */
export type Requirement = { level: Level } | { permission: string; isOwnAllowed?: boolean }

const allowedLevels: Record<Level, readonly Level[]> = {
  admin: ['admin'],
  staff: ['admin', 'staff'],
  user: ['admin', 'staff', 'user'],
}

/** The user's level; null for a guest (no user, or no role). */
export function levelOf(user: SessionUser | null): Level | null {
  if (!user) return null
  const role = user.role?.toUpperCase() ?? null
  if (user.isAdmin || role === 'ADMIN') return 'admin'
  if (role === null) return null
  return role === 'USER' ? 'user' : 'staff'
}

/** `is_admin` passes every check (api-contract §3.4); others need the permission in their role. */
export function can(user: SessionUser | null, permission: string): boolean {
  return user !== null && (user.isAdmin || user.permissions.includes(permission))
}

export function meets(user: SessionUser | null, requirement: Requirement): boolean {
  if ('permission' in requirement) return can(user, requirement.permission) || (requirement.isOwnAllowed === true && levelOf(user) !== null)
  const level = levelOf(user)
  return level !== null && allowedLevels[requirement.level].includes(level)
}

/** Whether the entity lets everyone signed in do `action` (LIST, CREATE…, or a custom action's name) to their own rows. */
export const isOwnAction = (entity: Pick<AnyEntity, 'own'>, action: string): boolean => entity.own?.actions.includes(action) === true

/**
 * Whether the user may do `action` to the entity's records: by its permission, to their own
 * rows by the entity's `own` (a customer lists, reads and opens tickets; assigns or closes
 * none), or as anyone may (a `public` read: a picker lists those rows without a token).
 */
export function canDo(user: SessionUser | null, entity: Pick<AnyEntity, 'own' | 'permissions' | 'actions' | 'publicActions'>, action: string): boolean {
  const permission = entity.actions[action]?.permission ?? entity.permissions[action as keyof AnyEntity['permissions']]
  const isEveryones = isOwnAction(entity, action) || (entity.publicActions as readonly string[]).includes(action)
  return can(user, permission) || (isEveryones && levelOf(user) !== null)
}

/**
 * What an entity's screens need: the list its LIST permission, a new record CREATE, a record
 * DETAILS — or, for what its `own` allows, a role (the server shows them their own rows).
 */
export function screenRequirement(entity: AnyEntity, screen: 'list' | 'new' | 'record'): Requirement {
  const action = screen === 'list' ? 'LIST' : screen === 'new' ? 'CREATE' : 'DETAILS'
  return { permission: entity.permissions[action], ...(isOwnAction(entity, action) ? { isOwnAllowed: true } : {}) }
}
