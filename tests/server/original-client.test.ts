import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { entities } from '../../schema'
import { buildApp } from '../../server/app'
import { hashPassword } from '../../server/auth/passwords'
import type { Connection } from '../../server/db/connect'
import { withPublicRead } from '../../server/engine/access'
import { withRefsAsIds } from '../../server/engine/refs-as-ids'
import { JWT_SECRET, replyOf, type Reply } from './helpers/app'
import { databaseKinds, freshDatabase, isAvailable, type DatabaseKind } from './helpers/databases'
import { tinyPng } from './helpers/images'
import { multipart, type FilePart } from './helpers/multipart'

/**
 * The original admin client (issue 9; /work/shared/reference/original-client.md) against our
 * server: each screen's requests replayed as the client sends them — its exact paths (the
 * slashes it leaves out, the `without_paginaiton` typo), its `Authorization: Bearer <access>`
 * on some calls and none on its lookups and searches, JSON or multipart bodies with the
 * extra keys its forms carry, and Update bodies that are the GET object with edits merged
 * in — and the answers it needs checked: keys, shapes, 2xx, primitives in the cells it
 * renders as they come. The lookups and searches it sends without a token answer because
 * the server runs with `PUBLIC_READ` naming them. The references its lists render as they
 * come (District's country, Police Station's district, Employee's branch) are raw ids with
 * `LIST_REFS_AS_IDS` naming them: nested `{id, name}` there crashes it (React #31).
 */
const ORIGIN = 'http://127.0.0.1:3000'
/** What the client loads and searches without a token, minus what holds personal data. */
const PUBLIC_READ = ['branch', 'thana', 'city', 'country', 'role', 'department', 'permission', 'menu_item']
/** The README's setting for this client. */
const LIST_REFS_AS_IDS = ['city.country', 'thana.city', 'employee.branch']
const ADMIN = { email: 'client-admin@example.com', password: 'admin12345', username: 'clientadmin' }

type Body = Record<string, any>
type Call = { auth?: boolean; json?: Body; form?: Body; files?: FilePart[] }

/** The client's `jsonToFormData`: nested keys as `a[b]`, null and undefined as '', the rest as text. */
function formFieldsOf(data: Body, parentKey?: string, out: Record<string, string> = {}): Record<string, string> {
  for (const [key, value] of Object.entries(data)) {
    const name = parentKey ? `${parentKey}[${key}]` : key
    if (value !== null && typeof value === 'object') formFieldsOf(value as Body, name, out)
    else out[name] = value === null || value === undefined ? '' : String(value)
  }
  return out
}

const PNG = tinyPng()
const png = (name: string): FilePart => ({ name, filename: `${name}.png`, type: 'image/png', data: PNG })

const isPrimitive = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v)

let sequence = 0
const unique = (prefix: string) => `${prefix} ${String.fromCharCode(97 + (++sequence % 26))}${sequence}q${process.pid % 1000}`

type OriginalClient = {
  app: FastifyInstance
  connection: Connection
  mediaDir: string
  /** `localStorage.jwt_access_token`: "Bearer <access>", sent as stored. */
  token: string
  userId: number
  send: (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, call?: Call) => Promise<Reply>
}

async function startServer(kind: DatabaseKind): Promise<OriginalClient> {
  const connection = await freshDatabase(kind)
  const mediaDir = mkdtempSync(join(tmpdir(), 'media-'))
  const app = await buildApp({ db: connection.db, jwtSecret: JWT_SECRET, mediaDir, entities: withPublicRead(withRefsAsIds(entities, LIST_REFS_AS_IDS), PUBLIC_READ), corsOrigins: [ORIGIN] })
  await app.ready()
  // The client needs a signed-in user with a role (it refuses a login without one).
  await sql`insert into "user" (first_name, last_name, username, email, password, is_admin, is_active, role)
    values ('Client', 'Admin', ${ADMIN.username}, ${ADMIN.email}, ${await hashPassword(ADMIN.password)}, true, true, (select id from role where name = 'ADMIN'))`.execute(connection.db)
  const client: OriginalClient = {
    app,
    connection,
    mediaDir,
    token: '',
    userId: 0,
    send: async (method, url, call = {}) => {
      const headers: Record<string, string> = { origin: ORIGIN }
      if (call.auth) headers.authorization = client.token
      let payload: string | Buffer | undefined
      if (call.json) {
        headers['content-type'] = 'application/json'
        payload = JSON.stringify(call.json)
      } else if (call.form) {
        const body = multipart(formFieldsOf(call.form), call.files ?? [])
        Object.assign(headers, body.headers)
        payload = body.payload
      }
      return replyOf(await app.inject({ method, url, headers, payload }))
    },
  }
  return client
}

/** List, search (no token), create, open, update (the GET object with edits) and delete, as a JSON screen does. */
async function replayJsonScreen(c: OriginalClient, screen: { p: string; listKey: string; searchKey?: string; size?: number; paged?: boolean; search: string; create: Body; edit: Body; cells: string[] }) {
  const { p, listKey } = screen
  const created = await c.send('POST', `${p}/create/`, { auth: true, json: screen.create })
  expect(created.status, created.raw).toBe(201)
  // A 2xx carrying `detail` is shown as an error by the Permission and Role forms.
  expect(created.body).not.toHaveProperty('detail')
  const id = created.body.id as number

  const list = await c.send('GET', `${p}/all/?page=1&size=${screen.size ?? 30}`, { auth: true })
  expect(list.status, list.raw).toBe(200)
  // Menu items' `all/` is the contract's unpaged `{menu_items}`; the client's pager just shows nothing.
  expect(list.body).toMatchObject(screen.paged === false ? { [listKey]: expect.any(Array) } : { [listKey]: expect.any(Array), total_elements: expect.any(Number), total_pages: expect.any(Number) })
  for (const row of list.body[listKey] as Body[]) {
    expect(row.id).toEqual(expect.any(Number))
    for (const cell of screen.cells) expect(isPrimitive(row[cell]), `${p} ${cell}: ${JSON.stringify(row[cell])}`).toBe(true)
  }

  const found = await c.send('GET', `${p}/search/?${screen.search}=${encodeURIComponent(String(screen.create[screen.search]).slice(0, 6))}`)
  expect(found.status, found.raw).toBe(200)
  expect((found.body[screen.searchKey ?? listKey] as Body[]).map((r) => r.id)).toContain(id)

  const opened = await c.send('GET', `${p}/${id}`, { auth: true })
  expect(opened.status).toBe(200)
  const updated = await c.send('PUT', `${p}/update/${id}`, { auth: true, json: { ...opened.body, ...screen.edit } })
  expect(updated.status, updated.raw).toBe(200)
  expect(updated.body).not.toHaveProperty('detail')
  expect(updated.body).toMatchObject(screen.edit)

  const deleted = await c.send('DELETE', `${p}/delete/${id}`, { auth: true })
  expect(deleted.status, deleted.raw).toBe(200)
  expect((await c.send('GET', `${p}/${id}`, { auth: true })).status).toBe(404)
  return { id, list }
}

for (const kind of databaseKinds) {
  describe.skipIf(!isAvailable(kind))(`the original admin client [${kind}]`, () => {
    let c: OriginalClient
    /** Reference rows the screens pick from. */
    const refs = { country: 0, city: 0, thana: 0, branch: 0, department: 0 }

    beforeAll(async () => {
      c = await startServer(kind)
      const login = await c.send('POST', '/user/api/v1/user/login/', { json: { email: ADMIN.email, password: ADMIN.password } })
      expect(login.status, login.raw).toBe(200)
      expect(login.body).toMatchObject({ access: expect.any(String), id: expect.any(Number), email: ADMIN.email, username: ADMIN.username })
      expect(login.body.role).toBeTruthy()
      c.token = `Bearer ${login.body.access}`
      c.userId = login.body.id
      const make = async (p: string, json: Body) => {
        const r = await c.send('POST', `${p}/create/`, { auth: true, json })
        expect(r.status, r.raw).toBe(201)
        return r.body.id as number
      }
      refs.country = await make('/country/api/v1/country', { name: unique('Bangladesh') })
      refs.city = await make('/city/api/v1/city', { name: unique('Dhaka'), country: refs.country })
      refs.thana = await make('/thana/api/v1/thana', { name: unique('Gulshan'), city: refs.city })
      refs.branch = await make('/branch/api/v1/branch', { name: unique('Head office'), thana: refs.thana, city: refs.city, country: refs.country })
      refs.department = await make('/department/api/v1/department', { name: unique('Accounts') })
    })

    afterAll(async () => {
      await c?.app.close()
      await c?.connection.close()
      if (c) rmSync(c.mediaDir, { recursive: true, force: true })
    })

    it('starts up: GET user/{id} and user/null without a token are refused or missing, never a server error', async () => {
      for (const url of [`/user/api/v1/user/${c.userId}`, '/user/api/v1/user/null']) {
        const r = await c.send('GET', url)
        expect(r.status, url).toBeGreaterThanOrEqual(400)
        expect(r.status, url).toBeLessThan(500)
      }
      // Users hold personal data: PUBLIC_READ never opens them, whatever it names.
      expect((await c.send('GET', `/user/api/v1/user/${c.userId}`)).status).toBe(401)
      expect((await c.send('GET', '/user/api/v1/user/search/?username=client')).status).toBe(401)
      expect((await c.send('GET', '/employee/api/v1/employee/search/?username=client')).status).toBe(401)
    })

    it('loads every lookup it sends without a token, each item with id and name (menus: translate)', async () => {
      const lookups: Array<[string, string]> = [
        ['/branch/api/v1/branch/without_pagination/all/', 'branches'],
        ['/thana/api/v1/thana/without_pagination/all/', 'thanas'],
        ['/city/api/v1/city/without_pagination/all/', 'cities'],
        ['/country/api/v1/country/without_pagination/all/', 'countries'],
        ['/role/api/v1/role/without_pagination/all/', 'roles'],
        ['/department/api/v1/department/without_pagination/all/', 'departments'],
        ['/permission/api/v1/permission/without_pagination/all/', 'permissions'],
        ['/menu_item/api/v1/menu_item/without_pagination/all/', 'menu_items'],
      ]
      for (const [url, key] of lookups) {
        const r = await c.send('GET', url)
        expect(r.status, `${url} ${r.raw}`).toBe(200)
        expect(r.body[key], url).toEqual(expect.any(Array))
        expect((r.body[key] as Body[]).length, url).toBeGreaterThan(0)
        for (const item of r.body[key] as Body[]) {
          expect(item.id, url).toEqual(expect.any(Number))
          if (key === 'menu_items') expect(item.translate, url).toEqual(expect.any(String))
          else expect(item.name, url).toEqual(expect.any(String))
          // Anonymous readers are not told who wrote a row: staff e-mails are personal data.
          expect(item.created_by, url).toBeNull()
        }
      }
      // Reads only: writes keep their permission.
      expect((await c.send('POST', '/city/api/v1/city/create/', { json: { name: 'Anonymous', country: refs.country } })).status).toBe(401)
      expect((await c.send('DELETE', `/city/api/v1/city/delete/${refs.city}`)).status).toBe(401)
      // With a token, the two lookups it sends signed in.
      const employees = await c.send('GET', '/employee/api/v1/employee/without_paginaiton/all/', { auth: true })
      expect(employees.status).toBe(200)
      for (const e of employees.body.employees as Body[]) expect(Object.keys(e)).toEqual(expect.arrayContaining(['id', 'first_name', 'last_name', 'email']))
      const nested = await c.send('GET', '/menu_item/api/v1/menu_item/nested_menu_item_without_pagination/all/', { auth: true })
      expect(nested.status).toBe(200)
      expect(nested.body.menu_items[0]).toMatchObject({ id: expect.any(Number), translate: expect.any(String), children: expect.any(Array) })
    })

    it('District: lists the country as its raw id, searches ?name= without a token, creates, updates and deletes', async () => {
      const { list } = await replayJsonScreen(c, {
        p: '/city/api/v1/city',
        listKey: 'cities',
        search: 'name',
        create: { name: unique('Sylhet'), country: refs.country },
        edit: { name: unique('Khulna') },
        // The cell it renders as it comes: an object there takes the whole app down.
        cells: ['name', 'country'],
      })
      const row = (list.body.cities as Body[]).find((r) => r.id === refs.city)!
      expect(row.country).toBe(refs.country)
      expect(row._labels.country).toMatch(/^Bangladesh/)
    })

    it('Police Station: lists the district as the raw id it looks up in the cities lookup, searches, creates, updates and deletes', async () => {
      const { list } = await replayJsonScreen(c, {
        p: '/thana/api/v1/thana',
        listKey: 'thanas',
        search: 'name',
        create: { name: unique('Banani'), city: refs.city },
        edit: { name: unique('Uttara') },
        cells: ['name', 'city'],
      })
      const row = (list.body.thanas as Body[]).find((r) => r.id === refs.thana)!
      const cities = (await c.send('GET', '/city/api/v1/city/without_pagination/all/')).body.cities as Body[]
      expect(cities.find((city) => city.id === row.city)?.name).toBe(row._labels.city)
    })

    it('Branch: creates with its address ids and is_active, updates and deletes', async () => {
      await replayJsonScreen(c, {
        p: '/branch/api/v1/branch',
        listKey: 'branches',
        search: 'name',
        create: {
          name: unique('Chattogram branch'),
          short_desc: 'Port city',
          full_desc: '',
          is_active: true,
          street_address_one: 'Agrabad 4',
          street_address_two: '',
          postal_code: '4100',
          thana: refs.thana,
          city: refs.city,
          country: refs.country,
        },
        edit: { is_active: false, short_desc: 'Moved' },
        cells: ['name'],
      })
    })

    it('Department: creates, searches, updates and deletes', async () => {
      await replayJsonScreen(c, { p: '/department/api/v1/department', listKey: 'departments', search: 'name', create: { name: unique('Logistics') }, edit: { name: unique('Procurement') }, cells: ['name'] })
    })

    it('Permission: saves with 2xx answers that carry no detail', async () => {
      await replayJsonScreen(c, { p: '/permission/api/v1/permission', listKey: 'permissions', search: 'name', create: { name: `PRINTS_${sequence}_REPORT` }, edit: { name: `REPORT_${++sequence}_EXPORT` }, cells: ['name'] })
    })

    it('Role: lists 5 a page, opens with permission ids, saves {name, permissions, all} without detail', async () => {
      const permissions = ((await c.send('GET', '/permission/api/v1/permission/without_pagination/all/')).body.permissions as Body[]).slice(0, 3).map((p) => p.id as number)
      const { list } = await replayJsonScreen(c, {
        p: '/role/api/v1/role',
        listKey: 'roles',
        size: 5,
        search: 'name',
        create: { name: `CLERK_${++sequence}`, permissions: permissions.slice(0, 2), all: false },
        edit: { permissions: [permissions[2]!] },
        cells: ['name'],
      })
      expect(list.body.roles.length).toBeLessThanOrEqual(5)
      // The list shows `permissions` as it comes: ids, as the contract gives them (objects would crash React).
      for (const row of list.body.roles as Body[]) expect((row.permissions as unknown[]).every((p) => typeof p === 'number'), String(row.name)).toBe(true)
      const admin = (await c.send('GET', '/role/api/v1/role/search/?name=ADMIN')).body.roles[0] as Body
      const opened = await c.send('GET', `/role/api/v1/role/${admin.id}`, { auth: true })
      expect(opened.body.permissions.every((p: unknown) => typeof p === 'number')).toBe(true)
    })

    it('Menu item: lists the parent as its raw id, creates, opens, updates and deletes', async () => {
      const parents = (await c.send('GET', '/menu_item/api/v1/menu_item/without_pagination/all/')).body.menu_items as Body[]
      const group = parents.find((m) => m.type === 'group')!
      const { list } = await replayJsonScreen(c, {
        p: '/menu_item/api/v1/menu_item',
        listKey: 'menu_items',
        paged: false,
        // Its search reads `branches`, the original backend's slip.
        searchKey: 'branches',
        search: 'title',
        create: { parent: group.id, menu_id: `client_${sequence}`, title: unique('Client page'), translate: 'nav.client_page', type: 'item', icon: 'star', url: '/apps/client/page', exact: true },
        edit: { title: `Renamed Page ${++sequence}`, exact: false },
        cells: ['parent', 'menu_id', 'title', 'translate', 'type', 'icon', 'url'],
      })
      const child = (list.body.menu_items as Body[]).find((m) => m.parent !== null)!
      expect(child.parent).toEqual(expect.any(Number))
    })

    it('Role menu: list ids open the same role’s menu, create/ saves and re-saves it, delete/{role id} removes it', async () => {
      const role = await c.send('POST', '/role/api/v1/role/create/', { auth: true, json: { name: `MENU_ROLE_${++sequence}`, permissions: [] } })
      expect(role.status).toBe(201)
      const items = (await c.send('GET', '/menu_item/api/v1/menu_item/without_pagination/all/')).body.menu_items as Body[]
      const [a, b, d] = items.filter((m) => m.type === 'item').map((m) => m.id as number)
      // Create: the form's tree as ids, with the keys the form carries.
      const created = await c.send('POST', '/role_menu/api/v1/role_menu/create/', { auth: true, json: { role: role.body.id, menu_items: [a, b], created_by: null, [`extend${a}`]: true } })
      expect(created.status, created.raw).toBe(201)

      const list = await c.send('GET', '/role_menu/api/v1/role_menu/all', { auth: true })
      expect(list.status).toBe(200)
      const rows = list.body.role_menus as Body[]
      for (const row of rows) {
        expect(isPrimitive(row.role)).toBe(true)
        // Each row's id opens that same role's menu.
        const opened = await c.send('GET', `/role_menu/api/v1/role_menu/${row.id}`, { auth: true })
        expect(opened.status).toBe(200)
        expect(opened.body._labels.role).toBe(row.role)
      }
      const row = rows.find((r) => r.role === role.body.name)!
      expect(row.id).toBe(role.body.id)
      const opened = await c.send('GET', `/role_menu/api/v1/role_menu/${row.id}`, { auth: true })
      expect(opened.body).toMatchObject({ id: role.body.id, role: role.body.id })
      const tree = await c.send('GET', `/menu_item/api/v1/menu_item/nested_menu_item_by_role_id/${opened.body.role}`, { auth: true })
      expect(tree.status).toBe(200)
      const ticked = (tree.body.menu_items as Body[]).flatMap((m) => [m.id, ...(m.children as Body[]).map((x) => x.id)])
      expect(ticked).toEqual(expect.arrayContaining([a, b]))

      // Update: create/ again with the GET object and the edits merged in; it rewrites that role.
      const resaved = await c.send('POST', '/role_menu/api/v1/role_menu/create/', { auth: true, json: { ...opened.body, menu_items: [d], updated_by: null, [`extend${d}`]: false } })
      expect(resaved.status, resaved.raw).toBe(201)
      expect((await c.send('GET', `/role_menu/api/v1/role_menu/${row.id}`, { auth: true })).body.menu_items.map((l: Body) => l.menu_item)).toEqual([d])
      // Re-saved untouched: the GET object's own lines come back as they were.
      const untouched = await c.send('GET', `/role_menu/api/v1/role_menu/${row.id}`, { auth: true })
      const again = await c.send('POST', '/role_menu/api/v1/role_menu/create/', { auth: true, json: untouched.body })
      expect(again.status, again.raw).toBe(201)
      expect((await c.send('GET', `/role_menu/api/v1/role_menu/${row.id}`, { auth: true })).body.menu_items.map((l: Body) => l.menu_item)).toEqual([d])

      const deleted = await c.send('DELETE', `/role_menu/api/v1/role_menu/delete/${role.body.id}`, { auth: true })
      expect(deleted.status, deleted.raw).toBe(200)
      expect((await c.send('GET', `/role_menu/api/v1/role_menu/${row.id}`, { auth: true })).status).toBe(404)
      expect(((await c.send('GET', '/role_menu/api/v1/role_menu/all', { auth: true })).body.role_menus as Body[]).map((r) => r.id)).not.toContain(role.body.id)
    })

    /** The employee form's multipart body, with the keys it carries besides the record's. */
    const employeeForm = (n: string) => ({
      branch: refs.branch,
      emp_id_no: `E-${n}`,
      first_name: 'Nusrat',
      last_name: 'Jahan',
      username: `nusrat${n}`,
      email: `nusrat${n}@example.com`,
      password: 'secret123',
      confirmPassword: 'secret123',
      primary_phone: `+88017${String(10000000 + Number(n)).slice(-8)}`,
      secondary_phone: '',
      street_address_one: 'House 12, Road 5',
      street_address_two: '',
      date_of_birth: '1994-05-06',
      gender: 'female',
      thana: refs.thana,
      city: refs.city,
      country: refs.country,
      postal_code: '1212',
      nid: '',
      role: '',
      department: refs.department,
      basic_money: 30000,
      allowance_money: 5000,
      emp_join_date: '2024-01-15',
      is_active: true,
      is_admin: false,
      policeStation: refs.thana,
      district: refs.city,
      active: true,
      country_code1: '+880',
      country_code2: '',
      show_country_code1: '+880',
      show_country_code2: '',
    })

    it('Employee: creates with the multipart form and its extra keys, lists, opens, updates and deletes', async () => {
      const n = String(++sequence)
      // The form checks while one types, without a token: refused or answered, never a server error.
      const check = await c.send('GET', `/user/api/v1/user/check_username_when_create/?username=nusrat${n}`)
      expect(check.status).toBeLessThan(500)
      const created = await c.send('POST', '/employee/api/v1/employee/create/', { auth: true, form: employeeForm(n), files: [png('image')] })
      expect(created.status, created.raw).toBe(201)
      const id = created.body.id as number

      const list = await c.send('GET', '/employee/api/v1/employee/all/?page=1&size=30', { auth: true })
      expect(list.status).toBe(200)
      const row = (list.body.employees as Body[]).find((e) => e.id === id)!
      for (const cell of ['image', 'branch', 'emp_id_no', 'username', 'primary_phone']) expect(isPrimitive(row[cell]), cell).toBe(true)
      expect(row.image).toMatch(/^\/media\//)
      expect(row.branch).toBe(refs.branch)
      expect((await c.send('GET', '/employee/api/v1/employee/without_paginaiton/all/', { auth: true })).body.employees.map((e: Body) => e.id)).toContain(id)

      const opened = await c.send('GET', `/employee/api/v1/employee/${id}`, { auth: true })
      expect(opened.status).toBe(200)
      // Update: the GET object with the edits, as multipart, the phone shown (and sent back) without its country code.
      const phone = opened.body.primary_phone as string
      const edits = { first_name: 'Nusrat Jahan', primary_phone: phone.replace('+880', ''), policeStation: refs.thana, district: refs.city, active: true }
      const updated = await c.send('PUT', `/employee/api/v1/employee/update/${id}`, { auth: true, form: { ...opened.body, ...edits } })
      expect(updated.status, updated.raw).toBe(200)
      expect(updated.body).toMatchObject({ first_name: 'Nusrat Jahan', image: opened.body.image, primary_phone: phone })

      const deleted = await c.send('DELETE', `/employee/api/v1/employee/delete/${id}`, { auth: true })
      expect(deleted.status, deleted.raw).toBe(200)
      expect((await c.send('GET', `/employee/api/v1/employee/${id}`, { auth: true })).status).toBe(404)
    })

    it('Qualification: lists employee_id as the raw id its lookup finds, saves multipart with its four documents', async () => {
      const n = String(++sequence)
      const employee = await c.send('POST', '/employee/api/v1/employee/create/', { auth: true, form: employeeForm(n) })
      expect(employee.status, employee.raw).toBe(201)
      const p = '/qualification/api/v1/qualification'
      const form = { employee_id: employee.body.id, degree_name: 'Bachelor of commerce', passign_year: '2016', board: 'Dhaka', institute_name: 'Dhaka College', grade: '3.50', image_doc_one: '', image_doc_two: '', image_doc_three: '', image_doc_four: '' }
      const created = await c.send('POST', `${p}/create/`, { auth: true, form, files: [png('image_doc_one')] })
      expect(created.status, created.raw).toBe(201)
      const id = created.body.id as number

      const list = await c.send('GET', `${p}/all/?page=1&size=30`, { auth: true })
      expect(list.status).toBe(200)
      const row = (list.body.qualifications as Body[]).find((q) => q.id === id)!
      for (const cell of ['employee_id', 'degree_name', 'passign_year', 'board', 'institute_name', 'grade']) expect(isPrimitive(row[cell]), cell).toBe(true)
      // Its list finds the employee's first name by this id in the employees lookup.
      expect(row.employee_id).toBe(employee.body.id)
      const employees = (await c.send('GET', '/employee/api/v1/employee/without_paginaiton/all/', { auth: true })).body.employees as Body[]
      expect(employees.find((e) => e.id === row.employee_id)?.first_name).toBe('Nusrat')
      // Its search goes without a token, and an employee's qualifications are personal data: refused, so the client shows none.
      expect((await c.send('GET', `${p}/search/?degree_name=bach`)).status).toBe(401)

      const opened = await c.send('GET', `${p}/${id}`, { auth: true })
      expect(opened.body.image_doc_one).toMatch(/^\/media\/qualification\//)
      const updated = await c.send('PUT', `${p}/update/${id}`, { auth: true, form: { ...opened.body, grade: '3.75' }, files: [png('image_doc_two')] })
      expect(updated.status, updated.raw).toBe(200)
      expect(updated.body).toMatchObject({ grade: '3.75', image_doc_one: opened.body.image_doc_one, image_doc_two: expect.stringMatching(/^\/media\/qualification\//) })

      expect((await c.send('DELETE', `${p}/delete/${id}`, { auth: true })).status).toBe(200)
      expect((await c.send('GET', `${p}/${id}`, { auth: true })).status).toBe(404)
    })

    it('Users: lists image, username, email and secondary_phone as primitives and changes a password', async () => {
      const n = String(++sequence)
      const employee = await c.send('POST', '/employee/api/v1/employee/create/', { auth: true, form: employeeForm(n) })
      expect(employee.status, employee.raw).toBe(201)
      const list = await c.send('GET', '/user/api/v1/user/all/?page=1&size=30', { auth: true })
      expect(list.status).toBe(200)
      expect(list.body).toMatchObject({ total_elements: expect.any(Number), total_pages: expect.any(Number) })
      for (const row of list.body.users as Body[]) for (const cell of ['image', 'username', 'email', 'secondary_phone']) expect(isPrimitive(row[cell]), cell).toBe(true)
      const changed = await c.send('PATCH', `/user/api/v1/user/passwordchange/${employee.body.id}`, { auth: true, json: { password: 'newsecret1', confirm_password: 'newsecret1' } })
      expect(changed.status, changed.raw).toBe(200)
      const login = await c.send('POST', '/user/api/v1/user/login/', { json: { email: `nusrat${n}@example.com`, password: 'newsecret1' } })
      expect(login.status).toBe(200)
    })

    it('answers the client origin’s preflight with its headers and methods, without a redirect', async () => {
      for (const [url, method] of [
        ['/city/api/v1/city/all/?page=1&size=30', 'GET'],
        ['/city/api/v1/city/update/5', 'PUT'],
        ['/role_menu/api/v1/role_menu/all', 'GET'],
        ['/user/api/v1/user/passwordchange/5', 'PATCH'],
        ['/city/api/v1/city/delete/5', 'DELETE'],
      ] as const) {
        const res = await c.app.inject({ method: 'OPTIONS', url, headers: { origin: ORIGIN, 'access-control-request-method': method, 'access-control-request-headers': 'authorization,content-type' } })
        expect(res.statusCode, url).toBeGreaterThanOrEqual(200)
        expect(res.statusCode, url).toBeLessThan(300)
        expect(res.headers['access-control-allow-origin'], url).toBe(ORIGIN)
        const allowed = String(res.headers['access-control-allow-headers']).toLowerCase()
        expect(allowed, url).toContain('authorization')
        expect(allowed, url).toContain('content-type')
        const methods = String(res.headers['access-control-allow-methods'])
        for (const m of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) expect(methods, url).toContain(m)
      }
      // And the answers themselves carry the origin (a list with a token, a lookup without).
      expect((await c.send('GET', '/city/api/v1/city/all/?page=1&size=30', { auth: true })).headers['access-control-allow-origin']).toBe(ORIGIN)
      expect((await c.send('GET', '/city/api/v1/city/without_pagination/all/')).headers['access-control-allow-origin']).toBe(ORIGIN)
      // An origin not listed gets no CORS answer.
      const stranger = await c.app.inject({ method: 'OPTIONS', url: '/city/api/v1/city/all/', headers: { origin: 'http://evil.example', 'access-control-request-method': 'GET' } })
      expect(stranger.headers['access-control-allow-origin']).toBeUndefined()
    })
  })
}
