import { sql } from 'kysely'
import { beforeAll, expect, it } from 'vitest'
import { registry } from '../../schema'
import { callerWith, describeEachDatabase, type Reply, type TestApp } from './helpers/app'

/**
 * A person's own notes (issue 23; schema/entities/workspace/note.ts): whoever writes one is
 * its `user`, whatever the body says, and everyone — an admin too — reaches only their own.
 * Another's note answers as if it did not exist (404) on every route of one record, and no
 * list, search or count shows it.
 */
const base = registry.note.api.base
const NOTE_PERMISSIONS = (['LIST', 'DETAILS', 'CREATE', 'UPDATE', 'DELETE'] as const).map((a) => registry.note.permissions[a])

type Call = (o: Parameters<TestApp['call']>[0]) => Promise<Reply>

describeEachDatabase('notes', (t) => {
  let ann: Call
  let bob: Call
  let annNote: number
  const admin: Call = (o) => t.current.call(o)
  const ok = (r: Reply, status = 200) => {
    expect(r.status, r.raw).toBe(status)
    return r.body
  }

  beforeAll(async () => {
    ann = await callerWith(t.current, NOTE_PERMISSIONS)
    bob = await callerWith(t.current, NOTE_PERMISSIONS)
    const bobsId = Number((await sql<{ id: number }>`select id from "user" order by id desc limit 1`.execute(t.current.db)).rows[0]!.id)
    // Naming another as the owner changes nothing: the note is its writer's.
    annNote = ok(await ann({ method: 'POST', url: `${base}/create/`, payload: { text: 'Call the supplier\nabout the cups', user: bobsId } }), 201).id
  })

  it('is its writer’s, whatever the body names, and starts unpinned', async () => {
    const stored = await sql<{ user: number; created_by: number; pinned: boolean }>`select "user", created_by, pinned from note where id = ${annNote}`.execute(t.current.db)
    expect(Number(stored.rows[0]!.user)).toBe(Number(stored.rows[0]!.created_by))
    expect(stored.rows[0]!.pinned).toBe(false)
    expect(ok(await ann({ method: 'GET', url: `${base}/${annNote}` }))).toMatchObject({ text: 'Call the supplier\nabout the cups', pinned: false })
  })

  it('lets its writer pin, change and delete it; pinned notes come first, then the newest', async () => {
    const older = ok(await ann({ method: 'POST', url: `${base}/create/`, payload: { text: 'Older' } }), 201).id
    const newer = ok(await ann({ method: 'POST', url: `${base}/create/`, payload: { text: 'Newer' } }), 201).id
    expect(ok(await ann({ method: 'PUT', url: `${base}/update/${older}`, payload: { pinned: true } }))).toMatchObject({ pinned: true, text: 'Older' })
    const listed = ok(await ann({ method: 'GET', url: `${base}/all/?ordering=-pinned` })).notes.map((n: { id: number }) => n.id)
    expect(listed.slice(0, 3)).toEqual([older, newer, annNote])
    // Its default order is the same.
    expect(ok(await ann({ method: 'GET', url: `${base}/all/` })).notes.map((n: { id: number }) => n.id).slice(0, 3)).toEqual([older, newer, annNote])
    ok(await ann({ method: 'PATCH', url: `${base}/update/${newer}`, payload: { text: 'Newer, changed' } }))
    ok(await ann({ method: 'DELETE', url: `${base}/delete/${newer}` }))
    ok(await ann({ method: 'DELETE', url: `${base}/delete/${older}` }))
    expect((await ann({ method: 'GET', url: `${base}/${older}` })).status).toBe(404)
  })

  it('refuses a note without text, or longer than 2000 characters', async () => {
    expect((await ann({ method: 'POST', url: `${base}/create/`, payload: { text: '' } })).status).toBe(400)
    expect((await ann({ method: 'POST', url: `${base}/create/`, payload: { text: 'x'.repeat(2001) } })).status).toBe(400)
  })

  it('answers another user’s note as if it did not exist (404) on every route of one record, and changes nothing', async () => {
    for (const other of [bob, admin]) {
      expect((await other({ method: 'GET', url: `${base}/${annNote}` })).status).toBe(404)
      expect((await other({ method: 'PUT', url: `${base}/update/${annNote}`, payload: { text: 'Mine now', pinned: true } })).status).toBe(404)
      expect((await other({ method: 'PATCH', url: `${base}/update/${annNote}`, payload: { pinned: true } })).status).toBe(404)
      expect((await other({ method: 'DELETE', url: `${base}/delete/${annNote}` })).status).toBe(404)
      expect((await other({ method: 'DELETE', url: `${base}/delete_multiple/`, payload: { ids: [annNote] } })).status).toBe(404)
      expect((await other({ method: 'GET', url: `${base}/delete_impact/${annNote}` })).status).toBe(404)
    }
    const stored = await sql<{ text: string; pinned: boolean }>`select text, pinned from note where id = ${annNote}`.execute(t.current.db)
    expect(stored.rows[0]).toEqual({ text: 'Call the supplier\nabout the cups', pinned: false })
  })

  it('never lists, searches or counts another user’s note — not even for an admin', async () => {
    ok(await bob({ method: 'POST', url: `${base}/create/`, payload: { text: 'Bob’s own supplier note' } }), 201)
    for (const other of [bob, admin]) {
      for (const url of [`${base}/all/`, `${base}/without_pagination/all/`, `${base}/search/?q=supplier`, `${base}/search/?pinned=false`]) {
        const body = ok(await other({ method: 'GET', url }))
        expect(body.notes.map((n: { id: number }) => n.id), url).not.toContain(annNote)
      }
    }
    const bobs = ok(await bob({ method: 'GET', url: `${base}/search/?q=supplier` }))
    expect(bobs.notes.map((n: { text: string }) => n.text)).toEqual(['Bob’s own supplier note'])
    expect(bobs.total_elements).toBe(1)
  })
})
