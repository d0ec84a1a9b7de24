import { createRoute, lazyRouteComponent, redirect, type AnyRoute, type ParsedLocation } from '@tanstack/react-router'
import type { ComponentType } from 'react'
import type { QueryClient } from '@tanstack/react-query'
import { meets, screenRequirement, type Requirement } from '../auth/access'
import { session } from '../auth/session'
import type { AnyEntity } from '../engine/entity-api'
import type { Report } from '../../schema/kit/report'
import { asView } from '../../schema/kit'
import { EntitiesProvider, ReportsProvider } from '../engine/entities-context'
import { FormScreensProvider } from '../engine/form/reference-new'
import { reportSearchOf } from '../engine/report/report-search'
import { ListSkeleton } from '../engine/list/ListSkeleton'
import type { EntityScreens, ScreenMap } from '../engine/form/extension'
import { notify } from '../engine/ui/notifications'
import { loadNamespaces } from '../i18n'
import { accountingScreens } from '../modules/accounting/screens'
import { identityScreens } from '../modules/identity/screens'
import { membershipScreens } from '../modules/membership/screens'
import { purchasingScreens } from '../modules/purchasing/screens'
import { ordersScreens } from '../modules/orders/screens'
import { ticketsScreens } from '../modules/tickets/screens'
import { paths } from './paths'
import { SessionAccess } from './SessionAccess'

/**
 * The part of the route tree behind the session — the shell and every screen in it — and
 * the register screen. Every entity gets its list at `ui.listPath`, its form at
 * `ui.formPath/$id/{-$name}` (`new` creates) and, alone in its area, the same form at `ui.areaPath/$id`; a
 * module's screen map may put its own list or form there, or extend the generic form.
 * Every report gets its screen at `ui.path`, for the holders of its permission.
 * Kept out of the entry module: the login screen never needs it.
 *
 * The guard (spec §4, §6): a guest, or a user without a role, goes to /login remembering
 * the page; a user without the right for a page goes to `/`.
 */
const appScreens: ScreenMap = { ...identityScreens, ...accountingScreens, ...membershipScreens, ...purchasingScreens, ...ordersScreens, ...ticketsScreens }

const ProjectDashboard = lazyRouteComponent(() => import('../modules/dashboards/ProjectDashboard'), 'ProjectDashboard')
const AnalyticsDashboard = lazyRouteComponent(() => import('../modules/dashboards/AnalyticsDashboard'), 'AnalyticsDashboard')
const ExamplePage = lazyRouteComponent(() => import('../shell/pages/ExamplePage'), 'ExamplePage')
const MultiLanguagePage = lazyRouteComponent(() => import('../shell/pages/MultiLanguagePage'), 'MultiLanguagePage')
const PassengerSearchPage = lazyRouteComponent(() => import('../shell/pages/PassengerSearchPage'), 'PassengerSearchPage')
const ProfilePage = lazyRouteComponent(() => import('../modules/identity/ProfilePage'), 'ProfilePage')
const InboxPage = lazyRouteComponent(() => import('../shell/pages/InboxPage'), 'InboxPage')

/** The register screen has no shell: it brings its text, and the registry for the user's rules. */
function registerComponent(entities: readonly AnyEntity[]) {
  return lazyRouteComponent(() =>
    Promise.all([import('../modules/identity/RegisterScreen'), loadNamespaces('shell', 'registry')]).then(([{ RegisterScreen }]) => ({
      default: function RegisterRoute() {
        return (
          <EntitiesProvider entities={entities}>
            <RegisterScreen />
          </EntitiesProvider>
        )
      },
    })),
  )
}

/** The password reset pages have no shell either: their text, and the registry for the user's password rules. */
function guestComponent(entities: readonly AnyEntity[], load: () => Promise<ComponentType>) {
  return lazyRouteComponent(() =>
    Promise.all([load(), loadNamespaces('shell', 'registry')]).then(([Screen]) => ({
      default: function GuestRoute() {
        return (
          <EntitiesProvider entities={entities}>
            <Screen />
          </EntitiesProvider>
        )
      },
    })),
  )
}

function listComponent(entity: AnyEntity, screens: EntityScreens) {
  return lazyRouteComponent(() =>
    (screens.list?.() ?? import('../engine/list/ListScreen').then((m) => m.ListScreen)).then((Screen) => ({
      default: function EntityListRoute() {
        return <Screen entity={entity} />
      },
    })),
  )
}

function trashComponent(entity: AnyEntity) {
  return lazyRouteComponent(() =>
    import('../engine/trash/TrashScreen').then(({ TrashScreen }) => ({
      default: function EntityTrashRoute() {
        return <TrashScreen entity={entity} />
      },
    })),
  )
}

function reportComponent(report: Report) {
  return lazyRouteComponent(() =>
    import('../engine/report/ReportScreen').then(({ ReportScreen }) => ({
      default: function ReportRoute() {
        return <ReportScreen report={report} />
      },
    })),
  )
}

function formComponent(entity: AnyEntity, screens: EntityScreens) {
  if (screens.form) {
    const load = screens.form
    return lazyRouteComponent(() =>
      load().then((Screen) => ({
        default: function EntityFormRoute() {
          return <Screen entity={entity} />
        },
      })),
    )
  }
  return lazyRouteComponent(() =>
    Promise.all([import('../engine/form/FormScreen'), screens.formExtension?.()]).then(([{ FormRoute }, extension]) => ({
      default: function EntityFormRoute() {
        return <FormRoute entity={entity} extension={extension} />
      },
    })),
  )
}

/**
 * A route's guard: a signed-in user who does not meet the requirement goes to `/` (their
 * dashboard) and is told why. An unknown user (no profile yet) passes: the server decides.
 */
function requires(requirement: Requirement | ((params: Record<string, string>) => Requirement)) {
  return ({ params, preload }: { params: Record<string, string>; preload: boolean }) => {
    const { user } = session.getState()
    const needed = typeof requirement === 'function' ? requirement(params) : requirement
    if (!user || meets(user, needed)) return
    if (!preload) {
      void loadNamespaces('shell')
      notify({ kind: 'warning', key: 'access.forbidden_page' })
    }
    throw redirect({ to: '/', replace: true })
  }
}

export function hrefOf(location: ParsedLocation): string {
  return `${location.pathname}${location.searchStr}${location.hash ? `#${location.hash}` : ''}`
}

export type SignedInRoutesOptions = {
  rootRoute: AnyRoute
  entities: readonly AnyEntity[]
  /** The registry's reports: each gets its screen at `ui.path`, for the holders of its permission. */
  reports?: readonly Report[]
  queryClient?: QueryClient
  /** Modules' own screens by entity name; the app's when absent. */
  screens?: ScreenMap
}

export function buildSignedInRoutes({ rootRoute, entities, reports = [], queryClient, screens = appScreens }: SignedInRoutesOptions): AnyRoute[] {
  // Everything below needs a session with a role; a guest is sent to /login and comes back after (spec §2, §4).
  const appRoute = createRoute({
    getParentRoute: () => rootRoute,
    id: 'app',
    beforeLoad: ({ location, preload }) => {
      const isLoggedIn = session.isLoggedIn()
      if (isLoggedIn && session.getState().user?.role !== null) return
      if (isLoggedIn && !preload) {
        void loadNamespaces('shell')
        notify({ kind: 'warning', key: 'access.no_role' })
      }
      throw redirect({ to: paths.login, search: { redirect: hrefOf(location) }, replace: true })
    },
    // The shell's and the registry's text load with the shell (the login screen has neither).
    component: lazyRouteComponent(() =>
      Promise.all([import('../shell/Shell'), loadNamespaces('shell', 'registry')]).then(([{ Shell }]) => ({
        default: function AppLayout() {
          return (
            <EntitiesProvider entities={entities}>
              <ReportsProvider reports={reports}>
                <SessionAccess>
                  {/* A picker's "New …" dialog runs the target's module form as its own screen does. */}
                  <FormScreensProvider screens={screens}>
                    <Shell queryClient={queryClient} />
                  </FormScreensProvider>
                </SessionAccess>
              </ReportsProvider>
            </EntitiesProvider>
          )
        },
      })),
    ),
  })

  const everyUser = requires({ level: 'user' })
  const shellRoutes = [
    createRoute({ getParentRoute: () => appRoute, path: paths.dashboard, beforeLoad: everyUser, component: ProjectDashboard }),
    createRoute({ getParentRoute: () => appRoute, path: paths.analytics, beforeLoad: everyUser, component: AnalyticsDashboard }),
    createRoute({ getParentRoute: () => appRoute, path: paths.example, beforeLoad: everyUser, component: ExamplePage }),
    createRoute({ getParentRoute: () => appRoute, path: paths.multiLanguageDocs, beforeLoad: everyUser, component: MultiLanguagePage }),
    createRoute({ getParentRoute: () => appRoute, path: paths.profile, beforeLoad: everyUser, component: ProfilePage }),
    createRoute({ getParentRoute: () => appRoute, path: paths.inbox, beforeLoad: everyUser, component: InboxPage }),
    // It searches people across the back-office's records: staff work.
    createRoute({ getParentRoute: () => appRoute, path: `${paths.passengerSearch}/$searchText`, beforeLoad: requires({ level: 'staff' }), component: PassengerSearchPage }),
  ]

  // A document's lines have no screens of their own: they are edited in the document's form.
  const screenEntities = entities.filter((entity) => !entity.isLine)
  // `/apps/<area>/$id` is an entity's only when it is alone in its area (four vouchers share `accounts/`).
  const areaCount = new Map<string, number>()
  for (const entity of screenEntities) areaCount.set(entity.ui.areaPath, (areaCount.get(entity.ui.areaPath) ?? 0) + 1)
  const viewAreas = new Map<string, number>()
  for (const view of screenEntities.flatMap((e) => Object.values(e.views))) viewAreas.set(view.ui.areaPath, (viewAreas.get(view.ui.areaPath) ?? 0) + 1)
  const entityRoutes = screenEntities.flatMap((entity) => {
    const entityScreens = screens[entity.name] ?? {}
    const form = formComponent(entity, entityScreens)
    const formGuard = requires((params) => screenRequirement(entity, params.id === 'new' ? 'new' : 'record'))
    return [
      createRoute({
        getParentRoute: () => appRoute,
        path: entity.ui.listPath,
        beforeLoad: requires(screenRequirement(entity, 'list')),
        component: listComponent(entity, entityScreens),
        // While the list's code loads: its header and the outline of its table, not a lone spinner.
        pendingComponent: function ListPending() {
          return <ListSkeleton entity={entity} />
        },
      }),
      createRoute({ getParentRoute: () => appRoute, path: `${entity.ui.formPath}/$id/{-$name}`, beforeLoad: formGuard, component: form }),
      // Its Trash (`trash` in the registry), beside its list: for those who may delete, who alone may restore.
      ...(entity.trash ? [createRoute({ getParentRoute: () => appRoute, path: `${entity.ui.listPath}/trash`, beforeLoad: requires({ permission: entity.permissions.DELETE }), component: trashComponent(entity) })] : []),
      ...(areaCount.get(entity.ui.areaPath) === 1 ? [createRoute({ getParentRoute: () => appRoute, path: `${entity.ui.areaPath}/$id`, beforeLoad: formGuard, component: form })] : []),
      ...secondAddresses(entity),
      // Its list views (`views`): each a list at its own address; their rows open the entity's
      // form — at the view's own form address when it names one (`route.form`), which shows the
      // form as the view's: saved there, and back to the view.
      ...Object.values(entity.views).flatMap((view) => {
        const shown = asView(entity, view)
        const viewForm = view.ui.formPath !== undefined ? formComponent(shown, entityScreens) : form
        return [
          createRoute({
            getParentRoute: () => appRoute,
            path: view.ui.listPath,
            beforeLoad: requires(screenRequirement(entity, 'list')),
            component: listComponent(shown, entityScreens),
            pendingComponent: function ViewPending() {
              return <ListSkeleton entity={shown} />
            },
          }),
          ...(view.ui.formPath !== undefined ? [createRoute({ getParentRoute: () => appRoute, path: `${view.ui.formPath}/$id/{-$name}`, beforeLoad: formGuard, component: viewForm })] : []),
          // A view in an area of its own has the area's `/$id` too, as every management area does.
          ...(!areaCount.has(view.ui.areaPath) && viewAreas.get(view.ui.areaPath) === 1 ? [createRoute({ getParentRoute: () => appRoute, path: `${view.ui.areaPath}/$id`, beforeLoad: formGuard, component: viewForm })] : []),
        ]
      }),
    ]
  })

  // An area's own address (`/apps/e-commerce`) opens its first list, by the sidebar's order.
  const taken = new Set<string>([...Object.values(paths), ...reports.map((report) => report.ui.path)])
  // The lists of an area: its entities', then its views' (an area may hold views alone).
  const areaLists = [
    ...screenEntities.map((e) => ({ areaPath: e.ui.areaPath, listPath: e.ui.listPath, order: e.nav?.order ?? Infinity })),
    ...screenEntities.flatMap((e) => Object.values(e.views).map((v) => ({ areaPath: v.ui.areaPath, listPath: v.ui.listPath, order: Infinity }))),
  ]
  const areaRoutes = [...new Set(areaLists.map((list) => list.areaPath))]
    .filter((areaPath) => !taken.has(areaPath))
    .map((areaPath) => {
      const first = areaLists.filter((list) => list.areaPath === areaPath).sort((a, b) => a.order - b.order)[0]!
      return createRoute({
        getParentRoute: () => appRoute,
        path: areaPath,
        beforeLoad: () => {
          throw redirect({ href: first.listPath, replace: true })
        },
      })
    })

  /** An entity's second list and form addresses (`route.alsoAt`, `route.formAt`) lead to its own, search and id kept. */
  function secondAddresses(entity: AnyEntity): AnyRoute[] {
    const toForm = ({ params }: { params: unknown }) => {
      throw redirect({ href: `${entity.ui.formPath}/${encodeURIComponent((params as { id: string }).id)}`, replace: true })
    }
    // `/apps/content-management-image/{id}/{contentName}/{menuName?}`: what follows the id only names it for the eye.
    const formAt = entity.ui.formAt.flatMap((path) => [
      createRoute({ getParentRoute: () => appRoute, path: `${path}/$id`, beforeLoad: toForm }),
      createRoute({ getParentRoute: () => appRoute, path: `${path}/$id/$`, beforeLoad: toForm }),
    ])
    const also = entity.ui.alsoAt
    if (!also) return formAt
    return [
      ...formAt,
      createRoute({
        getParentRoute: () => appRoute,
        path: also.listPath,
        beforeLoad: ({ location }) => {
          throw redirect({ href: `${entity.ui.listPath}${location.searchStr}`, replace: true })
        },
      }),
      createRoute({ getParentRoute: () => appRoute, path: `${also.formPath}/$id`, beforeLoad: toForm }),
    ]
  }

  // A report's parameters live in its address (a reload or a shared link shows the same report).
  const reportRoutes = reports.map((report) =>
    createRoute({
      getParentRoute: () => appRoute,
      path: report.ui.path,
      validateSearch: (search: Record<string, unknown>) => reportSearchOf(report, search),
      beforeLoad: requires({ permission: report.permission }),
      component: reportComponent(report),
    }),
  )

  // Guest-only (spec §2, §6), like /login: a user with a role has an account already.
  const registerRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: paths.register,
    beforeLoad: () => {
      if (session.isLoggedIn() && session.getState().user?.role !== null) throw redirect({ to: paths.dashboard, replace: true })
    },
    component: registerComponent(entities),
  })

  // A forgotten password (issue 9): asking for a link is for guests, like /login; the mailed
  // link works for anyone who holds it (the reset ends every session of its user anyway).
  const forgotPasswordRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: paths.forgotPassword,
    beforeLoad: () => {
      if (session.isLoggedIn() && session.getState().user?.role !== null) throw redirect({ to: paths.dashboard, replace: true })
    },
    component: guestComponent(entities, () => import('../modules/identity/ForgotPasswordScreen').then((m) => m.ForgotPasswordScreen)),
  })
  const resetPasswordRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: paths.resetPassword,
    validateSearch: (search: Record<string, unknown>): { token?: string } => (typeof search.token === 'string' ? { token: search.token } : {}),
    component: guestComponent(entities, () => import('../modules/identity/ResetPasswordScreen').then((m) => m.ResetPasswordScreen)),
  })

  return [appRoute.addChildren([...shellRoutes, ...entityRoutes, ...areaRoutes, ...reportRoutes]), registerRoute, forgotPasswordRoute, resetPasswordRoute]
}

export type BuildSignedInRoutes = typeof buildSignedInRoutes
