import cors from '@fastify/cors'
import helmet from '@fastify/helmet'
import securityHeadersOf from 'helmet'
import multipart from '@fastify/multipart'
import Fastify, { type FastifyContextConfig, type FastifyInstance, type HTTPMethods } from 'fastify'
import { sql } from 'kysely'
import { checkRegistry, entities as registeredEntities, reports as registeredReports, widgets as registeredWidgets, RegistryError, type RegistryProblem } from '../schema'
import type { Widget } from '../schema/kit/widget'
import { registerWidgetRoutes, type WidgetRun } from './engine/widgets'
import { registerHistoryRoutes } from './engine/history'
import { registerTrashRoutes } from './engine/trash-routes'
import { registerImportRoutes } from './engine/import'
import { registerExportRoutes } from './engine/export'
import { registerBulkUpdateRoutes } from './engine/bulk-update'
import { auditScopeHook } from './engine/audit-scope'
import { registerGlobalSearch } from './engine/global-search'
import { fetchFromHooks } from './engine/fetch-from'
import { genericRoutes, type Entity, type Fields, type Report } from '../schema/kit'
import { authenticate, authorize } from './auth/guard'
import type { ThrottleOptions } from './auth/throttle'
import { DEMO_ADMIN } from './demo/seed'
import type { Db } from './db/types'
import { accountingModule } from './domain/accounting'
import { catalogueModule } from './domain/catalogue'
import { inventoryModule } from './domain/inventory'
import { purchasingModule } from './domain/purchasing'
import { ordersModule } from './domain/orders'
import { ticketsModule } from './domain/tickets'
import { cmsModule } from './domain/cms'
import { membershipModule } from './domain/membership'
import { identityModule } from './domain/identity'
import { workspaceModule } from './domain/workspace'
import { hookRegistry, type HookRegistry } from './engine/hooks'
import { refuseUnstorableInput } from './engine/input-guard'
import { postingHooks } from './engine/posting'
import { stockMoveHooks } from './engine/stock-moves'
import { treeHooks } from './engine/tree'
import type { DomainModule, ModuleDeps } from './engine/modules'
import { registerReportRoutes, type ReportRun } from './engine/reports'
import { genericRoutePaths, registerEntityRoutes, type ActionRegistry } from './engine/routes'
import type { ActionHandler } from './engine/service'
import { answersForCaller } from './engine/for-caller'
import { frameworkErrorHandler, registerErrorHandling } from './http/errors'
import { registerRequestLog, requestIdOf, requestLogController } from './http/request-log'
import { metricsTokenOf, registerMetrics } from './http/metrics'
import { registerReadiness } from './http/readiness'
import { loadAppPage } from './http/app-page'
import { registerCompression, registerStaticServing } from './http/static'
import { registerApiDocs } from './http/api-docs'
import { catalogues, messageFor } from './i18n'

/** A route as registered: what the permission matrix test walks, and where bespoke routes are checked. */
export type RouteEntry = { method: string; url: string; config: FastifyContextConfig }

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of the app, in registration order. */
    routeTable: readonly RouteEntry[]
    /** The engine the app was assembled with: its registry and the modules' hooks (for tests and tools). */
    engine: { registry: readonly Entity<string, Fields>[]; hooks: HookRegistry }
  }
}

export type AppOptions = {
  db: Db
  jwtSecret: string
  /** Where uploads are stored; served at /media/. */
  mediaDir: string
  entities?: readonly Entity<string, Fields>[]
  reports?: readonly Report[]
  /** Dashboard widgets; default: the registry's whose entities this registry has. */
  widgets?: readonly Widget[]
  /** Built browser app to serve (vite build output); absent in API-only tests. */
  distDir?: string
  corsOrigins?: readonly string[]
  isDemo?: boolean
  /** Log every request (info); without it only errors are logged (a 500 with its request id, in every mode). */
  logger?: boolean
  /** The proxies whose X-Forwarded-For names the client (TRUST_PROXY): hops to believe, or their addresses. Unset: the connection's address. */
  trustProxy?: number | readonly string[]
  /** Where log lines go (default: stdout); tests read them. */
  logStream?: { write: (line: string) => void }
  /** Domain modules (rules, bespoke routes, start-up sync); default: every module of the app. */
  modules?: readonly DomainModule[]
  /** Sign-in throttling limits (defaults in server/auth/throttle.ts). */
  loginThrottle?: ThrottleOptions
  /** How long a request may take to arrive whole, headers and body (default REQUEST_TIMEOUT_MS). */
  requestTimeoutMs?: number
  /** The bearer token `GET /metrics` asks for (server/http/metrics.ts); default: METRICS_TOKEN; null: off. */
  metricsToken?: string | null
}

/**
 * A request must arrive whole within this (a 10 MB upload over a slow phone link fits): one
 * whose body never completes would otherwise hold its connection, and what it locked, for ever.
 */
export const REQUEST_TIMEOUT_MS = 120_000

/** Every generic route an entity leaves to a module must be registered by one: a declared-but-missing route stops the start. */
function checkBespokeRoutes(entities: readonly Entity<string, Fields>[], routes: readonly RouteEntry[]): void {
  const shape = (url: string) => url.replace(/:\w+/g, ':').replace(/\/$/, '')
  const have = new Set(routes.map((r) => `${r.method} ${shape(r.url)}`))
  const missing = entities.flatMap((e) =>
    genericRoutes
      .filter((r) => e.routes[r] === 'bespoke')
      .flatMap((r) => genericRoutePaths[r].methods.map((m) => `${m} ${shape(`${e.api.base}/${genericRoutePaths[r].path}`)}`))
      .filter((key) => !have.has(key)),
  )
  if (missing.length > 0) throw new Error(`Routes the registry leaves to a domain module are not registered by any: ${missing.join(', ')}`)
}

/** The app's domain modules. */
export const defaultModules = (options: Pick<AppOptions, 'loginThrottle'> = {}): DomainModule[] => [identityModule({ throttle: options.loginThrottle }), workspaceModule(), accountingModule(), catalogueModule(), inventoryModule(), purchasingModule(), ordersModule(), ticketsModule(), cmsModule(), membershipModule()]

/**
 * What the registry declares and no module completes, named at once: an action without its
 * handler (a workflow's transition needs none), a report without its query, a posted document
 * without the ledger or its postings.
 */
function wiringProblems(entities: readonly Entity<string, Fields>[], reports: readonly Report[], modules: readonly DomainModule[]): RegistryProblem[] {
  const problems: RegistryProblem[] = []
  const handled = (entity: string, action: string) => modules.some((m) => m.actions?.[entity]?.[action] !== undefined)
  for (const e of entities) {
    for (const action of Object.values(e.actions)) {
      if (!action.transition && !handled(e.name, action.name)) problems.push({ entity: e.name, message: `the action '${action.name}' has no handler: a domain module must give one (actions: { ${e.name}: { ${action.name}: … } })` })
    }
    if (e.moves && !modules.some((m) => m.stock)) problems.push({ entity: e.name, message: "it moves stock, but no module keeps it (a DomainModule's `stock`)" })
    if (e.moves && !modules.some((m) => m.stockMoves?.[e.name])) problems.push({ entity: e.name, message: `it moves stock, but no module says what: give \`stockMoves: { ${e.name}: … }\` in a DomainModule` })
    if (!e.posts) continue
    if (!modules.some((m) => m.ledger)) problems.push({ entity: e.name, message: "it posts to the general ledger, but no module keeps one (a DomainModule's `ledger`)" })
    if (!modules.some((m) => m.postings?.[e.name])) problems.push({ entity: e.name, message: `it posts to the general ledger, but no module says what: give \`postings: { ${e.name}: … }\` in a DomainModule` })
  }
  for (const r of reports) {
    if (!modules.some((m) => m.reports?.[r.name])) problems.push({ entity: r.name, message: `the report has no query: a domain module must give one (reports: { ${r.name}: … })` })
  }
  return problems
}

/** The start-up check (Django's): every problem of the registry named at once, before anything is touched. */
/** Believes the nearest `hops` proxies (proxy-addr's number, as a function: Fastify's types take no number). */
const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops

export function assertRegistry(entities: readonly Entity<string, Fields>[], reports: readonly Report[], widgets: readonly Widget[] = []): void {
  const problems = checkRegistry(entities, catalogues, reports, widgets)
  if (problems.length > 0) throw new RegistryError(problems)
}

/** The app built and started: its modules' start-up run (seeds, syncs), its files served. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { app, start } = await assembleApp(options)
  await start()
  return app
}

/**
 * The app put together without touching the database: the registry's check, every route of
 * the engine and the modules, their wiring checked (a handler, a query, a ledger, a bespoke
 * route each declaration needs). `start` runs the modules' start-up and serves the files;
 * `npm run check` (server/check.ts) stops before it.
 */
export async function assembleApp(options: AppOptions): Promise<{ app: FastifyInstance; start: () => Promise<void> }> {
  const entities = options.entities ?? registeredEntities
  const reports = options.reports ?? registeredReports
  // A registry of its own (a test's) has the widgets over what it holds.
  const widgets = options.widgets ?? registeredWidgets.filter((w) => entities.some((e) => e.name === w.reads) && (!w.link || entities.some((e) => e.name === w.link!.entity)))
  assertRegistry(entities, reports, widgets)

  // The page of each address (its inline script starts what the address needs): its scripts' hashes are allowed.
  const appPage = options.distDir ? loadAppPage(options.distDir, entities, reports) : undefined
  const helmetOptions = {
    contentSecurityPolicy: { directives: { upgradeInsecureRequests: null, imgSrc: ["'self'", 'data:', 'blob:'], scriptSrc: ["'self'", ...(appPage?.scriptHashes ?? [])] } },
    strictTransportSecurity: !options.isDemo,
  }
  const setSecurityHeaders = securityHeadersOf(helmetOptions)
  const app = Fastify({
    logger: { level: options.logger ? 'info' : 'error', ...(options.logStream ? { stream: options.logStream } : {}) },
    // An incoming X-Request-Id (a balancer's) is kept when sane; one JSON line per request is logged by registerRequestLog.
    genReqId: requestIdOf,
    // The client's address (sign-in throttles count per address) through the load balancer, and no further.
    ...(typeof options.trustProxy === 'number' ? { trustProxy: trustHops(options.trustProxy) } : options.trustProxy ? { trustProxy: [...options.trustProxy] } : {}),
    logController: requestLogController(),
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    bodyLimit: 2 * 1024 * 1024,
    requestTimeout: options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
    // Given to Node's server as it is made too: set afterwards (as Fastify does), Node 20 never
    // times a request out. It looks for overdue ones this often (30 s by default).
    http: { requestTimeout: options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS, connectionsCheckingInterval: Math.min(5_000, options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS) },
    // A malformed `%` escape in a path is answered before any hook runs: helmet's headers are set by hand.
    frameworkErrors: frameworkErrorHandler((request, reply) => setSecurityHeaders(request.raw, reply.raw, () => {})),
  })
  const routeTable: RouteEntry[] = []
  app.decorate('routeTable', routeTable)
  app.addHook('onRoute', (route) => {
    for (const method of ([] as HTTPMethods[]).concat(route.method)) routeTable.push({ method, url: route.url, config: route.config ?? {} })
  })
  registerErrorHandling(app)
  registerRequestLog(app)
  await app.register(helmet, helmetOptions)
  await app.register(cors, {
    origin: options.corsOrigins && options.corsOrigins.length > 0 ? [...options.corsOrigins] : false,
    allowedHeaders: ['Authorization', 'Content-Type', 'Accept-Language', 'X-Screen'],
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
  })
  await app.register(multipart, { limits: { fileSize: 10 * 1024 * 1024, files: 10, fields: 200 } })
  await registerCompression(app)

  // Public: health and the demo credentials. The API sits behind the guard below.
  app.get('/api/health', { config: { isPublic: true } }, async () => {
    await sql`select 1`.execute(options.db)
    return { status: 'ok' }
  })
  // Readiness for a load balancer, and the metrics (their own token, off without one).
  registerReadiness(app, { db: options.db })
  registerMetrics(app, { db: options.db, token: options.metricsToken === undefined ? metricsTokenOf() : options.metricsToken })
  // The login form is prefilled with the demo credentials in demo mode only (spec §5).
  app.get('/api/auth/demo-credentials', { config: { isPublic: true } }, async (request, reply) =>
    options.isDemo ? DEMO_ADMIN : reply.code(404).send({ detail: messageFor(request.headers['accept-language'], { key: 'detail.not_demo' }) }),
  )

  const modules = options.modules ?? defaultModules(options)
  const unwired = [
    ...wiringProblems(entities, reports, modules),
    ...widgets.filter((w) => !modules.some((m) => m.widgets?.[w.name])).map((w) => ({ entity: `widget ${w.name}`, message: `the widget has no query: a domain module must give one (widgets: { ${w.name}: … })` })),
  ]
  if (unwired.length > 0) throw new RegistryError(unwired)
  // Postings run after the modules' own hooks: a record is complete (its ledger made, its invoice referred to) when it posts.
  let hooks: HookRegistry = new Map()
  const postings = postingHooks(entities, {
    ledger: modules.find((m) => m.ledger)?.ledger,
    postingOf: new Map(modules.flatMap((m) => Object.entries(m.postings ?? {}))),
    hooks: () => hooks,
  })
  // Stock moves before the postings: a document's posting may read the value its goods moved at.
  const stockMoves = stockMoveHooks(entities, {
    stock: modules.find((m) => m.stock)?.stock,
    movesOf: new Map(modules.flatMap((m) => Object.entries(m.stockMoves ?? {}))),
    hooks: () => hooks,
  })
  // Trees are judged first: a row that cannot be stored there needs no module's side effect.
  // Values fetched from referenced rows before any module judges the record.
  hooks = hookRegistry([...treeHooks(entities), ...fetchFromHooks(entities), ...modules.flatMap((m) => Object.entries(m.hooks ?? {})), ...stockMoves, ...postings])
  const actions: ActionRegistry = new Map(
    entities.map((e) => [e.name, Object.assign({}, ...modules.map((m) => m.actions?.[e.name] ?? {})) as Record<string, ActionHandler>]),
  )
  const runs = new Map<string, ReportRun>(modules.flatMap((m) => Object.entries(m.reports ?? {})))
  app.decorate('engine', { registry: entities, hooks })
  const deps: ModuleDeps = { db: options.db, registry: entities, hooks, reports, mediaDir: options.mediaDir, jwtSecret: options.jwtSecret, isDemo: options.isDemo ?? false }
  // Every route in here needs a valid token and the permission its config names, unless its config marks it public.
  await app.register(async (api) => {
    api.addHook('onRequest', authenticate(options.db, options.jwtSecret))
    // Every write of the request records where it came from (audit_log.source).
    api.addHook('onRequest', auditScopeHook)
    api.addHook('preHandler', authorize)
    // What no route can store (a NUL) is refused before any reads it: one guard for the engine's routes and every module's.
    api.addHook('preHandler', refuseUnstorableInput)
    answersForCaller(api)
    for (const entity of entities) registerEntityRoutes(api, entity, { db: options.db, mediaDir: options.mediaDir, registry: entities, hooks, actions })
    for (const entity of entities) registerTrashRoutes(api, entity, { db: options.db, mediaDir: options.mediaDir, registry: entities, hooks })
    for (const entity of entities) registerHistoryRoutes(api, entity, { db: options.db, mediaDir: options.mediaDir, registry: entities, hooks })
    for (const entity of entities) registerImportRoutes(api, entity, { db: options.db, mediaDir: options.mediaDir, registry: entities, hooks })
    for (const entity of entities) registerExportRoutes(api, entity, { db: options.db, mediaDir: options.mediaDir, registry: entities, hooks })
    for (const entity of entities) registerBulkUpdateRoutes(api, entity, { db: options.db, mediaDir: options.mediaDir, registry: entities, hooks, actions })
    registerReportRoutes(api, { db: options.db, registry: entities, reports, runs })
    registerGlobalSearch(api, { db: options.db, registry: entities, hooks })
    registerWidgetRoutes(api, { db: options.db, registry: entities, widgets, runs: new Map<string, WidgetRun>(modules.flatMap((m) => Object.entries(m.widgets ?? {}))) })
    for (const m of modules) await m.routes?.(api, deps)
  })
  checkBespokeRoutes(entities, routeTable)
  // The API's OpenAPI document and its page, of every route registered by now.
  await registerApiDocs(app, { registry: entities, reports, widgets })
  const start = async () => {
    for (const m of modules) await m.onStart?.(deps)
    await registerStaticServing(app, { mediaDir: options.mediaDir, distDir: options.distDir, appPage })
  }
  return { app, start }
}
