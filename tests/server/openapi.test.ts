import Ajv2020 from 'ajv/dist/2020'
import addFormats from 'ajv-formats'
import { beforeAll, describe, expect, it } from 'vitest'
import { entities, reports } from '../../schema'
import { documentOf, type Entity, type Fields, type Message } from '../../schema/kit'
import { BusinessError } from '../../server/engine/errors'
import { filterParameters, sortableFields } from '../../server/engine/openapi-params'
import type { OpenApiDocument, OpenApiOperation } from '../../server/engine/openapi'
import { filtersOf, orderingOf } from '../../server/engine/request'
import { throwawayEntities, throwawayReports } from '../support/throwaway-registry'
import { describeOnOneDatabase, type Reply, type TestApp } from './helpers/app'
import { multipart } from './helpers/multipart'
import { requestOf } from './helpers/samples'
import { throwawayApp, useThrowawayLabels } from './helpers/throwaway-module'

/**
 * The API's OpenAPI document (issue 25), generated from the registry and the route table:
 * valid OpenAPI 3.1 in shape, every route the server registers in it and nothing else, each
 * operation's permission the one its route enforces, and every request example one the
 * schema and the server accept — for the app's registry and for one defined at run time.
 */
type Doc = OpenApiDocument
type Media = { schema: Record<string, unknown>; example?: unknown; examples?: Record<string, { value: unknown }> }
type Op = OpenApiOperation & { requestBody?: { content: Record<string, Media> } }

/** Every example of a media type: its `example`, and each of its `examples`. */
const examplesOf = (media: Media): Array<{ name: string; value: unknown }> => [
  ...(media.example !== undefined ? [{ name: 'example', value: media.example }] : []),
  ...Object.entries(media.examples ?? {}).map(([name, e]) => ({ name, value: e.value })),
]

/** The engine's routes beyond the contract, each of which describes itself in full (server/engine/route-docs.ts), and the history (openapi-operations.ts). */
const ENGINE_ROUTES = ['export', 'import_preview', 'import', 'import_rejected', 'bulk_update', 'undo', 'trash', 'restore', 'purge', 'search', 'history']
const ENGINE_PATH = /\/(export\/|import\/preview\/|import\/|import\/rejected\/\{token\}|bulk_update\/|undo\/\{batch\}|trash\/|restore\/|purge\/|history\/\{id\})$|^\/api\/search\/$/

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']

const operationsOf = (doc: Doc): Array<{ path: string; method: string; op: Op }> =>
  Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).filter(([m]) => METHODS.includes(m)).map(([method, op]) => ({ path, method, op: op as Op })))

/** What the server serves that is not the API: the CORS preflight, every GET's HEAD, files from folders (uploads, the docs' assets). */
const isApiRoute = (r: { method: string; url: string }) => r.method !== 'HEAD' && r.method !== 'OPTIONS' && !r.url.includes('*') && !r.url.startsWith('/api/docs/')

const fastifyPath = (url: string) => url.replace(/:(\w+)/g, '{$1}')

/** Every `$ref` in the document, with where it is. */
function refsIn(value: unknown, at = '#', out: Array<{ ref: string; at: string }> = []): Array<{ ref: string; at: string }> {
  if (Array.isArray(value)) value.forEach((v, i) => refsIn(v, `${at}/${i}`, out))
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push({ ref: v, at })
      else refsIn(v, `${at}/${k}`, out)
    }
  }
  return out
}

const resolvePointer = (doc: unknown, ref: string): unknown =>
  ref
    .replace(/^#\//, '')
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, part) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), doc)

/** A validator of the document's schemas (JSON Schema 2020-12, OpenAPI 3.1's dialect), its components reachable by `$ref`. */
function schemaValidator(doc: Doc) {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats(ajv)
  const rewrite = (value: unknown): unknown => JSON.parse(JSON.stringify(value).replace(/"#\/components\/schemas\//g, '"components#/$defs/'))
  ajv.addSchema({ $id: 'components', $defs: rewrite(doc.components.schemas) as object })
  // The same schema (an entity's row, a shared answer) compiled once.
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>()
  return (schema: unknown, value: unknown) => {
    const text = JSON.stringify(schema)
    const validate = compiled.get(text) ?? ajv.compile(rewrite(schema) as object)
    compiled.set(text, validate)
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`)
  }
}


/** Whether a form field is an upload (a file field). */
const isUpload = (schema: Record<string, unknown>, name: string) => typeof (schema.properties as Record<string, Record<string, unknown>> | undefined)?.[name]?.contentMediaType === 'string'

/** The example of an operation's body: its JSON one, or its form's. */
const exampleOf = (op: Op): unknown => op.requestBody?.content['application/json']?.example ?? op.requestBody?.content['multipart/form-data']?.example

/** What a create of the entity takes: the record, or for one kept a row per line its document. */
const writtenShape = (entity: Entity<string, Fields>) => (entity.rowsPerLine ? documentOf(entity) : entity)


/** The request an operation's examples make: its path and query parameters' examples (a row id 1 where a path names none), its body's example (a form's uploads as files). */
function exampleRequest(path: string, op: Op): { url: string; payload?: unknown; headers?: Record<string, string> } {
  let url = path
  const query = new URLSearchParams()
  for (const p of op.parameters ?? []) {
    const value = p.example ?? (p.in === 'path' ? 1 : undefined)
    if (value === undefined) continue
    const text = Array.isArray(value) ? value.join(',') : String(value)
    if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(text))
    else query.set(p.name, text)
  }
  if ([...query].length > 0) url = `${url}?${query.toString()}`
  const content = op.requestBody?.content ?? {}
  if (content['application/json']?.example !== undefined) return { url, payload: content['application/json'].example }
  const form = content['multipart/form-data']
  if (form?.example !== undefined) {
    const values = Object.entries(form.example as Record<string, unknown>)
    const fields = Object.fromEntries(values.filter(([n]) => !isUpload(form.schema, n)).map(([n, v]) => [n, String(v)]))
    const files = values.filter(([n]) => isUpload(form.schema, n)).map(([name, v]) => ({ name, filename: 'example.csv', type: 'text/csv', data: Buffer.from(String(v)) }))
    return { url, ...multipart(fields, files) }
  }
  return { url }
}

type Validate = ReturnType<typeof schemaValidator>

/** Whether an answer is one the operation documents: its status, its media type, and a JSON body (or each NDJSON line) its schema takes. */
function documentedProblems(doc: Doc, validate: Validate, at: string, op: Op, res: Reply): string[] {
  const said = op.responses[String(res.status)]
  if (!said) return [`${at}: ${res.status} is not documented (${Object.keys(op.responses).join(', ')}): ${res.raw.slice(0, 200)}`]
  const response = ('$ref' in said ? resolvePointer(doc, said.$ref) : said) as { content?: Record<string, Media> }
  if (!response.content) return []
  const type = String(res.headers['content-type'] ?? '').split(';')[0]!.trim()
  const media = Object.entries(response.content).find(([t]) => t.split(';')[0]!.trim() === type)?.[1]
  if (!media) return [`${at}: ${res.status} answered ${type}, documented ${Object.keys(response.content).join(', ')}`]
  const values = type === 'application/json' ? [res.body] : type === 'application/x-ndjson' ? res.raw.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as unknown) : []
  return values.flatMap((value) => validate(media.schema, value).map((e) => `${at} ${res.status}: ${e} in ${JSON.stringify(value).slice(0, 300)}`))
}

/** An answer's example of a media type. */
const answerExample = (op: Op, status: number, type: string): unknown => {
  const response = op.responses[status] as { content?: Record<string, Media> } | undefined
  return Object.entries(response?.content ?? {}).find(([t]) => t.split(';')[0] === type)?.[1]?.example
}

function documentSuite(t: { readonly current: TestApp }, registry: readonly Entity<string, Fields>[]): () => Doc {
  let doc: Doc
  const ops = () => operationsOf(doc)
  beforeAll(async () => {
    doc = (await t.current.call({ method: 'GET', url: '/api/openapi.json', asAnonymous: true })).body as Doc
  })

  it('answers the document without a token, as OpenAPI 3.1', async () => {
    const res = await t.current.call({ method: 'GET', url: '/api/openapi.json', asAnonymous: true })
    expect(res.status).toBe(200)
    expect(String(res.headers['content-type'])).toMatch(/^application\/json/)
    expect(res.body).toEqual(doc)
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.info.title).toBeTruthy()
    expect(doc.components.securitySchemes.bearerAuth).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }))
    // Swagger UI reads the same document.
    const ui = await t.current.call({ method: 'GET', url: '/api/docs/json', asAnonymous: true })
    expect(ui.status).toBe(200)
    expect(ui.body).toEqual(doc)
  })

  it('declares every path parameter, and only those', () => {
    const problems: string[] = []
    for (const { path, method, op } of ops()) {
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort()
      const declared = (op.parameters ?? []).filter((p) => p.in === 'path')
      if (JSON.stringify(declared.map((p) => p.name).sort()) !== JSON.stringify(inPath)) problems.push(`${method} ${path}: ${declared.map((p) => p.name).join(',')} vs ${inPath.join(',')}`)
      if (declared.some((p) => p.required !== true)) problems.push(`${method} ${path}: a path parameter not required`)
      const names = (op.parameters ?? []).map((p) => `${p.in}:${p.name}`)
      if (new Set(names).size !== names.length) problems.push(`${method} ${path}: a parameter twice`)
    }
    expect(problems).toEqual([])
  })

  it('resolves every $ref, and names each operation once', () => {
    const unresolved = refsIn(doc).filter(({ ref }) => !ref.startsWith('#/') || resolvePointer(doc, ref) === undefined)
    expect(unresolved).toEqual([])
    const ids = ops().map(({ op }) => op.operationId)
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([])
    for (const { op, path, method } of ops()) {
      expect(op.responses, `${method} ${path}`).toBeTruthy()
      expect(op.tags?.length, `${method} ${path}`).toBeGreaterThan(0)
      expect(op.tags!.every((tag) => doc.tags.some((x) => x.name === tag)), `${method} ${path}`).toBe(true)
    }
  })

  it('documents every route the server registers, and nothing else', () => {
    const registered = new Set(t.current.app.routeTable.filter(isApiRoute).map((r) => `${r.method.toLowerCase()} ${fastifyPath(r.url)}`))
    const documented = new Set(ops().map(({ method, path }) => `${method} ${path}`))
    expect([...registered].filter((k) => !documented.has(k)), 'routes missing from the document').toEqual([])
    expect([...documented].filter((k) => !registered.has(k)), 'operations with no route').toEqual([])
  })

  it("says the permission each route's config enforces, and a token where one is needed", () => {
    const byKey = new Map(ops().map((o) => [`${o.method} ${o.path}`, o.op]))
    const problems: string[] = []
    for (const route of t.current.app.routeTable.filter(isApiRoute)) {
      const op = byKey.get(`${route.method.toLowerCase()} ${fastifyPath(route.url)}`)!
      // The docs' page and the health check sit outside the API's guard: public whatever their config.
      const isPublic = route.config.isPublic === true || route.url === '/api/docs'
      const wanted = isPublic ? undefined : route.config.permission
      if (JSON.stringify(op['x-permission']) !== JSON.stringify(wanted)) problems.push(`${route.method} ${route.url}: x-permission ${JSON.stringify(op['x-permission'])}, config ${JSON.stringify(wanted)}`)
      if (isPublic !== (op.security === undefined)) problems.push(`${route.method} ${route.url}: security ${JSON.stringify(op.security)} on a ${isPublic ? 'public' : 'guarded'} route`)
      if (!isPublic && !op.responses[401]) problems.push(`${route.method} ${route.url}: no 401`)
      if (wanted !== undefined && (!op.responses[403] || !String(op.description).includes([wanted].flat()[0]!))) problems.push(`${route.method} ${route.url}: no 403, or the permission not in words`)
    }
    expect(problems).toEqual([])
  })

  it('takes the list parameters request.ts reads: each filter, range and __in, and the fields to order by', () => {
    for (const entity of registry.filter((e) => !e.isLine)) {
      // filtersOf names every parameter it knows when refusing one it does not.
      let known: string[] = []
      try {
        filtersOf(entity, { not_a_parameter: '1' }, { unknown: 'refuse' })
      } catch (e) {
        known = String(((e as BusinessError).detail as Message).params?.params).split(', ').filter((p) => p !== '')
      }
      const documented = filterParameters(entity).filter((p) => !entity.fields[p.name]?.pastDue).map((p) => p.name)
      expect(documented.sort(), entity.name).toEqual([...new Set(known)].sort())
      let sortable: string[] = []
      try {
        orderingOf(entity, { ordering: 'not_a_field' })
      } catch (e) {
        sortable = String(((e as BusinessError).detail as Message).params?.fields).split(', ')
      }
      expect(sortableFields(entity), entity.name).toEqual(sortable)
      const search = doc.paths[`${entity.api.base}/search/`]?.get
      if (entity.routes.search === 'generic' && search) {
        expect(search.parameters!.map((p) => p.name), entity.name).toEqual(expect.arrayContaining(['page', 'size', 'ordering', 'q', ...documented]))
      }
    }
  })

  it('gives each request body an example its own schema takes', () => {
    const validate = schemaValidator(doc)
    const problems: string[] = []
    let examples = 0
    for (const { path, method, op } of ops()) {
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
        for (const example of examplesOf(media)) {
          examples++
          // A multipart example is the form's fields: its uploads are files, which an example need not hold.
          const schema = type === 'multipart/form-data' ? { ...media.schema, required: ((media.schema.required as string[] | undefined) ?? []).filter((n) => !isUpload(media.schema, n)) } : media.schema
          const errors = validate(schema, example.value)
          if (errors.length > 0) problems.push(`${method} ${path} (${type}, ${example.name}): ${errors.join('; ')}`)
        }
      }
      for (const parameter of op.parameters ?? []) {
        if (parameter.example === undefined) continue
        const errors = validate(parameter.schema, parameter.example)
        if (errors.length > 0) problems.push(`${method} ${path} ${parameter.name}: ${errors.join('; ')}`)
      }
    }
    expect(problems).toEqual([])
    // Every generic create and update has one, and each action that takes input.
    const writes = ops().filter(({ op }) => ['create', 'update'].includes(op['x-route'] ?? '') || (op['x-route'] === 'action' && op.requestBody?.required))
    expect(writes.length).toBeGreaterThan(0)
    expect(writes.filter(({ op }) => exampleOf(op) === undefined).map(({ method, path }) => `${method} ${path}`)).toEqual([])
    expect(examples).toBeGreaterThanOrEqual(writes.length)
  })

  it('gives response examples their schemas take', () => {
    const validate = schemaValidator(doc)
    const problems: string[] = []
    for (const { path, method, op } of ops()) {
      for (const [status, response] of Object.entries(op.responses)) {
        for (const [type, media] of Object.entries(('content' in response ? response.content : undefined) ?? {})) {
          for (const example of examplesOf(media as Media)) {
            const errors = validate(media.schema, example.value)
            if (errors.length > 0) problems.push(`${method} ${path} ${status} (${type}, ${example.name}): ${errors.slice(0, 3).join('; ')}`)
          }
        }
      }
    }
    expect(problems).toEqual([])
  })

  /**
   * Each create's example posted to the app as the admin, on a database the helpers seed (the
   * modules' start-up rows: roles, permissions, the chart of accounts, lookups). The example
   * names row 1 wherever it refers to a row: where that row exists (or an entity's rules
   * about the rows referred to hold) it is created, 201; where it does not, the server says
   * so on the reference fields alone — a 400 field map whose every key is a reference (a
   * document line's too). Any other refusal means the example, or its schema, is wrong.
   */
  it('gives each create an example the server takes', async () => {
    const problems: string[] = []
    let created = 0
    for (const { path, op } of ops().filter(({ op }) => op['x-route'] === 'create')) {
      const entity = registry.find((e) => e.name === op['x-entity'])!
      const example = exampleOf(op) as Record<string, unknown>
      // At another base (alsoApi) the same resource takes the same example: posted once, at its own base.
      if (path !== `${entity.api.base}/create/`) {
        expect(example, path).toEqual(exampleOf(doc.paths[`${entity.api.base}/create/`]!.post!))
        continue
      }
      // Sent as the example's media type says: JSON, or a form with a picture for each file it requires.
      const isForm = op.requestBody!.content['application/json'] === undefined
      const files = Object.fromEntries(entity.fieldNames.filter((n) => isForm && entity.fields[n]!.kind === 'file' && entity.fields[n]!.isRequired).map((n) => [n, 'upload']))
      const res = await t.current.call({ method: 'POST', url: path, ...(isForm ? requestOf(entity, { ...example, ...files }) : { payload: example }) })
      if (res.status === 201) {
        created++
        continue
      }
      const isReference = (key: string): boolean => {
        const [name, index, lineField] = key.split('.')
        const field = writtenShape(entity).fields[name!]
        if (field?.kind === 'ref' || field?.kind === 'refs') return true
        return field?.kind === 'lines' && index !== undefined && lineField !== undefined && ['ref', 'refs'].includes(field.lines!.entity.fields[lineField]?.kind ?? '')
      }
      const isFieldMap = res.status === 400 && typeof res.body === 'object' && res.body !== null && !('detail' in res.body)
      if (!isFieldMap || !Object.keys(res.body as object).every((key) => isReference(key))) problems.push(`${path}: ${res.status} ${res.raw.slice(0, 300)}`)
    }
    expect(problems).toEqual([])
    expect(created).toBeGreaterThan(0)
  })


  it('describes each engine route beyond the contract in full: typed parameters, and a body and answers with examples', () => {
    const problems: string[] = []
    const routes = t.current.app.routeTable.filter(isApiRoute).filter((r) => ENGINE_PATH.test(fastifyPath(r.url)))
    expect(routes.length).toBeGreaterThan(0)
    for (const route of routes) {
      const at = `${route.method} ${route.url}`
      const op = doc.paths[fastifyPath(route.url)]?.[route.method.toLowerCase()] as Op | undefined
      if (!op || !ENGINE_ROUTES.includes(op['x-route'] ?? '')) {
        problems.push(`${at}: not described (x-route ${String(op?.['x-route'])})`)
        continue
      }
      if ((op.parameters ?? []).some((p) => Object.keys(p.schema ?? {}).length === 0)) problems.push(`${at}: a parameter without a type`)
      if (op.requestBody && !Object.values(op.requestBody.content).some((m) => examplesOf(m).length > 0)) problems.push(`${at}: a body without an example`)
      const answers = Object.entries(op.responses).filter(([status]) => status.startsWith('2'))
      const hasExample = answers.some(([, r]) => Object.values(('content' in r ? r.content : undefined) ?? {}).some((m) => examplesOf(m as Media).length > 0))
      if (!hasExample) problems.push(`${at}: no answer with an example`)
      // Its own errors (not the shared ones) say what they answer, with an example.
      for (const [status, r] of Object.entries(op.responses)) {
        if ('$ref' in r || !r.content || status.startsWith('2')) continue
        if (!Object.values(r.content).some((m) => examplesOf(m as Media).length > 0)) problems.push(`${at}: ${status} without an example`)
      }
    }
    expect(problems).toEqual([])
  })

  /**
   * Each engine route's example sent to the app as the admin, after the creates above (so that
   * row 1 — the row every example names — exists wherever an example could make it): the answer
   * is one the operation documents, its body one its schema takes (an import's every NDJSON
   * line). A bulk change that went through is undone by the batch it answered. Each kind of
   * route must do its work somewhere (a 2xx); the others answer a documented error (no row 1, a
   * token or batch no import or change made).
   */
  it("takes each engine route's example, answering as it documents", async () => {
    const validate = schemaValidator(doc)
    const problems: string[] = []
    const done = new Set<string>()
    const sent = new Set<string>()
    for (const { path, method, op } of ops().filter(({ op }) => ENGINE_ROUTES.includes(op['x-route'] ?? ''))) {
      const entity = registry.find((e) => e.name === op['x-entity'])
      // At another base (alsoApi) the same route takes the same example: sent once, at the entity's own base.
      if (entity && !path.startsWith(`${entity.api.base}/`)) continue
      const route = op['x-route']!
      sent.add(route)
      const res = await t.current.call({ method: method.toUpperCase() as 'GET', ...exampleRequest(path, op) } as Parameters<TestApp['call']>[0])
      problems.push(...documentedProblems(doc, validate, `${method} ${path}`, op, res))
      if (res.status < 200 || res.status >= 300) continue
      done.add(route)
      // What the example says the server answers, it answers: the preview whole, the export's header.
      if (route === 'import_preview') expect(res.body, path).toEqual(answerExample(op, 200, 'application/json'))
      if (route === 'export') expect(res.raw.split('\r\n')[0], path).toBe(String(answerExample(op, 200, 'text/csv')).split('\r\n')[0])
      if (route === 'bulk_update') {
        const undoPath = path.replace(/bulk_update\/$/, 'undo/{batch}')
        const undo = doc.paths[undoPath]!.post as Op
        const back = await t.current.call({ method: 'POST', url: undoPath.replace('{batch}', String((res.body as { batch: string }).batch)) })
        expect(back.status, back.raw).toBe(200)
        problems.push(...documentedProblems(doc, validate, `post ${undoPath}`, undo, back))
        done.add('undo')
      }
    }
    expect(problems).toEqual([])
    const working = ['export', 'import_preview', 'import', 'bulk_update', 'undo', 'trash', 'search', 'history'].filter((r) => sent.has(r))
    expect(working.filter((r) => !done.has(r)), 'routes whose example never went through').toEqual([])
    expect(working.length).toBeGreaterThanOrEqual(3)
  })

  it('serves the page to browse it, its files loading', async () => {
    const page = await t.current.call({ method: 'GET', url: '/api/docs', asAnonymous: true })
    expect(page.status).toBe(200)
    expect(String(page.headers['content-type'])).toMatch(/^text\/html/)
    // The app's CSP holds: the page's scripts are files of its own, no inline one.
    expect(String(page.headers['content-security-policy'])).toContain("script-src 'self'")
    expect(page.raw).not.toMatch(/<script>(?!\s*<\/script>)/)
    const assets = [...page.raw.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!)
    expect(assets.length).toBeGreaterThanOrEqual(4)
    for (const asset of assets) {
      const url = asset.startsWith('/') ? asset : `/api/docs/${asset.replace(/^\.\//, '')}`
      const res = await t.current.app.inject({ method: 'GET', url })
      expect(res.statusCode, url).toBe(200)
    }
  })
  return () => doc
}

/** A schema, its `$ref` followed. */
const deref = (doc: Doc, schema: unknown): Record<string, unknown> => {
  const s = schema as Record<string, unknown>
  return typeof s.$ref === 'string' ? (resolvePointer(doc, s.$ref) as Record<string, unknown>) : s
}
const paramNames = (op: Op | undefined) => (op?.parameters ?? []).map((p) => p.name)
const jsonOf = (op: Op | undefined, status: number) => (op?.responses[status] as { content?: Record<string, { schema: unknown }> } | undefined)?.content?.['application/json']?.schema

describeOnOneDatabase('OpenAPI document of the app', (t) => {
  const doc = documentSuite(t, entities)

  it('says which reads are public, and what a report takes and answers', () => {
    const settings = doc().paths['/general_setting/api/v1/general_setting/all/']!.get!
    expect(settings.security).toBeUndefined()
    expect(settings['x-public']).toBe(true)
    expect(settings.description).toMatch(/Public/)
    expect(doc().paths['/general_setting/api/v1/general_setting/create/']!.post!['x-permission']).toBe('GENERAL_SETTING_CREATE')
    for (const report of reports) {
      const run = doc().paths[`${report.api.base}/`]!.get!
      expect(run['x-permission'], report.name).toBe(report.permission)
      expect(paramNames(run), report.name).toEqual(expect.arrayContaining([...report.paramNames]))
      expect(Object.keys(doc().paths[`${report.api.base}/csv`]!.get!.responses[200]! as object)).toContain('content')
    }
  })

  it("says what the engine's routes beyond the contract take and answer: export, import, bulk change, undo, the Trash, the search across entities", () => {
    const base = '/branch/api/v1/branch'
    const bulk = doc().paths[`${base}/bulk_update/`]!.post!
    expect(bulk['x-permission']).toBe('BRANCH_UPDATE')
    expect(JSON.stringify(bulk.requestBody)).toMatch(/"values"/)
    expect(JSON.stringify(bulk.responses[200])).toMatch(/"batch"/)
    expect(JSON.stringify(doc().paths[`${base}/undo/{batch}`]!.post!.responses[200])).toMatch(/"restored"/)
    expect(JSON.stringify(doc().paths[`${base}/restore/`]!.post!.requestBody)).toMatch(/"batch"/)
    expect(doc().paths[`${base}/purge/`]!.delete!['x-permission']).toBe('BRANCH_PURGE')
    expect(JSON.stringify(doc().paths['/api/search/']!.get!.responses[200])).toMatch(/"results"/)
    expect(doc().paths[`${base}/export/`]!.get!.description).toMatch(/`xlsx`/)
    expect(doc().paths[`${base}/import/`]!.post!.description).toMatch(/`dry_run`/)
  })
})

describe('OpenAPI document of a registry defined at run time', () => {
  useThrowawayLabels()
  describeOnOneDatabase(
    'throwaway',
    (t) => {
      const doc = documentSuite(t, throwawayEntities)
      const op = (path: string, method: 'get' | 'post' | 'put' | 'patch' | 'delete') => doc().paths[path]?.[method] as Op | undefined

      it("describes a document's create: its required fields and lines, not the server's own", () => {
        const create = op('/gadget_order/api/v1/gadget_order/create/', 'post')!
        const body = deref(doc(), create.requestBody!.content['application/json']!.schema)
        expect(body.required).toEqual(['order_date'])
        const properties = body.properties as Record<string, Record<string, unknown>>
        // Read-only (numbered, stamped) and computed values are the server's: not in the body.
        for (const name of ['number', 'confirmed_at', 'total', 'line_count', 'summary']) expect(properties[name], name).toBeUndefined()
        expect(properties.items!.minItems).toBe(1)
        expect((properties.items!.items as Record<string, unknown>).required).toEqual(['gadget', 'quantity', 'unit_price'])
        expect(deref(doc(), jsonOf(create, 201)).title).toBe('Gadget order')
        expect(create.responses[400]).toEqual({ $ref: '#/components/responses/BadRequest' })
        expect(create['x-permission']).toBe('GADGET_ORDER_CREATE')
      })

      it('describes custom actions and transitions at each of their paths, with their input and permission', () => {
        for (const path of ['cancel', 'cancel_order']) {
          const cancel = op(`/gadget_order/api/v1/gadget_order/${path}/{id}`, 'post')!
          expect(cancel['x-permission']).toBe('GADGET_ORDER_CANCEL')
          expect(cancel.requestBody!.content['application/json']!.schema.required).toEqual(['reason'])
          expect(cancel.responses[409]).toBeDefined()
        }
        expect(op('/gadget_order/api/v1/gadget_order/confirm/{id}', 'post')!.requestBody!.required).toBe(false)
        const confirm = op('/stock_transfer/api/v1/stock_transfer/confirm/{id}', 'post')!
        expect(confirm.description).toMatch(/from draft to confirmed/)
      })

      it("describes a list's parameters: pages, order, views, filters and ranges", () => {
        const all = op('/stock_transfer/api/v1/stock_transfer/all/', 'get')!
        expect(paramNames(all)).toEqual(expect.arrayContaining(['page', 'size', 'ordering', 'q', 'view', 'status', 'status__in', 'id__in', 'value_min', 'value_max']))
        const view = all.parameters!.find((p) => p.name === 'view')!
        expect(view.schema.enum).toEqual(['drafts', 'moving'])
        expect(all.parameters!.find((p) => p.name === 'ordering')!.schema.enum).toEqual(expect.arrayContaining(['id', '-id', 'note', '-note']))
        const envelope = deref(doc(), jsonOf(all, 200))
        expect(envelope.required).toEqual(['stock_transfers', 'page', 'size', 'total_pages', 'total_elements'])
        // A clock flag filters too.
        expect(paramNames(op('/wish/api/v1/wish/search/', 'get'))).toContain('is_late')
        expect(paramNames(op('/wish_note/api/v1/wish_note/get_all_by_wish_id/{value}', 'get'))).toEqual(['value'])
      })

      it('says who reaches rows of their own without the permission', () => {
        const search = op('/wish/api/v1/wish/search/', 'get')!
        expect(search['x-permission']).toBeUndefined()
        expect(search.security).toEqual([{ bearerAuth: [] }])
        expect(search.description).toMatch(/Any signed-in user\. Without `WISH_LIST`, a signed-in caller reaches only the Wishes that are their own/)
      })

      it('describes a document kept one row per line as its routes take and answer it', () => {
        const read = op('/delivery_note/api/v1/delivery_note/document/{id}', 'get')!
        expect(jsonOf(read, 200)).toEqual({ $ref: '#/components/schemas/DeliveryNoteDocument' })
        const create = op('/delivery_note/api/v1/delivery_note/create/', 'post')!
        const body = deref(doc(), create.requestBody!.content['application/json']!.schema)
        expect(body.required).toEqual(expect.arrayContaining(['note_date', 'depot']))
        expect((body.properties as Record<string, Record<string, unknown>>).items!.minItems).toBe(1)
      })

      it("describes a report's routes: its parameters, pages, files, chart and the contract's route", () => {
        const run = op('/api/reports/gadget_sales/', 'get')!
        expect(run['x-permission']).toBe('GADGET_SALES_VIEW')
        expect(paramNames(run)).toEqual(['status', 'date_after', 'date_before', 'page', 'size'])
        expect(run.parameters!.find((p) => p.name === 'status')!.schema.enum).toEqual(['draft', 'confirmed', 'cancelled'])
        expect(Object.keys((op('/api/reports/gadget_sales/csv', 'get')!.responses[200] as { content: object }).content)).toEqual(['text/csv'])
        expect(Object.keys((op('/api/reports/gadget_sales/pdf', 'get')!.responses[200] as { content: object }).content)).toEqual(['application/pdf'])
        const contract = op('/gadget_report/api/v1/gadget_report/sales/', 'get')!
        expect(deref(doc(), jsonOf(contract, 200)).required).toEqual(['gadget_sales'])
        void throwawayReports
      })
    },
    throwawayApp,
  )
})
