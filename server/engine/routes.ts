import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { Entity, Fields } from '../../schema/kit'
import { validatorOf } from '../../schema/kit/validators'
import type { Db } from '../db/types'
import { BusinessError } from './errors'
import { findRow, listRows, type Registry } from './list-query'
import { filtersOf, orderingOf, pageOf, rowIdOf } from './request'
import { createRow, deleteRow, deleteRows, notFound, updateRow } from './service'
import { readBody } from './uploads'
import { hasNulCharacter } from './validate'

/**
 * The contract's routes for one registry entity (api-contract §2.1), each tagged with
 * the permission it needs. Fastify answers with and without the trailing slash.
 */
/** `registry`: every entity of the app, where references resolve (it may extend the static registry). */
export type EngineDeps = { db: Db; mediaDir: string; registry: Registry }

type Query = Record<string, unknown>
type IdParams = { id: string }

// Ids as path ids are read (rowIdOf): up to 15 digits, so they fit bigint and a JS number.
const idsBody = z.object({ ids: z.array(z.union([z.number().int().positive().max(999_999_999_999_999), z.string().regex(/^\d{1,15}$/).transform(Number)])).min(1) })

export function registerEntityRoutes(app: FastifyInstance, entity: Entity<string, Fields>, deps: EngineDeps): void {
  const { db, registry } = deps
  const base = entity.api.base
  const p = entity.permissions
  const actorOf = (request: FastifyRequest) => (request.principal ? { id: request.principal.id } : null)
  const ctx = (request: FastifyRequest) => ({ db, registry, entity, actor: actorOf(request) })

  const envelope = async (query: Query, withFilters: boolean) => {
    const result = await listRows(db, entity, {
      filters: withFilters ? filtersOf(entity, query) : [],
      ordering: orderingOf(entity, query),
      page: pageOf(query),
    }, registry)
    return {
      [entity.listKey]: result.rows,
      page: result.page,
      size: result.size,
      total_pages: result.totalPages,
      total_elements: result.total,
    }
  }

  app.get<{ Querystring: Query }>(`${base}/all/`, { config: { permission: p.LIST } }, (req) => envelope(req.query, false))
  app.get<{ Querystring: Query }>(`${base}/search/`, { config: { permission: p.LIST } }, (req) => envelope(req.query, true))

  app.get<{ Querystring: Query }>(`${base}/without_pagination/all/`, { config: { permission: p.LIST } }, async (req) => {
    const { rows } = await listRows(db, entity, { filters: filtersOf(entity, req.query), ordering: orderingOf(entity, req.query) }, registry)
    return { [entity.listKey]: rows }
  })

  for (const extra of entity.extraRoutes) {
    app.get<{ Params: { value: string } }>(`${base}/${extra.path}/:value`, { config: { permission: p.LIST } }, async (req) => {
      const parsed = validatorOf(entity.fields[extra.field]!).safeParse(req.params.value)
      if (!parsed.success || parsed.data === null || hasNulCharacter(parsed.data)) throw new BusinessError(`Invalid ${extra.field} '${req.params.value}'.`)
      const { rows } = await listRows(db, entity, {
        filters: [{ field: extra.field, op: 'equals', value: parsed.data as string | number }],
        ordering: entity.ordering,
      }, registry)
      return { [entity.listKey]: rows }
    })
  }

  app.get<{ Params: IdParams }>(`${base}/:id`, { config: { permission: p.DETAILS } }, async (req) => {
    const rowId = rowIdOf(entity, req.params.id)
    const row = await findRow(db, entity, rowId)
    if (!row) throw notFound(entity, rowId)
    return row
  })

  app.post(`${base}/create/`, { config: { permission: p.CREATE } }, async (req, reply) => {
    const body = await readBody(req, entity, deps.mediaDir)
    try {
      const row = await createRow(ctx(req), body.values)
      return reply.code(201).send(row)
    } catch (e) {
      await body.cleanup()
      throw e
    }
  })

  const update = async (req: FastifyRequest<{ Params: IdParams }>) => {
    const rowId = rowIdOf(entity, req.params.id)
    const body = await readBody(req, entity, deps.mediaDir)
    // A file field sent back as its current URL (a string) keeps the stored file (api-contract §2.5).
    if (req.isMultipart()) {
      for (const name of entity.fieldNames) {
        if (entity.fields[name]!.kind === 'file' && typeof body.values[name] === 'string' && !String(body.values[name]).startsWith(`/media/${entity.name}/`)) delete body.values[name]
      }
    }
    try {
      return await updateRow(ctx(req), rowId, body.values)
    } catch (e) {
      await body.cleanup()
      throw e
    }
  }
  app.put<{ Params: IdParams }>(`${base}/update/:id`, { config: { permission: p.UPDATE } }, update)
  app.patch<{ Params: IdParams }>(`${base}/update/:id`, { config: { permission: p.UPDATE } }, update)

  app.delete<{ Params: IdParams }>(`${base}/delete/:id`, { config: { permission: p.DELETE } }, async (req) => ({
    detail: await deleteRow(ctx(req), rowIdOf(entity, req.params.id)),
  }))

  app.delete(`${base}/delete_multiple/`, { config: { permission: p.DELETE } }, async (req) => {
    const parsed = idsBody.safeParse(req.body)
    if (!parsed.success) throw new BusinessError("Send {\"ids\": [...]} with at least one record id.")
    return { detail: await deleteRows(ctx(req), parsed.data.ids) }
  })
}
