import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { registry } from '../../schema'
import { signToken } from '../../server/auth/tokens'
import { DEFAULT_UPLOAD_QUOTA_BYTES, MEDIA_FILE_TABLE, setUploadQuota, sweepReleasedMedia } from '../../server/engine/uploads'
import { JWT_SECRET, describeEachDatabase, type Reply, type TestApp } from './helpers/app'
import { pngPart } from './helpers/images'
import { multipart } from './helpers/multipart'
import { createSample } from './helpers/samples'

/**
 * Uploaded files (issue 9): a file a record no longer holds — a replaced photo, a file
 * replaced by an update, the files of a deleted record — is removed once the write commits;
 * the photo upload takes a file, never a path; and each user's uploads stay within the quota.
 */
const USERS = '/user/api/v1/user'
const SLIDES = '/homepage_slider/api/v1/homepage_slider'

let sequence = 0
const imagePart = (bytes = 128) => [pngPart('image', { filename: 'photo.png', bytes })]

const onDisk = (t: TestApp, url: string) => existsSync(join(t.mediaDir, url.slice('/media/'.length)))

async function signedInUser(t: TestApp): Promise<{ id: number; headers: { authorization: string } }> {
  const id = await t.createUser({ email: `uploader${++sequence}x${process.pid}@example.com` })
  return { id, headers: { authorization: `Bearer ${await signToken(JWT_SECRET, id)}` } }
}

const uploadPhoto = (t: TestApp, user: { id: number; headers: Record<string, string> }, bytes = 128, language = 'en'): Promise<Reply> => {
  const body = multipart({}, imagePart(bytes))
  return t.call({ method: 'POST', url: `${USERS}/uploadimage/${user.id}`, payload: body.payload, headers: { ...body.headers, ...user.headers, 'accept-language': language } })
}

describeEachDatabase('uploaded files', (t) => {
  it('removes the former photo once a new one replaces it, and keeps the new one', async () => {
    const me = await signedInUser(t.current)
    const first = await uploadPhoto(t.current, me)
    expect(first.status, first.raw).toBe(200)
    expect(onDisk(t.current, first.body.image)).toBe(true)
    const second = await uploadPhoto(t.current, me)
    expect(second.status, second.raw).toBe(200)
    await sweepReleasedMedia(t.current.mediaDir)
    expect(onDisk(t.current, first.body.image)).toBe(false)
    expect(onDisk(t.current, second.body.image)).toBe(true)
    expect((await t.current.call({ method: 'GET', url: `${USERS}/${me.id}` })).body.image).toBe(second.body.image)
  })

  it('removes a released file by itself soon after the write commits', async () => {
    const me = await signedInUser(t.current)
    const first = await uploadPhoto(t.current, me)
    expect((await uploadPhoto(t.current, me)).status).toBe(200)
    await expect.poll(() => onDisk(t.current, first.body.image), { timeout: 15_000 }).toBe(false)
  })

  it("removes a file an update replaces or clears, and a deleted record's files, and keeps a file an update leaves alone", async () => {
    const create = multipart({ title: 'Spring sale' }, imagePart())
    const slide = await t.current.call({ method: 'POST', url: `${SLIDES}/create/`, payload: create.payload, headers: create.headers })
    expect(slide.status, slide.raw).toBe(201)
    const original = slide.body.image as string

    const untouched = await t.current.call({ method: 'PUT', url: `${SLIDES}/update/${slide.body.id}`, payload: { title: 'Spring sale!' } })
    expect(untouched.status, untouched.raw).toBe(200)
    await sweepReleasedMedia(t.current.mediaDir)
    expect(onDisk(t.current, original)).toBe(true)

    const replace = multipart({ title: 'Summer sale' }, imagePart())
    const replaced = await t.current.call({ method: 'PUT', url: `${SLIDES}/update/${slide.body.id}`, payload: replace.payload, headers: replace.headers })
    expect(replaced.status, replaced.raw).toBe(200)
    await sweepReleasedMedia(t.current.mediaDir)
    expect(onDisk(t.current, original)).toBe(false)
    expect(onDisk(t.current, replaced.body.image)).toBe(true)

    const cleared = await t.current.call({ method: 'PUT', url: `${SLIDES}/update/${slide.body.id}`, payload: { image: null } })
    expect(cleared.status, cleared.raw).toBe(200)
    await sweepReleasedMedia(t.current.mediaDir)
    expect(onDisk(t.current, replaced.body.image)).toBe(false)

    const other = multipart({ title: 'Winter sale' }, imagePart())
    const doomed = await t.current.call({ method: 'POST', url: `${SLIDES}/create/`, payload: other.payload, headers: other.headers })
    expect((await t.current.call({ method: 'DELETE', url: `${SLIDES}/delete/${doomed.body.id}` })).status).toBe(200)
    await sweepReleasedMedia(t.current.mediaDir)
    expect(onDisk(t.current, doomed.body.image)).toBe(false)
  })

  it('keeps the stored file when the write that would replace it fails', async () => {
    const create = multipart({ title: 'Kept' }, imagePart())
    const slide = await t.current.call({ method: 'POST', url: `${SLIDES}/create/`, payload: create.payload, headers: create.headers })
    const bad = multipart({ serial_number: 'not a number' }, imagePart())
    const refused = await t.current.call({ method: 'PUT', url: `${SLIDES}/update/${slide.body.id}`, payload: bad.payload, headers: bad.headers })
    expect(refused.status).toBe(400)
    await sweepReleasedMedia(t.current.mediaDir)
    expect(onDisk(t.current, slide.body.image)).toBe(true)
    const stored = await sql<{ n: string }>`select count(*) as n from ${sql.id(MEDIA_FILE_TABLE)} where released_at is not null`.execute(t.current.db)
    expect(Number(stored.rows[0]!.n)).toBe(0)
  })

  it('keeps a released file that another record still holds', async () => {
    const create = multipart({ title: 'Shared' }, imagePart())
    const slide = await t.current.call({ method: 'POST', url: `${SLIDES}/create/`, payload: create.payload, headers: create.headers })
    // Two records holding one file can only be planted (a file field takes only its own record's): the sweeper still checks.
    const copy = await createSample(t.current, registry.homepage_slider)
    await sql`update homepage_slider set image = ${slide.body.image} where id = ${copy.id}`.execute(t.current.db)
    expect((await t.current.call({ method: 'DELETE', url: `${SLIDES}/delete/${slide.body.id}` })).status).toBe(200)
    await sweepReleasedMedia(t.current.mediaDir)
    expect(onDisk(t.current, slide.body.image)).toBe(true)
  })

  it('takes a file for the photo, never a path to a stored one: 400 on the image field, the photo unchanged', async () => {
    const me = await signedInUser(t.current)
    const mine = await uploadPhoto(t.current, me)
    const victim = await uploadPhoto(t.current, await signedInUser(t.current))
    const asField = multipart({ image: victim.body.image })
    const byField = await t.current.call({ method: 'POST', url: `${USERS}/uploadimage/${me.id}`, payload: asField.payload, headers: { ...asField.headers, ...me.headers } })
    expect(byField.status).toBe(400)
    expect(byField.body).toEqual({ image: ['Image must be an uploaded file, not a path.'] })
    const byJson = await t.current.call({ method: 'POST', url: `${USERS}/uploadimage/${me.id}`, payload: { image: victim.body.image }, headers: me.headers })
    expect(byJson.status).toBe(400)
    expect(byJson.body).toEqual({ image: ['Image must be an uploaded file, not a path.'] })
    const turkish = await t.current.call({ method: 'POST', url: `${USERS}/uploadimage/${me.id}`, payload: { image: victim.body.image }, headers: { ...me.headers, 'accept-language': 'tr' } })
    expect(turkish.body.image[0]).toMatch(/yüklenmiş bir dosya/)
    expect((await t.current.call({ method: 'GET', url: `${USERS}/${me.id}` })).body.image).toBe(mine.body.image)
    expect(onDisk(t.current, victim.body.image)).toBe(true)
  })

  it("keeps each user's uploads within the quota, counting only the files they still hold, in the request's language", async () => {
    setUploadQuota(t.current.mediaDir, 3000)
    try {
      const me = await signedInUser(t.current)
      const other = await signedInUser(t.current)
      expect((await uploadPhoto(t.current, me, 2000)).status).toBe(200)
      const over = await uploadPhoto(t.current, me, 1500)
      expect(over.status).toBe(400)
      expect(over.body).toEqual({ detail: 'This upload would go past your storage limit of 0.0029 MB (you use 0.0019 MB). Remove files you no longer need or choose a smaller one.' })
      const inArabic = await uploadPhoto(t.current, me, 1500, 'ar')
      expect(inArabic.body.detail).toMatch(/حد التخزين/)
      // Another user's uploads are theirs.
      expect((await uploadPhoto(t.current, other, 2000)).status).toBe(200)
      // A smaller photo fits beside the one it replaces; once that is released, it no longer counts.
      expect((await uploadPhoto(t.current, me, 500)).status).toBe(200)
      expect((await uploadPhoto(t.current, me, 2000)).status).toBe(200)
      const held = await sql<{ n: string }>`
        select coalesce(sum(bytes), 0) as n from ${sql.id(MEDIA_FILE_TABLE)} where uploader = ${me.id} and released_at is null`.execute(t.current.db)
      expect(Number(held.rows[0]!.n)).toBe(2000)
    } finally {
      setUploadQuota(t.current.mediaDir, DEFAULT_UPLOAD_QUOTA_BYTES)
    }
  })

  it('holds the quota when one user uploads in parallel: only what fits is stored', async () => {
    setUploadQuota(t.current.mediaDir, 3000)
    try {
      const me = await signedInUser(t.current)
      const create = (i: number) => {
        const body = multipart({ title: `Parallel ${i}` }, imagePart(1000))
        return t.current.call({ method: 'POST', url: `${SLIDES}/create/`, payload: body.payload, headers: { ...body.headers, ...me.headers } })
      }
      const staffRole = (await sql<{ id: number }>`select id from role where name = 'STAFF'`.execute(t.current.db)).rows[0]!.id
      await sql`update "user" set role = ${staffRole} where id = ${me.id}`.execute(t.current.db)
      const replies = await Promise.all(Array.from({ length: 6 }, (_, i) => create(i)))
      expect(replies.map((r) => r.status).sort()).toEqual([201, 201, 201, 400, 400, 400])
      const held = await sql<{ n: string }>`
        select coalesce(sum(bytes), 0) as n from ${sql.id(MEDIA_FILE_TABLE)} where uploader = ${me.id} and released_at is null`.execute(t.current.db)
      expect(Number(held.rows[0]!.n)).toBe(3000)
    } finally {
      setUploadQuota(t.current.mediaDir, DEFAULT_UPLOAD_QUOTA_BYTES)
    }
  })
})
