import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { registry } from '../../schema'
import { thumbnailOf } from '../../schema/kit'
import { MEDIA_FILE_TABLE, sweepReleasedMedia } from '../../server/engine/uploads'
import { describeEachDatabase, type TestApp } from './helpers/app'
import { tinyPng } from './helpers/images'
import { multipart } from './helpers/multipart'
import { createSample } from './helpers/samples'

/**
 * A file field holds a file uploaded by the request that writes it, or keeps the record's own
 * (issue 19: STAFF stored `/media/product/../user/<file>`, cleared it, and the sweeper deleted
 * another user's photo). Anything else is a 400 naming the field, on every write path; and the
 * sweeper removes only `/media/<folder>/<name>` of an upload folder, so a value planted in the
 * database some other way never removes someone else's file.
 */
const BRANDS = registry.brand.api.base
const USERS = registry.user.api.base
const EMPLOYEES = registry.employee.api.base
const QUALIFICATIONS = registry.qualification.api.base
const REFUSED = (label: string) => [`${label} must be an uploaded file, not a path.`]

let sequence = 0
const unique = (prefix: string) => `${prefix} ${++sequence}x${process.pid}`
const picture = (name: string) => ({ name, filename: `${name}.png`, type: 'image/png', data: tinyPng() })
const onDisk = (t: TestApp, url: string) => existsSync(join(t.mediaDir, url.slice('/media/'.length)))

/** A user's photo, uploaded as the profile page does: the file someone would like removed. */
async function someonesPhoto(t: TestApp): Promise<string> {
  const id = await t.createUser({ email: `${unique('victim').replace(' ', '')}@example.com` })
  const res = await t.call({ method: 'POST', url: `${USERS}/uploadimage/${id}`, ...multipart({}, [picture('image')]) })
  expect(res.status, res.raw).toBe(200)
  expect(onDisk(t, res.body.image)).toBe(true)
  return res.body.image as string
}

describeEachDatabase('file fields and the media sweeper', (t) => {
  describe('what a file field takes', () => {
    it('refuses on create anything but this request’s upload, JSON or multipart, naming the field', async () => {
      const photo = await someonesPhoto(t.current)
      const name = photo.split('/').pop()!
      for (const path of [`/media/brand/../user/${name}`, photo, `/media/brand/${name}`, '/etc/passwd', `/media//${t.current.mediaDir}/user/${name}`]) {
        const json = await t.current.call({ method: 'POST', url: `${BRANDS}/create/`, payload: { name: unique('Brand'), image: path } })
        expect(json.status, `${path} ${json.raw}`).toBe(400)
        expect(json.body).toEqual({ image: REFUSED('Image') })
        const form = await t.current.call({ method: 'POST', url: `${BRANDS}/create/`, ...multipart({ name: unique('Brand'), image: path }) })
        expect(form.status, `${path} ${form.raw}`).toBe(400)
        expect(form.body).toEqual({ image: REFUSED('Image') })
      }
      const uploaded = await t.current.call({ method: 'POST', url: `${BRANDS}/create/`, ...multipart({ name: unique('Brand') }, [picture('image')]) })
      expect(uploaded.status, uploaded.raw).toBe(201)
      expect(uploaded.body.image).toMatch(/^\/media\/brand\/[0-9a-f-]{36}\.png$/)
      expect(onDisk(t.current, photo)).toBe(true)
    })

    it('keeps the record’s own file sent back, clears it when asked, and refuses any other path on update (generic, employee and qualification forms)', async () => {
      const photo = await someonesPhoto(t.current)
      const made = await t.current.call({ method: 'POST', url: `${BRANDS}/create/`, ...multipart({ name: unique('Brand') }, [picture('image')]) })
      const own = made.body.image as string
      const other = (await t.current.call({ method: 'POST', url: `${BRANDS}/create/`, ...multipart({ name: unique('Brand') }, [picture('image')]) })).body.image as string
      const url = `${BRANDS}/update/${made.body.id}`
      for (const path of [`/media/brand/../user/${photo.split('/').pop()}`, photo, other]) {
        for (const request of [{ payload: { image: path } }, multipart({ image: path })]) {
          const res = await t.current.call({ method: 'PUT', url, ...request })
          expect(res.status, `${path} ${res.raw}`).toBe(400)
          expect(res.body).toEqual({ image: REFUSED('Image') })
        }
      }
      for (const request of [{ payload: { image: own, name: 'Kept' } }, multipart({ image: own, name: 'Kept Too' })]) {
        const res = await t.current.call({ method: 'PUT', url, ...request })
        expect(res.status, res.raw).toBe(200)
        expect(res.body.image).toBe(own)
      }

      // The original client's employee form sends the record back with its image; its qualification form, each document.
      const employee = await createSample(t.current, registry.employee, { is_admin: false })
      const employeeUrl = `${EMPLOYEES}/update/${employee.id}`
      const stolen = await t.current.call({ method: 'PUT', url: employeeUrl, ...multipart({ image: photo }) })
      expect(stolen.status, stolen.raw).toBe(400)
      expect(stolen.body).toEqual({ image: REFUSED('Image') })
      const withPhoto = await t.current.call({ method: 'PUT', url: employeeUrl, ...multipart({}, [picture('image')]) })
      expect(withPhoto.status, withPhoto.raw).toBe(200)
      expect((await t.current.call({ method: 'PUT', url: employeeUrl, ...multipart({ image: withPhoto.body.image, first_name: 'Sent Back' }) })).status).toBe(200)
      const qualification = await createSample(t.current, registry.qualification, { employee_id: employee.id })
      const docs = await t.current.call({ method: 'PUT', url: `${QUALIFICATIONS}/update/${qualification.id}`, ...multipart({ image_doc_one: '', image_doc_two: `/media/qualification/../user/${photo.split('/').pop()}` }) })
      expect(docs.status, docs.raw).toBe(400)
      expect(Object.keys(docs.body)).toEqual(['image_doc_two'])

      const cleared = await t.current.call({ method: 'PUT', url, payload: { image: null } })
      expect(cleared.status, cleared.raw).toBe(200)
      expect(cleared.body.image).toBeNull()
      await sweepReleasedMedia(t.current.mediaDir)
      expect(onDisk(t.current, own)).toBe(false)
      expect(onDisk(t.current, photo)).toBe(true)
      expect(onDisk(t.current, other)).toBe(true)
    })
  })

  describe('what the sweeper removes', () => {
    const brandWith = async (path: string) => {
      const { id } = await createSample(t.current, registry.brand)
      await sql`update brand set image = ${path} where id = ${id}`.execute(t.current.db)
      return id
    }

    it('never removes another’s file when a planted path is cleared or its record deleted: a path that climbs out, another folder, an absolute path', async () => {
      const photo = await someonesPhoto(t.current)
      const outside = mkdtempSync(join(tmpdir(), 'outside-'))
      const secret = join(outside, 'secret.txt')
      writeFileSync(secret, 'not the media')
      // A file of another folder that no record holds: only the folder keeps it from the sweeper.
      mkdirSync(join(t.current.mediaDir, 'user'), { recursive: true })
      writeFileSync(join(t.current.mediaDir, 'user', 'orphan.png'), tinyPng())
      try {
        const planted = [`/media/brand/../user/${photo.split('/').pop()}`, '/media/user/orphan.png', secret, `/media/${secret}`, `/media/brand/..%2F..%2F${secret}`]
        for (const [i, path] of planted.entries()) {
          const id = await brandWith(path)
          const res = i % 2 === 0
            ? await t.current.call({ method: 'PUT', url: `${BRANDS}/update/${id}`, payload: { image: null } })
            : await t.current.call({ method: 'DELETE', url: `${BRANDS}/delete/${id}` })
          expect(res.status, `${path} ${res.raw}`).toBe(200)
        }
        await sweepReleasedMedia(t.current.mediaDir)
        expect(onDisk(t.current, photo)).toBe(true)
        expect(onDisk(t.current, thumbnailOf(photo))).toBe(true)
        expect(existsSync(join(t.current.mediaDir, 'user', 'orphan.png'))).toBe(true)
        expect(existsSync(secret)).toBe(true)
      } finally {
        rmSync(outside, { recursive: true, force: true })
      }
    })

    it('matches a released path exactly against the media root and an upload folder before it unlinks', async () => {
      const photo = await someonesPhoto(t.current)
      const name = photo.split('/').pop()!
      mkdirSync(join(t.current.mediaDir, 'brand'), { recursive: true })
      writeFileSync(join(t.current.mediaDir, 'brand', 'spent.png'), tinyPng())
      writeFileSync(join(t.current.mediaDir, 'not-a-folder.png'), tinyPng())
      // Released rows as a bug elsewhere could leave them: the sweeper is the last line.
      const released = [`/media/brand/../user/${name}`, `/media/brand/./../user/${name}`, `/media/user//${name}`, `/media/brand/../../${name}`, '/media/not-a-folder.png', `/media/${t.current.mediaDir}/user/${name}`, '/media/brand/spent.png']
      await sql`insert into ${sql.id(MEDIA_FILE_TABLE)} (path, released_at) select unnest(${released}::text[]), now()`.execute(t.current.db)
      await sweepReleasedMedia(t.current.mediaDir)
      expect(onDisk(t.current, photo)).toBe(true)
      expect(existsSync(join(t.current.mediaDir, 'not-a-folder.png'))).toBe(true)
      // A file of an upload folder that no record holds goes, as it should.
      expect(existsSync(join(t.current.mediaDir, 'brand', 'spent.png'))).toBe(false)
    })
  })
})
