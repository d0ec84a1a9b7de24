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
import type { AnyEntity } from '../engine/entity-api'
import { EntitiesProvider } from '../engine/entities-context'
import { PageSpinner } from '../engine/ui/PageSpinner'
import { RootLayout } from './RootLayout'
import { paths, safeRedirect } from './paths'

/**
 * The route tree, assembled from an entity list (the registry in the app, any list in a
 * test). Every entity gets its list at `ui.listPath`, its form at
 * `ui.formPath/$id/{-$name}` (`new` creates) and the same form at `ui.areaPath/$id`.
 *
 * The login screen must load little JavaScript, and the registry carries zod. So the app
 * starts with the tree of the public routes only (`entities: null`) plus a catch-all that
 * loads the registry, swaps in the full tree and resolves the same URL again.
 */
export type RouteTreeOptions = {
  entities: readonly AnyEntity[] | null
  /** The cache of the signed-in screens; the app's shared one when absent. */
  queryClient?: QueryClient
  /** Called by the catch-all of the public tree; resolves when the full tree is in place. */
  loadAllRoutes?: () => Promise<void>
}

const LoginScreen = lazyRouteComponent(() => import('../auth/LoginScreen'), 'LoginScreen')
const ErrorPage404 = lazyRouteComponent(() => import('../shell/ErrorPage404'), 'ErrorPage404')
const ProjectDashboard = lazyRouteComponent(() => import('../modules/dashboards/ProjectDashboard'), 'ProjectDashboard')

function listComponent(entity: AnyEntity) {
  return lazyRouteComponent(() =>
    import('../engine/list/ListScreen').then(({ ListScreen }) => ({
      default: function EntityListRoute() {
        return <ListScreen entity={entity} />
      },
    })),
  )
}

function formComponent(entity: AnyEntity) {
  return lazyRouteComponent(() =>
    import('../engine/form/FormScreen').then(({ FormRoute }) => ({
      default: function EntityFormRoute() {
        return <FormRoute entity={entity} />
      },
    })),
  )
}

function hrefOf(location: ParsedLocation): string {
  return `${location.pathname}${location.searchStr}${location.hash ? `#${location.hash}` : ''}`
}

export function buildRouteTree({ entities, loadAllRoutes, queryClient }: RouteTreeOptions): AnyRoute {
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
    // Guest-only (spec §6): a signed-in user has nothing to do here.
    beforeLoad: ({ search }) => {
      if (session.isLoggedIn()) throw redirect({ href: search.redirect ?? paths.dashboard, replace: true })
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

  if (entities === null) {
    const catchAll = createRoute({
      getParentRoute: () => rootRoute,
      path: '$',
      beforeLoad: async ({ location }) => {
        if (!loadAllRoutes) throw redirect({ to: paths.error404, replace: true })
        await loadAllRoutes()
        throw redirect({ href: hrefOf(location), replace: true })
      },
    })
    return rootRoute.addChildren([loginRoute, indexRoute, error404Route, catchAll])
  }

  // Everything below needs a session; a guest is sent to /login and comes back after (spec §2).
  const appRoute = createRoute({
    getParentRoute: () => rootRoute,
    id: 'app',
    beforeLoad: ({ location }) => {
      if (!session.isLoggedIn()) throw redirect({ to: paths.login, search: { redirect: hrefOf(location) }, replace: true })
    },
    component: lazyRouteComponent(() =>
      import('../shell/Shell').then(({ Shell }) => ({
        default: function AppLayout() {
          return (
            <EntitiesProvider entities={entities}>
              <Shell queryClient={queryClient} />
            </EntitiesProvider>
          )
        },
      })),
    ),
  })

  const dashboardRoute = createRoute({ getParentRoute: () => appRoute, path: paths.dashboard, component: ProjectDashboard })

  const entityRoutes = entities.flatMap((entity) => {
    const form = formComponent(entity)
    return [
      createRoute({ getParentRoute: () => appRoute, path: entity.ui.listPath, component: listComponent(entity) }),
      createRoute({ getParentRoute: () => appRoute, path: `${entity.ui.formPath}/$id/{-$name}`, component: form }),
      createRoute({ getParentRoute: () => appRoute, path: `${entity.ui.areaPath}/$id`, component: form }),
    ]
  })

  return rootRoute.addChildren([
    loginRoute,
    indexRoute,
    error404Route,
    appRoute.addChildren([dashboardRoute, ...entityRoutes]),
  ])
}

/** Any URL no route matches goes to the error page (spec §2). */
function RedirectTo404() {
  return <Navigate to={paths.error404} replace />
}

export type CreateAppRouterOptions = {
  /** The registry's entities, or null to start with the public routes and load them on demand. */
  entities: readonly AnyEntity[] | null
  loadEntities?: () => Promise<readonly AnyEntity[]>
  history?: RouterHistory
  queryClient?: QueryClient
}

export function createAppRouter({ entities, loadEntities, history, queryClient }: CreateAppRouterOptions) {
  let loading: Promise<void> | undefined
  const loadAllRoutes = () => {
    loading ??= (async () => {
      if (!loadEntities) throw new Error('No entity loader configured')
      const all = await loadEntities()
      router.update({ ...router.options, routeTree: buildRouteTree({ entities: all, queryClient }) })
    })()
    return loading
  }
  const router = createRouter({
    routeTree: buildRouteTree({ entities, loadAllRoutes, queryClient }),
    history,
    defaultPreload: 'intent',
    defaultPendingComponent: PageSpinner,
    defaultPendingMs: 300,
    scrollRestoration: true,
  })
  return router
}

export type AppRouter = ReturnType<typeof createAppRouter>
