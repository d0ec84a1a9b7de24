import { sql } from 'kysely'
import { withSessionVersion } from '../../auth/sessions'
import type { ThrottleOptions } from '../../auth/throttle'
import type { DomainModule } from '../../engine/modules'
import { syncAccess } from './access'
import { syncNavigation } from './menu'
import { registerMenuRoutes } from './menu-routes'
import { registerPeopleSearch } from './people-search'
import { registerPasswordResetRoutes } from './password-reset'
import { permissionRules, roleRules, userRules } from './rules'
import { registerSessionRoutes } from './session-routes'
import { staffCostRows } from './staff-costs'
import { registerUserRoutes } from './user-routes'

/**
 * Identity and access (issue 3): sessions, the user resource's extra routes, menus and
 * role menus, the access rules as engine hooks, and at every start the registry's
 * permissions, the built-in roles and the menu entries of the registry's navigation.
 */
export function identityModule(options: { throttle?: ThrottleOptions } = {}): DomainModule {
  return {
    name: 'identity',
    // A new password ends the user's sessions (server/auth/sessions.ts).
    hooks: { user: withSessionVersion(userRules), role: roleRules, permission: permissionRules },
    reports: { staff_costs: staffCostRows },
    routes(app, deps) {
      registerSessionRoutes(app, deps, options.throttle)
      registerUserRoutes(app, deps)
      registerPasswordResetRoutes(app, deps)
      registerMenuRoutes(app, deps)
      registerPeopleSearch(app, deps)
    },
    async onStart({ db, registry, reports, hooks }) {
      await db.transaction().execute(async (trx) => {
        // Several servers may start at once against one PostgreSQL: one syncs, the others wait.
        await sql`select pg_advisory_xact_lock(724002)`.execute(trx)
        await syncAccess(trx, registry, reports)
        await syncNavigation(trx, { registry, reports, hooks })
      })
    },
  }
}
