import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkRegistry, entities, registry } from '../../schema'
import { defineEntity, f } from '../../schema/kit'
import { signToken } from '../../server/auth/tokens'
import { catalogues } from '../../server/i18n'
import { JWT_SECRET, describeEachDatabase, type Reply, type TestApp } from './helpers/app'

/**
 * Saved views (issue 25): a person's own views of a list, kept on the server, shared with a
 * role if they wish — listed and read by the role's members, changed and deleted by their
 * owner alone (or an admin) — with `list` and `state` judged. The access is the engine's
 * `own.shared`, proven first on an entity defined here at run time.
 */
type Call = ((o: Parameters<TestApp['call']>[0]) => Promise<Reply>) & { readonly id: number }

/** A user in `role` (made when not there yet), with no permission at all; their requests. */
async function memberOf(t: TestApp, role: string): Promise<Call> {
  const found = await sql<{ id: number }>`select id from role where name = ${role}`.execute(t.db)
  const roleId = found.rows[0]?.id ?? (await sql<{ id: number }>`insert into role (name) values (${role}) returning id`.execute(t.db)).rows[0]!.id
  const name = `${role}${Math.floor(Math.random() * 1e9)}`.toLowerCase()
  const id = await t.createUser({ email: `${name}@example.com` })
  await sql`update "user" set role = ${roleId} where id = ${id}`.execute(t.db)
  const token = await signToken(JWT_SECRET, id)
  return Object.assign((o: Parameters<TestApp['call']>[0]) => t.call({ ...o, headers: { authorization: `Bearer ${token}`, ...(o.headers as Record<string, string>) } }), { id })
}

const roleIdOf = async (t: TestApp, name: string) => Number((await sql<{ id: number }>`select id from role where name = ${name}`.execute(t.db)).rows[0]!.id)

// ---------------------------------------------------------------- the generic option

/** Boards a person keeps, each shareable with a team (a role): `own.shared` on an entity of the test's own. */
const board = defineEntity({
  name: 'board',
  module: 'test',
  listKey: 'boards',
  route: { area: 'board-management', list: 'boards' },
  fields: {
    name: f.text({ max: 50, required: true, search: true }),
    team: f.ref('role', { onDelete: 'setNull', label: 'field.role' }),
    keeper: f.ref('user', { readOnly: true, onDelete: 'cascade', label: 'field.user' }),
  },
  own: { field: 'keeper', actions: ['LIST', 'DETAILS', 'CREATE', 'UPDATE', 'DELETE'], shared: { field: 'team', attribute: 'role' } },
  nav: false,
})
const BOARDS = board.api.base

// The labels an author adds with it, in every language, for the suites (the start-up check asks for them).
let undoLabels: () => void = () => {}
beforeAll(() => {
  const mutable = catalogues as unknown as Record<string, Record<string, Record<string, unknown>>>
  const before = Object.keys(mutable).map((lang) => [lang, mutable[lang]!.entity] as const)
  for (const lang of Object.keys(mutable)) mutable[lang]!.entity = { ...mutable[lang]!.entity, board: { one: 'Board', other: 'Boards' } }
  undoLabels = () => before.forEach(([lang, entity]) => (mutable[lang]!.entity = entity!))
})
afterAll(() => undoLabels())

describe('own.shared in the registry', () => {
  it('is refused by the start-up check when it names no reference, an unknown attribute, or an attribute of another kind', () => {
    const bad = (name: string, shared: { field: string; attribute: string }) =>
      defineEntity({
        name,
        module: 'test',
        listKey: `${name}s`,
        route: { area: `${name}-management`, list: `${name}s` },
        fields: { name: f.text({ required: true, search: true }), team: f.ref('role'), place: f.ref('city'), keeper: f.ref('user') },
        own: { field: 'keeper', actions: ['LIST'], shared: shared as never },
        nav: false,
      })
    const problems = (e: ReturnType<typeof bad>) => checkRegistry([...entities, e]).filter((p) => p.entity === e.name && !p.message.includes('translation')).map((p) => p.message)
    expect(problems(bad('sharea', { field: 'name', attribute: 'role' }))).toEqual(['own.shared.field must be a stored reference of the entity'])
    expect(problems(bad('shareb', { field: 'team', attribute: 'mood' }))).toEqual([expect.stringContaining("own.shared.attribute 'mood' is not a caller attribute")])
    expect(problems(bad('sharec', { field: 'place', attribute: 'role' }))).toEqual(["own.shared: the caller attribute 'role' holds no 'city'"])
    expect(problems(bad('shared', { field: 'team', attribute: 'role' }))).toEqual([])
  })
})

describeEachDatabase(
  'own.shared (an entity defined at run time)',
  (t) => {

    it('lists and reads one’s own rows and those shared with one’s role; changes and deletes only one’s own', async () => {
      const ann = await memberOf(t.current, 'TEAMA')
      const ben = await memberOf(t.current, 'TEAMA')
      const cat = await memberOf(t.current, 'TEAMB')
      const teamA = await roleIdOf(t.current, 'TEAMA')
      const mine = await ann({ method: 'POST', url: `${BOARDS}/create/`, payload: { name: 'Ann private' } })
      expect(mine.status, mine.raw).toBe(201)
      expect(mine.body.keeper).toBe(ann.id)
      // The keeper is the writer whatever is sent.
      const shared = await ann({ method: 'POST', url: `${BOARDS}/create/`, payload: { name: 'Ann to team A', team: teamA, keeper: cat.id } })
      expect(shared.body.keeper).toBe(ann.id)
      await cat({ method: 'POST', url: `${BOARDS}/create/`, payload: { name: 'Cat to team A', team: teamA } })

      const names = async (who: Call) => ((await who({ method: 'GET', url: `${BOARDS}/all/?size=100` })).body.boards as { name: string }[]).map((b) => b.name).sort()
      expect(await names(ann)).toEqual(['Ann private', 'Ann to team A', 'Cat to team A'])
      expect(await names(ben)).toEqual(['Ann to team A', 'Cat to team A'])
      expect(await names(cat)).toEqual(['Cat to team A'])
      expect((await ben({ method: 'GET', url: `${BOARDS}/all/` })).body.total_elements).toBe(2)
      expect((await ben({ method: 'GET', url: `${BOARDS}/${shared.body.id}` })).status).toBe(200)
      expect((await ben({ method: 'GET', url: `${BOARDS}/${mine.body.id}` })).status).toBe(404)
      expect((await cat({ method: 'GET', url: `${BOARDS}/${shared.body.id}` })).status).toBe(404)

      // Shared is not theirs: no change, no delete, as if it were not there to write.
      expect((await ben({ method: 'PUT', url: `${BOARDS}/update/${shared.body.id}`, payload: { name: 'Ben was here' } })).status).toBe(404)
      expect((await ben({ method: 'DELETE', url: `${BOARDS}/delete/${shared.body.id}` })).status).toBe(404)
      expect((await ben({ method: 'DELETE', url: `${BOARDS}/delete_multiple/`, payload: { ids: [shared.body.id] } })).status).toBe(404)
      expect((await ben({ method: 'GET', url: `${BOARDS}/delete_impact/${shared.body.id}` })).status).toBe(404)
      const renamed = await ann({ method: 'PUT', url: `${BOARDS}/update/${shared.body.id}`, payload: { name: 'Ann renamed' } })
      expect(renamed.status, renamed.raw).toBe(200)
      expect(renamed.body).toMatchObject({ name: 'Ann renamed', keeper: ann.id, team: teamA })
      expect((await t.current.call({ method: 'GET', url: `${BOARDS}/all/?size=100` })).body.total_elements).toBe(3)
      expect((await ann({ method: 'DELETE', url: `${BOARDS}/delete/${shared.body.id}` })).status).toBe(200)
      expect(await names(ben)).toEqual(['Cat to team A'])
    })
  },
  { entities: [...entities, board] },
)

// ---------------------------------------------------------------- saved views

const VIEWS = registry.saved_view.api.base
const state = { q: 'dha', ordering: '-name', filters: { city: '5' }, size: 50, columns: { order: ['name', 'city'], hidden: ['bn_name'], widths: { name: 240 } }, density: 'compact' }

describeEachDatabase('saved views', (t) => {
  it('keeps a view for whoever saves it, without a permission: their own, listed by list', async () => {
    const ann = await memberOf(t.current, 'CLERKS')
    const saved = await ann({ method: 'POST', url: `${VIEWS}/create/`, payload: { name: 'Dhaka stations', list: 'thana', state, owner: t.current.adminId } })
    expect(saved.status, saved.raw).toBe(201)
    expect(saved.body).toMatchObject({ name: 'Dhaka stations', list: 'thana', state, role: null, owner: ann.id })
    const listed = await ann({ method: 'GET', url: `${VIEWS}/search/?list=thana` })
    expect(listed.status, listed.raw).toBe(200)
    expect(listed.body.saved_views).toEqual([expect.objectContaining({ id: saved.body.id, name: 'Dhaka stations', owner: expect.objectContaining({ id: ann.id }) })])
    // An admin's view is theirs too; they see everyone's.
    const admins = await t.current.call({ method: 'POST', url: `${VIEWS}/create/`, payload: { name: 'All cities', list: 'city', state: {} } })
    expect(admins.body.owner).toBe(t.current.adminId)
    const all = await t.current.call({ method: 'GET', url: `${VIEWS}/all/?size=100` })
    expect(all.body.saved_views.map((v: { name: string }) => v.name)).toEqual(expect.arrayContaining(['Dhaka stations', 'All cities']))
    expect((await ann({ method: 'GET', url: `${VIEWS}/${admins.body.id}` })).status).toBe(404)
  })

  it('shares a view with a role: its members list and open it, only its owner (or an admin) changes or deletes it', async () => {
    const owner = await memberOf(t.current, 'SALES')
    const colleague = await memberOf(t.current, 'SALES')
    const stranger = await memberOf(t.current, 'STORE')
    const sales = await roleIdOf(t.current, 'SALES')
    const view = (await owner({ method: 'POST', url: `${VIEWS}/create/`, payload: { name: 'Open orders', list: 'order', state: { filters: { status: 'draft' } }, role: sales } })).body
    expect(view.role).toBe(sales)
    const ofList = async (who: Call) => ((await who({ method: 'GET', url: `${VIEWS}/search/?list=order` })).body.saved_views as { id: number; role: { name: string } | null }[])
    expect(await ofList(colleague)).toEqual([expect.objectContaining({ id: view.id, role: { id: sales, name: 'SALES' } })])
    expect(await ofList(stranger)).toEqual([])
    expect((await colleague({ method: 'GET', url: `${VIEWS}/${view.id}` })).body.state).toEqual({ filters: { status: 'draft' } })
    expect((await stranger({ method: 'GET', url: `${VIEWS}/${view.id}` })).status).toBe(404)

    expect((await colleague({ method: 'PATCH', url: `${VIEWS}/update/${view.id}`, payload: { name: 'Mine now' } })).status).toBe(404)
    expect((await colleague({ method: 'DELETE', url: `${VIEWS}/delete/${view.id}` })).status).toBe(404)
    const renamed = await owner({ method: 'PATCH', url: `${VIEWS}/update/${view.id}`, payload: { name: 'Draft orders', owner: colleague.id } })
    expect(renamed.status, renamed.raw).toBe(200)
    expect(renamed.body).toMatchObject({ name: 'Draft orders', owner: owner.id })
    const byAdmin = await t.current.call({ method: 'PATCH', url: `${VIEWS}/update/${view.id}`, payload: { role: null } })
    expect(byAdmin.body).toMatchObject({ role: null, owner: owner.id })
    expect(await ofList(colleague)).toEqual([])
    expect((await owner({ method: 'DELETE', url: `${VIEWS}/delete/${view.id}` })).status).toBe(200)
  })

  it('refuses a list that is not one of the registry’s and a state of another shape, in the caller’s language', async () => {
    const ann = await memberOf(t.current, 'CLERKS')
    const line = entities.find((e) => e.isLine)!
    const post = (payload: Record<string, unknown>, language = 'en') => ann({ method: 'POST', url: `${VIEWS}/create/`, payload: { name: 'x', list: 'thana', state: {}, ...payload }, headers: { 'accept-language': language } })
    const unknown = await post({ list: 'spaceship' })
    expect(unknown.status).toBe(400)
    expect(unknown.body).toEqual({ list: ['“spaceship” is not a list of this application.'] })
    expect((await post({ list: line.name })).body).toEqual({ list: [`“${line.name}” is not a list of this application.`] })
    for (const bad of [{ size: 7 }, { colour: 'red' }, { columns: { order: ['name'], hidden: [], widths: { name: 5 } } }, { density: 'cosy' }, { filters: { city: 5 } }, [1, 2], 5]) {
      const r = await post({ state: bad })
      expect(r.status, JSON.stringify(bad)).toBe(400)
      expect(r.body).toEqual({ state: ['The view’s settings are not ones a list can use.'] })
    }
    const both = await post({ list: 'nope', state: { size: 'many' } }, 'tr')
    expect(Object.keys(both.body).sort()).toEqual(['list', 'state'])
    expect(both.body.list[0]).toContain('bu uygulamanın bir listesi değil')
    expect((await post({ name: '' })).body).toHaveProperty('name')
    // An update is judged whole.
    const ok = await post({ state: { size: 'all' } })
    expect(ok.status, ok.raw).toBe(201)
    expect((await ann({ method: 'PATCH', url: `${VIEWS}/update/${ok.body.id}`, payload: { state: { size: 1000 } } })).status).toBe(400)
  })
})

// ---------------------------------------------------------------- "All" rows: a bounded unpaged list

describeEachDatabase('without_pagination/all/ with a limit', (t) => {
  it('answers at most `limit` rows in the list’s order, bounded, and every row without it (the contract)', async () => {
    const base = registry.country.api.base
    for (const name of ['Limitland A', 'Limitland B', 'Limitland C']) await t.current.call({ method: 'POST', url: `${base}/create/`, payload: { name } })
    const all = await t.current.call({ method: 'GET', url: `${base}/without_pagination/all/?q=Limitland&ordering=name` })
    expect(all.status, all.raw).toBe(200)
    expect(all.body.countries.map((c: { name: string }) => c.name)).toEqual(['Limitland A', 'Limitland B', 'Limitland C'])
    const two = await t.current.call({ method: 'GET', url: `${base}/without_pagination/all/?q=Limitland&ordering=-name&limit=2` })
    expect(two.status, two.raw).toBe(200)
    expect(two.body.countries.map((c: { name: string }) => c.name)).toEqual(['Limitland C', 'Limitland B'])
    for (const [limit, message] of [['0', 'Ensure this value is greater than or equal to 1.'], ['10001', 'Ensure this value is less than or equal to 10000.'], ['x', 'Ensure this value is greater than or equal to 1.']] as const) {
      const r = await t.current.call({ method: 'GET', url: `${base}/without_pagination/all/?limit=${limit}` })
      expect(r.status).toBe(400)
      expect(r.body).toEqual({ limit: [message] })
    }
  })
})
