import { sql } from 'kysely'
import { callerAttributes } from '../../schema/caller'
import { joinTableName } from '../db/registry-schema'
import type { Executor } from '../db/types'

/**
 * Who is calling, as the permission checks need it: the user, their role's name and the
 * role's permission names. Loaded per request from a short cache; writes that change a
 * user, a role or a role's permissions forget it at once (server/domain/identity), and a
 * change made by another server takes effect within the cache's lifetime.
 */
export type Principal = {
  id: number
  email: string
  isAdmin: boolean
  isActive: boolean
  /** Sessions of the user ended by a logout (their `sid`s), until they would have expired anyway. */
  endedSessions: ReadonlySet<string>
  /** The user's session version: tokens made at another one are ended (server/auth/sessions.ts). */
  sessionVersion: number
  role: string | null
  permissions: ReadonlySet<string>
  /** The caller's attributes (schema/caller.ts: their branch, their department), for row scopes. */
  attributes: Readonly<Record<string, number | null>>
}

/** One column per caller attribute: the user's row of the entity that holds it (an employee shares the user's id). */
const attributeColumns = Object.entries(callerAttributes).map(
  ([name, { entity, field }]) => sql`(select x.${sql.ref(field)} from ${sql.id(entity)} x where x.id = u.id) as ${sql.id(`attr_${name}`)}`,
)

const TTL_MS = 5_000
// By database and user: two apps in one process (tests, tools) have users of the same ids.
const cache = new Map<string, { at: number; userId: number; principal: Principal | undefined }>()
const databaseKeys = new WeakMap<object, number>()
let databases = 0
const keyOf = (db: Executor, userId: number) => {
  let key = databaseKeys.get(db)
  if (key === undefined) databaseKeys.set(db, (key = ++databases))
  return `${key}:${userId}`
}
const rolePermissions = joinTableName('role', 'permissions')

export async function loadPrincipal(db: Executor, userId: number, now = Date.now()): Promise<Principal | undefined> {
  const key = keyOf(db, userId)
  const hit = cache.get(key)
  if (hit && now - hit.at < TTL_MS) return hit.principal
  const r = await sql<{ id: number; email: string; is_admin: boolean; is_active: boolean; session_version: number; role: string | null; permissions: string[]; ended: string[] } & Record<string, unknown>>`
    select u.id, u.email, u.is_admin, u.is_active, u.session_version, r.name as role, ${sql.join(attributeColumns)},
      array(select p.name from ${sql.id(rolePermissions)} rp join permission p on p.id = rp.target_id
            where rp.owner_id = u.role order by p.name) as permissions,
      array(select e.sid from ended_session e where e.user_id = u.id and e.ends_at > now()) as ended
    from "user" u left join role r on r.id = u.role
    where u.id = ${userId}`.execute(db)
  const u = r.rows[0]
  const principal = u
    ? {
        id: u.id,
        email: u.email,
        isAdmin: u.is_admin,
        isActive: u.is_active,
        sessionVersion: u.session_version,
        endedSessions: new Set(u.ended),
        role: u.role,
        permissions: new Set(u.permissions),
        attributes: Object.fromEntries(Object.keys(callerAttributes).map((name) => [name, u[`attr_${name}`] === null || u[`attr_${name}`] === undefined ? null : Number(u[`attr_${name}`])])),
      }
    : undefined
  cache.set(key, { at: now, userId, principal })
  return principal
}

/** Called after a write that changes who a user is or what they may do; no id forgets everyone. */
export function forgetPrincipal(userId?: number): void {
  if (userId === undefined) cache.clear()
  else for (const [key, entry] of cache) if (entry.userId === userId) cache.delete(key)
}

/** Admins pass every check; everyone else needs the permission through their role. */
export function can(principal: Pick<Principal, 'isAdmin' | 'permissions'>, permission: string): boolean {
  return principal.isAdmin || principal.permissions.has(permission)
}
