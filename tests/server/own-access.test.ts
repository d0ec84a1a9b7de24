import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { checkRegistry, navigationEntries } from '../../schema'
import { defineEntity, f } from '../../schema/kit'
import { throwawayEntities, wish, wishNote } from '../support/throwaway-registry'
import { callerWith, describeEachDatabase, type Reply } from './helpers/app'
import { throwawayApp, useThrowawayLabels } from './helpers/throwaway-module'

/**
 * Rows of one's own (EntityConfig.own; issue 23): a signed-in user without an entity's
 * permission still lists, reads, writes and acts on the rows that name them — or that hang
 * from a record of theirs (`via`) — and on nothing else, by any route; a caller with the
 * permission is not narrowed. Shown on a throwaway registry's wishes and their notes.
 */
useThrowawayLabels()

const WISHES = wish.api.base
const NOTES = wishNote.api.base

describe('the registry check of own', () => {
  const entity = (own: object, fields: object = {}) =>
    defineEntity({ name: 'broken_own', module: 'test', listKey: 'broken_owns', route: { area: 'brokenOwn-management', list: 'brokenOwns' }, fields: { name: f.text({ required: true, search: true }), owner: f.ref('user'), city: f.ref('city'), ...fields }, own } as never)
  const problemsOf = (e: ReturnType<typeof entity>) => checkRegistry([...throwawayEntities, e]).filter((p) => p.entity === 'broken_own' && !p.message.includes('translation')).map((p) => p.message)

  it('asks for one owner reference to the user, or a way through a record that has one, and actions the entity has', () => {
    expect(problemsOf(entity({ field: 'owner', actions: ['LIST'] }))).toEqual([])
    expect(problemsOf(entity({ actions: ['LIST'] }))).toEqual(['own: give one of field (a reference to the user) or via (a reference to a record that has its own field)'])
    expect(problemsOf(entity({ field: 'city', actions: ['LIST'] }))).toEqual(['own.field must be a stored reference to user (or an entity that extends it)'])
    expect(problemsOf(entity({ via: 'city', actions: ['LIST'] }))).toEqual(["own.via: 'city' has no own field: its records are no one's"])
    expect(problemsOf(entity({ field: 'owner', actions: ['LIST', 'ARCHIVE'] }))).toEqual(["own.actions: 'ARCHIVE' is neither LIST, DETAILS, CREATE, UPDATE, DELETE nor an action of 'broken_own'"])
    expect(problemsOf(entity({ field: 'owner', actions: ['CREATE'] }))).toEqual(['own.actions: CREATE without LIST: give LIST too, or its creators lose sight of what they wrote'])
  })
})

describe('the menu of an entity with own rows', () => {
  it('offers its list to every user where they list their own, and asks the permission otherwise', () => {
    const shown = { ...wish, nav: { group: 'other', icon: 'folder' } }
    const entries = navigationEntries([shown, { ...shown, name: 'other_wish', own: undefined }]).filter((e) => e.type === 'item' && e.menuId.includes('wish'))
    expect(entries.map((e) => [e.menuId, e.permission ?? null]).sort()).toEqual([
      ['other_wish', 'WISH_LIST'],
      ['wish', null],
    ])
  })
})

describeEachDatabase(
  'rows of one’s own',
  (t) => {
    const ok = (r: Reply, status = 200) => {
      expect(r.status, r.raw).toBe(status)
      return r.body
    }

    it('a user without the permission lists, reads, files, changes and acts on their own rows alone', async () => {
      const ann = await callerWith(t.current, [])
      const bob = await callerWith(t.current, [])
      // Filed as theirs, whoever they name.
      const annWish = ok(await ann({ method: 'POST', url: `${WISHES}/create/`, payload: { name: 'A bike', owner: bob.id } }), 201)
      expect(annWish.owner).toBe(ann.id)
      const bobWish = ok(await bob({ method: 'POST', url: `${WISHES}/create/`, payload: { name: 'A boat' } }), 201)
      expect(bobWish.owner).toBe(bob.id)

      expect(ok(await ann({ method: 'GET', url: `${WISHES}/all/` })).wishes.map((w: { id: number }) => w.id)).toEqual([annWish.id])
      expect(ok(await ann({ method: 'GET', url: `${WISHES}/search/?name=A` })).wishes.map((w: { id: number }) => w.id)).toEqual([annWish.id])
      expect(ok(await ann({ method: 'GET', url: `${WISHES}/without_pagination/all/` })).wishes.map((w: { id: number }) => w.id)).toEqual([annWish.id])
      expect((await ann({ method: 'GET', url: `${WISHES}/${bobWish.id}` })).status).toBe(404)
      expect((await ann({ method: 'PUT', url: `${WISHES}/update/${bobWish.id}`, payload: { name: 'Mine now' } })).status).toBe(404)
      expect((await ann({ method: 'POST', url: `${WISHES}/grant/${bobWish.id}` })).status).toBe(404)
      // Their own: changed (and kept theirs), moved by an action `own` names.
      expect(ok(await ann({ method: 'PUT', url: `${WISHES}/update/${annWish.id}`, payload: { name: 'A red bike', owner: bob.id } }))).toMatchObject({ name: 'A red bike', owner: ann.id })
      expect(ok(await ann({ method: 'POST', url: `${WISHES}/grant/${annWish.id}` })).state).toBe('granted')
      // What `own` does not give stays the permission's.
      expect((await ann({ method: 'DELETE', url: `${WISHES}/delete/${annWish.id}` })).status).toBe(403)
      expect((await ann({ method: 'GET', url: `${WISHES}/all/`, headers: { authorization: 'Bearer nope' } })).status).toBe(401)
      expect((await t.current.call({ method: 'GET', url: `${WISHES}/all/`, asAnonymous: true })).status).toBe(401)

      // The permission lists everyone's.
      const staff = await callerWith(t.current, ['WISH_LIST', 'WISH_DETAILS'])
      expect(ok(await staff({ method: 'GET', url: `${WISHES}/all/` })).wishes.map((w: { id: number }) => w.id)).toEqual(expect.arrayContaining([annWish.id, bobWish.id]))
      expect(ok(await staff({ method: 'GET', url: `${WISHES}/${bobWish.id}` })).name).toBe('A boat')
    })

    it('through a record of theirs (`via`): its rows are theirs, another’s are not there', async () => {
      const ann = await callerWith(t.current, [])
      const bob = await callerWith(t.current, [])
      const annWish = ok(await ann({ method: 'POST', url: `${WISHES}/create/`, payload: { name: 'A kite' } }), 201)
      const bobWish = ok(await bob({ method: 'POST', url: `${WISHES}/create/`, payload: { name: 'A drum' } }), 201)
      const annNote = ok(await ann({ method: 'POST', url: `${NOTES}/create/`, payload: { wish: annWish.id, text: 'blue' } }), 201)
      const bobNote = ok(await bob({ method: 'POST', url: `${NOTES}/create/`, payload: { wish: bobWish.id, text: 'loud' } }), 201)
      // Another's record is answered as one that does not exist.
      const refused = await ann({ method: 'POST', url: `${NOTES}/create/`, payload: { wish: bobWish.id, text: 'mine?' } })
      expect(refused.status).toBe(400)
      expect(Object.keys(refused.body)).toEqual(['wish'])
      expect(ok(await ann({ method: 'GET', url: `${NOTES}/all/` })).wish_notes.map((n: { id: number }) => n.id)).toEqual([annNote.id])
      expect(ok(await ann({ method: 'GET', url: `${NOTES}/get_all_by_wish_id/${bobWish.id}` })).wish_notes).toEqual([])
      expect(ok(await ann({ method: 'GET', url: `${NOTES}/get_all_by_wish_id/${annWish.id}` })).wish_notes.map((n: { id: number }) => n.id)).toEqual([annNote.id])
      expect((await ann({ method: 'GET', url: `${NOTES}/${bobNote.id}` })).status).toBe(404)
      // Not given: changes.
      expect((await ann({ method: 'PUT', url: `${NOTES}/update/${annNote.id}`, payload: { text: 'green' } })).status).toBe(403)
    })

    it('a past-due flag is answered on every row and filtered in SQL against the clock, never from a cached count', async () => {
      const ann = await callerWith(t.current, [])
      const hour = 3_600_000
      const late = ok(await ann({ method: 'POST', url: `${WISHES}/create/`, payload: { name: 'Late kite', wanted_by: new Date(Date.now() - hour).toISOString() } }), 201)
      const soon = ok(await ann({ method: 'POST', url: `${WISHES}/create/`, payload: { name: 'Soon kite', wanted_by: new Date(Date.now() + hour).toISOString() } }), 201)
      const granted = ok(await ann({ method: 'POST', url: `${WISHES}/create/`, payload: { name: 'Granted kite', wanted_by: new Date(Date.now() - hour).toISOString() } }), 201)
      expect(granted.is_late).toBe(true)
      Object.assign(granted, ok(await ann({ method: 'POST', url: `${WISHES}/grant/${granted.id}` })))
      const undated = ok(await ann({ method: 'POST', url: `${WISHES}/create/`, payload: { name: 'Some kite' } }), 201)
      expect([late, soon, granted, undated].map((w) => w.is_late)).toEqual([true, false, false, false])
      const lateOnes = async (value: boolean) => ok(await ann({ method: 'GET', url: `${WISHES}/all/?is_late=${value}&size=100` }))
      expect((await lateOnes(true)).wishes.map((w: { id: number }) => w.id)).toEqual([late.id])
      expect((await lateOnes(false)).wishes.map((w: { id: number }) => w.id).sort()).toEqual([soon.id, granted.id, undated.id].sort())
      expect((await lateOnes(true)).total_elements).toBe(1)
      // Time passes with no write between two same asks: the second counts the wish that fell due meanwhile.
      await sql`update wish set wanted_by = now() + interval '1500 milliseconds' where id = ${soon.id}`.execute(t.current.db)
      expect((await lateOnes(true)).total_elements).toBe(1)
      await new Promise((resolve) => setTimeout(resolve, 2000))
      expect((await lateOnes(true)).total_elements).toBe(2)
      expect((await ann({ method: 'GET', url: `${WISHES}/all/?is_late=soon` })).body).toEqual({ is_late: ['Must be true or false.'] })
    })
  },
  throwawayApp,
)
