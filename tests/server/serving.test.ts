import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib'
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import { afterAll, expect, it } from 'vitest'
import { describeEachDatabase } from './helpers/app'

/**
 * Issue 9, serving: a built browser app (a small fake of `vite build`'s output, with the
 * copies scripts/precompress.ts writes) sent compressed and cached by kind, API answers
 * compressed over the threshold, and uploads readable by the original client on its origin.
 */
const INDEX_HTML = `<!doctype html><html><head><!--app-page--><script type="module" src="/assets/app-abc123.js"></script></head><body>${'<div id="root"></div>'.repeat(60)}</body></html>`
/** The page of an address: index.html with what the address needs in place of its placeholder (server/http/app-page.ts). */
const pageOf = (html: string) => html.replace(/<script type="application\/json" id="app-page">[^<]*<\/script>/, '<!--app-page-->')
const APP_JS = `export const greeting = ${JSON.stringify('hello from the app bundle '.repeat(200))}\n`
const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${'<rect width="32" height="32"/>'.repeat(50)}</svg>`

const distDir = mkdtempSync(join(tmpdir(), 'dist-'))
function writeBuilt(path: string, content: string, options: { precompressed: boolean }): void {
  writeFileSync(join(distDir, path), content)
  if (!options.precompressed) return
  writeFileSync(join(distDir, `${path}.br`), brotliCompressSync(content))
  writeFileSync(join(distDir, `${path}.gz`), gzipSync(content))
}
mkdirSync(join(distDir, 'assets'))
writeBuilt('index.html', INDEX_HTML, { precompressed: true })
writeBuilt('assets/app-abc123.js', APP_JS, { precompressed: true })
writeBuilt('favicon.svg', ICON_SVG, { precompressed: false })
afterAll(() => rmSync(distDir, { recursive: true, force: true }))

const decoded = (res: LightMyRequestResponse): string => {
  const encoding = res.headers['content-encoding']
  if (encoding === 'br') return brotliDecompressSync(res.rawPayload).toString()
  if (encoding === 'gzip') return gunzipSync(res.rawPayload).toString()
  return res.body
}
const varies = (res: LightMyRequestResponse) => String(res.headers.vary ?? '').toLowerCase().split(/\s*,\s*/)

describeEachDatabase(
  'serving the browser app, the API and uploads',
  (t) => {
    const get = (url: string, headers: InjectOptions['headers'] = {}) => t.current.app.inject({ method: 'GET', url, headers })

    it('sends a hashed asset as its brotli copy, its gzip copy or as is, by Accept-Encoding, varying on it', async () => {
      const br = await get('/assets/app-abc123.js', { 'accept-encoding': 'gzip, deflate, br' })
      expect(br.statusCode).toBe(200)
      expect(br.headers['content-encoding']).toBe('br')
      expect(br.headers['content-type']).toMatch(/^(text|application)\/javascript/)
      expect(varies(br)).toContain('accept-encoding')
      expect(decoded(br)).toBe(APP_JS)

      const gzip = await get('/assets/app-abc123.js', { 'accept-encoding': 'gzip' })
      expect(gzip.headers['content-encoding']).toBe('gzip')
      expect(varies(gzip)).toContain('accept-encoding')
      expect(decoded(gzip)).toBe(APP_JS)

      const plain = await get('/assets/app-abc123.js')
      expect(plain.headers['content-encoding']).toBeUndefined()
      expect(varies(plain)).toContain('accept-encoding')
      expect(plain.body).toBe(APP_JS)
    })

    it('lets browsers keep hashed assets for a year without asking again', async () => {
      for (const encoding of ['br', 'gzip', 'identity']) {
        const r = await get('/assets/app-abc123.js', { 'accept-encoding': encoding })
        expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable')
      }
    })

    it('has index.html and every route of the browser app checked on each load, sent compressed', async () => {
      for (const url of ['/', '/index.html', '/login', '/apps/city-management/cities?page=2&q=dha', '/apps/city-management/cities/5/Dhaka']) {
        const r = await get(url, { 'accept-encoding': 'br, gzip' })
        expect(r.statusCode, url).toBe(200)
        expect(r.headers['content-type'], url).toMatch(/^text\/html/)
        expect(r.headers['cache-control'], url).toBe('no-cache')
        expect(r.headers['content-encoding'], url).toBe('br')
        expect(varies(r), url).toContain('accept-encoding')
        expect(pageOf(decoded(r)), url).toBe(INDEX_HTML)
      }
      const head = await t.current.app.inject({ method: 'HEAD', url: '/login' })
      expect(head.statusCode).toBe(200)
      expect(head.headers['content-type']).toMatch(/^text\/html/)
      const gzip = await get('/login', { 'accept-encoding': 'gzip' })
      expect(gzip.headers['content-encoding']).toBe('gzip')
      expect(pageOf(decoded(gzip))).toBe(INDEX_HTML)
    })

    it('names in the page of an address what it will need, and answers an unchanged page with a 304 (issue 20)', async () => {
      const r = await get('/apps/city-management/cities?page=2&q=dha', { 'accept-encoding': 'identity' })
      const plan = JSON.parse(/id="app-page">([^<]*)</.exec(r.body)![1]!) as { signedIn: boolean; get: string[] }
      expect(plan).toMatchObject({ signedIn: true, get: expect.arrayContaining(['/city/api/v1/city/all/?q=dha&page=2&size=30']) })
      const again = await get('/apps/city-management/cities?page=2&q=dha', { 'if-none-match': String(r.headers.etag) })
      expect(again.statusCode).toBe(304)
      const other = await get('/apps/city-management/cities?page=3&q=dha', { 'if-none-match': String(r.headers.etag) })
      expect(other.statusCode).toBe(200)
    })

    it('keeps other files of the build for an hour, compressing them when they have no copy', async () => {
      const r = await get('/favicon.svg', { 'accept-encoding': 'gzip' })
      expect(r.statusCode).toBe(200)
      expect(r.headers['cache-control']).toBe('public, max-age=3600')
      expect(r.headers['content-encoding']).toBe('gzip')
      expect(decoded(r)).toBe(ICON_SVG)
    })

    it('answers a missing hashed asset with a 404, not with index.html, and never sends a compressed copy by its own name', async () => {
      for (const url of ['/assets/app-old999.js', '/assets/app-abc123.js.br', '/assets/app-abc123.js.gz']) {
        const r = await get(url, { 'accept-encoding': 'br' })
        expect(r.statusCode, url).toBe(404)
        expect(r.headers['content-type'], url).toMatch(/^application\/json/)
      }
    })

    it('compresses a large JSON answer of the API by Accept-Encoding, and leaves a small one as is', async () => {
      const authorization = `Bearer ${await t.current.token()}`
      const url = '/permission/api/v1/permission/without_pagination/all/'
      const plain = await get(url, { authorization })
      expect(plain.statusCode).toBe(200)
      expect(plain.body.length).toBeGreaterThan(1024)
      expect(plain.headers['content-encoding']).toBeUndefined()
      for (const encoding of ['br', 'gzip']) {
        const r = await get(url, { authorization, 'accept-encoding': encoding })
        expect(r.statusCode).toBe(200)
        expect(r.headers['content-encoding']).toBe(encoding)
        expect(varies(r)).toContain('accept-encoding')
        expect(r.rawPayload.length).toBeLessThan(plain.rawPayload.length)
        expect(JSON.parse(decoded(r))).toEqual(JSON.parse(plain.body))
      }
      const small = await get('/api/health', { 'accept-encoding': 'br' })
      expect(small.statusCode).toBe(200)
      expect(small.headers['content-encoding']).toBeUndefined()
      expect(JSON.parse(small.body)).toEqual({ status: 'ok' })
    })

    it('lets another origin show an uploaded image, never sniffed, and only under /media/', async () => {
      mkdirSync(join(t.current.mediaDir, 'user'), { recursive: true })
      writeFileSync(join(t.current.mediaDir, 'user', 'photo.png'), Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'))
      const r = await get('/media/user/photo.png', { origin: 'https://admin.example.com' })
      expect(r.statusCode).toBe(200)
      expect(r.headers['content-type']).toBe('image/png')
      expect(r.headers['cross-origin-resource-policy']).toBe('cross-origin')
      expect(r.headers['x-content-type-options']).toBe('nosniff')
      expect(r.headers['content-disposition']).toBeUndefined()

      for (const other of ['/api/health', '/assets/app-abc123.js', '/login']) {
        expect((await get(other)).headers['cross-origin-resource-policy'], other).toBe('same-origin')
      }
    })

    it('sends an upload that a browser could run (HTML, SVG) as a sandboxed download', async () => {
      mkdirSync(join(t.current.mediaDir, 'document'), { recursive: true })
      writeFileSync(join(t.current.mediaDir, 'document', 'page.html'), '<script>alert(document.cookie)</script>')
      writeFileSync(join(t.current.mediaDir, 'document', 'drawing.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')
      for (const url of ['/media/document/page.html', '/media/document/drawing.svg']) {
        const r = await get(url)
        expect(r.statusCode, url).toBe(200)
        expect(r.headers['content-disposition'], url).toBe('attachment')
        expect(r.headers['content-security-policy'], url).toMatch(/\bsandbox\b/)
        expect(r.headers['content-security-policy'], url).toMatch(/default-src 'none'/)
        expect(r.headers['x-content-type-options'], url).toBe('nosniff')
      }
    })
  },
  { distDir },
)
