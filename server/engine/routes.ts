import type { FastifyContextConfig, FastifyInstance, FastifyRequest, HTTPMethods, RouteHandlerMethod } from 'fastify'
import { z } from 'zod'
import { routeAction, type Action, type Entity, type Fields, type GenericRoute, type Message } from '../../schema/kit'
import { isIdText, MAX_ID, validatorOf } from '../../schema/kit/validators'
import type { Db } from '../db/types'
import { BusinessError } from './errors'
import { isOwnAction } from './access'
import type { HookRegistry } from './hooks'
import { findRow, type Registry } from './list-query'
import { filtersOf, orderingOf, pageOf, rowIdOf, viewFilters } from './request'
import { unpagedLimitOf } from './unpaged-limit'
import { createRow, deleteImpact, deleteRow, deleteRows, readList, readRow, runAction, updateRow, type ActionHandler, type Ctx } from './service'
import { messageFor } from '../i18n'
import { readBody, uploadsOf } from './uploads'
import { reorderGallery } from './gallery'
import { createDocument, deleteDocument, deleteDocuments, readDocument, updateDocument } from './operations/documents'
import { inDeleteBatch } from './trash'

/**
 * The contract's routes for one registry entity (api-contract §2.1), each tagged with
 * the permission it needs (public and own-row access as the registry declares).
 * Fastify answers with and without the trailing slash.
 */
/** The domain's handlers of the registry's custom actions, by entity and action name. */
export type ActionRegistry = ReadonlyMap<string, Readonly<Record<string, ActionHandler>>>

/** `registry`: every entity of the app, where references resolve (it may extend the static registry). */
export type EngineDeps = { db: Db; mediaDir: string; registry: Registry; hooks?: HookRegistry; actions?: ActionRegistry }

type Query = Record<string, unknown>
type IdParams = { id: string }

/** Method and path (below the entity's base) of each generic route. */
export const genericRoutePaths: Readonly<Record<GenericRoute, { methods: readonly HTTPMethods[]; path: string }>> = {
  all: { methods: ['GET'], path: 'all/' },
  without_pagination: { methods: ['GET'], path: 'without_pagination/all/' },
  search: { methods: ['GET'], path: 'search/' },
  read: { methods: ['GET'], path: ':id' },
  create: { methods: ['POST'], path: 'create/' },
  update: { methods: ['PUT', 'PATCH'], path: 'update/:id' },
  delete: { methods: ['DELETE'], path: 'delete/:id' },
  delete_multiple: { methods: ['DELETE'], path: 'delete_multiple/' },
}

/** The route config of an entity action: its permission, and whether it is public or open to the row's own user. */
export function actionConfig(entity: Entity<string, Fields>, action: Action, hasIdParam = false): FastifyContextConfig {
  return {
    // Open to every signed-in user where the entity lets them reach rows of their own (`own`): the engine narrows them to those.
    ...(isOwnAction(entity, action) ? {} : { permission: entity.permissions[action] }),
    ...(entity.publicActions.includes(action) ? { isPublic: true } : {}),
    ...(hasIdParam && entity.selfActions.includes(action) ? { selfParam: 'id' } : {}),
  }
}

/** An engine context for a request: the caller is the actor, and the engine checks their access. */
export function requestContext(deps: EngineDeps, entity: Entity<string, Fields>, request: FastifyRequest): Ctx {
  return { db: deps.db, registry: deps.registry, entity, actor: request.principal ?? null, access: 'check', hooks: deps.hooks, uploads: uploadsOf(request), language: request.headers['accept-language'] }
}

/** The most records one request may name (`delete_multiple/`, `delete_impact/?ids=`). */
export const MAX_IDS = 1000
// Ids as path ids are read (rowIdOf): up to 15 digits, so they fit bigint and a JS number.
const idsBody = z.object({ ids: z.array(z.union([z.number().int().positive().max(MAX_ID), z.string().trim().refine(isIdText).transform(Number)])).min(1).max(MAX_IDS) })

/** The `{"ids": [...]}` of a delete of several records (1 to MAX_IDS ids), or a 400 `{detail}`. */
export function idsOfBody(body: unknown): number[] {
  const parsed = idsBody.safeParse(body)
  if (!parsed.success) throw new BusinessError({ key: 'detail.ids_body' })
  return parsed.data.ids
}

const say = (req: FastifyRequest, message: Message) => messageFor(req.headers['accept-language'], message)

export function registerEntityRoutes(app: FastifyInstance, entity: Entity<string, Fields>, deps: EngineDeps): void {
  // `search/` refuses what it does not know; `all/` applies what it knows (`q`, filters, ranges) and ignores the rest.
  // A list view's filter (`?view=`) holds whatever else is asked.
  const filters = (query: Query, withFilters: boolean) => [...viewFilters(entity, query.view), ...filtersOf(entity, query, { unknown: withFilters ? 'refuse' : 'ignore' })]

  // Every key the entity's lists answer under (`alsoListKeys`; a search also `searchAlsoKeys`), each with the same rows.
  const keyed = (rows: Record<string, unknown>[], keys = entity.listKeys) => Object.fromEntries(keys.map((key) => [key, rows]))

  const envelope = async (req: FastifyRequest, withFilters: boolean, keys = entity.listKeys) => {
    const query = req.query as Query
    const result = await readList(requestContext(deps, entity, req), {
      filters: filters(query, withFilters),
      ordering: orderingOf(entity, query),
      page: pageOf(query),
    })
    return {
      ...keyed(result.rows, keys),
      page: result.page,
      size: result.size,
      total_pages: result.totalPages,
      total_elements: result.total,
      // An extension, only when so: a text search counted so far, the list holds more than total_elements.
      ...(result.totalIsLowerBound ? { total_is_lower_bound: true } : {}),
    }
  }
  const unpaged = async (req: FastifyRequest, withFilters: boolean) => {
    // `limit` (unpaged-limit.ts): the first rows of the list, as many as a screen shows at once.
    const { limit, rest: query } = unpagedLimitOf(req.query as Query)
    const { rows } = await readList(requestContext(deps, entity, req), { filters: filters(query, withFilters), ordering: orderingOf(entity, query), ...(limit ? { page: { page: 1, size: limit } } : {}) })
    return keyed(rows)
  }

  const phoneFields = entity.fieldNames.filter((n) => entity.fields[n]!.kind === 'phone')
  const digitsOf = (phone: string) => phone.replace(/\D/g, '')
  /**
   * The original client shows a phone's country code apart and sends the number back without
   * it (`1711000000` for `+8801711000000`): a phone sent without `+` that is the stored
   * number less its code keeps the stored number, rather than being read as another country's.
   */
  const keepCountryCodes = async (rowId: number, values: Record<string, unknown>) => {
    const national = phoneFields.filter((n) => typeof values[n] === 'string' && /^[\d\s\-().]{6,}$/.test(String(values[n]).trim()))
    if (national.length === 0) return
    const stored = await findRow(deps.db, entity, rowId, deps.registry)
    for (const name of national) {
      const was = stored?.[name]
      if (typeof was === 'string' && was.startsWith('+') && digitsOf(was).endsWith(digitsOf(String(values[name])))) values[name] = was
    }
  }

  const update = async (req: FastifyRequest<{ Params: IdParams }>) => {
    const rowId = rowIdOf(entity, req.params.id)
    // A file field sent back as its current URL (a string) keeps the stored file (api-contract §2.5);
    // any other path is refused by the write (refuseForeignFiles).
    const body = await readBody(req, entity, deps.mediaDir)
    try {
      await keepCountryCodes(rowId, body.values)
      return await updateRow(requestContext(deps, entity, req), rowId, body.values)
    } catch (e) {
      await body.cleanup()
      throw e
    }
  }

  /** A document kept one row per line, changed by the id of any of its rows. */
  const updateDocumentRoute = async (req: FastifyRequest<{ Params: IdParams }>) => {
    const body = await readBody(req, entity, deps.mediaDir)
    try {
      return await updateDocument(requestContext(deps, entity, req), rowIdOf(entity, req.params.id), body.values)
    } catch (e) {
      await body.cleanup()
      throw e
    }
  }

  const handlers: Record<GenericRoute, RouteHandlerMethod> = {
    all: (req) => (entity.paginateAll ? envelope(req, false) : unpaged(req, false)),
    search: (req) => envelope(req, true, entity.searchKeys),
    without_pagination: (req) => unpaged(req, true),
    read: async (req) => readRow(requestContext(deps, entity, req), rowIdOf(entity, (req.params as IdParams).id)),
    create: async (req, reply) => {
      const body = await readBody(req, entity, deps.mediaDir)
      try {
        const write = entity.rowsPerLine ? createDocument : createRow
        const row = await write(requestContext(deps, entity, req), body.values)
        return reply.code(201).send(row)
      } catch (e) {
        await body.cleanup()
        throw e
      }
    },
    update: (req) => (entity.rowsPerLine ? updateDocumentRoute(req as FastifyRequest<{ Params: IdParams }>) : update(req as FastifyRequest<{ Params: IdParams }>)),
    // The contract's message, in the request's language (English exactly as the contract writes it).
    // Its audit entries are one batch; an entity with a Trash answers it too (`batch`: what `restore/` undoes).
    delete: async (req) => {
      const { result, batch } = await inDeleteBatch(entity, () => (entity.rowsPerLine ? deleteDocument : deleteRow)(requestContext(deps, entity, req), rowIdOf(entity, (req.params as IdParams).id)))
      return { detail: say(req, result), ...(batch ? { batch } : {}) }
    },
    delete_multiple: async (req) => {
      const { result, batch } = await inDeleteBatch(entity, () => (entity.rowsPerLine ? deleteDocuments : deleteRows)(requestContext(deps, entity, req), idsOfBody(req.body)))
      return { detail: say(req, result), ...(batch ? { batch } : {}) }
    },
  }

  // At its base, and at each other base the contract gives the same resource (`alsoApi`).
  for (const base of entity.api.bases) {
    const serve = (route: GenericRoute, path: string) => {
      if (entity.api.except[base]?.includes(route)) return
      const { methods } = genericRoutePaths[route]
      app.route({ method: [...methods], url: `${base}/${path}`, config: actionConfig(entity, routeAction[route], path.includes(':id')), handler: handlers[route] })
    }

    // Fixed paths first: Fastify prefers static segments anyway, but the order reads as the contract's table.
    for (const route of ['all', 'search', 'without_pagination'] as const) if (entity.routes[route] === 'generic') serve(route, genericRoutePaths[route].path)
    // An alias of a route of one record takes its id too (`get_a_purchase_final_with_items/{id}`).
    for (const [alias, route] of Object.entries(entity.routeAliases)) if (entity.routes[route] === 'generic') serve(route, genericRoutePaths[route].path.includes(':id') ? `${alias}/:id` : `${alias}/`)

    for (const extra of entity.extraRoutes) {
      app.get<{ Params: { value: string } }>(`${base}/${extra.path}/:value`, { config: actionConfig(entity, 'LIST') }, async (req) => {
        const parsed = validatorOf(entity.fields[extra.field]!).safeParse(req.params.value)
        if (!parsed.success || parsed.data === null) throw new BusinessError({ key: 'detail.lookup_value', params: { field: extra.field, label: entity.fieldLabelKey(extra.field), value: req.params.value } })
        const { rows } = await readList(requestContext(deps, entity, req), {
          filters: [{ field: extra.field, op: 'equals', value: parsed.data as string | number }],
          ordering: entity.ordering,
        })
        return keyed(rows)
      })
    }

    // A document kept one row per line, whole, by the id of any of its rows: what its form edits.
    if (entity.rowsPerLine) {
      app.get<{ Params: IdParams }>(`${base}/document/:id`, { config: actionConfig(entity, 'DETAILS') }, async (req) =>
        readDocument(requestContext(deps, entity, req), rowIdOf(entity, req.params.id)),
      )
    }

    // A gallery's new order, all at once (EntityConfig.gallery).
    if (entity.gallery) {
      app.post(`${base}/reorder/`, { config: actionConfig(entity, 'UPDATE') }, async (req) => ({
        [entity.listKey]: await reorderGallery(requestContext(deps, entity, req), req.body),
      }))
    }

    for (const route of ['read', 'create', 'update', 'delete', 'delete_multiple'] as const) if (entity.routes[route] === 'generic') serve(route, genericRoutePaths[route].path)

    // What a delete would do, asked before it (the confirmation): `delete_impact/{id}`, or `delete_impact/?ids=1,2,3` for a selection.
    if (entity.routes.delete !== false || entity.routes.delete_multiple !== false) {
      const impact = async (req: FastifyRequest, target: number | number[]) => {
        const answer = await deleteImpact(requestContext(deps, entity, req), target)
        return { ...answer, ...(answer.detail ? { detail: say(req, answer.detail) } : {}) }
      }
      app.get<{ Params: IdParams }>(`${base}/delete_impact/:id`, { config: actionConfig(entity, 'DELETE') }, (req) => impact(req, rowIdOf(entity, req.params.id)))
      app.get<{ Querystring: { ids?: string | string[] } }>(`${base}/delete_impact/`, { config: actionConfig(entity, 'DELETE') }, (req) => {
        const raw = [req.query.ids ?? []].flat().flatMap((x) => String(x).split(','))
        const ids = raw.map((x) => x.trim()).filter((x) => x !== '')
        if (ids.length === 0 || ids.length > MAX_IDS || ids.some((x) => !isIdText(x))) throw new BusinessError({ key: 'detail.ids_query' })
        return impact(req, ids.map(Number))
      })
    }

    // Custom actions: `POST …/<action>/{id}` and its aliases, with the action's permission.
    for (const action of Object.values(entity.actions)) {
      const handler = deps.actions?.get(entity.name)?.[action.name]
      // A transition moves the status itself; a module's handler only adds a side effect.
      if (!handler && !action.transition) throw new Error(`The action '${action.name}' of '${entity.name}' has no handler: a domain module must give one (actions: { ${entity.name}: { ${action.name}: … } })`)
      for (const path of action.paths) {
        app.post<{ Params: IdParams }>(`${base}/${path}/:id`, { config: isOwnAction(entity, action.name) ? {} : { permission: action.permission } }, async (req) => {
          const body = req.body ?? {}
          if (typeof body !== 'object' || Array.isArray(body)) throw new BusinessError({ key: 'detail.json_object' })
          return runAction(requestContext(deps, entity, req), rowIdOf(entity, req.params.id), action.name, body as Record<string, unknown>, handler)
        })
      }
    }
  }
}
