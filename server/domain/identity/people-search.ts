import type { FastifyInstance, FastifyRequest } from 'fastify'
import { rootOf, type Entity, type Fields } from '../../../schema/kit'
import { can } from '../../auth/principal'
import type { ModuleDeps } from '../../engine/modules'
import { requestContext } from '../../engine/routes'
import { readList } from '../../engine/service'

/**
 * The people search (`GET /api/people/search/?q=text`, issue 11): every kind of person the
 * registry has — each entity that extends the users (employees, customers, vendors,
 * members…), then the user accounts themselves — searched at once with the engine's `q` (name, username, e-mail, a
 * phone number or any part of one), each kind through the engine's own list so that its
 * permission and row scope hold. Only the kinds the caller may list are searched. A person
 * is found under their kind (an employee among the employees) and among the user accounts,
 * as the two lists hold them: each group's total is its list's.
 */
export const PEOPLE_SEARCH_PATH = '/api/people/search/'
const PER_KIND = 10
const MAX_TEXT = 100

type Person = { id: number; first_name: string | null; last_name: string | null; username: string | null; email: string | null; primary_phone: string | null; secondary_phone: string | null }

/** The kinds of person: the root user entity and every entity whose chain of parents reaches it, the most specific first. */
export function peopleKinds(registry: readonly Entity<string, Fields>[]): Entity<string, Fields>[] {
  const user = registry.find((e) => e.name === 'user')
  if (!user) return []
  return [...registry.filter((e) => e !== user && !e.isLine && rootOf(e) === user), user]
}

const personOf = (row: Record<string, unknown>): Person => ({
  id: row.id as number,
  first_name: (row.first_name as string | null) ?? null,
  last_name: (row.last_name as string | null) ?? null,
  username: (row.username as string | null) ?? null,
  email: (row.email as string | null) ?? null,
  primary_phone: (row.primary_phone as string | null) ?? null,
  secondary_phone: (row.secondary_phone as string | null) ?? null,
})

export function registerPeopleSearch(app: FastifyInstance, deps: ModuleDeps): void {
  const kinds = peopleKinds(deps.registry)
  if (kinds.length === 0) return
  app.get(PEOPLE_SEARCH_PATH, { config: { permission: kinds.map((k) => k.permissions.LIST) } }, async (request: FastifyRequest) => {
    const raw = (request.query as Record<string, unknown>).q
    const text = (typeof raw === 'string' ? raw : '').trim().slice(0, MAX_TEXT)
    const principal = request.principal!
    const groups: Array<{ entity: string; list_key: string; total: number; people: Person[] }> = []
    if (text === '') return { q: text, groups }
    for (const kind of kinds.filter((k) => can(principal, k.permissions.LIST))) {
      const result = await readList(requestContext(deps, kind, request), { filters: [{ op: 'search', value: text }], ordering: kind.ordering, page: { page: 1, size: PER_KIND } })
      if (result.total > 0) groups.push({ entity: kind.name, list_key: kind.listKey, total: result.total, people: result.rows.map(personOf) })
    }
    return { q: text, groups }
  })
}
