import type { FastifyRequest } from 'fastify'
import type { Entity, Fields } from '../../schema/kit'
import type { Row } from '../db/types'
import { isOpenedByPublicRead } from './access'

/**
 * Rows as their caller may see them, as the engine's own reads answer: where `PUBLIC_READ`
 * opens an entity's reads, a caller without a token gets its rows without who wrote them
 * (the authors' e-mails are personal data).
 */
export function forCaller<R extends Row | Record<string, unknown>>(entity: Entity<string, Fields>, request: FastifyRequest, rows: R[]): R[] {
  if (!isOpenedByPublicRead(entity) || request.principal) return rows
  return rows.map((row) => ({ ...row, created_by: null, updated_by: null }))
}
