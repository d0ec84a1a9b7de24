import { createHash } from 'node:crypto'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { existsSync } from 'node:fs'
import { join, relative, resolve, sep } from 'node:path'
import compress from '@fastify/compress'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'
import { messageFor } from '../i18n'
import { registerMediaRoute } from '../storage/media-route'
import type { AppPage } from './app-page'

/** How long a browser may keep what the server sends without asking again. */
export const cacheControl = {
  /** Vite puts a content hash in every name under assets/: a changed file is a new URL. */
  hashedAsset: 'public, max-age=31536000, immutable',
  /** index.html names the current hashed assets, so it is checked on every load (a 304 when unchanged). */
  page: 'no-cache',
  /** Other files of the build (an icon, a manifest) keep their name across releases. */
  publicFile: 'public, max-age=3600',
} as const

/** Answers of these sizes and types are compressed on the fly (API JSON, CSV, a file of the build sent without its precompressed copy). */
const compressionThresholdBytes = 1024
// @fastify/compress's default list less `octet-stream`: an unknown type is most often already compressed.
const compressibleTypes = /^text\/(?!event-stream)|[+/]json(?:;|$)|[+/]text(?:;|$)|[+/]xml(?:;|$)/

/** The extensions the build precompresses (scripts/precompress.ts); the copies are reached through `preCompressed`, never by their own URL. */
const precompressedSuffix = /\.(br|gz)$/

/** The page is made per address and small: a middling brotli level costs well under a millisecond. */
const pageBrotli = { params: { [constants.BROTLI_PARAM_QUALITY]: 6, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } }

/** Brotli, else gzip, else none, as the request accepts (a coding refused with `q=0` is not accepted). */
export function encodingFor(header: string | string[] | undefined): 'br' | 'gzip' | 'identity' {
  const accepted = new Set(
    String(header ?? '')
      .split(',')
      .map((part) => part.trim().toLowerCase().split(/\s*;\s*/))
      .filter(([, q]) => !/^q=0(\.0*)?$/.test(q ?? ''))
      .map(([coding]) => coding),
  )
  return accepted.has('br') ? 'br' : accepted.has('gzip') ? 'gzip' : 'identity'
}

/** Uploads a browser shows inline: raster images only (an SVG can carry script). */
const inlineMedia = /\.(png|jpe?g|gif|webp|avif|bmp|ico)$/i

/** Paths that belong to the API: unknown ones answer 404 JSON instead of the browser app. */
export const isApiPath = (url: string) => url.startsWith('/api/') || /^\/[a-z_]+\/api\//.test(url)

/** The Cache-Control of a file of the build, by its path inside dist/ (`/` separated, without a compression suffix). */
export function cacheControlFor(pathInDist: string): string {
  if (pathInDist.endsWith('.html')) return cacheControl.page
  if (pathInDist.startsWith('assets/')) return cacheControl.hashedAsset
  return cacheControl.publicFile
}

/**
 * Brotli or gzip, as the request accepts, for answers of at least 1 kB. It hooks each route
 * as it is declared, so it is registered before any route.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    threshold: compressionThresholdBytes,
    encodings: ['br', 'gzip'],
    customTypes: compressibleTypes,
    // Requests are not decompressed: no client of the contract sends a compressed body.
    globalDecompression: false,
  })
}

export type ServingOptions = {
  /** The app's media folder: its files, there or in the bucket bound to it (server/storage), are served at /media/. */
  mediaDir: string
  /** Built browser app (vite build output); absent or without index.html: API only. */
  distDir?: string
  /** index.html as each address gets it (server/http/app-page.ts); the file as built when absent. */
  appPage?: AppPage
}

/**
 * Uploads under /media/ (from the app's file storage, server/storage/media-route.ts), the built browser app with its precompressed copies and cache
 * headers, and index.html for every other GET that is not the API (the browser's routes).
 */
export async function registerStaticServing(app: FastifyInstance, options: ServingOptions): Promise<void> {
  registerMediaRoute(app, {
    mediaDir: options.mediaDir,
    mediaHeaders: (reply, key) => {
      // The original admin client runs on another origin (CORS_ORIGINS) and shows these in <img>;
      // helmet's same-origin stays on everything else.
      reply.header('cross-origin-resource-policy', 'cross-origin')
      reply.header('x-content-type-options', 'nosniff')
      // An upload opened on its own runs nothing (GitHub's raw-content policy).
      reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
      if (!inlineMedia.test(key)) reply.header('content-disposition', 'attachment')
    },
  })

  const distDir = options.distDir && existsSync(join(options.distDir, 'index.html')) ? resolve(options.distDir) : undefined
  if (distDir) {
    await app.register(fastifyStatic, {
      root: distDir,
      prefix: '/',
      wildcard: false,
      index: false,
      preCompressed: true,
      globIgnore: ['**/*.br', '**/*.gz'],
      cacheControl: false,
      setHeaders: (reply, path) => {
        const pathInDist = relative(distDir, path).split(sep).join('/').replace(precompressedSuffix, '')
        reply.header('cache-control', cacheControlFor(pathInDist))
      },
    })
  }
  app.setNotFoundHandler((request, reply) => {
    // HEAD too: link checkers and uptime monitors ask a page with it.
    const isBrowserRoute = (request.method === 'GET' || request.method === 'HEAD') && !isApiPath(request.url) && !request.url.startsWith('/media/') && !request.url.startsWith('/assets/')
    // A missing hashed asset is a 404, not index.html: a page of an older release asking for
    // its chunk must fail as a script, not parse HTML as one.
    if (distDir && isBrowserRoute) {
      if (!options.appPage) return reply.type('text/html').sendFile('index.html', distDir)
      const html = options.appPage.htmlFor(request.url)
      // Checked on every load (it names the current hashed assets): a 304 when nothing changed.
      const etag = `W/"${createHash('sha1').update(html).digest('base64url')}"`
      reply.header('cache-control', cacheControl.page).header('etag', etag).header('vary', 'accept-encoding')
      if (request.headers['if-none-match'] === etag) return reply.code(304).send()
      reply.type('text/html; charset=utf-8')
      // The not-found handler is no route: @fastify/compress's hooks do not reach it.
      const encoding = encodingFor(request.headers['accept-encoding'])
      if (encoding === 'identity') return reply.send(html)
      return reply.header('content-encoding', encoding).send(encoding === 'br' ? brotliCompressSync(html, pageBrotli) : gzipSync(html))
    }
    return reply.code(404).send({ detail: messageFor(request.headers['accept-language'], { key: 'detail.path_not_found' }) })
  })
}
