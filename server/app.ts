import { existsSync, mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import cors from '@fastify/cors'
import helmet from '@fastify/helmet'
import multipart from '@fastify/multipart'
import fastifyStatic from '@fastify/static'
import Fastify, { type FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { checkRegistry, entities as registeredEntities, RegistryError } from '../schema'
import type { Entity, Fields } from '../schema/kit'
import { authenticate, authorize } from './auth/guard'
import { registerLogin } from './auth/login'
import { DEMO_ADMIN } from './db/demo/seed'
import type { Db } from './db/types'
import { registerEntityRoutes } from './engine/routes'
import { registerErrorHandling } from './http/errors'
import { catalogues } from './i18n'

export type AppOptions = {
  db: Db
  jwtSecret: string
  /** Where uploads are stored; served at /media/. */
  mediaDir: string
  entities?: readonly Entity<string, Fields>[]
  /** Built browser app to serve (vite build output); absent in API-only tests. */
  distDir?: string
  corsOrigins?: readonly string[]
  isDemo?: boolean
  logger?: boolean
}

/** Paths that belong to the API: unknown ones answer 404 JSON instead of the browser app. */
const isApiPath = (url: string) => url.startsWith('/api/') || /^\/[a-z_]+\/api\//.test(url)

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const entities = options.entities ?? registeredEntities
  const problems = checkRegistry(entities, catalogues)
  if (problems.length > 0) throw new RegistryError(problems)

  const app = Fastify({
    logger: options.logger ? { level: 'info' } : false,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    bodyLimit: 2 * 1024 * 1024,
  })
  registerErrorHandling(app)
  await app.register(helmet, {
    contentSecurityPolicy: { directives: { upgradeInsecureRequests: null, imgSrc: ["'self'", 'data:', 'blob:'] } },
    strictTransportSecurity: !options.isDemo,
  })
  await app.register(cors, {
    origin: options.corsOrigins && options.corsOrigins.length > 0 ? [...options.corsOrigins] : false,
    allowedHeaders: ['Authorization', 'Content-Type', 'Accept-Language'],
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
  })
  await app.register(multipart, { limits: { fileSize: 10 * 1024 * 1024, files: 10, fields: 200 } })

  // Public: health and login. Everything else sits behind the guard below.
  app.get('/api/health', async () => {
    await sql`select 1`.execute(options.db)
    return { status: 'ok' }
  })
  registerLogin(app, { db: options.db, secret: options.jwtSecret })
  // The login form is prefilled with the demo credentials in demo mode only (spec §5).
  app.get('/api/auth/demo-credentials', async (_request, reply) =>
    options.isDemo ? DEMO_ADMIN : reply.code(404).send({ detail: 'Not in demo mode.' }),
  )

  await app.register(async (api) => {
    api.addHook('onRequest', authenticate(options.db, options.jwtSecret))
    api.addHook('preHandler', authorize)
    for (const entity of entities) registerEntityRoutes(api, entity, { db: options.db, mediaDir: options.mediaDir, registry: entities })
  })

  mkdirSync(options.mediaDir, { recursive: true })
  await app.register(fastifyStatic, { root: resolve(options.mediaDir), prefix: '/media/', decorateReply: false })
  const distDir = options.distDir && existsSync(join(options.distDir, 'index.html')) ? resolve(options.distDir) : undefined
  if (distDir) await app.register(fastifyStatic, { root: distDir, prefix: '/', wildcard: false, index: false })
  app.setNotFoundHandler((request, reply) => {
    if (request.method === 'GET' && distDir && !isApiPath(request.url) && !request.url.startsWith('/media/')) {
      return reply.type('text/html').sendFile('index.html', distDir)
    }
    return reply.code(404).send({ detail: 'Not found.' })
  })
  return app
}
