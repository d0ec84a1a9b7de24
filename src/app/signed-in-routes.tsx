import { createRoute, lazyRouteComponent, redirect, type AnyRoute, type ParsedLocation } from '@tanstack/react-router'
import type { QueryClient } from '@tanstack/react-query'
import { session } from '../auth/session'
import type { AnyEntity } from '../engine/entity-api'
import { EntitiesProvider } from '../engine/entities-context'
import { loadNamespaces } from '../i18n'
import { paths } from './paths'

/**
 * The part of the route tree behind the session: the shell and every screen in it. Every
 * entity gets its list at `ui.listPath`, its form at `ui.formPath/$id/{-$name}` (`new`
 * creates) and the same form at `ui.areaPath/$id`. Kept out of the entry module: the
 * login screen never needs it.
 */
const ProjectDashboard = lazyRouteComponent(() => import('../modules/dashboards/ProjectDashboard'), 'ProjectDashboard')
const ExamplePage = lazyRouteComponent(() => import('../shell/pages/ExamplePage'), 'ExamplePage')
const MultiLanguagePage = lazyRouteComponent(() => import('../shell/pages/MultiLanguagePage'), 'MultiLanguagePage')
const PassengerSearchPage = lazyRouteComponent(() => import('../shell/pages/PassengerSearchPage'), 'PassengerSearchPage')

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

export function hrefOf(location: ParsedLocation): string {
  return `${location.pathname}${location.searchStr}${location.hash ? `#${location.hash}` : ''}`
}

export type SignedInRoutesOptions = {
  rootRoute: AnyRoute
  entities: readonly AnyEntity[]
  queryClient?: QueryClient
}

export function buildSignedInRoutes({ rootRoute, entities, queryClient }: SignedInRoutesOptions): AnyRoute {
  // Everything below needs a session; a guest is sent to /login and comes back after (spec §2).
  const appRoute = createRoute({
    getParentRoute: () => rootRoute,
    id: 'app',
    beforeLoad: ({ location }) => {
      if (!session.isLoggedIn()) throw redirect({ to: paths.login, search: { redirect: hrefOf(location) }, replace: true })
    },
    // The shell's and the registry's text load with the shell (the login screen has neither).
    component: lazyRouteComponent(() =>
      Promise.all([import('../shell/Shell'), loadNamespaces('shell', 'registry')]).then(([{ Shell }]) => ({
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

  const shellRoutes = [
    createRoute({ getParentRoute: () => appRoute, path: paths.dashboard, component: ProjectDashboard }),
    createRoute({ getParentRoute: () => appRoute, path: paths.example, component: ExamplePage }),
    createRoute({ getParentRoute: () => appRoute, path: paths.multiLanguageDocs, component: MultiLanguagePage }),
    createRoute({ getParentRoute: () => appRoute, path: `${paths.passengerSearch}/$searchText`, component: PassengerSearchPage }),
  ]

  const entityRoutes = entities.flatMap((entity) => {
    const form = formComponent(entity)
    return [
      createRoute({ getParentRoute: () => appRoute, path: entity.ui.listPath, component: listComponent(entity) }),
      createRoute({ getParentRoute: () => appRoute, path: `${entity.ui.formPath}/$id/{-$name}`, component: form }),
      createRoute({ getParentRoute: () => appRoute, path: `${entity.ui.areaPath}/$id`, component: form }),
    ]
  })

  return appRoute.addChildren([...shellRoutes, ...entityRoutes])
}

export type BuildSignedInRoutes = typeof buildSignedInRoutes
