import type { Action, Caller, Entity, Fields } from '../../schema/kit'
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
  /** The files the request's multipart body stored: what a write may put in a file field besides the record's own (uploads.ts). */
  uploads?: ReadonlySet<string>
  /** The caller's language (their request's Accept-Language): what an action writes for a person (a mailed invoice) is in it. */
  language?: string
}

/** Whether the row is the caller's own user row and the entity lets a user do `action` on it. */
const isOwnRow = (entity: Entity<string, Fields>, actor: Actor, action: Action, rowId: number | undefined) =>
  rowId !== undefined && rowId === actor.id && entity.selfActions.includes(action) && (entity.name === 'user' || entity.parent?.name === 'user')

/** The name of the generic action or custom action a permission check is about, as `own.actions` names them. */
const actionNameOf = (entity: Entity<string, Fields>, action: Action | { permission: string }): string | undefined =>
  typeof action === 'string' ? action : Object.values(entity.actions).find((a) => a.permission === action.permission)?.name

/** Whether the entity lets a caller without its permission do `action` on rows of their own (EntityConfig.own). */
export const isOwnAction = (entity: Entity<string, Fields>, action: string): boolean => entity.own?.actions.includes(action) ?? false

/**
 * Whether the caller reaches the entity's rows only as their own (EntityConfig.own): they
 * may not list it all. Such a caller's reads and writes are narrowed to their rows.
 */
export const isOwnerOnly = (entity: Entity<string, Fields>, actor: Actor | null): actor is Actor => entity.own !== undefined && actor !== null && !can(actor, entity.permissions.LIST)

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
  // Their own rows (EntityConfig.own): the row scope of scopeOf narrows them to those.
  const name = actionNameOf(ctx.entity, action)
  if (name !== undefined && isOwnAction(ctx.entity, name) && isOwnerOnly(ctx.entity, actor)) return
  throw new ForbiddenError({ key: 'detail.forbidden', params: { permissions: permission } })
}

/**
 * What a scope is for: `read` (lists, counts, a record) reaches the rows shared with the caller
 * too (`own.shared`); `write` (a change, a delete, an action, what a delete would do) their own alone.
 */
export type ScopePurpose = 'read' | 'write'

/** A caller attribute of the actor (schema/caller.ts), as the principal loaded it; null when it has none. */
const attributeOf = (actor: Actor, name: string): string | number | boolean | null => {
  const attributes = 'attributes' in actor ? (actor as Caller).attributes : undefined
  return attributes?.[name] ?? null
}

/**
 * The caller's own rows of an entity with `own`, as a filter: those naming them in `field`,
 * or those whose `via` record is theirs; to read, also those shared with them (`shared`: its
 * reference holds their caller attribute — a view shared with their role).
 */
export function ownFilter(entity: Entity<string, Fields>, actor: Actor, purpose: ScopePurpose = 'write'): Filter {
  const own = entity.own!
  const mine: Filter = own.field ? { field: own.field, op: 'equals', value: actor.id } : { field: own.via!, op: 'owned', user: actor.id }
  const sharedWith = own.shared && purpose === 'read' ? attributeOf(actor, own.shared.attribute) : null
  return own.shared && sharedWith !== null ? { op: 'any', filters: [mine, { field: own.shared.field, op: 'equals', value: sharedWith }] } : mine
}

/**
 * The entity's row scope for the caller, as filters: its `scope`, and for a caller who
 * reaches its rows only as their own (`own`), those — to read, with those shared with them.
 * None for the system.
 */
export function scopeOf(ctx: EngineCtx, purpose: ScopePurpose = 'write'): Filter[] {
  if (ctx.access === 'system' || !ctx.actor) return []
  const scope = ctx.entity.scope?.(ctx.actor)
  const filters: Filter[] = scope ? Object.entries(scope).map(([field, value]) => ({ field, op: 'equals' as const, value })) : []
  if (isOwnerOnly(ctx.entity, ctx.actor)) filters.push(ownFilter(ctx.entity, ctx.actor, purpose))
  return filters
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

/**
 * The access entities the original admin client loads as lookups before anyone signs in
 * (roles, permissions and parent menus for its forms' dropdowns): names of permissions, roles
 * and menu entries, no one's data. A role's menu and every other access entity stay closed.
 */
export const ACCESS_LOOKUPS: readonly string[] = ['role', 'permission', 'menu_item']

const isUserLike = (entity: Entity<string, Fields>) => entity.name === 'user' || entity.parent?.name === 'user'

/**
 * Why an entity may not be opened to anonymous reads (`PUBLIC_READ`), or null when it may: it
 * must be a registry entity with routes of its own, hold no one's personal data or secrets —
 * not a user, nor anything extending one, nor rows that name one (an employee's
 * qualifications), nor a field the registry marks personal (an e-mail address, a phone number,
 * a password — even a business's: the rule cannot tell — a mail's recipient or body) — not be
 * one of the business's confidential records (the books), have no row scope (an anonymous
 * reader would pass it by), and, among the access entities, be one of the lookups the
 * original client needs. All of it is read from the registry, never from a list of names.
 */
export function publicReadRefusal(registry: Registry, name: string): string | null {
  const entity = registry.find((e) => e.name === name && !e.isLine)
  if (!entity) return `'${name}' is not an entity (known: ${registry.filter((e) => !e.isLine).map((e) => e.name).join(', ')})`
  if (isUserLike(entity)) return `'${name}' holds personal data (user accounts) and is never opened to anonymous reads`
  const personal = entity.fieldNames.find((n) => {
    const field = entity.fields[n]!
    const target = field.ref ? registry.find((e) => e.name === field.ref!.target) : undefined
    return field.isPersonal || (target !== undefined && isUserLike(target))
  })
  if (personal) return `'${name}' holds personal data (its field '${personal}') and is never opened to anonymous reads`
  if (entity.isConfidential) return `'${name}' holds the business's confidential records and is never opened to anonymous reads`
  if (entity.scope) return `'${name}' limits its rows per caller (a row scope), which an anonymous reader would pass by`
  if (entity.module === 'identity' && !ACCESS_LOOKUPS.includes(name)) return `'${name}' is an access entity; of those only ${ACCESS_LOOKUPS.join(', ')} may be opened`
  return null
}

/**
 * The registry with the named entities' reads — `all/`, `without_pagination/all/`, `search/`
 * and `{id}` (LIST and DETAILS) — open to anonymous callers, as the registry's own `public`
 * option opens them (`PUBLIC_READ`: the original admin client loads its lookups and searches
 * without a token). Writes keep their permissions. Refuses any entity `publicReadRefusal` refuses.
 */
export function withPublicRead(registry: Registry, names: readonly string[]): Registry {
  if (names.length === 0) return registry
  const refusals = names.map((n) => publicReadRefusal(registry, n)).filter((r): r is string => r !== null)
  if (refusals.length > 0) throw new Error(`PUBLIC_READ: ${refusals.join('; ')}`)
  return registry.map((e) => {
    if (!names.includes(e.name) || e.isLine) return e
    return { ...e, publicActions: [...new Set<Action>([...e.publicActions, 'LIST', 'DETAILS'])] }
  })
}
