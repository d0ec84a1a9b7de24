import { sql } from 'kysely'
import type { Executor } from '../db/types'

/**
 * Who is calling, as the permission checks need it. Loaded per request from a short
 * cache: a deactivated user or a changed role takes effect within seconds on every
 * server, without a database round trip on each call.
 */
export type Principal = {
  id: number
  email: string
  isAdmin: boolean
  isActive: boolean
  permissions: ReadonlySet<string>
}

const TTL_MS = 5_000
const cache = new Map<number, { at: number; principal: Principal | undefined }>()

export async function loadPrincipal(db: Executor, userId: number, now = Date.now()): Promise<Principal | undefined> {
  const hit = cache.get(userId)
  if (hit && now - hit.at < TTL_MS) return hit.principal
  const r = await sql<{ id: number; email: string; is_admin: boolean; is_active: boolean }>`
    select id, email, is_admin, is_active from "user" where id = ${userId}`.execute(db)
  const u = r.rows[0]
  const principal = u ? { id: u.id, email: u.email, isAdmin: u.is_admin, isActive: u.is_active, permissions: new Set<string>() } : undefined
  cache.set(userId, { at: now, principal })
  return principal
}

/** Called after a write that changes who a user is or what they may do. */
export function forgetPrincipal(userId?: number): void {
  if (userId === undefined) cache.clear()
  else cache.delete(userId)
}

/** Admins pass every check; everyone else needs the permission through their role. */
export function can(principal: Principal, permission: string): boolean {
  return principal.isAdmin || principal.permissions.has(permission)
}
