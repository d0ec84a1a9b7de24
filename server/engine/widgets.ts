import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Widget, WidgetData } from '../../schema/kit/widget'
import { DASHBOARD_API } from '../../schema/kit/widget'
import { f } from '../../schema/kit'
import { rules } from '../../schema/kit'
import { can } from '../auth/principal'
import type { Executor } from '../db/types'
import { BusinessError, UnauthorizedError } from './errors'
import type { Actor } from './hooks'
import type { Registry } from './list-query'
import { validateShape } from './validate'

/**
 * Dashboard widgets (schema/kit/widget.ts): each is one query a domain module gives; the
 * engine serves it at the contract's route, to those who may list what it reads, and serves
 * all of a dashboard's at once — the widgets the caller may read, run one after the other on
 * one connection — so the dashboard is one request, asked after the navigation.
 */
export type WidgetParams = { date_after: string | null; date_before: string | null }
/**
 * `shared`: what the widgets of one request may share — a query several of them read (the
 * dashboard's sold lines, summed once per product, for best sellers and categories alike).
 */
export type WidgetRun = (args: { db: Executor; params: WidgetParams; actor: Actor | null; registry: Registry; shared: Map<string, Promise<unknown>> }) => Promise<WidgetData>

/** The answer of `make` under `key` in `shared`: worked out once per request, whichever widget asks first. */
export function sharedOnce<T>(shared: Map<string, Promise<unknown>>, key: string, make: () => Promise<T>): Promise<T> {
  if (!shared.has(key)) shared.set(key, make())
  return shared.get(key) as Promise<T>
}

/** The period a dashboard may be asked for: two optional days, the first not after the second. */
const periodShape = {
  fields: { date_after: f.date({ label: 'field.date_after' }), date_before: f.date({ label: 'field.date_before' }) },
  fieldNames: ['date_after', 'date_before'],
  rules: [rules.notAfter('date_after', 'date_before', 'validation.date_order')],
  linesFieldNames: [],
  fieldLabelKey: (name: string) => `field.${name}`,
}

const paramsOf = (req: FastifyRequest): WidgetParams => {
  const query = (req.query ?? {}) as Record<string, unknown>
  const given = Object.fromEntries(['date_after', 'date_before'].filter((k) => typeof query[k] === 'string' && query[k] !== '').map((k) => [k, query[k]]))
  const values = validateShape(periodShape, given)
  return { date_after: (values.date_after as string | null) ?? null, date_before: (values.date_before as string | null) ?? null }
}

/** A widget's answer at the contract's route: a figure as `{count, amount}`, rows or points under its key. */
const contractAnswer = (w: Widget, data: WidgetData): Record<string, unknown> =>
  'rows' in data ? { [w.answerKey]: data.rows } : 'points' in data ? { [w.answerKey]: data.points } : { ...data }

export function registerWidgetRoutes(app: FastifyInstance, deps: { db: Executor; registry: Registry; widgets: readonly Widget[]; runs: ReadonlyMap<string, WidgetRun> }): void {
  const permissionOf = (w: Widget) => deps.registry.find((e) => e.name === w.reads)!.permissions.LIST
  const run = (w: Widget, req: FastifyRequest, params: WidgetParams, shared = new Map<string, Promise<unknown>>()) =>
    deps.runs.get(w.name)!({ db: deps.db, params, actor: req.principal ?? null, registry: deps.registry, shared })

  for (const w of deps.widgets) {
    if (!w.route) continue
    // The contract's path, and the same below the app's own name (as every other app's routes are).
    for (const url of [`${DASHBOARD_API}/${w.route}/`, `${DASHBOARD_API}/dashboard/${w.route}/`]) {
      app.get(url, { config: { permission: permissionOf(w) } }, async (req) => contractAnswer(w, await run(w, req, paramsOf(req))))
    }
  }

  const dashboards = [...new Set(deps.widgets.map((w) => w.dashboard))]
  /** `{widgets: {<name>: data}}`: every widget of the dashboard the caller may read, in its order. */
  app.get(`${DASHBOARD_API}/widgets/`, async (req) => {
    const caller = req.principal
    if (!caller) throw new UnauthorizedError({ key: 'detail.no_credentials' })
    const dashboard = (req.query as Record<string, unknown>).dashboard ?? 'project'
    if (typeof dashboard !== 'string' || !dashboards.includes(dashboard as Widget['dashboard'])) throw new BusinessError({ key: 'detail.unknown_dashboard', params: { dashboard: String(dashboard).slice(0, 50) } })
    const params = paramsOf(req)
    const shown = deps.widgets.filter((w) => w.dashboard === dashboard && can(caller, permissionOf(w))).sort((a, b) => a.order - b.order)
    const answers: Record<string, WidgetData> = {}
    // One request's widgets share what they read alike.
    const shared = new Map<string, Promise<unknown>>()
    for (const w of shown) answers[w.name] = await run(w, req, params, shared)
    return { widgets: answers }
  })
}
