import type { FastifyInstance } from 'fastify'

/** Keys naming who wrote a row: the authors' e-mails, personal data. */
const AUTHOR_KEYS = new Set(['created_by', 'updated_by'])

function withoutAuthors(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutAuthors)
  if (value === null || typeof value !== 'object' || value instanceof Date || Buffer.isBuffer(value)) return value
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, AUTHOR_KEYS.has(key) ? null : withoutAuthors(inner)]))
}

/**
 * Every answer to a caller without a token leaves out who wrote its rows, whatever made the
 * route public (the registry's `public`, `PUBLIC_READ`, a module's own route): once per
 * scope, not per route, so no public read can forget it. A public route ignores a token, so
 * a signed-in caller is anonymous there too. Answers to signed-in callers are kept from shared
 * caches (`no-store`): they are theirs.
 */
export function answersForCaller(api: FastifyInstance): void {
  api.addHook('preSerialization', async (request, _reply, payload) => (request.principal ? payload : withoutAuthors(payload)))
  api.addHook('onSend', async (request, reply, payload) => {
    if (request.principal) reply.header('cache-control', 'no-store')
    return payload
  })
}
