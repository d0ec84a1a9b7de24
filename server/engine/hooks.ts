import type { RawBuilder } from 'kysely'
import type { Entity, Fields } from '../../schema/kit'
import type { Executor, Row, Trx } from '../db/types'
import type { Registry } from './list-query'
import type { EngineCtx } from './access'
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
  /**
   * Engine calls a hook makes itself (a ticket's first message, a reopen), as the system in
   * the write's transaction, audited as its caller, with the files its request uploaded:
   * they run their own entity's hooks. Absent where the engine has no write to derive them from.
   */
  engine?: (entity: Entity<string, Fields>) => EngineCtx
  /** The caller's language (Accept-Language): what a hook writes for a person (a mail) is in it. */
  language?: string
}

export interface EntityHooks {
  /**
   * First, inside the write's transaction, before the values are validated: may fill in
   * what the client leaves to the server (defaults, a document number) by changing `input`.
   * Runs on create and update (`input` is then the body laid over the stored row).
   */
  readonly beforeValidate?: (ctx: HookContext & { input: Values }) => Promise<void> | void
  /**
   * After validation and the reference checks, before the row is written. May change
   * `values` (what will be stored) or throw a typed error, which rolls everything back.
   * `values` is null on delete. `input`: what the caller sent (after a before-validate hook),
   * where a value the registry does not store is found (the current password that a change
   * of one's own asks for); empty on delete and for the rows the engine writes itself.
   */
  readonly beforeWrite?: (ctx: HookContext & { values: Values | null; input: Values }) => Promise<void> | void
  /**
   * After the row, its links and its audit entry are written; `after` is null on delete.
   * `values`: what the write judged and stored, with the input-only (transient) values a
   * client sent — a ticket's first message, kept as its thread's first line; empty on delete.
   */
  readonly afterWrite?: (ctx: HookContext & { rowId: number; after: Row | null; values: Values }) => Promise<void> | void
  /**
   * After rows are read for a caller (a record, or a page of a list): may add to each row
   * what the registry cannot compute (a balance from the ledger). `shape` tells which.
   */
  readonly afterRead?: (ctx: { db: Executor; registry: Registry; entity: Entity<string, Fields>; actor: Actor | null; rows: Row[]; shape: 'record' | 'list' }) => Promise<void> | void
  /**
   * After a workflow's transition moved the status (the domain's handler has run), in its
   * transaction: what follows from the new state (a posting on confirm, its reversal on cancel).
   */
  /**
   * Values worked out in SQL for the entity's rows that rules read as facts and lists can
   * prefer rows by (`is_cash_bank` of a ledger): `(alias) => sql\`…\``.
   */
  readonly facts?: Readonly<Record<string, (alias: string) => RawBuilder<unknown>>>
  /**
   * A document kept one row per line (`rowsPerLine`): after the whole document is written —
   * its rows each went through the row hooks — in the same transaction. `before`, `after`:
   * the document as read (null when it did not exist, or no longer does).
   */
  readonly afterDocumentWrite?: (ctx: HookContext & { after: Row | null }) => Promise<void> | void
  readonly afterTransition?: (ctx: Omit<HookContext, 'action'> & { transition: string; rowId: number; before: Row; after: Row }) => Promise<void> | void
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
