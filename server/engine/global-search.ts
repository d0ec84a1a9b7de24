import type { FastifyInstance } from 'fastify'
import { routeDocs } from './route-docs'
import { can } from '../auth/principal'
import type { Entity, Fields } from '../../schema/kit'
import type { Db } from '../db/types'
import { isOwnAction } from './access'
import { BusinessError, UnauthorizedError } from './errors'
import type { HookRegistry } from './hooks'
import type { Registry } from './list-query'
import { readList } from './service'

/**
 * Records found by `q` across every entity the caller may list (the command palette's
 * "find"): `GET /api/search/?q=text` → `{ results: [{ entity, total, rows: [{ id, label }] }] }`,
 * the entities with matches in the registry's order, a few rows each. Each entity is read
 * through the engine (its permission, its row scope, its search fields and their indexes),
 * so a caller finds exactly what their lists would show them.
 */
export const GLOBAL_SEARCH_PATH = '/api/search/'
export const ROWS_PER_ENTITY = 3
/** Shorter text matches too much to be worth a query per entity. */
export const MIN_SEARCH = 2
const MAX_SEARCH = 100

export type GlobalSearchResult = { entity: string; total: number; rows: Array<{ id: number; label: string }> }

const isSearchable = (e: Entity<string, Fields>) => !e.isLine && e.searchFields.length > 0 && e.routes.all !== false && e.routes.read !== false

function mayList(caller: NonNullable<Parameters<typeof can>[0]>, e: Entity<string, Fields>): boolean {
  return e.publicActions.includes('LIST') || isOwnAction(e, 'LIST') || can(caller, e.permissions.LIST)
}

export function registerGlobalSearch(app: FastifyInstance, deps: { db: Db; registry: Registry; hooks?: HookRegistry }): void {
  app.get<{ Querystring: { q?: unknown } }>(GLOBAL_SEARCH_PATH, { config: { openapi: routeDocs.search(deps.registry, { min: MIN_SEARCH, max: MAX_SEARCH, rows: ROWS_PER_ENTITY }) } }, async (req) => {
    const caller = req.principal
    if (!caller) throw new UnauthorizedError({ key: 'detail.no_credentials' })
    const raw = req.query.q
    const q = typeof raw === 'string' ? raw.trim() : ''
    if (q.length < MIN_SEARCH || q.length > MAX_SEARCH) throw new BusinessError({ key: 'detail.search_text', params: { min: MIN_SEARCH, max: MAX_SEARCH } })
    const results: GlobalSearchResult[] = []
    for (const entity of deps.registry.filter((e) => isSearchable(e) && mayList(caller, e))) {
      const ctx = { db: deps.db, registry: deps.registry, entity, actor: caller, access: 'check' as const, hooks: deps.hooks, language: req.headers['accept-language'] }
      const found = await readList(ctx, { filters: [{ op: 'search', value: q }], ordering: entity.ordering, page: { page: 1, size: ROWS_PER_ENTITY } })
      if (found.total === 0) continue
      results.push({ entity: entity.name, total: found.total, rows: found.rows.map((r) => ({ id: Number(r.id), label: labelText(r[entity.labelField]) })) })
    }
    return { results }
  })
}

/** A row's label as text: a reference's label, or the value itself. */
function labelText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'object' && 'label' in value) return String((value as { label: unknown }).label ?? '')
  return String(value)
}
