import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { defineEntity, f } from '../../schema/kit'
import type { DomainModule } from '../../server/engine/modules'
import { readBody } from '../../server/engine/uploads'
import { describeEachDatabase } from './helpers/app'
import { pngPart } from './helpers/images'
import { multipart } from './helpers/multipart'

/**
 * A line's own files in a multipart body (`items[i][photos][j]`: a lines field of the line whose
 * `scalar` is a file — the pictures of an offered item, issue 21), for entities defined here:
 * each is judged by its bytes and stored as the inner entity's, in its place; a depth the shape
 * does not declare is not stored.
 */
const photo = defineEntity({ name: 'crate_photo', module: 'test', lineOf: 'crate_line', labelField: 'photo', fields: { photo: f.image({ required: true }) } })
const line = defineEntity({
  name: 'crate_line',
  module: 'test',
  lineOf: 'crate',
  labelField: 'name',
  fields: { name: f.text(), notes: f.lines(defineEntity({ name: 'crate_note', module: 'test', lineOf: 'crate_line', labelField: 'text', fields: { text: f.text() } }), { scalar: 'text' }), photos: f.lines(photo, { scalar: 'photo' }) },
})
const crate = defineEntity({ name: 'crate', module: 'test', listKey: 'crates', route: { area: 'crate-management', list: 'crates' }, fields: { name: f.text(), items: f.lines(line) } })

// The parser alone, behind a route of its own: what it read, and what it stored.
const parser: DomainModule = {
  name: 'test-line-files',
  routes(app, deps) {
    app.post('/test/crate/', async (request) => (await readBody(request, crate, deps.mediaDir)).values)
  },
}

describeEachDatabase(
  'files of a document’s lines',
  (t) => {
    const send = (files: Parameters<typeof multipart>[1]) => {
      const body = multipart({ 'items[0][name]': 'Mangoes', 'items[1][name]': 'Limes' }, files)
      return t.current.call({ method: 'POST', url: '/test/crate/', payload: body.payload, headers: body.headers })
    }

    it('stores each picture of a line as the inner entity’s, in its place', async () => {
      const res = await send([pngPart('items[0][photos][0]'), pngPart('items[0][photos][1]'), pngPart('items[1][photos][0]')])
      expect(res.status, res.raw).toBe(200)
      const photos = (res.body.items as Array<{ photos: string[] }>).map((l) => l.photos)
      expect(photos.map((p) => p.length)).toEqual([2, 1])
      for (const url of photos.flat()) {
        expect(url).toMatch(/^\/media\/crate_photo\/[0-9a-f-]{36}\.png$/)
        expect(existsSync(join(t.current.mediaDir, url.slice('/media/'.length)))).toBe(true)
      }
      expect(res.body.items[0].name).toBe('Mangoes')
    })

    it('refuses a picture that is not one by its bytes, naming its place, and stores none', async () => {
      const fake = { name: 'items[1][photos][0]', filename: 'lime.png', type: 'image/png', data: Buffer.from('<svg onload=alert(1)>') }
      const res = await send([fake])
      expect(res.status, res.raw).toBe(400)
      expect(Object.keys(res.body)).toEqual(['items.1.photos.0'])
    })

    it('stores no file at a depth the shape gives no file (a line’s lines of text)', async () => {
      const res = await send([pngPart('items[0][notes][0]')])
      expect(res.status, res.raw).toBe(200)
      expect(res.body.items[0].notes).toBeUndefined()
    })
  },
  { modules: [parser] },
)
