import swagger, { type StaticDocumentSpec } from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import { buildOpenApi, DOCS_PREFIX, type OpenApiDocument, type OpenApiOptions, type RouteEntry } from '../engine/openapi'

export const OPENAPI_PATH = '/api/openapi.json'

/**
 * The API's own document: `GET /api/openapi.json` (OpenAPI 3.1) and a page to browse it,
 * `GET /api/docs` (Swagger UI, its files served from the package), both public — every
 * operation still asks for what the document says it needs. Registered once every route of
 * the API is (after the API's scope and the check of the modules' routes): the document
 * covers the routes registered up to here, which leaves out the files the start serves
 * (`/media/`, the browser app). It is built on the first request for it, not with every app
 * (a test builds many), and kept.
 */
export async function registerApiDocs(app: FastifyInstance, options: Omit<OpenApiOptions, 'routes'>): Promise<void> {
  // @fastify/swagger's static mode serves this very object: filled in when first asked for.
  const document = {} as OpenApiDocument
  let routes: readonly RouteEntry[] = []
  let text: string | undefined
  const built = (): OpenApiDocument => {
    if (text === undefined) {
      Object.assign(document, buildOpenApi({ ...options, routes }))
      text = JSON.stringify(document)
    }
    return document
  }

  await app.register(swagger, { mode: 'static', specification: { document: document as unknown as StaticDocumentSpec['document'] } })
  app.get(OPENAPI_PATH, { config: { isPublic: true } }, async (_request, reply) => {
    built()
    return reply.type('application/json; charset=utf-8').send(text)
  })
  // The page's files are the package's own and its script no inline one: the app's CSP (script-src 'self') holds as it is.
  await app.register(swaggerUi, {
    routePrefix: DOCS_PREFIX,
    uiConfig: { docExpansion: 'none', deepLinking: true, filter: true, displayOperationId: false, tryItOutEnabled: false },
    // Its `json` and `yaml` serve @fastify/swagger's object (the YAML made once and kept): filled in before any is read.
    uiHooks: {
      onRequest: (_request, _reply, done) => {
        built()
        done()
      },
    },
    theme: { title: 'Back-office API' },
  })
  routes = [...app.routeTable]
}
