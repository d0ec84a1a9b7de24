import type { Action, Entity, Fields } from '../../schema/kit'
import { can } from '../auth/principal'
import type { Executor } from '../db/types'
import { ForbiddenError, UnauthorizedError } from './errors'
import type { Actor, HookRegistry } from './hooks'
import type { Filter, Registry } from './list-query'

/**
 * Access inside the read and write layer (architecture §2): every engine call says who
 * asks. `check` — the caller's permission is checked here, whatever route or module made
 * the call, and the entity's row scope narrows what they reach; `system` — code that acts
 * on its own authority (a seed, a posting, a route that checked its own rule) says so.
 */
export type Access = 'check' | 'system'

export type EngineCtx = {
  db: Executor
  registry: Registry
  entity: Entity<string, Fields>
  /** Who the write is audited as; null only for the system itself (seeds, start-up). */
  actor: Actor | null
  access: Access
  hooks?: HookRegistry
}

/** Whether the row is the caller's own user row and the entity lets a user do `action` on it. */
const isOwnRow = (entity: Entity<string, Fields>, actor: Actor, action: Action, rowId: number | undefined) =>
  rowId !== undefined && rowId === actor.id && entity.selfActions.includes(action) && (entity.name === 'user' || entity.parent?.name === 'user')

/** Refuses the call unless the caller holds the permission (or it is their own row the entity lets them use). */
export function authorize(ctx: EngineCtx, action: Action | { permission: string }, rowId?: number): void {
  if (ctx.access === 'system') return
  // Reads the registry makes public (the site settings the login screen reads) need no one.
  if (typeof action === 'string' && ctx.entity.publicActions.includes(action)) return
  const actor = ctx.actor
  if (!actor) throw new UnauthorizedError({ key: 'detail.no_credentials' })
  const permission = typeof action === 'string' ? ctx.entity.permissions[action] : action.permission
  if (can(actor, permission)) return
  if (typeof action === 'string' && isOwnRow(ctx.entity, actor, action, rowId)) return
  throw new ForbiddenError({ key: 'detail.forbidden', params: { permissions: permission } })
}

/** The entity's row scope for the caller, as filters; none for the system or an entity without one. */
export function scopeOf(ctx: EngineCtx): Filter[] {
  if (ctx.access === 'system' || !ctx.entity.scope || !ctx.actor) return []
  const scope = ctx.entity.scope(ctx.actor)
  return scope ? Object.entries(scope).map(([field, value]) => ({ field, op: 'equals' as const, value })) : []
}

/** The same call on another entity (a document's lines, a referenced row), on the authority already checked. */
export const asSystem = (ctx: EngineCtx, entity: Entity<string, Fields>, db: Executor = ctx.db): EngineCtx => ({ ...ctx, entity, db, access: 'system' })

/**
 * The permission that lets a caller read an entity's records: its own LIST, or — for the
 * lines of a document, which have no permissions of their own — the document's.
 */
export function readPermissionOf(registry: Registry, entity: Entity<string, Fields>): string {
  const document = entity.lineOf ? registry.find((e) => e.name === entity.lineOf) : undefined
  return (document ?? entity).permissions.LIST
}
