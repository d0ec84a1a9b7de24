import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { sql } from 'kysely'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { entities } from '../../schema'
import { defineEntity, f, thumbnailOf } from '../../schema/kit'
import { MEDIA_FILE_TABLE, mediaHooks, sweepReleasedMedia } from '../../server/engine/uploads'
import { catalogues } from '../../server/i18n'
import { describeEachDatabase, type TestApp } from './helpers/app'
import { tinyPng } from './helpers/images'
import { multipart, type FilePart } from './helpers/multipart'
import { countRows } from './helpers/samples'

/**
 * The image engine (issue 11): an upload is judged by its bytes, never by its name or the
 * type the client declares; an image field takes PNG, JPEG, GIF or WebP (ICO where its
 * `accept` lists it), within its size limit, and gets a 320×320 WebP thumbnail beside it;
 * a plain file field stores markup inert. A run-time entity holds one field of each sort.
 */
const exhibit = defineEntity({
  name: 'exhibit',
  module: 'test',
  listKey: 'exhibits',
  route: { area: 'exhibit-management', list: 'exhibits' },
  fields: {
    name: f.text({ max: 40, required: true, search: true }),
    picture: f.image({ maxBytes: 200 * 1024, label: 'field.image' }),
    icon: f.image({ accept: [...f.IMAGE_TYPES, ...f.ICON_TYPES], label: 'field.favicon' }),
    attachment: f.file({ label: 'field.file' }),
  },
})
const EXHIBITS = '/exhibit/api/v1/exhibit'

const mutable = catalogues as unknown as Record<string, Record<string, Record<string, unknown>>>
beforeAll(() => {
  for (const lang of Object.keys(mutable)) mutable[lang]!.entity = { ...mutable[lang]!.entity, exhibit: { one: 'Exhibit', other: 'Exhibits' } }
})
afterAll(() => {
  for (const lang of Object.keys(mutable)) delete (mutable[lang]!.entity as Record<string, unknown>).exhibit
})

const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } })

/** An icon directory holding one image (a PNG, or a bitmap: `BITMAPINFOHEADER`, pixels, mask). */
function icon(image: Buffer, size: number): Buffer {
  const head = Buffer.alloc(22)
  head.writeUInt16LE(1, 2)
  head.writeUInt16LE(1, 4)
  head[6] = size
  head[7] = size
  head.writeUInt16LE(1, 10)
  head.writeUInt16LE(32, 12)
  head.writeUInt32LE(image.length, 14)
  head.writeUInt32LE(22, 18)
  return Buffer.concat([head, image])
}

/** A 32-bit icon bitmap, `size`×`size`, opaque blue. */
function iconBitmap(size: number): Buffer {
  const header = Buffer.alloc(40)
  header.writeUInt32LE(40, 0)
  header.writeInt32LE(size, 4)
  header.writeInt32LE(size * 2, 8)
  header.writeUInt16LE(1, 12)
  header.writeUInt16LE(32, 14)
  const pixels = Buffer.alloc(size * size * 4)
  for (let i = 0; i < size * size; i++) pixels.set([255, 0, 0, 255], i * 4)
  const mask = Buffer.alloc(Math.ceil(size / 32) * 4 * size)
  return Buffer.concat([header, pixels, mask])
}

const HTML = Buffer.from('<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>')
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>')

const part = (name: string, filename: string, type: string, data: Buffer): FilePart => ({ name, filename, type, data })

const mediaFiles = (t: TestApp) => {
  const dir = join(t.mediaDir, 'exhibit')
  return existsSync(dir) ? readdirSync(dir).sort() : []
}
const onDisk = (t: TestApp, url: string) => existsSync(join(t.mediaDir, url.slice('/media/'.length)))
const recordedUploads = async (t: TestApp) =>
  Number((await sql<{ n: string }>`select count(*) as n from ${sql.id(MEDIA_FILE_TABLE)} where path like '/media/exhibit/%'`.execute(t.db)).rows[0]!.n)

describeEachDatabase(
  'image uploads',
  (t) => {
    const create = (files: FilePart[], fields: Record<string, string> = { name: 'Exhibit' }, language = 'en') => {
      const body = multipart(fields, files)
      return t.current.call({ method: 'POST', url: `${EXHIBITS}/create/`, payload: body.payload, headers: { ...body.headers, 'accept-language': language } })
    }

    async function expectThumbnail(url: string, size: { width: number; height: number }) {
      const thumbnail = thumbnailOf(url)
      expect(onDisk(t.current, thumbnail), thumbnail).toBe(true)
      const meta = await sharp(join(t.current.mediaDir, thumbnail.slice('/media/'.length))).metadata()
      expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: 'webp', ...size })
      const served = await t.current.app.inject({ method: 'GET', url: thumbnail })
      expect(served.statusCode).toBe(200)
      expect(served.headers['content-type']).toBe('image/webp')
    }

    it('stores a real PNG, JPEG, GIF and WebP under a generated name with the extension of what the bytes are, each with a WebP thumbnail of at most 320 px', async () => {
      const cases = [
        { data: await solid(800, 600).png().toBuffer(), filename: 'wide.png', type: 'image/png', ext: 'png', thumb: { width: 320, height: 240 } },
        { data: await solid(400, 1000).jpeg().toBuffer(), filename: 'tall.jpg', type: 'image/jpeg', ext: 'jpg', thumb: { width: 128, height: 320 } },
        { data: await solid(640, 640).gif().toBuffer(), filename: 'square.gif', type: 'image/gif', ext: 'gif', thumb: { width: 320, height: 320 } },
        { data: await solid(500, 100).webp().toBuffer(), filename: 'strip.webp', type: 'image/webp', ext: 'webp', thumb: { width: 320, height: 64 } },
        // A small image is not enlarged; a PNG called .gif and declared a GIF is stored as the PNG it is.
        { data: tinyPng({ width: 3, height: 2 }), filename: 'icon.gif', type: 'image/gif', ext: 'png', thumb: { width: 3, height: 2 } },
      ]
      for (const c of cases) {
        const res = await create([part('picture', c.filename, c.type, c.data)])
        expect(res.status, `${c.filename}: ${res.raw}`).toBe(201)
        expect(res.body.picture).toMatch(new RegExp(`^/media/exhibit/[0-9a-f-]{36}\\.${c.ext}$`))
        expect(readFileSync(join(t.current.mediaDir, res.body.picture.slice('/media/'.length))).equals(c.data)).toBe(true)
        await expectThumbnail(res.body.picture, c.thumb)
      }
    })

    it('refuses an HTML page or an SVG named .png and declared image/png, an honest SVG, text and a broken PNG: 400 on the field in the three languages, nothing stored', async () => {
      const before = { rows: await countRows(t.current, 'exhibit'), files: mediaFiles(t.current), recorded: await recordedUploads(t.current) }
      const cases = [
        part('picture', 'photo.png', 'image/png', HTML),
        part('picture', 'photo.png', 'image/png', SVG),
        part('picture', 'drawing.svg', 'image/svg+xml', SVG),
        part('picture', 'notes.png', 'image/png', Buffer.from('just some text')),
        part('picture', 'broken.png', 'image/png', Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(200, 7)])),
        part('picture', 'cut.png', 'image/png', (await solid(50, 50).png().toBuffer()).subarray(0, 60)),
      ]
      for (const c of cases) {
        const res = await create([c])
        expect(res.status, c.filename).toBe(400)
        expect(res.body, c.filename).toEqual({ picture: ['Image must be an image: PNG, JPEG, GIF, WebP. This file is not one, whatever its name says.'] })
      }
      const turkish = await create([cases[0]!], { name: 'Exhibit' }, 'tr')
      expect(turkish.body.picture[0]).toMatch(/bir görsel olmalıdır: PNG, JPEG, GIF, WebP/)
      const arabic = await create([cases[1]!], { name: 'Exhibit' }, 'ar')
      expect(arabic.body.picture[0]).toMatch(/صورة: PNG, JPEG, GIF, WebP/)
      expect(await countRows(t.current, 'exhibit')).toBe(before.rows)
      expect(mediaFiles(t.current)).toEqual(before.files)
      expect(await recordedUploads(t.current)).toBe(before.recorded)
    })

    it('takes an icon where the field accepts ICO (an embedded PNG or a 32-bit bitmap), with its thumbnail, and refuses it elsewhere', async () => {
      const embedded = icon(await solid(48, 48).png().toBuffer(), 48)
      const bitmap = icon(iconBitmap(16), 16)
      for (const [data, size] of [[embedded, 48], [bitmap, 16]] as const) {
        const res = await create([part('icon', 'favicon.ico', 'image/x-icon', data)])
        expect(res.status, res.raw).toBe(201)
        expect(res.body.icon).toMatch(/^\/media\/exhibit\/[0-9a-f-]{36}\.ico$/)
        await expectThumbnail(res.body.icon, { width: size, height: size })
      }
      const thumbnail = readFileSync(join(t.current.mediaDir, thumbnailOf((await create([part('icon', 'f.ico', 'image/x-icon', bitmap)])).body.icon).slice('/media/'.length)))
      const { data } = await sharp(thumbnail).raw().toBuffer({ resolveWithObject: true })
      // Blue, as drawn (lossy WebP may move a channel by a step or two).
      const [red, green, blue] = [...data.subarray(0, 3)]
      expect(red! < 8 && green! < 8 && blue! > 247, `${red},${green},${blue}`).toBe(true)

      const elsewhere = await create([part('picture', 'favicon.ico', 'image/x-icon', embedded)])
      expect(elsewhere.status).toBe(400)
      expect(elsewhere.body).toEqual({ picture: ['Image must be an image: PNG, JPEG, GIF, WebP. This file is not one, whatever its name says.'] })
    })

    it("refuses a file past the field's size limit (its own, or 5 MB by default) while it streams in: 400 on the field, nothing stored", async () => {
      const before = { rows: await countRows(t.current, 'exhibit'), files: mediaFiles(t.current), recorded: await recordedUploads(t.current) }
      const own = await create([part('picture', 'big.png', 'image/png', tinyPng({ bytes: 200 * 1024 + 1 }))])
      expect(own.status).toBe(400)
      expect(own.body).toEqual({ picture: ['Image must be at most 0.2 MB.'] })
      const byDefault = await create([part('icon', 'big.png', 'image/png', tinyPng({ bytes: 5 * 1024 * 1024 + 1 }))], { name: 'Exhibit' }, 'tr')
      expect(byDefault.status).toBe(400)
      expect(byDefault.body).toEqual({ icon: ['Site Simgesi en fazla 5 MB olabilir.'] })
      expect(await countRows(t.current, 'exhibit')).toBe(before.rows)
      expect(mediaFiles(t.current)).toEqual(before.files)
      expect(await recordedUploads(t.current)).toBe(before.recorded)
      // Exactly at the limit is within it.
      expect((await create([part('picture', 'edge.png', 'image/png', tinyPng({ bytes: 200 * 1024 }))])).status).toBe(201)
    })

    it('keeps a PDF in a file field as .pdf, and stores an HTML page or an SVG there inert: .bin, served as a download that runs nothing', async () => {
      const pdf = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n')
      const kept = await create([part('attachment', 'receipt.pdf', 'application/pdf', pdf)])
      expect(kept.status, kept.raw).toBe(201)
      expect(kept.body.attachment).toMatch(/^\/media\/exhibit\/[0-9a-f-]{36}\.pdf$/)
      const servedPdf = await t.current.app.inject({ method: 'GET', url: kept.body.attachment })
      expect(servedPdf.headers['content-type']).toBe('application/pdf')
      expect(servedPdf.rawPayload.equals(pdf)).toBe(true)

      for (const c of [part('attachment', 'page.html', 'text/html', HTML), part('attachment', 'drawing.svg', 'image/svg+xml', SVG), part('attachment', 'photo.png', 'image/png', HTML), part('attachment', 'notes.txt', 'text/plain', HTML)]) {
        const res = await create([c])
        expect(res.status, res.raw).toBe(201)
        expect(res.body.attachment, c.filename).toMatch(/^\/media\/exhibit\/[0-9a-f-]{36}\.bin$/)
        expect(onDisk(t.current, thumbnailOf(res.body.attachment))).toBe(false)
        const served = await t.current.app.inject({ method: 'GET', url: res.body.attachment })
        expect(served.statusCode).toBe(200)
        expect(served.headers['content-type']).toBe('application/octet-stream')
        expect(served.headers['content-disposition']).toBe('attachment')
        expect(served.headers['x-content-type-options']).toBe('nosniff')
        expect(served.headers['content-security-policy']).toMatch(/sandbox/)
      }

      // Plain text and a spreadsheet keep what they are; an image in a file field gets its thumbnail too.
      const csv = await create([part('attachment', 'rows.csv', 'text/csv', Buffer.from('name,amount\nTea,3.50\n'))])
      expect(csv.body.attachment).toMatch(/\.csv$/)
      const picture = await create([part('attachment', 'scan.jpg', 'image/jpeg', await solid(640, 480).jpeg().toBuffer())])
      expect(picture.body.attachment).toMatch(/\.jpg$/)
      await expectThumbnail(picture.body.attachment, { width: 320, height: 240 })
    })

    it('removes the thumbnail with its image when the image is replaced or its record deleted, and with a write that fails', async () => {
      const first = await create([part('picture', 'a.png', 'image/png', tinyPng())])
      expect(first.status, first.raw).toBe(201)
      const original = first.body.picture as string
      const replace = multipart({}, [part('picture', 'b.png', 'image/png', tinyPng())])
      const replaced = await t.current.call({ method: 'PUT', url: `${EXHIBITS}/update/${first.body.id}`, payload: replace.payload, headers: replace.headers })
      expect(replaced.status, replaced.raw).toBe(200)
      await sweepReleasedMedia(t.current.mediaDir)
      expect(onDisk(t.current, original)).toBe(false)
      expect(onDisk(t.current, thumbnailOf(original))).toBe(false)
      expect(onDisk(t.current, replaced.body.picture)).toBe(true)
      expect(onDisk(t.current, thumbnailOf(replaced.body.picture))).toBe(true)
      // Sent back as a path, only its own stored upload keeps it; a path that climbs out of its folder is refused.
      const kept = multipart({ name: 'Exhibit', picture: replaced.body.picture as string }, [])
      const again = await t.current.call({ method: 'PUT', url: `${EXHIBITS}/update/${first.body.id}`, payload: kept.payload, headers: kept.headers })
      expect(again.status, again.raw).toBe(200)
      expect(again.body.picture).toBe(replaced.body.picture)
      const climbing = multipart({ name: 'Exhibit', picture: '/media/exhibit/../user/secret.png' }, [])
      const climbed = await t.current.call({ method: 'PUT', url: `${EXHIBITS}/update/${first.body.id}`, payload: climbing.payload, headers: climbing.headers })
      expect(climbed.status, climbed.raw).toBe(400)
      expect(Object.keys(climbed.body)).toEqual(['picture'])

      expect((await t.current.call({ method: 'DELETE', url: `${EXHIBITS}/delete/${first.body.id}` })).status).toBe(200)
      await sweepReleasedMedia(t.current.mediaDir)
      expect(onDisk(t.current, replaced.body.picture)).toBe(false)
      expect(onDisk(t.current, thumbnailOf(replaced.body.picture))).toBe(false)

      const before = mediaFiles(t.current)
      const refused = await create([part('picture', 'c.png', 'image/png', tinyPng())], { name: '' })
      expect(refused.status).toBe(400)
      expect(Object.keys(refused.body)).toEqual(['name'])
      expect(mediaFiles(t.current)).toEqual(before)
    })
  },
  // The workspace module releases the files of the registry's entities; a run-time one registers its own.
  { entities: [...entities, exhibit], modules: [{ name: 'exhibit-media', hooks: mediaHooks([exhibit]) }] },
)

describe('thumbnailOf', () => {
  it.each([
    ['/media/product/abc.png', '/media/product/abc.thumb.webp'],
    ['/media/product/abc.thumb.webp', '/media/product/abc.thumb.thumb.webp'],
    ['/media/user.v2/abc', '/media/user.v2/abc.thumb.webp'],
  ])('%s → %s', (url, thumbnail) => {
    expect(thumbnailOf(url)).toBe(thumbnail)
  })
})
