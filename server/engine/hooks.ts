import type { Entity, Fields } from '../../schema/kit'
import type { Row, Trx } from '../db/types'
import type { Registry } from './list-query'
import type { Values } from './validate'

/**
 * Domain rules that run inside the engine's write transaction. Domain modules register
 * them per entity (server/domain/<module>); the generic engine only calls them, so it
 * never knows a rule of its own. An entity that extends another runs the parent's hooks
 * first, then its own: an employee is a user, and the user's rules hold for it.
 */

/** Who writes: the signed-in principal (server/auth), or null for the system (seeds). */
export type Actor = { readonly id: number; readonly isAdmin: boolean; readonly permissions: ReadonlySet<string> }

export type WriteAction = 'create' | 'update' | 'delete'

export type HookContext = {
  trx: Trx
  registry: Registry
  /** The entity written (a child entity when a parent's hooks run for it). */
  entity: Entity<string, Fields>
  actor: Actor | null
  action: WriteAction
  /** The stored row before the write, as `{id}` returns it; null on create. */
  before: Row | null
}

export interface EntityHooks {
  /**
   * After validation and the reference checks, before the row is written. May change
   * `values` (what will be stored) or throw a typed error, which rolls everything back.
   * `values` is null on delete.
   */
  readonly beforeWrite?: (ctx: HookContext & { values: Values | null }) => Promise<void> | void
  /** After the row, its links and its audit entry are written; `after` is null on delete. */
  readonly afterWrite?: (ctx: HookContext & { rowId: number; after: Row | null }) => Promise<void> | void
}

/** Hooks by entity name, in registration order. */
export type HookRegistry = ReadonlyMap<string, readonly EntityHooks[]>

export function hooksOf(hooks: HookRegistry | undefined, entity: Entity<string, Fields>): readonly EntityHooks[] {
  if (!hooks) return []
  return [...(entity.parent ? (hooks.get(entity.parent.name) ?? []) : []), ...(hooks.get(entity.name) ?? [])]
}

export function hookRegistry(entries: ReadonlyArray<readonly [string, EntityHooks]>): HookRegistry {
  const map = new Map<string, EntityHooks[]>()
  for (const [name, hooks] of entries) map.set(name, [...(map.get(name) ?? []), hooks])
  return map
}
