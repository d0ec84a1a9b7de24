import { http, HttpResponse, type JsonBodyType } from 'msw'
import { registry } from '../../../schema'

/** Demo rows in the shapes the contract answers (list rows nest references as {id, name}). */
export const cities = [
  { id: 1, name: 'Dhaka', bn_name: null, lat: null, lon: null, url: null, country: { id: 18, name: 'Bangladesh' } },
  { id: 2, name: 'Chattogram', bn_name: null, lat: null, lon: null, url: null, country: { id: 18, name: 'Bangladesh' } },
  { id: 3, name: "Cox's Bazar", bn_name: null, lat: null, lon: null, url: null, country: { id: 18, name: 'Bangladesh' } },
]

export const thanaRows = [
  { id: 11, name: 'Gulshan', bn_name: 'গুলশান', url: null, city: { id: 1, name: 'Dhaka' } },
  { id: 12, name: 'Banani', bn_name: null, url: 'www.banani.gov.bd', city: { id: 1, name: 'Dhaka' } },
  { id: 13, name: 'Kotwali', bn_name: null, url: null, city: { id: 2, name: 'Chattogram' } },
]

export const api = (path: string) => `*${path}`

export const thanaBase = registry.thana.api.base
export const cityBase = registry.city.api.base

export function envelope(listKey: string, rows: readonly JsonBodyType[], page = 1, size = 30, total = rows.length) {
  return { [listKey]: rows, page, size, total_pages: Math.max(1, Math.ceil(total / size)), total_elements: total }
}

/** A JWT shape `decodeJwt` accepts (the browser never verifies signatures). */
export function fakeJwt(claims: Record<string, unknown>): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url')
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.signature`
}

export const validToken = () => fakeJwt({ user_id: 1, token_type: 'access', exp: Math.floor(Date.now() / 1000) + 3600 })
export const expiredToken = () => fakeJwt({ user_id: 1, token_type: 'access', exp: Math.floor(Date.now() / 1000) - 60 })

export function storeSession(token = validToken()): void {
  localStorage.setItem('jwt_access_token', `Bearer ${token}`)
  localStorage.setItem('user_id', '1')
  localStorage.setItem('user_profile', JSON.stringify({ id: 1, email: 'admin@example.com', displayName: 'admin', role: 'admin', photoURL: null }))
}

/** Handlers for the city lookups a thana form needs. */
export const cityHandlers = [
  http.get(api(`${cityBase}/all/`), ({ request }) => {
    const url = new URL(request.url)
    const size = Number(url.searchParams.get('size') ?? 30)
    // `q` matches any searchable field (a picker's typing): here, the name.
    const q = (url.searchParams.get('q') ?? '').toLowerCase()
    const rows = cities.filter((c) => c.name.toLowerCase().includes(q))
    return HttpResponse.json(envelope('cities', rows.slice(0, size), 1, size, rows.length))
  }),
  http.get(api(`${cityBase}/search/`), ({ request }) => {
    const text = (new URL(request.url).searchParams.get('name') ?? '').toLowerCase()
    const rows = cities.filter((c) => c.name.toLowerCase().includes(text))
    return HttpResponse.json(envelope('cities', rows, 1, 20))
  }),
  http.get(api(`${cityBase}/:id`), ({ params }) => {
    if (!/^\d+$/.test(String(params.id))) return undefined
    const city = cities.find((c) => String(c.id) === params.id)
    return city ? HttpResponse.json({ ...city, country: 18 }) : HttpResponse.json({ detail: 'City id - x doesn\'t exists' }, { status: 404 })
  }),
]

// ---------------------------------------------------------------- identity

/** The user the server answers for a session (api-contract §3.1 plus `permissions`). */
export type ServerUser = {
  id: number
  email: string
  username: string | null
  role: string | null
  is_admin: boolean
  permissions: string[]
  image: string | null
  settings: unknown
  [field: string]: unknown
}

export const adminUser: ServerUser = {
  id: 1,
  email: 'admin@example.com',
  username: 'admin',
  first_name: 'Ada',
  last_name: 'Admin',
  role: 'ADMIN',
  is_admin: true,
  permissions: [],
  image: null,
  settings: null,
}

/** A STAFF-like account that may list police stations and districts, and nothing else. */
export const clerkUser: ServerUser = {
  id: 7,
  email: 'clerk@example.com',
  username: 'clerk',
  role: 'CLERK',
  is_admin: false,
  permissions: ['THANA_LIST', 'THANA_DETAILS', 'CITY_LIST'],
  image: null,
  settings: null,
}

/** Stores a session of `user` as the login would (token, id, profile). */
export function storeSessionOf(user: ServerUser, token = validToken()): void {
  localStorage.setItem('jwt_access_token', `Bearer ${token}`)
  localStorage.setItem('user_id', String(user.id))
  localStorage.setItem('user_profile', JSON.stringify({ id: user.id, email: user.email, displayName: user.username, role: user.role, photoURL: user.image, isAdmin: user.is_admin, permissions: user.permissions }))
}

/** `GET /api/auth/access-token` answering `user` and a fresh token (spec §4). */
export function accessTokenAnswers(user: ServerUser, freshToken = validToken()) {
  return http.get(api('/api/auth/access-token'), () => HttpResponse.json({ user, access_token: freshToken }))
}

/** A menu node of the server (api-contract §3.4). */
export type MenuNode = {
  id: number
  parent: number | null
  menu_id: string
  title: string
  translate: string
  type: 'group' | 'collapse' | 'item' | 'link' | 'divider'
  icon: string | null
  url: string | null
  exact: boolean
  children: MenuNode[]
}

export function menuNode(id: number, fields: { translate: string; title?: string; type?: MenuNode['type']; url?: string; icon?: string; children?: MenuNode[] }): MenuNode {
  const { children = [], ...rest } = fields
  return { id, parent: null, menu_id: `m${id}`, title: rest.title ?? rest.translate, translate: rest.translate, type: rest.type ?? 'item', icon: rest.icon ?? null, url: rest.url ?? null, exact: true, children }
}

/** The registry as the server's menu, grouped as its seed groups it: the dashboard, then every list. */
export function registryMenu(): MenuNode[] {
  const groups: [string, string, string[]][] = [
    ['employee-management', 'nav.employee_management', ['department', 'designation', 'employee', 'qualification']],
    ['settings', 'nav.settings', ['country', 'city', 'thana', 'branch', 'customer_type', 'general_setting']],
    ['user-config', 'nav.user_config', ['permission', 'role', 'user', 'role_menu', 'menu_item']],
  ]
  let next = 100
  const entities = Object.values(registry)
  return [
    menuNode(1, { translate: 'nav.dashboards', title: 'Dashboards', url: '/apps/dashboards/project', icon: 'dashboard' }),
    ...groups.map(([menuId, translate, names], i) => ({
      ...menuNode(2 + i, { translate, type: 'group', icon: 'settings' }),
      menu_id: menuId,
      children: entities
        .filter((e) => names.includes(e.name))
        .map((entity) => ({ ...menuNode(next++, { translate: `${entity.labelKey}.other`, url: entity.ui.listPath }), menu_id: entity.name, parent: 2 + i })),
    })),
  ]
}

export const USER_MENU_URL = '/menu_item/api/v1/menu_item/nested_menu_item_by_user_role/'

export function userMenuAnswers(menu: unknown[]) {
  return http.get(api(USER_MENU_URL), () => HttpResponse.json({ menu_items: menu }))
}

export const QUICK_PANEL_URL = '/api/quick-panel/data'

/** The quick panel's data (and the dashboard's counts): these counts by list key, no recent changes. */
export function quickPanelAnswers(counts: Record<string, number>) {
  return http.get(api(QUICK_PANEL_URL), () => HttpResponse.json({ date: '2026-05-04', counts, recent: [] }))
}

/**
 * What every ui test starts with: the token sign-in answers the stored user id as the
 * demo admin, the menu is the whole registry and every list counts nothing. A test replaces
 * them with `server.use`.
 */
export const defaultHandlers = [
  http.get(api('/api/auth/access-token'), ({ request }) => {
    const token = (request.headers.get('authorization') ?? '').replace(/^Bearer\s+/i, '')
    const id = Number(localStorage.getItem('user_id') ?? adminUser.id)
    return HttpResponse.json({ user: { ...adminUser, id }, access_token: token })
  }),
  userMenuAnswers(registryMenu()),
  quickPanelAnswers(Object.fromEntries(Object.values(registry).filter((e) => !e.isLine).map((e) => [e.listKey, 0]))),
  // The quick panel's own notes (issue 23): none.
  http.get(api(`${registry.note.api.base}/all/`), () => HttpResponse.json(envelope(registry.note.listKey, []))),
  // The toolbar's Inbox badge (issue 23): nothing unread.
  http.get(api(`${registry.notification.api.base}/unread_count/`), () => HttpResponse.json({ unread: 0 })),
  // The menu logout ends the session on the server too (issue 9).
  http.post(api('/api/auth/logout'), () => HttpResponse.json({ detail: 'You are signed out.' })),
]
