import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { entities, registry } from '../../schema'
import { defineEntity, f, thumbnailOf } from '../../schema/kit'
import { loadConfig } from '../../server/config'
import { mediaHooks, sweepReleasedMedia } from '../../server/engine/uploads'
import { start } from '../../server/start'
import { catalogues } from '../../server/i18n'
import { testApp, type TestApp, type TestAppOptions } from './helpers/app'
import { databaseKinds, isAvailable } from './helpers/databases'
import { tinyPng } from './helpers/images'
import { multipart, type FilePart } from './helpers/multipart'
import { startS3Server, type S3TestServer } from './helpers/s3-server'

/**
 * Files in S3-compatible object storage (issue 26, stateless servers): with a bucket
 * configured, every upload, its thumbnail, its release and its serving at `/media/` go through
 * the bucket — a real S3 server (s3rver) started here, read back with the SDK — and nothing is
 * written to the app's media folder. `/media/` keeps its URLs and headers: the same answers as
 * an app on the local folder, compared side by side.
 */
const specimen = defineEntity({
  name: 'specimen',
  module: 'test',
  listKey: 'specimens',
  route: { area: 'specimen-management', list: 'specimens' },
  fields: {
    name: f.text({ max: 40, required: true, unique: true, search: true }),
    picture: f.image({ label: 'field.image' }),
    attachment: f.file({ label: 'field.file' }),
  },
})
const SPECIMENS = '/specimen/api/v1/specimen'
const BRANDS = registry.brand.api.base
const USERS = registry.user.api.base

const mutable = catalogues as unknown as Record<string, Record<string, Record<string, unknown>>>
beforeAll(() => {
  for (const lang of Object.keys(mutable)) mutable[lang]!.entity = { ...mutable[lang]!.entity, specimen: { one: 'Specimen', other: 'Specimens' } }
})
afterAll(() => {
  for (const lang of Object.keys(mutable)) delete (mutable[lang]!.entity as Record<string, unknown>).specimen
})

const appOptions: TestAppOptions = { entities: [...entities, specimen], modules: [{ name: 'specimen-media', hooks: mediaHooks([specimen]) }] }

let sequence = 0
const unique = (prefix: string) => `${prefix} ${++sequence}x${process.pid}`
const keyOf = (url: string) => url.slice('/media/'.length)
const file = (name: string, filename: string, type: string, data: Buffer): FilePart => ({ name, filename, type, data })
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n')
const HTML = Buffer.from('<!DOCTYPE html><html><body><script>alert(1)</script></body></html>')

/** The headers `/media/` answers with, less those that differ by nature (when, and the store's validators). */
const comparable = (headers: Record<string, unknown>) => {
  const { date: _date, etag: _etag, 'last-modified': _modified, 'x-request-id': _id, connection: _connection, 'content-length': _length, ...rest } = headers
  return rest
}

/** The media folder holds nothing at all: no file, no folder. */
const folderIsEmpty = (t: TestApp) => readdirSync(t.mediaDir, { recursive: true }).length === 0

for (const kind of databaseKinds) {
  describe.skipIf(!isAvailable(kind))(`files in S3-compatible object storage [${kind}]`, () => {
    let s3: S3TestServer
    let app: TestApp
    let local: TestApp
    beforeAll(async () => {
      // Under a prefix, as a bucket shared with other things is used.
      s3 = await startS3Server({ bucket: 'backoffice-media', prefix: 'files/media' })
      app = await testApp(kind, { ...appOptions, storage: { kind: 's3', ...s3.settings } })
      local = await testApp(kind, appOptions)
    })
    afterAll(async () => {
      await app?.close()
      await local?.close()
      await s3?.close()
    })

    const create = (t: TestApp, fields: Record<string, string>, files: FilePart[]) => t.call({ method: 'POST', url: `${SPECIMENS}/create/`, ...multipart(fields, files) })

    it('stores an upload and its thumbnail in the bucket, serves both at /media/ with the headers of the local folder, and writes nothing to the media folder', async () => {
      const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 20, g: 120, b: 200 } } }).png().toBuffer()
      const made = await create(app, { name: unique('Stored') }, [file('picture', 'photo.png', 'image/png', png)])
      expect(made.status, made.raw).toBe(201)
      const url = made.body.picture as string
      expect(url).toMatch(/^\/media\/specimen\/[0-9a-f-]{36}\.png$/)
      expect(await s3.keys()).toEqual([keyOf(url), keyOf(thumbnailOf(url))].sort())
      expect((await s3.bytesOf(keyOf(url))).equals(png)).toBe(true)
      const thumbnail = await sharp(await s3.bytesOf(keyOf(thumbnailOf(url)))).metadata()
      expect({ format: thumbnail.format, width: thumbnail.width, height: thumbnail.height }).toEqual({ format: 'webp', width: 320, height: 240 })

      const served = await app.app.inject({ method: 'GET', url })
      expect(served.statusCode).toBe(200)
      expect(served.rawPayload.equals(png)).toBe(true)
      expect(served.headers['content-length']).toBe(String(png.length))
      const servedThumbnail = await app.app.inject({ method: 'GET', url: thumbnailOf(url) })
      expect(servedThumbnail.statusCode).toBe(200)
      expect(servedThumbnail.headers['content-type']).toBe('image/webp')

      // The same picture on the local folder: the same headers, bar the date and the store's validators.
      const onDisk = await create(local, { name: unique('Local') }, [file('picture', 'photo.png', 'image/png', png)])
      const fromDisk = await local.app.inject({ method: 'GET', url: onDisk.body.picture as string })
      expect(fromDisk.statusCode).toBe(200)
      expect(comparable(served.headers)).toEqual(comparable(fromDisk.headers))
      expect(served.headers).toMatchObject({
        'content-type': 'image/png',
        'cache-control': 'public, max-age=0',
        'accept-ranges': 'bytes',
        'x-content-type-options': 'nosniff',
        'cross-origin-resource-policy': 'cross-origin',
      })
      expect(served.headers.etag).toEqual(expect.any(String))
      expect(served.headers['last-modified']).toEqual(expect.any(String))
      expect(served.headers['content-disposition']).toBeUndefined()
      expect(folderIsEmpty(app)).toBe(true)
    })

    it('answers HEAD, a byte range, a conditional GET and a missing or made-up path as the folder does', async () => {
      const png = tinyPng({ bytes: 400 })
      const url = (await create(app, { name: unique('Ranged') }, [file('picture', 'p.png', 'image/png', png)])).body.picture as string
      const localUrl = (await create(local, { name: unique('Ranged') }, [file('picture', 'p.png', 'image/png', png)])).body.picture as string
      for (const [t, at] of [[app, url], [local, localUrl]] as const) {
        const head = await t.app.inject({ method: 'HEAD', url: at })
        expect(head.statusCode, t.kind).toBe(200)
        expect(head.headers['content-length']).toBe('400')
        expect(head.headers['content-type']).toBe('image/png')
        expect(head.rawPayload.length).toBe(0)

        const part = await t.app.inject({ method: 'GET', url: at, headers: { range: 'bytes=10-19' } })
        expect(part.statusCode).toBe(206)
        expect(part.headers['content-range']).toBe('bytes 10-19/400')
        expect(part.rawPayload.equals(png.subarray(10, 20))).toBe(true)
        const tail = await t.app.inject({ method: 'GET', url: at, headers: { range: 'bytes=-5' } })
        expect(tail.statusCode).toBe(206)
        expect(tail.rawPayload.equals(png.subarray(395))).toBe(true)
        const beyond = await t.app.inject({ method: 'GET', url: at, headers: { range: 'bytes=1000-2000', 'accept-language': 'tr' } })
        expect(beyond.statusCode).toBe(416)
        expect(beyond.headers['content-range']).toBe('bytes */400')
        expect(JSON.parse(beyond.body)).toEqual({ detail: 'İstenen aralık dosyanın dışında (400 bayt).' })

        const first = await t.app.inject({ method: 'GET', url: at })
        const again = await t.app.inject({ method: 'GET', url: at, headers: { 'if-none-match': String(first.headers.etag) } })
        expect(again.statusCode).toBe(304)
        expect(again.rawPayload.length).toBe(0)
        const since = await t.app.inject({ method: 'GET', url: at, headers: { 'if-modified-since': String(first.headers['last-modified']) } })
        expect(since.statusCode).toBe(304)

        for (const missing of ['/media/specimen/00000000-0000-0000-0000-000000000000.png', '/media/specimen/', '/media/specimen/..%2f..%2fetc%2fpasswd', '/media/.hidden', `/media/specimen/%00.png`]) {
          const r = await t.app.inject({ method: 'GET', url: missing })
          expect(r.statusCode, missing).toBe(404)
          expect(JSON.parse(r.body), missing).toEqual({ detail: 'Not found.' })
        }
      }
    })

    it('keeps a PDF as .pdf and markup inert, served as a sandboxed download from the bucket', async () => {
      const made = await create(app, { name: unique('Papers') }, [file('attachment', 'invoice.pdf', 'application/pdf', PDF)])
      expect(made.status, made.raw).toBe(201)
      expect(made.body.attachment).toMatch(/\.pdf$/)
      const pdf = await app.app.inject({ method: 'GET', url: made.body.attachment as string })
      expect(pdf.statusCode).toBe(200)
      expect(pdf.headers['content-type']).toBe('application/pdf')
      expect(pdf.headers['content-disposition']).toBe('attachment')
      expect(pdf.rawPayload.equals(PDF)).toBe(true)

      const page = await create(app, { name: unique('Page') }, [file('attachment', 'page.html', 'text/html', HTML)])
      expect(page.body.attachment).toMatch(/\.bin$/)
      const served = await app.app.inject({ method: 'GET', url: page.body.attachment as string })
      expect(served.headers['content-type']).toBe('application/octet-stream')
      expect(served.headers['content-disposition']).toBe('attachment')
      expect(served.headers['content-security-policy']).toMatch(/\bsandbox\b/)
      expect(await s3.has(keyOf(page.body.attachment as string))).toBe(true)
      expect(folderIsEmpty(app)).toBe(true)
    })

    it('releases a replaced or deleted file from the bucket, with its thumbnail, and removes the upload of a write that fails', async () => {
      const made = await app.call({ method: 'POST', url: `${BRANDS}/create/`, ...multipart({ name: unique('Brand') }, [file('image', 'a.png', 'image/png', tinyPng())]) })
      expect(made.status, made.raw).toBe(201)
      const first = made.body.image as string
      expect(await s3.has(keyOf(first))).toBe(true)
      expect(await s3.has(keyOf(thumbnailOf(first)))).toBe(true)

      const replaced = await app.call({ method: 'PUT', url: `${BRANDS}/update/${made.body.id}`, ...multipart({}, [file('image', 'b.png', 'image/png', tinyPng())]) })
      expect(replaced.status, replaced.raw).toBe(200)
      const second = replaced.body.image as string
      await sweepReleasedMedia(app.mediaDir)
      expect(await s3.has(keyOf(first))).toBe(false)
      expect(await s3.has(keyOf(thumbnailOf(first)))).toBe(false)
      expect((await app.app.inject({ method: 'GET', url: first })).statusCode).toBe(404)
      expect(await s3.has(keyOf(second))).toBe(true)

      // Deleted for good (a run-time entity keeps no trash): its picture goes with it.
      const doomed = await create(app, { name: unique('Doomed') }, [file('picture', 'd.png', 'image/png', tinyPng())])
      const picture = doomed.body.picture as string
      expect(await s3.has(keyOf(picture))).toBe(true)
      const deleted = await app.call({ method: 'DELETE', url: `${SPECIMENS}/delete/${doomed.body.id}` })
      expect(deleted.status, deleted.raw).toBeLessThan(300)
      await sweepReleasedMedia(app.mediaDir)
      expect(await s3.has(keyOf(picture))).toBe(false)
      expect(await s3.has(keyOf(thumbnailOf(picture)))).toBe(false)

      // A name already taken: the write is refused after the picture was stored, and the picture goes.
      const taken = unique('Taken')
      expect((await create(app, { name: taken }, [])).status).toBe(201)
      const before = await s3.keys()
      const refused = await create(app, { name: taken }, [file('picture', 'c.png', 'image/png', tinyPng())])
      expect(refused.status, refused.raw).toBe(400)
      expect(await s3.keys()).toEqual(before)
      expect(folderIsEmpty(app)).toBe(true)
    })

    it('stores a photo uploaded through a module’s own route (a user’s uploadimage) in the bucket', async () => {
      const id = await app.createUser({ email: `${unique('photo').replace(' ', '')}@example.com` })
      const res = await app.call({ method: 'POST', url: `${USERS}/uploadimage/${id}`, ...multipart({}, [file('image', 'me.png', 'image/png', tinyPng())]) })
      expect(res.status, res.raw).toBe(200)
      expect(res.body.image).toMatch(/^\/media\/user\//)
      expect(await s3.has(keyOf(res.body.image as string))).toBe(true)
      expect((await app.app.inject({ method: 'GET', url: res.body.image as string })).statusCode).toBe(200)
      expect(folderIsEmpty(app)).toBe(true)
    })

    it('serves a file another server stored: a second app on the same bucket reads it', async () => {
      const png = tinyPng()
      const url = (await create(app, { name: unique('Shared') }, [file('picture', 's.png', 'image/png', png)])).body.picture as string
      const other = await testApp(kind, { ...appOptions, storage: { kind: 's3', ...s3.settings } })
      try {
        const served = await other.app.inject({ method: 'GET', url })
        expect(served.statusCode).toBe(200)
        expect(served.rawPayload.equals(png)).toBe(true)
        expect(folderIsEmpty(other)).toBe(true)
      } finally {
        await other.close()
      }
    })
  })
}

describe('object storage configuration', () => {
  const base = { NODE_ENV: 'test', DATABASE_URL: 'memory://' }
  const refusal = (env: Record<string, string>) => {
    try {
      loadConfig({ ...base, ...env })
      return ''
    } catch (e) {
      return (e as Error).message
    }
  }

  it('keeps files in DATA_DIR/media without S3_BUCKET, and in the bucket with it, defaults named', () => {
    expect(loadConfig(base).storage).toEqual({ kind: 'local' })
    expect(loadConfig({ ...base, S3_BUCKET: 'media' }).storage).toEqual({
      kind: 's3',
      bucket: 'media',
      endpoint: undefined,
      region: 'us-east-1',
      credentials: undefined,
      forcePathStyle: false,
      prefix: '',
      checksums: 'WHEN_SUPPORTED',
    })
    // Another S3-compatible server: reached by path, with the checksums every one of them knows.
    expect(loadConfig({ ...base, S3_BUCKET: 'media', S3_ENDPOINT: 'http://minio:9000/', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's', S3_PREFIX: '/shop/files/' }).storage).toMatchObject({
      endpoint: 'http://minio:9000',
      credentials: { accessKeyId: 'k', secretAccessKey: 's' },
      forcePathStyle: true,
      prefix: 'shop/files',
      checksums: 'WHEN_REQUIRED',
    })
    expect(loadConfig({ ...base, S3_BUCKET: 'media', S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: 'false', S3_CHECKSUMS: 'when_supported' }).storage).toMatchObject({ forcePathStyle: false, checksums: 'WHEN_SUPPORTED' })
  })

  it('stops the start with a message naming each variable that is wrong', () => {
    expect(refusal({ S3_ENDPOINT: 'http://minio:9000' })).toContain('S3_BUCKET: required when S3_ENDPOINT is set')
    expect(refusal({ S3_BUCKET: 'Media_Files' })).toContain('S3_BUCKET: must be a bucket name')
    expect(refusal({ S3_BUCKET: 'media', S3_ENDPOINT: 'minio:9000' })).toContain('S3_ENDPOINT: must be the http:// or https:// address')
    expect(refusal({ S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'k' })).toContain('S3_SECRET_ACCESS_KEY: required with S3_ACCESS_KEY_ID')
    expect(refusal({ S3_BUCKET: 'media', S3_FORCE_PATH_STYLE: 'yes' })).toContain("S3_FORCE_PATH_STYLE: must be 'true' or 'false'")
    expect(refusal({ S3_BUCKET: 'media', S3_PREFIX: 'a/../b' })).toContain('S3_PREFIX: must be a folder path inside the bucket')
    expect(refusal({ S3_BUCKET: 'media', S3_CHECKSUMS: 'always' })).toContain("S3_CHECKSUMS: must be 'when_required' or 'when_supported'")
  })
})

describe('object storage at start-up', () => {
  let s3: S3TestServer
  let dataDir: string
  beforeAll(async () => {
    s3 = await startS3Server({ bucket: 'backoffice-media' })
    dataDir = mkdtempSync(join(tmpdir(), 'start-s3-'))
  })
  afterAll(async () => {
    await s3?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })
  const startWith = async (env: Record<string, string>) => {
    const started = await start(loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, S3_ENDPOINT: s3.settings.endpoint!, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER', S3_BUCKET: 'backoffice-media', ...env }))
    await started.stop()
    return started
  }

  it('refuses to start, saying why, when the bucket is missing or the credentials are refused — before anything else is opened', async () => {
    await expect(startWith({ S3_BUCKET: 'no-such-bucket' })).rejects.toThrow(
      `Files cannot be kept in s3://no-such-bucket at ${s3.settings.endpoint}: there is no such bucket. Check the configuration (S3_BUCKET, S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY).`,
    )
    // s3rver knows its key by name (it does not check the signature).
    await expect(startWith({ S3_ACCESS_KEY_ID: 'SOMEONE-ELSE' })).rejects.toMatchObject({ name: 'ConfigError', message: expect.stringContaining(': the credentials are refused.') })
    // Nothing was opened: no database in the data folder, and its lock let go (a later start may take it).
    expect(readdirSync(dataDir)).not.toContain('pglite')
  })
})
