import type { FastifyContextConfig } from 'fastify'
import type { Entity, Fields, Report } from '../../schema/kit'
import type { Widget } from '../../schema/kit/widget'
import pkg from '../../package.json' with { type: 'json' }
import { describedOperations, registrySchemas, type Described, type Operation, type RequestBody } from './openapi-operations'
import { openApiPath, pathParameters, type Parameter } from './openapi-params'
import { errorRef, errorResponses, json, type Response } from './openapi-responses'
import { commonSchemas, en, entityLabel, ref, type Schema } from './openapi-schemas'
import { messageFor } from '../i18n'

/**
 * The app's OpenAPI 3.1 document, built from what it actually serves: every route of its
 * route table (server/app.ts keeps each with its config), described in full where the
 * registry describes it (server/engine/openapi-operations.ts) and otherwise by its method,
 * path parameters and access. Each operation says the permission it needs (`x-permission`,
 * and in words), whether it needs a token, and the errors every route may answer.
 */
export type RouteEntry = { readonly method: string; readonly url: string; readonly config: FastifyContextConfig }

/** What a route no declaration describes may say of itself in its config (`config.openapi`): the document shows it. */
export type RouteDoc = {
  readonly summary?: string
  readonly description?: string
  /** The entity whose route it is, and which route (`x-entity`, `x-route`). */
  readonly entity?: string
  readonly route?: string
  /** Its query parameters, and its path parameters where their names do not say their type. */
  readonly parameters?: readonly Parameter[]
  /** Its JSON body's schema (`body`), or its body whole (`requestBody`: other media types, an example). */
  readonly body?: Schema
  readonly requestBody?: RequestBody
  /** Its 200's JSON schema (`answer`), or its answers by status (`responses`, laid over the 400 and 404 any such route may give). */
  readonly answer?: Schema
  readonly responses?: Readonly<Record<string, Response>>
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's words, parameters, body and answers in the OpenAPI document (server/engine/openapi.ts), when the
     * registry does not describe it: made when the document is first asked for (a function), not with every app.
     */
    openapi?: RouteDoc | (() => RouteDoc)
  }
}

export type OpenApiOperation = Operation & { security?: Array<Record<string, string[]>>; 'x-permission'?: string | readonly string[]; 'x-public'?: boolean }

export type OpenApiDocument = {
  openapi: '3.1.0'
  info: { title: string; version: string; description: string }
  servers: Array<{ url: string }>
  tags: Array<{ name: string; description: string }>
  'x-tagGroups': Array<{ name: string; tags: string[] }>
  paths: Record<string, Record<string, OpenApiOperation>>
  components: { schemas: Record<string, Schema>; responses: Record<string, Response>; securitySchemes: Record<string, Schema> }
}

export type OpenApiOptions = {
  registry: readonly Entity<string, Fields>[]
  reports: readonly Report[]
  widgets: readonly Widget[]
  /** The app's routes (its route table). */
  routes: readonly RouteEntry[]
}

/** The docs' own files (not its page), the CORS preflight and every GET's HEAD: not operations of the API. */
export const DOCS_PREFIX = '/api/docs'
export function isDocumented(route: Pick<RouteEntry, 'method' | 'url'>): boolean {
  if (route.method === 'HEAD' || route.method === 'OPTIONS') return false
  // Files served from a folder (`/media/*`, the docs' assets): not operations.
  if (route.url.includes('*')) return false
  return !route.url.startsWith(`${DOCS_PREFIX}/`)
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

const permissionsText = (permission: string | readonly string[]) =>
  typeof permission === 'string' ? `Permission: \`${permission}\`.` : `Any one of the permissions: ${permission.map((p) => `\`${p}\``).join(', ')}.`

/** The 403 of an operation, naming what it needs as the server does. */
const forbidden = (permissions: readonly string[]): Response => ({
  description: 'The caller holds none of the permissions the operation needs.',
  content: json(ref('Detail'), { detail: messageFor('en', { key: 'detail.forbidden', params: { permissions: permissions.join(', ') } }) }),
})

/** What the access of a route is, in the document's words and fields. */
function accessOf(config: FastifyContextConfig, note?: string): Pick<OpenApiOperation, 'security' | 'x-permission' | 'x-public'> & { text: string; responses: Record<string, Response> } {
  if (config.isPublic) return { 'x-public': true, text: 'Public: no token needed.', responses: {} }
  const security = [{ bearerAuth: [] }]
  const unauthorized = { 401: errorRef('Unauthorized') }
  if (config.permission === undefined) return { security, text: ['Any signed-in user.', note].filter(Boolean).join(' '), responses: unauthorized }
  const self = config.selfParam ? ` Also open to the user whose id is \`${config.selfParam}\` (their own).` : config.selfQuery ? ` Also open to the user whose id is the query's \`${config.selfQuery}\` (their own).` : ''
  return {
    security,
    'x-permission': config.permission,
    text: `${permissionsText(config.permission)}${self}${note ? ` ${note}` : ''}`,
    responses: { ...unauthorized, 403: forbidden([config.permission].flat()) },
  }
}

/** Where a route belongs: the entity whose API it is under, a report, or the first word of its path. */
function tagOf(url: string, registry: readonly Entity<string, Fields>[]): string {
  const entity = registry.find((e) => !e.isLine && e.api.bases.some((b) => url.startsWith(`${b}/`))) ?? registry.find((e) => !e.isLine && url.startsWith(`/${e.name}/api/`))
  if (entity) return entity.name
  const segments = url.split('/').filter((s) => s !== '' && !s.startsWith(':'))
  if (segments[0] === 'api') return segments[1] ?? 'api'
  return segments[0] ?? 'api'
}

/** A route no declaration describes: its method, path parameters and access, what its config says of it, and the errors any route may answer. */
function minimalOperation(route: RouteEntry, tag: string): Operation {
  const said = typeof route.config.openapi === 'function' ? route.config.openapi() : route.config.openapi
  const typed = new Map((said?.parameters ?? []).filter((p) => p.in === 'path').map((p) => [p.name, p]))
  const inPath = pathParameters(route.url).map((p) => typed.get(p.name) ?? p)
  const parameters = [...inPath, ...(said?.parameters ?? []).filter((p) => p.in === 'query')]
  const requestBody = said?.requestBody ?? (said?.body ? { required: true, content: json(said.body) } : undefined)
  const isAnswered = Object.keys(said?.responses ?? {}).some((status) => status.startsWith('2'))
  return {
    operationId: `${route.method.toLowerCase()}_${route.url.replace(/:(\w+)/g, 'by_$1').replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
    tags: [tag],
    summary: said?.summary ?? `${route.method} ${openApiPath(route.url)}`,
    description: said?.description ?? "A domain module's own route: its body and answer are the module's (server/domain/).",
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: {
      ...(isAnswered ? {} : { 200: { description: 'Done.', content: json(said?.answer ?? {}) } }),
      400: errorRef('BadRequest'),
      ...(inPath.length > 0 ? { 404: errorRef('NotFound') } : {}),
      ...said?.responses,
    },
    ...(said?.entity ? { 'x-entity': said.entity } : {}),
    ...(said?.route ? { 'x-route': said.route } : {}),
  }
}

const docsOperation = (route: RouteEntry): Described | undefined => {
  if (route.url === '/api/openapi.json') return { access: route.config, operation: { operationId: 'openapi', tags: ['docs'], summary: 'This document', responses: { 200: { description: 'The OpenAPI 3.1 document.', content: json({ type: 'object' }) } } } }
  if (route.url === DOCS_PREFIX) return { access: { isPublic: true }, operation: { operationId: 'docs', tags: ['docs'], summary: 'This document, to browse (Swagger UI)', responses: { 200: { description: 'The page.', content: { 'text/html': { schema: { type: 'string' } } } } } } }
  return undefined
}

const INFO = `The back-office's HTTP API, generated from its entity registry and the routes the server registers.

**Sign in** with \`POST /user/api/v1/user/login/\` \`{email, password}\` and send \`Authorization: Bearer <access>\`. Each operation says the permission it needs (\`x-permission\`; a list: any one of them); an admin passes every check.

**Errors**: 400 with a field map \`{field: [message]}\` or \`{detail}\`, in the language of \`Accept-Language\` (en, tr, ar); 401 without a valid token; 403 without the permission; 404 for an unknown record; 409 when the record's state refuses it.

Routes answer with and without the trailing slash, and every GET answers HEAD.`

/** The document of the app's routes. */
export function buildOpenApi(options: OpenApiOptions): OpenApiDocument {
  const described = describedOperations(options)
  const paths: OpenApiDocument['paths'] = {}
  const used = new Set<string>()
  const tags = new Set<string>()
  for (const route of options.routes) {
    if (!isDocumented(route)) continue
    const method = route.method.toLowerCase() as (typeof METHODS)[number]
    if (!METHODS.includes(method)) continue
    const found = described.get(`${route.method} ${route.url}`) ?? docsOperation(route)
    const { operation, access, accessNote } = found ?? { operation: minimalOperation(route, tagOf(route.url, options.registry)), access: route.config, accessNote: undefined }
    const { text, responses, ...security } = accessOf(access, accessNote)
    // Unique whatever a module names its paths: a second of the same name is numbered.
    let operationId = operation.operationId
    for (let n = 2; used.has(operationId); n++) operationId = `${operation.operationId}_${n}`
    used.add(operationId)
    for (const tag of operation.tags) tags.add(tag)
    const path = openApiPath(route.url)
    paths[path] ??= {}
    paths[path][method] = {
      ...operation,
      operationId,
      description: [operation.description, text].filter(Boolean).join('\n\n'),
      ...security,
      responses: { ...operation.responses, ...responses },
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Back-office API', version: pkg.version, description: INFO },
    servers: [{ url: '/' }],
    tags: [...tags].sort().map((name) => ({ name, description: tagDescription(name, options) })),
    'x-tagGroups': tagGroups([...tags], options),
    paths,
    components: {
      schemas: { ...commonSchemas, ...registrySchemas(options) },
      responses: errorResponses,
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The access token of POST /user/api/v1/user/login/.' } },
    },
  }
}

function tagDescription(name: string, options: OpenApiOptions): string {
  const entity = options.registry.find((e) => e.name === name)
  if (entity) return `${entityLabel(entity.name, 'other')} (module ${entity.module}): ${entity.api.bases.join(', ')}`
  const report = name.startsWith('report:') ? options.reports.find((r) => `report:${r.name}` === name) : undefined
  if (report) return `The report ${en(report.labelKey)} (module ${report.module}).`
  if (name === 'dashboard') return 'The dashboard widgets.'
  if (name === 'docs') return 'This document.'
  return `Routes under /${name === 'auth' || name === 'health' || name === 'quick-panel' ? `api/${name}` : name}.`
}

/** Tags grouped by module, for readers that group them (Redoc's x-tagGroups). */
function tagGroups(tags: readonly string[], options: OpenApiOptions): OpenApiDocument['x-tagGroups'] {
  const groups = new Map<string, string[]>()
  for (const tag of [...tags].sort()) {
    const module = options.registry.find((e) => e.name === tag)?.module ?? options.reports.find((r) => `report:${r.name}` === tag)?.module ?? 'other'
    groups.set(module, [...(groups.get(module) ?? []), tag])
  }
  return [...groups].sort(([a], [b]) => a.localeCompare(b)).map(([name, list]) => ({ name, tags: list }))
}
