import { widgets as registeredWidgets } from '../../../schema'
import { SignJWT } from 'jose'
import { sql } from 'kysely'
import { beforeAll, expect, it } from 'vitest'
import type { Action, Entity, Fields, GenericRoute, Report } from '../../../schema/kit'
import { voucherSpecs } from '../../../schema/entities/accounting/vouchers'
import { bulkSettableFields } from '../../../schema/kit/bulk'
import { signToken } from '../../../server/auth/tokens'
import { PEOPLE_SEARCH_PATH, peopleKinds } from '../../../server/domain/identity/people-search'
import { productOptionBase, productOptions } from '../../../server/domain/catalogue/product-options'
import { BLOG_CATEGORY_CONTRACT_BASE } from '../../../server/domain/cms/blog-routes'
import { imageRoutePaths } from '../../../server/domain/cms/image-routes'
import { JWT_SECRET, type TestApp } from './app'

/**
 * The permission matrix (issue 3): every route the app registers × {no token, forged,
 * alg none, expired, USER, STAFF, ADMIN} → the expected status. The expectations come from
 * the registry (the contract's generic routes of every entity as each declares them, its
 * custom actions and its reports) plus an explicit table of the bespoke routes; a registered
 * route without an expectation, or an expectation without a route, fails the run, so every
 * endpoint is covered. Run for the app's registry and for one defined at run time.
 *
 * Allowed calls use ids that do not exist and empty bodies: they answer 2xx, 400 or 404,
 * never 401, 403 or a 5xx, and change nothing.
 */
type Access = { kind: 'public' } | { kind: 'signed-in' } | { kind: 'permission'; anyOf: readonly string[] }
type Expectation = { method: string; url: string; access: Access }

const permission = (...anyOf: string[]): Access => ({ kind: 'permission', anyOf })
type Registry = readonly Entity<string, Fields>[]

/** The contract's generic routes (api-contract §2.1), written out independently of the engine. */
const GENERIC: Record<GenericRoute, { methods: string[]; path: string; action: Action }> = {
  all: { methods: ['GET'], path: 'all/', action: 'LIST' },
  without_pagination: { methods: ['GET'], path: 'without_pagination/all/', action: 'LIST' },
  search: { methods: ['GET'], path: 'search/', action: 'LIST' },
  read: { methods: ['GET'], path: ':id', action: 'DETAILS' },
  create: { methods: ['POST'], path: 'create/', action: 'CREATE' },
  update: { methods: ['PUT', 'PATCH'], path: 'update/:id', action: 'UPDATE' },
  delete: { methods: ['DELETE'], path: 'delete/:id', action: 'DELETE' },
  delete_multiple: { methods: ['DELETE'], path: 'delete_multiple/', action: 'DELETE' },
}

function registryExpectations(entities: Registry, reports: readonly Report[]): Expectation[] {
  const out: Expectation[] = []
  for (const e of entities) for (const base of e.api.bases) {
    // Actions on rows of one's own (EntityConfig.own) are open to every signed-in user: the engine narrows them to their rows.
    const access = (action: Action): Access => (e.publicActions.includes(action) ? { kind: 'public' } : e.own?.actions.includes(action) ? { kind: 'signed-in' } : permission(e.permissions[action]))
    for (const [route, spec] of Object.entries(GENERIC) as Array<[GenericRoute, (typeof GENERIC)[GenericRoute]]>) {
      // Routes a module serves itself are in the bespoke table, with the module's paths.
      if (e.routes[route] !== 'generic' || e.api.except[base]?.includes(route)) continue
      for (const method of spec.methods) out.push({ method, url: `${base}/${spec.path}`, access: access(spec.action) })
    }
    for (const [alias, route] of Object.entries(e.routeAliases)) {
      // An alias of a route of one record takes its id too.
      const path = GENERIC[route].path.includes(':id') ? `${alias}/:id` : `${alias}/`
      if (e.api.except[base]?.includes(route)) continue
      for (const method of GENERIC[route].methods) out.push({ method, url: `${base}/${path}`, access: access(GENERIC[route].action) })
    }
    for (const extra of e.extraRoutes) out.push({ method: 'GET', url: `${base}/${extra.path}/:value`, access: access('LIST') })
    // Every row of the list as a file (CSV, XLSX): the list's LIST, as `all/`.
    if (e.routes.all === 'generic' && !e.api.except[base]?.includes('all')) out.push({ method: 'GET', url: `${base}/export/`, access: access('LIST') })
    // A record's history (its audit entries, its lines' and its related rows'), on by default for every entity with a form: the entity's DETAILS, never public (it names who changed what).
    if (e.hasHistory && !e.isLine) out.push({ method: 'GET', url: `${base}/history/:id`, access: permission(e.permissions.DETAILS) })
    // Import of a CSV/XLSX file (its preview, the import, its rejected rows): the entity's CREATE, where its create is the engine's and a row can be a record (no document kept a row per line, no lines or file it must have).
    const needsMore = e.linesFieldNames.some((n) => (e.fields[n]!.lines?.min ?? 0) > 0) || e.fieldNames.some((n) => e.fields[n]!.isRequired && e.fields[n]!.kind === 'file')
    if (e.routes.create === 'generic' && !e.rowsPerLine && !e.api.except[base]?.includes('create') && !needsMore) {
      for (const path of ['import/preview/', 'import/']) out.push({ method: 'POST', url: `${base}/${path}`, access: access('CREATE') })
      out.push({ method: 'GET', url: `${base}/import/rejected/:token`, access: access('CREATE') })
    }
    // A gallery's new order: the pictures' UPDATE.
    if (e.gallery) out.push({ method: 'POST', url: `${base}/reorder/`, access: permission(e.permissions.UPDATE) })
    // A Trash (EntityConfig.trash): its list and restore the entity's DELETE, as the delete that fills it; a delete for good its own PURGE.
    if (e.trash && !e.api.except[base]?.includes('delete')) {
      out.push({ method: 'GET', url: `${base}/trash/`, access: access('DELETE') }, { method: 'POST', url: `${base}/restore/`, access: access('DELETE') })
      out.push({ method: 'DELETE', url: `${base}/purge/`, access: permission(e.trash.purgePermission) })
    }
    // A bulk update and its undo: the entity's UPDATE, where its generic update is served (not a document kept one row per line) and a field may be set in bulk.
    if (e.routes.update === 'generic' && !e.rowsPerLine && bulkSettableFields(e).length > 0 && !e.api.except[base]?.includes('update')) {
      for (const path of ['bulk_update/', 'undo/:batch']) out.push({ method: 'POST', url: `${base}/${path}`, access: access('UPDATE') })
    }
    // A document kept one row per line, whole, by one of its rows: the entity's DETAILS.
    if (e.rowsPerLine) out.push({ method: 'GET', url: `${base}/document/:id`, access: access('DETAILS') })
    // What a delete would do (its confirmation asks first): the entity's DELETE, as the delete itself.
    if (e.routes.delete !== false || e.routes.delete_multiple !== false) {
      for (const path of ['delete_impact/:id', 'delete_impact/']) out.push({ method: 'GET', url: `${base}/${path}`, access: access('DELETE') })
    }
    for (const action of Object.values(e.actions)) {
      for (const path of action.paths) out.push({ method: 'POST', url: `${base}/${path}/:id`, access: e.own?.actions.includes(action.name) ? { kind: 'signed-in' } : permission(action.permission) })
    }
  }
  for (const r of reports) {
    for (const path of ['', 'csv', 'xlsx', 'pdf', ...(r.chart ? ['chart'] : [])]) out.push({ method: 'GET', url: `${r.api.base}/${path}`, access: permission(r.permission) })
    // The contract's route of the same rows.
    if (r.contract) out.push({ method: 'GET', url: r.contract.path, access: permission(r.permission) })
  }
  return out
}

const LOGOUT = '/api/auth/logout'

/** The routes domain modules and the app add, with who may call them. */
function bespokeExpectations(entities: Registry, reports: readonly Report[]): Expectation[] {
  const byName = (name: string) => entities.find((e) => e.name === name)!
  const user = byName('user')
  const menu = byName('menu_item')
  const roleMenu = byName('role_menu')
  const checks = ['username', 'email', 'primary_phone', 'secondary_phone'].flatMap((field) => [
    { method: 'GET', url: `${user.api.base}/check_${field}_when_create/`, access: permission('USER_CREATE', 'EMPLOYEE_CREATE') },
    { method: 'GET', url: `${user.api.base}/check_${field}_when_update/`, access: permission('USER_UPDATE', 'EMPLOYEE_UPDATE') },
  ])
  return [
    { method: 'GET', url: '/api/health', access: { kind: 'public' } },
    // Readiness for a load balancer, and the metrics: their own token (METRICS_TOKEN), off (404) in the tests (server/http/).
    { method: 'GET', url: '/api/ready', access: { kind: 'public' } },
    { method: 'GET', url: '/metrics', access: { kind: 'public' } },
    { method: 'GET', url: '/api/auth/demo-credentials', access: { kind: 'public' } },
    // The API's OpenAPI document and its page (server/http/api-docs.ts), with the page's files.
    ...['/api/openapi.json', '/api/docs', '/api/docs/json', '/api/docs/yaml', '/api/docs/static/index.html', '/api/docs/static/swagger-initializer.js', '/api/docs/static/*'].map((url) => ({ method: 'GET', url, access: { kind: 'public' } as const })),
    { method: 'GET', url: '/media/*', access: { kind: 'public' } },
    // CORS preflights (@fastify/cors) carry no token by the browser's rules.
    { method: 'OPTIONS', url: '*', access: { kind: 'public' } },
    { method: 'POST', url: '/user/api/v1/user/login/', access: { kind: 'public' } },
    { method: 'POST', url: '/api/auth/register', access: { kind: 'public' } },
    { method: 'GET', url: '/api/auth/access-token', access: { kind: 'signed-in' } },
    { method: 'POST', url: LOGOUT, access: { kind: 'signed-in' } },
    { method: 'POST', url: '/api/auth/forgot-password', access: { kind: 'public' } },
    { method: 'POST', url: '/api/auth/reset-password', access: { kind: 'public' } },
    { method: 'POST', url: '/api/auth/user/update', access: { kind: 'signed-in' } },
    { method: 'GET', url: '/api/quick-panel/data', access: { kind: 'signed-in' } },
    // Records found across every entity the caller may list (the command palette): each entity's own LIST decides.
    { method: 'GET', url: '/api/search/', access: { kind: 'signed-in' } },
    // Also open to the user whose id is in the path (their own password and photo): tested in identity.test.ts.
    { method: 'PATCH', url: `${user.api.base}/passwordchange/:id`, access: permission('USER_UPDATE') },
    { method: 'POST', url: `${user.api.base}/uploadimage/:id`, access: permission('USER_UPDATE') },
    ...checks,
    { method: 'GET', url: `${menu.api.base}/nested_menu_item_without_pagination/all/`, access: permission('MENU_ITEM_LIST') },
    { method: 'GET', url: `${menu.api.base}/nested_menu_item_by_user_role/`, access: { kind: 'signed-in' } },
    { method: 'GET', url: `${menu.api.base}/nested_menu_item_by_role_id/:role_id`, access: permission('MENU_ITEM_LIST', 'ROLE_MENU_LIST') },
    { method: 'POST', url: `${roleMenu.api.base}/create/`, access: permission('ROLE_MENU_CREATE') },
    { method: 'DELETE', url: `${roleMenu.api.base}/delete/:role_id`, access: permission('ROLE_MENU_DELETE') },
    // The general ledger (server/domain/accounting/account-log-routes.ts): the contract's search, its deletes (refused: append-only), its ledger report.
    ...(entities.some((e) => e.name === 'account_log')
      ? [
          { method: 'GET', url: `${byName('account_log').api.base}/search/`, access: permission('ACCOUNT_LOG_LIST') },
          { method: 'DELETE', url: `${byName('account_log').api.base}/delete/:id`, access: permission('ACCOUNT_LOG_DELETE') },
          { method: 'DELETE', url: `${byName('account_log').api.base}/delete_multiple/`, access: permission('ACCOUNT_LOG_DELETE') },
        ]
      : []),
    // The vouchers (server/domain/accounting/voucher-routes.ts): by invoice and every write are the module's adapter over the engine.
    ...voucherSpecs.flatMap((spec) => {
      const e = entities.find((x) => x.name === spec.kind)
      if (!e) return []
      const p = (action: Action) => permission(e.permissions[action])
      return [
        { method: 'GET', url: `${e.api.base}/${spec.byInvoice}/:invoice_no`, access: p('DETAILS') },
        { method: 'POST', url: `${e.api.base}/create/`, access: p('CREATE') },
        ...['PUT', 'PATCH'].flatMap((method) => [
          { method, url: `${e.api.base}/update/`, access: p('UPDATE') },
          { method, url: `${e.api.base}/update/:id`, access: p('UPDATE') },
        ]),
        { method: 'DELETE', url: `${e.api.base}/delete/:id`, access: p('DELETE') },
        { method: 'DELETE', url: `${e.api.base}/delete_multiple/`, access: p('DELETE') },
      ]
    }),
    // The statements at the contract's routes (server/domain/accounting/account-log-routes.ts): one ledger's, the cash and bank books, a sub-ledger's.
    ...(reports.some((r) => r.name === 'ledger_report')
      ? ['general/', 'for_person_or_company_ledger/'].map((path) => ({ method: 'GET', url: `/account_log_report/api/v1/account_log_report/${path}`, access: permission('LEDGER_REPORT_VIEW') }))
      : []),
    ...(reports.some((r) => r.name === 'account_statement')
      ? ['by_ledger_type/', 'for_cash_ledger/', 'for_bank_ledger_or_bank_account_group/', 'for_sub_ledger/'].map((path) => ({ method: 'GET', url: `/account_log_report/api/v1/account_log_report/${path}`, access: permission('ACCOUNT_STATEMENT_VIEW') }))
      : []),
    ...(reports.some((r) => r.name === 'account_statement_summary')
      ? [{ method: 'GET', url: '/account_log_report/api/v1/account_log_report/get_total_cash_dr_cr_bank_dr_cr/', access: permission('ACCOUNT_STATEMENT_SUMMARY_VIEW') }]
      : []),
    // The people search (server/domain/identity/people-search.ts): any kind of person the caller may list.
    { method: 'GET', url: PEOPLE_SEARCH_PATH, access: permission(...peopleKinds(entities).map((e) => e.permissions.LIST)) },
    // The category level lists (server/domain/catalogue/category-routes.ts): the entity's LIST.
    ...(entities.some((e) => e.name === 'category')
      ? ['get_all_parent_category_without_pagination/', 'get_all_sub_category_by_category_id_without_pagination/:id', 'get_all_sub_sub_category_by_category_id_without_pagination/:id'].map((path) => ({
          method: 'GET',
          url: `${byName('category').api.base}/${path}`,
          access: permission('CATEGORY_LIST'),
        }))
      : []),
    // The contract's productcolor and productsize over the product's colours and sizes (server/domain/catalogue/product-options.ts): the product's DETAILS to read, UPDATE to set.
    ...(entities.some((e) => e.name === 'product')
      ? productOptions.flatMap((option) => {
          const base = productOptionBase(option)
          const [read, write] = [permission('PRODUCT_DETAILS'), permission('PRODUCT_UPDATE')]
          return [
            { method: 'GET', url: `${base}/get_all_by_product_id/:id`, access: read },
            { method: 'GET', url: `${base}/get_by_product_id/:id`, access: read },
            { method: 'GET', url: `${base}/:id`, access: read },
            { method: 'POST', url: `${base}/create/`, access: write },
            { method: 'PUT', url: `${base}/update/:id`, access: write },
            { method: 'PATCH', url: `${base}/update/:id`, access: write },
            { method: 'DELETE', url: `${base}/delete/:id`, access: write },
          ]
        })
      : []),
    // A product's discount (server/domain/catalogue/discount-routes.ts): the discount's DETAILS.
    ...(entities.some((e) => e.name === 'discount')
      ? [{ method: 'GET', url: `${byName('discount').api.base}/get_a_discount_by_product_id/:id`, access: permission('DISCOUNT_DETAILS') }]
      : []),
    // A product's stock count (server/domain/inventory): any signed-in user — the storefront asks it before an order line.
    ...(entities.some((e) => e.name === 'inventory')
      ? [{ method: 'GET', url: `${byName('inventory').api.base}/check_by_product_id/:id`, access: { kind: 'signed-in' } as const }]
      : []),
    // Purchasing (server/domain/purchasing/routes.ts): a document's lines changed as the document's UPDATE, its reads as its DETAILS,
    // a purchase from an offer as the purchase's CREATE; the storefront's offer is anyone's (vendor-offers.ts judges who offers).
    ...(entities.some((e) => e.name === 'purchase_final')
      ? [
          { method: 'PUT', url: `${byName('purchase_final').api.base}/update_item/:itemId`, access: permission('PURCHASE_FINAL_UPDATE') },
          { method: 'DELETE', url: `${byName('purchase_final').api.base}/delete_item/:itemId`, access: permission('PURCHASE_FINAL_UPDATE') },
          { method: 'GET', url: `${byName('purchase_final').api.base}/get_invoice_by_purchase_final_id/:id`, access: permission('PURCHASE_FINAL_DETAILS') },
          { method: 'POST', url: `${byName('purchase_final').api.base}/create_from_purchase_request/`, access: permission('PURCHASE_FINAL_CREATE') },
          { method: 'GET', url: `${byName('purchase_request').api.base}/purchase_request_with_items_images/:id`, access: permission('PURCHASE_REQUEST_DETAILS') },
          { method: 'GET', url: `${byName('purchase_request').api.base}/get_invoice_by_purchase_request_id/:id`, access: permission('PURCHASE_REQUEST_DETAILS') },
          { method: 'DELETE', url: `/purchase_req_item/api/v1/purchase_req_item/delete/:id`, access: permission('PURCHASE_REQUEST_UPDATE') },
          { method: 'POST', url: `${byName('purchase_request').api.base}/create_vendor_purchase_request/`, access: { kind: 'public' } as const },
          { method: 'GET', url: `${byName('purchase_request').api.base}/get_all_by_vendor/`, access: { kind: 'signed-in' } as const },
        ]
      : []),
    // Orders (server/domain/orders/routes.ts): any signed-in caller reaches them; each then acts under the order's
    // permission, or as the customer on their own order (a stranger's order answers 403, an unknown one 404).
    ...(entities.some((e) => e.name === 'order') ? orderExpectations(byName('order'), byName('shippingaddress')) : []),
    // Dashboard widgets (server/engine/widgets.ts): each contract route under the LIST of what it reads; the dashboard's one request for anyone signed in (it answers what they may read).
    ...registeredWidgets
      .filter((w) => w.route && entities.some((e) => e.name === w.reads))
      .flatMap((w) => [`/dashboard/api/v1/${w.route}/`, `/dashboard/api/v1/dashboard/${w.route}/`].map((url) => ({ method: 'GET', url, access: permission(byName(w.reads).permissions.LIST) }))),
    ...(registeredWidgets.some((w) => entities.some((e) => e.name === w.reads)) ? [{ method: 'GET', url: '/dashboard/api/v1/widgets/', access: { kind: 'signed-in' } as const }] : []),
    // The CMS (server/domain/cms): the site's read routes, pictures for a post's body, the blog categories at the contract's base.
    ...(entities.some((e) => e.name === 'cms_menu') ? cmsExpectations(entities) : []),
    // Subscriptions (server/domain/membership/subscriptions.ts): the create of many, and anyone's own list.
    ...(entities.some((e) => e.name === 'monthly_subscription')
      ? [
          { method: 'POST', url: `${byName('monthly_subscription').api.base}/create/`, access: permission('MONTHLY_SUBSCRIPTION_CREATE') },
          { method: 'GET', url: `${byName('monthly_subscription').api.base}/get_all_by_member/`, access: { kind: 'signed-in' } as const },
        ]
      : []),
    // A cause's page (server/domain/membership/cause-routes.ts).
    ...(entities.some((e) => e.name === 'cause')
      ? [
          { method: 'GET', url: `${byName('cause').api.base}/get_all_content_and_image_by_cause_id/:id`, access: permission('CAUSE_DETAILS') },
          { method: 'GET', url: '/cause_content/api/v1/get_all_cause_content_by_cause_id/:id', access: permission('CAUSE_CONTENT_LIST') },
          { method: 'GET', url: '/cause_content_image/api/v1/get_all_cause_content_image_by_cause_id/:id', access: permission('CAUSE_CONTENT_IMAGE_LIST') },
        ]
      : []),
    // A department's tickets (server/domain/tickets/routes.ts): as `all/` — anyone signed in, a customer narrowed to their own.
    ...(entities.some((e) => e.name === 'ticket')
      ? ['account', 'sales', 'support'].map((d) => ({ method: 'GET', url: `${byName('ticket').api.base}/ticket_of_${d}_department/`, access: { kind: 'signed-in' } as const }))
      : []),
    // The Inbox (server/domain/workspace/notifications.ts): anyone signed in, on their own notifications only.
    ...(entities.some((e) => e.name === 'notification')
      ? [
          { method: 'GET', url: `${byName('notification').api.base}/unread_count/`, access: { kind: 'signed-in' } as const },
          { method: 'POST', url: `${byName('notification').api.base}/mark_all_read/`, access: { kind: 'signed-in' } as const },
        ]
      : []),
  ]
}

/** The CMS module's routes (server/domain/cms), each with the permission of the entity it reads or writes. */
function cmsExpectations(entities: Registry): Expectation[] {
  const byName = (name: string) => entities.find((e) => e.name === name)!
  const [menu, content, image, itinerary] = [byName('cms_menu'), byName('cms_menu_content'), byName('cms_menu_content_image'), byName('cms_itinerary')]
  const [meta, blog, category] = [byName('cms_meta_data'), byName('cms_blog'), byName('cms_blog_category')]
  const p = (e: Entity<string, Fields>, action: Action) => permission(e.permissions[action])
  return [
    { method: 'GET', url: `${menu.api.base}/get_all_nested_cms_menu/`, access: p(menu, 'LIST') },
    { method: 'GET', url: `${menu.api.base}/get_all_menu_content_and_image_by_cms_menu_id/:menu_id`, access: p(menu, 'DETAILS') },
    { method: 'GET', url: '/cms_menu_content/api/v1/get_all_cms_menu_content_by_cms_menu_id/:menu_id', access: p(content, 'LIST') },
    { method: 'GET', url: `${content.api.base}/get_cms_menu_content_by_cms_menu_id/:menu_id`, access: p(content, 'LIST') },
    ...Object.values(imageRoutePaths).map((path) => ({ method: 'GET', url: `/cms_menu_content_image/api/v1/${path}`, access: p(image, 'LIST') })),
    { method: 'GET', url: '/cms_itinerary/api/v1/Itinerary/get_Itinerary_by_cms_content_id/:id', access: p(itinerary, 'LIST') },
    { method: 'GET', url: `${meta.api.base}/get_meta_data_by_cms_content_slug/:slug/`, access: p(meta, 'DETAILS') },
    { method: 'POST', url: `${blog.api.base}/image_upload/`, access: permission(blog.permissions.CREATE, blog.permissions.UPDATE) },
    ...Object.values(GENERIC).flatMap((spec) => spec.methods.map((method) => ({ method, url: `${BLOG_CATEGORY_CONTRACT_BASE}/${spec.path}`, access: p(category, spec.action) }))),
    ...['delete_impact/:id', 'delete_impact/'].map((path) => ({ method: 'GET', url: `${BLOG_CATEGORY_CONTRACT_BASE}/${path}`, access: p(category, 'DELETE') })),
  ]
}

/** Every GET answers HEAD too (Fastify), with the same access. */
const withHead = (list: Expectation[]) => [...list, ...list.filter((x) => x.method === 'GET').map((x) => ({ ...x, method: 'HEAD' }))]
const keyOf = (x: { method: string; url: string }) => `${x.method} ${x.url}`

/**
 * The role levels of decisions.md: STAFF holds every permission but those of the access entities
 * (the outbox among them: its messages carry password-reset links).
 */
const ACCESS_ENTITIES = ['user', 'role', 'permission', 'menu_item', 'role_menu', 'outbox_message']

/**
 * An entity's permissions, written out: its five, one per action, its Trash's purge and, for users, the one that
 * changes another's password or e-mail; a line entity has none (its document's hold).
 */
const permissionsOf = (e: Entity<string, Fields>) =>
  e.isLine
    ? []
    : [...Object.values(e.permissions), ...Object.values(e.actions).map((a) => a.permission), ...(e.trash ? [`${e.permission}_PURGE`] : []), ...(e.name === 'user' ? ['USER_SET_CREDENTIALS'] : [])]

function rolePermissions(entities: Registry, reports: readonly Report[]): Record<'USER' | 'STAFF' | 'ADMIN', ReadonlySet<string>> {
  const all = [...entities.flatMap(permissionsOf), ...reports.map((r) => r.permission)]
  const access = new Set(entities.filter((e) => ACCESS_ENTITIES.includes(e.name)).flatMap(permissionsOf))
  return { USER: new Set(), STAFF: new Set(all.filter((p) => !access.has(p))), ADMIN: new Set(all) }
}

const CALLERS = ['no token', 'forged signature', 'alg none', 'expired', 'USER', 'STAFF', 'ADMIN'] as const
type Caller = (typeof CALLERS)[number]

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url')
const now = () => Math.floor(Date.now() / 1000)

export function permissionMatrix(t: { readonly current: TestApp }, entities: Registry, reports: readonly Report[]): void {
  // The logout ends the callers' sessions: it goes last, after every other route has used their tokens.
  const expectations = withHead([...registryExpectations(entities, reports), ...bespokeExpectations(entities, reports)]).sort((a, b) => Number(a.url === LOGOUT) - Number(b.url === LOGOUT))
  const ROLE_PERMISSIONS = rolePermissions(entities, reports)
  const expectedStatus = (access: Access, caller: Caller): 'allowed' | 401 | 403 => {
    if (access.kind === 'public') return 'allowed'
    if (caller === 'no token' || caller === 'forged signature' || caller === 'alg none' || caller === 'expired') return 401
    if (access.kind === 'signed-in') return 'allowed'
    return access.anyOf.some((p) => ROLE_PERMISSIONS[caller].has(p)) ? 'allowed' : 403
  }
  const headers: Partial<Record<Caller, Record<string, string>>> = {}

  beforeAll(async () => {
    const userWithRole = async (role: string) => {
      const id = await t.current.createUser({ email: `${role.toLowerCase()}-matrix-${t.current.kind}@example.com` })
      await sql`update "user" set role = (select id from role where name = ${role}) where id = ${id}`.execute(t.current.db)
      return id
    }
    const userId = await userWithRole('USER')
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
    headers['no token'] = {}
    headers['forged signature'] = bearer(await signToken('another-secret-of-at-least-thirty-two-chars', userId))
    headers['alg none'] = bearer(`${b64({ alg: 'none', typ: 'JWT' })}.${b64({ token_type: 'access', user_id: userId, exp: now() + 3600 })}.`)
    headers.expired = bearer(
      await new SignJWT({ token_type: 'access', user_id: userId })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt(now() - 7200)
        .setExpirationTime(now() - 3600)
        .sign(new TextEncoder().encode(JWT_SECRET)),
    )
    headers.USER = bearer(await signToken(JWT_SECRET, userId))
    headers.STAFF = bearer(await signToken(JWT_SECRET, await userWithRole('STAFF')))
    headers.ADMIN = bearer(await signToken(JWT_SECRET, await userWithRole('ADMIN')))
  })

  it('has an expected outcome for every registered route, and a registered route for every expectation', () => {
    const registered = new Set(t.current.app.routeTable.map(keyOf))
    const expected = new Set(expectations.map(keyOf))
    expect([...registered].filter((k) => !expected.has(k)), 'routes without an expectation').toEqual([])
    expect([...expected].filter((k) => !registered.has(k)), 'expectations without a route').toEqual([])
    expect(expected.size).toBe(expectations.length)
  })

  it('gives the built-in roles the permissions the matrix expects', async () => {
    for (const role of ['USER', 'STAFF', 'ADMIN'] as const) {
      const r = await sql<{ name: string }>`
        select p.name from role_permissions rp join permission p on p.id = rp.target_id
        join role r on r.id = rp.owner_id where r.name = ${role}`.execute(t.current.db)
      expect(new Set(r.rows.map((x) => x.name)), role).toEqual(ROLE_PERMISSIONS[role])
    }
  })

  for (const x of expectations) {
    const outcome = CALLERS.map((c) => `${c} ${expectedStatus(x.access, c)}`).join(', ')
    it(`${x.method} ${x.url}: ${outcome}`, async () => {
      const url = x.url === '*' ? '/api/anything' : x.url.replace(/:\w+/g, '999999999').replace(/\*$/, 'nothing-here.png')
      const hasBody = !['GET', 'HEAD', 'DELETE'].includes(x.method) || url.endsWith('delete_multiple/')
      for (const caller of CALLERS) {
        const res = await t.current.app.inject({ method: x.method as 'GET', url, headers: headers[caller], ...(hasBody ? { payload: {} } : {}) })
        const want = expectedStatus(x.access, caller)
        const what = `${x.method} ${url} as ${caller}: ${res.statusCode} ${res.body.slice(0, 200)}`
        if (want === 'allowed') {
          expect([401, 403], what).not.toContain(res.statusCode)
          expect(res.statusCode, what).toBeLessThan(500)
        } else {
          expect(res.statusCode, what).toBe(want)
          if (x.method !== 'HEAD') expect(JSON.parse(res.body), what).toEqual(expect.objectContaining({ detail: expect.any(String) }))
        }
      }
    })
  }
}

function orderExpectations(order: Entity<string, Fields>, shipping: Entity<string, Fields>): Expectation[] {
  const signedIn = { kind: 'signed-in' } as const
  const out: Expectation[] = []
  for (const base of order.api.bases) {
    out.push(
      { method: 'PUT', url: `${base}/update_item/:itemId`, access: signedIn },
      { method: 'POST', url: `${base}/confirm_from_frontend/:id`, access: signedIn },
      { method: 'GET', url: `${base}/get_a_customer_order_detail/:id`, access: signedIn },
      { method: 'GET', url: `${base}/get_a_customer_order_detail_with_order_orderitem_shipping/:id`, access: signedIn },
      { method: 'GET', url: `${base}/get_invoice_by_order_id/:id`, access: signedIn },
    )
  }
  for (const prefix of [...order.api.bases, '/customerorder/api/v1']) {
    out.push({ method: 'DELETE', url: `${prefix}/customerorder_delete_item/:orderId/:itemId`, access: signedIn })
    for (const step of ['increase', 'decrease']) for (const method of ['POST', 'PUT']) out.push({ method, url: `${prefix}/customerorder_${step}_quantity/:orderId/:itemId`, access: signedIn })
  }
  out.push(
    { method: 'POST', url: '/customerorder/api/v1/customerorder/create/', access: signedIn },
    { method: 'GET', url: '/customerorder/api/v1/customerorder/get_all_by_customer/', access: signedIn },
    { method: 'GET', url: '/shippingaddress/api/v1/shippingaddress_using_order_id/:id', access: signedIn },
    { method: 'GET', url: `${shipping.api.base}/shippingaddress_using_order_id/:id`, access: signedIn },
  )
  return out
}
