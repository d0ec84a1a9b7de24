import {
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Navigate,
  redirect,
  type AnyRoute,
  type ParsedLocation,
  type RouterHistory,
} from '@tanstack/react-router'
import type { QueryClient } from '@tanstack/react-query'
import { session } from '../auth/session'
import type { Report } from '../../schema/kit/report'
import type { AnyEntity } from '../engine/entity-api'
import { PageSpinner } from '../engine/ui/PageSpinner'
import { RootLayout } from './RootLayout'
import { paths, safeRedirect } from './paths'
import type { BuildSignedInRoutes } from './signed-in-routes'

/**
 * The route tree: the public routes (login, `/`, the 404 page) and the signed-in part
 * built from an entity list (the registry in the app, any list in a test) by
 * `buildSignedInRoutes`.
 *
 * The login screen must load little JavaScript, and the registry carries zod. So the app
 * starts with the public routes only (`entities: null`) plus a catch-all that loads the
 * registry and the signed-in routes, swaps in the full tree and resolves the same URL again.
 */
export type RouteTreeOptions = {
  entities: readonly AnyEntity[] | null
  /** The registry's reports, each with its screen; none when absent. */
  reports?: readonly Report[]
  /** Builds the signed-in part; needed when `entities` is given. */
  signedInRoutes?: BuildSignedInRoutes
  /** The cache of the signed-in screens; the app's shared one when absent. */
  queryClient?: QueryClient
  /** Called by the catch-all of the public tree; resolves when the full tree is in place. */
  loadAllRoutes?: () => Promise<void>
}

const LoginScreen = lazyRouteComponent(() => import('../auth/LoginScreen'), 'LoginScreen')
const ErrorPage404 = lazyRouteComponent(() => import('../shell/ErrorPage404'), 'ErrorPage404')

function hrefOf(location: ParsedLocation): string {
  return `${location.pathname}${location.searchStr}${location.hash ? `#${location.hash}` : ''}`
}

export function buildRouteTree({ entities, reports = [], signedInRoutes, loadAllRoutes, queryClient }: RouteTreeOptions): AnyRoute {
  const rootRoute = createRootRoute({
    component: RootLayout,
    notFoundComponent: function NotFound() {
      return <RedirectTo404 />
    },
  })

  const loginRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: paths.login,
    validateSearch: (search: Record<string, unknown>): { redirect?: string } => {
      const target = safeRedirect(search.redirect)
      return target ? { redirect: target } : {}
    },
    // Guest-only (spec §6): "guest" is no role, so a signed-in user without one may sign in again.
    beforeLoad: ({ search }) => {
      if (session.isLoggedIn() && session.getState().user?.role !== null) throw redirect({ href: search.redirect ?? paths.dashboard, replace: true })
    },
    component: LoginScreen,
  })

  const indexRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: '/',
    beforeLoad: () => {
      throw redirect({ to: session.isLoggedIn() ? paths.dashboard : paths.login, replace: true })
    },
  })

  const error404Route = createRoute({ getParentRoute: () => rootRoute, path: paths.error404, component: ErrorPage404 })

  /*
   * The catch-all is in both trees, under the same id. While the public tree's loads the
   * registry, its match may already be drawn (its pending state, after defaultPendingMs);
   * the tree is swapped under it, and a match whose route the new tree lacks threw
   * "Cannot read properties of undefined (reading 'options')" in the router's rendering
   * (issue 20: seen after sign-in whenever the registry took longer than 300 ms to come).
   * In the full tree it sends what no route matches to the error page.
   */
  const catchAll = createRoute({
    getParentRoute: () => rootRoute,
    path: '$',
    beforeLoad: async ({ location }) => {
      if (entities !== null || !loadAllRoutes) throw redirect({ to: paths.error404, replace: true })
      await loadAllRoutes()
      throw redirect({ href: hrefOf(location), replace: true })
    },
  })
  if (entities === null) return rootRoute.addChildren([loginRoute, indexRoute, error404Route, catchAll])
  if (!signedInRoutes) throw new Error('buildRouteTree: an entity list needs the signedInRoutes builder')
  return rootRoute.addChildren([loginRoute, indexRoute, error404Route, ...signedInRoutes({ rootRoute, entities, reports, queryClient }), catchAll])
}

/** Any URL no route matches goes to the error page (spec §2). */
function RedirectTo404() {
  return <Navigate to={paths.error404} replace />
}

export type CreateAppRouterOptions = {
  /** The registry's entities, or null to start with the public routes and load them on demand. */
  entities: readonly AnyEntity[] | null
  loadEntities?: () => Promise<readonly AnyEntity[]>
  /** The registry's reports (with `entities`), or their loader (with `loadEntities`); none when both are absent. */
  reports?: readonly Report[]
  loadReports?: () => Promise<readonly Report[]>
  /** The signed-in routes builder; loaded with the entities when absent. */
  signedInRoutes?: BuildSignedInRoutes
  history?: RouterHistory
  queryClient?: QueryClient
}

/** How long a route may load before its pending state (a spinner) is drawn. */
export const PENDING_MS = 300

export function createAppRouter({ entities, loadEntities, reports, loadReports, signedInRoutes, history, queryClient }: CreateAppRouterOptions) {
  let loading: Promise<void> | undefined
  const loadAllRoutes = () => {
    loading ??= (async () => {
      if (!loadEntities) throw new Error('No entity loader configured')
      const [all, allReports, build] = await Promise.all([
        loadEntities(),
        loadReports?.() ?? reports ?? [],
        signedInRoutes ?? import('./signed-in-routes').then((m) => m.buildSignedInRoutes),
      ])
      router.update({ ...router.options, routeTree: buildRouteTree({ entities: all, reports: allReports, signedInRoutes: build, queryClient }) })
    })()
    return loading
  }
  const router = createRouter({
    routeTree: buildRouteTree({ entities, reports, signedInRoutes, loadAllRoutes, queryClient }),
    history,
    defaultPreload: 'intent',
    defaultPendingComponent: PageSpinner,
    defaultPendingMs: PENDING_MS,
    scrollRestoration: true,
  })
  return router
}

export type AppRouter = ReturnType<typeof createAppRouter>
