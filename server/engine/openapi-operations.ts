import type { FastifyContextConfig } from 'fastify'
import { documentOf, routeAction, type Action, type Entity, type EntityAction, type Fields, type GenericRoute, type Report } from '../../schema/kit'
import type { Widget } from '../../schema/kit/widget'
import { DASHBOARD_API } from '../../schema/kit/widget'
import type { RecordShape } from '../../schema/kit/validators'
import { messageFor } from '../i18n'
import { isOwnAction } from './access'
import { deleteMessage } from './operations/delete'
import type { z } from 'zod'
import { MAX_ID } from '../../schema/kit/validators'
import { HISTORY_MAX_PAGE, HISTORY_PAGE } from './history'
import type { historyPage } from './openapi-answers'
import { exampleDocument, exampleInput, exampleRecord, EXAMPLE_ID } from './openapi-examples'
import { EXAMPLE_BATCH } from './route-docs'
import { listParameters, pageParameters, pathParameters, periodParameters, reportParameters, type Parameter } from './openapi-params'
import { answer, errorRef, json, type MediaType, type Response } from './openapi-responses'
import { en, entityLabel, entitySchemas, inputObject, orNull, ref, rowDiffers, schemaNames, valueSchema, type Schema } from './openapi-schemas'
import { actionConfig, genericRoutePaths, MAX_IDS } from './routes'

/**
 * The operations the registry describes in full — each entity's generic routes at every base,
 * aliases, extra routes, documents, galleries, delete impacts, histories and actions; the
 * reports' and the widgets' routes — keyed by `METHOD url` as Fastify registers them, with
 * the access each route's config gives it (derived as the engine derives it). The document
 * takes these for the routes the app registered; the rest it describes from the route table.
 */
export type RequestBody = { required?: boolean; description?: string; content: Record<string, MediaType> }

export type Operation = {
  operationId: string
  summary: string
  description?: string
  tags: string[]
  parameters?: Parameter[]
  requestBody?: RequestBody
  responses: Record<string, Response>
  /** The entity whose route it is, and which of its routes: a generic one, or extra, document, reorder, delete_impact, history, action. */
  'x-entity'?: string
  'x-route'?: string
}

export type Described = {
  operation: Operation
  /** The route config the registry gives it (permission, public, own row). */
  access: FastifyContextConfig
  /** Who else may call it, when the permission is not all (rows of one's own). */
  accessNote?: string
}

export type Registry = readonly Entity<string, Fields>[]

const key = (method: string, url: string) => `${method} ${url}`

const detailSchema = ref('Detail')
const envelopeOf = (keys: readonly string[], row: Schema): Schema => ({
  type: 'object',
  description: keys.length > 1 ? `The same rows under each of ${keys.join(', ')}.` : undefined,
  properties: {
    ...Object.fromEntries(keys.map((k) => [k, { type: 'array', items: row }])),
    page: { type: 'integer', minimum: 1 },
    size: { type: 'integer', minimum: 1, maximum: 100 },
    total_pages: { type: 'integer', minimum: 1 },
    total_elements: { type: 'integer', minimum: 0 },
  },
  required: [...keys, 'page', 'size', 'total_pages', 'total_elements'],
})
const keyedOf = (keys: readonly string[], row: Schema): Schema => ({ type: 'object', properties: Object.fromEntries(keys.map((k) => [k, { type: 'array', items: row }])), required: [...keys] })

const envelopeExample = (keys: readonly string[], row: unknown) => ({ ...Object.fromEntries(keys.map((k) => [k, [row]])), page: 1, size: 10, total_pages: 1, total_elements: 1 })
const keyedExample = (keys: readonly string[], row: unknown) => Object.fromEntries(keys.map((k) => [k, [row]]))

/** The name a base is known by (`paymentmethod` of `/paymentmethod/api/v1/paymentmethod`). */
const baseName = (base: string) => base.split('/')[1] ?? base

const fileFields = (shape: Pick<RecordShape, 'fields' | 'fieldNames'>) => shape.fieldNames.filter((n) => shape.fields[n]!.kind === 'file' && !shape.fields[n]!.isReadOnly)

/**
 * A record's body: JSON, and multipart/form-data when it takes files (each an upload under
 * its name). A create whose file is required is multipart alone: JSON carries no upload.
 */
function recordBody(shape: Entity<string, Fields>, mode: 'create' | 'update', schemaName: string): RequestBody {
  const example = exampleInput(shape, mode, shape.name)
  const files = fileFields(shape)
  if (files.length === 0) return { required: true, content: json(ref(schemaName), example) }
  const form = inputObject(shape, mode)
  const properties = { ...(form.properties as Record<string, Schema>) }
  for (const name of files) properties[name] = { type: 'string', contentMediaType: 'application/octet-stream', description: (properties[name]?.description as string | undefined) ?? name }
  const multipart: MediaType = {
    schema: { ...form, properties, description: "The record's fields as form fields (a list as comma-separated ids, a document's lines as items[i][field]), each file an upload under its name." },
    ...(mode === 'create' && files.some((n) => shape.fields[n]!.isRequired) ? { example } : {}),
  }
  const jsonTaken = !(mode === 'create' && files.some((n) => shape.fields[n]!.isRequired))
  return { required: true, content: { ...(jsonTaken ? json(ref(schemaName), example) : {}), 'multipart/form-data': multipart } }
}

const bodyOf = (schema: Schema, example: unknown): RequestBody => ({ required: true, content: json(schema, example) })

/** The 404 of an entity's record, as the server words it. */
const notFoundOf = (entity: Entity<string, Fields>): Response => ({
  description: `No such ${entityLabel(entity.name)} (or none the caller may reach).`,
  content: json(detailSchema, { detail: messageFor('en', { key: 'detail.not_found', params: { model: entity.model, entity: entity.labelKey, id: '999' } }) }),
})

/** A delete's answer: what was done, and for an entity with a Trash the batch `restore/` takes to undo it. */
const deleted = (entity: Entity<string, Fields>, example: string): Response =>
  entity.trash
    ? answer(
        "Moved to the Trash: what was done, in the request's language, and the batch that `restore/` takes to undo it.",
        { allOf: [detailSchema, { type: 'object', properties: { batch: { type: 'string', format: 'uuid' } }, required: ['batch'] }] },
        { detail: example, batch: EXAMPLE_BATCH },
      )
    : answer("Done: what was done, in the request's language.", detailSchema, { detail: example })

/** A record's history as its route answers it: the entry of its create. */
function historyExample(entity: Entity<string, Fields>, base: string): z.infer<typeof historyPage> {
  const input = exampleInput(entity, 'create', entity.name)
  const changes = Object.fromEntries(Object.entries(input).slice(0, 2).map(([name, value]): [string, [unknown, unknown]] => [name, [null, value]]))
  const entry = { id: EXAMPLE_ID, at: '2026-01-15T09:00:00.000Z', actor: 'admin', actor_id: 1, entity: entity.name, entity_id: EXAMPLE_ID, part: 'own' as const, label: null, action: 'create', source: `POST ${base}/create/`, batch: null, changes, labels: {}, masked: [], line: null }
  return { history: [entry], next: null }
}

/** The operations of one entity at every base it answers at. */
function entityOperations(entity: Entity<string, Fields>, out: Map<string, Described>): void {
  const notFound = notFoundOf(entity)
  const names = schemaNames(entity)
  const label = entityLabel(entity.name)
  const plural = entityLabel(entity.name, 'other')
  const row = rowDiffers(entity) ? ref(names.row) : ref(names.record)
  const record = ref(names.record)
  const rowExample = exampleRecord(entity, 'row')
  const recordExample = exampleRecord(entity)
  const doc = entity.rowsPerLine ? { schema: ref(names.document), example: exampleDocument(entity), shape: documentOf(entity) } : undefined
  const written = doc ?? { schema: record, example: recordExample, shape: entity }
  const idParam = pathParameters(':id')
  const ownNote = (permission: string) => `Without \`${permission}\`, a signed-in caller reaches only the ${plural} that are their own (by ${entity.own?.field ?? entity.own?.via}).`
  const tags = [entity.name]

  const generic = (route: GenericRoute, method: string, suffix: string, pathName: string): Operation => {
    const id = `${entity.name}_${pathName}${method === 'PATCH' ? '_patch' : ''}${suffix}`
    switch (route) {
      case 'all':
        return entity.paginateAll
          ? { operationId: id, tags, summary: `List ${plural} (a page)`, description: 'The filters of search/ apply too; a parameter it does not know is ignored.', parameters: listParameters(entity, true), responses: { 200: answer(`A page of ${plural}.`, envelopeOf(entity.listKeys, row), envelopeExample(entity.listKeys, rowExample)), 400: errorRef('BadRequest') } }
          : { operationId: id, tags, summary: `List every ${label}`, description: 'Every row at once; a parameter it does not know is ignored.', parameters: listParameters(entity, false), responses: { 200: answer(`Every ${label}.`, keyedOf(entity.listKeys, row), keyedExample(entity.listKeys, rowExample)), 400: errorRef('BadRequest') } }
      case 'search':
        return { operationId: id, tags, summary: `Search ${plural}`, description: 'A page of the rows that match every filter; an unknown parameter is a 400 naming the known ones.', parameters: listParameters(entity, true), responses: { 200: answer(`A page of ${plural}.`, envelopeOf(entity.searchKeys, row), envelopeExample(entity.searchKeys, rowExample)), 400: errorRef('BadRequest') } }
      case 'without_pagination':
        return { operationId: id, tags, summary: `List every ${label} matching the filters`, parameters: listParameters(entity, false), responses: { 200: answer(`Every matching ${label}.`, keyedOf(entity.listKeys, row), keyedExample(entity.listKeys, rowExample)), 400: errorRef('BadRequest') } }
      case 'read':
        return { operationId: id, tags, summary: `Read a ${label}`, description: "With the display names of its references in `_labels`, and a document's lines.", parameters: idParam, responses: { 200: answer(`The ${label}.`, record, recordExample), 404: notFound } }
      case 'create':
        return {
          operationId: id,
          tags,
          summary: `Create a ${label}`,
          requestBody: recordBody(written.shape, 'create', doc ? names.documentCreate : names.create),
          responses: { 201: answer(`The ${label} as stored.`, written.schema, written.example), 400: errorRef('BadRequest'), 409: errorRef('Conflict') },
        }
      case 'update':
        return {
          operationId: id,
          tags,
          summary: `Change a ${label}${method === 'PATCH' ? ' (PATCH)' : ''}`,
          description: 'The body is laid over the stored record (PUT and PATCH alike). Send back the updated_at you read: an older one is a 409.',
          parameters: idParam,
          requestBody: recordBody(written.shape, 'update', doc ? names.documentUpdate : names.update),
          responses: { 200: answer(`The ${label} as stored.`, written.schema, written.example), 400: errorRef('BadRequest'), 404: notFound, 409: errorRef('Conflict') },
        }
      case 'delete':
        return { operationId: id, tags, summary: `Delete a ${label}`, parameters: idParam, responses: { 200: deleted(entity, messageFor('en', deleteMessage(entity, EXAMPLE_ID, 'deleted'))), 404: notFound, 409: errorRef('Conflict') } }
      case 'delete_multiple':
        return {
          operationId: id,
          tags,
          summary: `Delete several ${plural}`,
          description: `All or nothing, at most ${MAX_IDS} ids.`,
          requestBody: bodyOf(ref('Ids'), { ids: [EXAMPLE_ID, 2] }),
          responses: { 200: deleted(entity, messageFor('en', deleteMessage(entity, [EXAMPLE_ID, 2], 'deleted'))), 400: errorRef('BadRequest'), 404: notFound, 409: errorRef('Conflict') },
        }
    }
  }

  for (const base of entity.api.bases) {
    const suffix = base === entity.api.base ? '' : `_at_${baseName(base)}`
    const add = (method: string, url: string, route: string, operation: Operation, access: FastifyContextConfig, note?: string) =>
      out.set(key(method, url), { operation: { ...operation, 'x-entity': entity.name, 'x-route': route }, access, ...(note ? { accessNote: note } : {}) })
    const own = (action: string) => (isOwnAction(entity, action) ? ownNote(entity.permissions[action as Action] ?? entity.actions[action]?.permission ?? action) : undefined)
    const serve = (route: GenericRoute, path: string, pathName: string) => {
      if (entity.api.except[base]?.includes(route) || entity.routes[route] !== 'generic') return
      const action = routeAction[route]
      for (const method of genericRoutePaths[route].methods) add(method, `${base}/${path}`, route, generic(route, method, suffix, pathName), actionConfig(entity, action, path.includes(':id')), own(action))
    }
    for (const route of Object.keys(genericRoutePaths) as GenericRoute[]) serve(route, genericRoutePaths[route].path, route)
    for (const [alias, route] of Object.entries(entity.routeAliases)) {
      serve(route, genericRoutePaths[route].path.includes(':id') ? `${alias}/:id` : `${alias}/`, alias.replace(/\W+/g, '_'))
    }

    for (const extra of entity.extraRoutes) {
      const field = entity.fields[extra.field]!
      add(
        'GET',
        `${base}/${extra.path}/:value`,
        'list_by',
        {
          operationId: `${entity.name}_${extra.path}${suffix}`,
          tags,
          summary: `Every ${label} whose ${en(entity.fieldLabelKey(extra.field))} is the value`,
          parameters: pathParameters(':value', { value: valueSchema(field, 'input') }),
          responses: { 200: answer(`Every such ${label}, unpaged.`, keyedOf(entity.listKeys, row), keyedExample(entity.listKeys, rowExample)), 400: errorRef('BadRequest') },
        },
        actionConfig(entity, 'LIST'),
        own('LIST'),
      )
    }

    if (entity.rowsPerLine && doc) {
      add(
        'GET',
        `${base}/document/:id`,
        'document',
        { operationId: `${entity.name}_document${suffix}`, tags, summary: `Read a ${label} whole, by the id of any of its rows`, parameters: idParam, responses: { 200: answer(`The ${label}: its header and lines.`, doc.schema, doc.example), 404: notFound } },
        actionConfig(entity, 'DETAILS'),
        own('DETAILS'),
      )
    }

    if (entity.gallery) {
      const { of } = entity.gallery
      const body: Schema = {
        type: 'object',
        properties: { [of]: { type: 'integer', minimum: 1, description: `The ${entityLabel(entity.fields[of]!.ref!.target)} whose pictures these are.` }, ids: { type: 'array', items: { type: ['integer', 'string'] }, maxItems: 1000, description: 'Every one of its pictures, once each, in their new order.' } },
        required: [of, 'ids'],
      }
      add(
        'POST',
        `${base}/reorder/`,
        'reorder',
        { operationId: `${entity.name}_reorder${suffix}`, tags, summary: `Put ${plural} in a new order`, requestBody: bodyOf(body, { [of]: EXAMPLE_ID, ids: [2, EXAMPLE_ID] }), responses: { 200: answer(`The ${plural}, in their new order.`, keyedOf([entity.listKey], row), keyedExample([entity.listKey], rowExample)), 400: errorRef('BadRequest') } },
        actionConfig(entity, 'UPDATE'),
      )
    }

    if (entity.routes.delete !== false || entity.routes.delete_multiple !== false) {
      const impact = answer('What the delete would do.', ref('DeleteImpact'), { ids: [EXAMPLE_ID], can_delete: true, references: [] })
      add('GET', `${base}/delete_impact/:id`, 'delete_impact', { operationId: `${entity.name}_delete_impact${suffix}`, tags, summary: `What deleting a ${label} would do`, parameters: idParam, responses: { 200: impact, 404: notFound } }, actionConfig(entity, 'DELETE'), own('DELETE'))
      add(
        'GET',
        `${base}/delete_impact/`,
        'delete_impact',
        {
          operationId: `${entity.name}_delete_impact_many${suffix}`,
          tags,
          summary: `What deleting several ${plural} would do`,
          parameters: [{ name: 'ids', in: 'query', required: true, description: `Their ids, comma-separated (at most ${MAX_IDS}).`, schema: { type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 1, maxItems: MAX_IDS }, style: 'form', explode: false }],
          responses: { 200: impact, 400: errorRef('BadRequest'), 404: notFound },
        },
        actionConfig(entity, 'DELETE'),
        own('DELETE'),
      )
    }

    if (entity.hasHistory) {
      add(
        'GET',
        `${base}/history/:id`,
        'history',
        {
          operationId: `${entity.name}_history${suffix}`,
          tags,
          summary: `The history of a ${label}`,
          description: "Its audit entries — created, changed, moved by an action (with what it was given), mailed — its document's lines' and those of the related rows that refer to it which the caller may list, each with who, when, from where and the bulk operation it was part of; newest first, a page at a time (`next` is the `before` of the page after).",
          parameters: [
            ...idParam,
            { name: 'size', in: 'query', description: `Entries a page (at most ${HISTORY_MAX_PAGE}).`, schema: { type: 'integer', minimum: 1, maximum: HISTORY_MAX_PAGE, default: HISTORY_PAGE }, example: 20 },
            { name: 'before', in: 'query', description: "Entries older than this one (the previous page's `next`).", schema: { type: 'integer', minimum: 1, maximum: MAX_ID } },
          ],
          responses: { 200: answer('A page of its history.', ref('HistoryPage'), historyExample(entity, base)), 400: errorRef('BadRequest'), 404: notFound },
        },
        { permission: entity.permissions.DETAILS },
      )
    }

    for (const action of Object.values(entity.actions)) {
      for (const path of action.paths) {
        add('POST', `${base}/${path}/:id`, 'action', actionOperation(entity, action, path, suffix, record, recordExample), isOwnAction(entity, action.name) ? {} : { permission: action.permission }, own(action.name))
      }
    }
  }
}

function actionOperation(entity: Entity<string, Fields>, action: EntityAction, path: string, suffix: string, record: Schema, recordExample: unknown): Operation {
  const notFound = notFoundOf(entity)
  const label = entityLabel(entity.name)
  const shape = { fields: action.input, fieldNames: action.inputNames, rules: [], linesFieldNames: [], fieldLabelKey: (n: string) => action.input[n]?.label ?? `field.${n}` }
  const transition = action.transition ? ` Moves ${action.transition.field} from ${action.transition.from.join(' or ')} to ${action.transition.to}.` : ''
  return {
    operationId: `${entity.name}_${path}${suffix}`,
    tags: [entity.name],
    summary: `${en(action.labelKey)} (${label})`,
    description: `A custom action of the ${label}.${transition} A 409 when it does not apply to the record in its state.${path !== action.name ? ` Another path of ${action.name}.` : ''}`,
    parameters: pathParameters(':id'),
    requestBody:
      action.inputNames.length > 0
        ? { required: true, content: json(inputObject(shape), exampleInput(shape, 'create', entity.name)) }
        : { required: false, description: 'No input: an empty JSON object, or no body.', content: json({ type: 'object' }, {}) },
    responses: { 200: answer(`The ${label} as it is after.`, record, recordExample), 400: errorRef('BadRequest'), 404: notFound, 409: errorRef('Conflict') },
  }
}

/** A report's row: its columns, each as a column of that kind answers. */
const reportRow = (report: Report): Schema => ({
  type: 'object',
  properties: Object.fromEntries(report.columnNames.map((c) => [c, { ...orNull(valueSchema(report.columns[c]!, 'output')), description: en(report.fieldLabelKey(c)) }])),
})

export const reportSchemaName = (report: Report) => `Report${report.name.replace(/(^|_)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase())}Row`

function reportOperations(report: Report, out: Map<string, Described>): void {
  const title = en(report.labelKey)
  const access = { permission: report.permission }
  const params = reportParameters(report)
  const row = ref(reportSchemaName(report))
  const tags = [`report:${report.name}`]
  const run: Schema = {
    type: 'object',
    description: 'A page of rows, the count and the totals over every row (and whatever else the report knows).',
    properties: {
      rows: { type: 'array', items: row },
      page: { type: 'integer' },
      size: { type: 'integer' },
      total_pages: { type: 'integer' },
      total_elements: { type: 'integer' },
      totals: { type: 'object', properties: Object.fromEntries(report.totals.map((c) => [c, { type: 'string' }])) },
      ...(report.hiddenNames.length > 0 ? { hidden: { type: 'array', description: "A row each: what a figure's drill-down opens.", items: { type: 'object', properties: Object.fromEntries(report.hiddenNames.map((h) => [h, orNull(valueSchema(report.hidden[h]!, 'output'))])) } } } : {}),
    },
    required: ['rows', 'page', 'size', 'total_pages', 'total_elements', 'totals'],
  }
  const base = report.api.base
  const add = (url: string, operation: Operation) => out.set(key('GET', url), { operation, access })
  add(`${base}/`, { operationId: `report_${report.name}`, tags, summary: title, parameters: [...params, ...(report.isPaged ? pageParameters : [])], responses: { 200: answer(`The ${title}.`, run), 400: errorRef('BadRequest') } })
  add(`${base}/csv`, {
    operationId: `report_${report.name}_csv`,
    tags,
    summary: `${title} as CSV`,
    description: "Every row, streamed, with the column names in the request's language.",
    parameters: params,
    responses: { 200: { description: 'The CSV file.', content: { 'text/csv': { schema: { type: 'string' } } } }, 400: errorRef('BadRequest') },
  })
  add(`${base}/pdf`, {
    operationId: `report_${report.name}_pdf`,
    tags,
    summary: `${title} as PDF`,
    description: "In the request's language, with the parameters used and the totals; at most 10,000 rows, said so when cut.",
    parameters: params,
    responses: { 200: { description: 'The PDF file.', content: { 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } } } }, 400: errorRef('BadRequest') },
  })
  if (report.chart) {
    add(`${base}/chart`, { operationId: `report_${report.name}_chart`, tags, summary: `${title}: its chart's points`, description: `Every row summed per ${report.chart.label}.`, parameters: params, responses: { 200: answer("The chart's points.", ref('ChartPoints')), 400: errorRef('BadRequest') } })
  }
  const contract = report.contract
  if (contract) {
    const listed: Schema = contract.map ? { type: 'object', description: `${contract.map.value} by ${contract.map.key}.`, additionalProperties: true } : { type: 'array', items: row }
    add(contract.path, {
      operationId: `report_${report.name}_contract`,
      tags,
      summary: `${title} (the contract's route)`,
      parameters: [...params, ...(report.isPaged ? pageParameters : [])],
      responses: { 200: answer(`The ${title}.`, { type: 'object', properties: { [contract.key]: listed, page: { type: 'integer' }, size: { type: 'integer' }, total_pages: { type: 'integer' }, total_elements: { type: 'integer' } }, required: [contract.key] }), 400: errorRef('BadRequest') },
    })
  }
}

/** A widget's data, by kind: a figure's count and amount, a list's rows, a chart's points. */
function widgetData(w: Widget): Schema {
  if (w.kind === 'figure') return { type: 'object', properties: { count: { type: 'integer' }, amount: { type: ['string', 'null'] } }, required: ['count'] }
  if (w.kind === 'list') return { type: 'object', properties: { rows: { type: 'array', items: { type: 'object', properties: Object.fromEntries(Object.keys(w.columns).map((c) => [c, {}])) } } }, required: ['rows'] }
  return { type: 'object', properties: { points: { type: 'array', items: ref('WidgetPoint') } }, required: ['points'] }
}

function widgetOperations(registry: Registry, widgets: readonly Widget[], out: Map<string, Described>): void {
  for (const w of widgets) {
    const reads = registry.find((e) => e.name === w.reads)
    if (!w.route || !reads) continue
    const data = w.kind === 'figure' ? widgetData(w) : { type: 'object', properties: { [w.answerKey]: (widgetData(w).properties as Record<string, Schema>)[w.kind === 'list' ? 'rows' : 'points'] }, required: [w.answerKey] }
    for (const [url, suffix] of [[`${DASHBOARD_API}/${w.route}/`, ''], [`${DASHBOARD_API}/dashboard/${w.route}/`, '_dashboard']] as const) {
      out.set(key('GET', url), {
        operation: { operationId: `widget_${w.name}${suffix}`, tags: ['dashboard'], summary: `${en(w.labelKey)} (the ${w.dashboard} dashboard)`, parameters: periodParameters, responses: { 200: answer(`The widget's ${w.kind === 'figure' ? 'figure' : w.kind === 'list' ? 'rows' : 'points'}.`, data), 400: errorRef('BadRequest') } },
        access: { permission: reads.permissions.LIST },
      })
    }
  }
  const dashboards = [...new Set(widgets.map((w) => w.dashboard))]
  out.set(key('GET', `${DASHBOARD_API}/widgets/`), {
    operation: {
      operationId: 'widgets',
      tags: ['dashboard'],
      summary: "Every widget of a dashboard the caller may read, at once",
      parameters: [{ name: 'dashboard', in: 'query', description: 'Which dashboard (default project).', schema: { type: 'string', enum: dashboards.length > 0 ? dashboards : ['project'] } }, ...periodParameters],
      responses: { 200: answer('Each widget the caller may read, by name.', { type: 'object', properties: { widgets: { type: 'object', additionalProperties: { anyOf: [widgetData({ kind: 'figure' } as Widget), { type: 'object', properties: { rows: { type: 'array' } } }, { type: 'object', properties: { points: { type: 'array', items: ref('WidgetPoint') } } }] } } }, required: ['widgets'] }), 400: errorRef('BadRequest') },
    },
    access: {},
  })
}

/** Every operation the registry describes, by `METHOD url`. */
export function describedOperations(options: { registry: Registry; reports: readonly Report[]; widgets: readonly Widget[] }): Map<string, Described> {
  const out = new Map<string, Described>()
  for (const entity of options.registry) if (!entity.isLine) entityOperations(entity, out)
  for (const report of options.reports) reportOperations(report, out)
  widgetOperations(options.registry, options.widgets, out)
  return out
}

/** The schema components the registry gives: each routed entity's, each report's row, the widgets' points. */
export function registrySchemas(options: { registry: Registry; reports: readonly Report[] }): Record<string, Schema> {
  const out: Record<string, Schema> = {}
  for (const entity of options.registry) if (!entity.isLine) Object.assign(out, entitySchemas(entity))
  for (const report of options.reports) out[reportSchemaName(report)] = { ...reportRow(report), title: en(report.labelKey) }
  out.WidgetPoint = { type: 'object', properties: { label: { type: 'string' }, value: { type: ['number', 'string'] }, key: { type: ['string', 'integer', 'null'] }, translate: { type: 'boolean' } }, required: ['label', 'value'] }
  return out
}
