import { Readable } from 'node:stream'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { messageFor } from '../i18n'
import { mediaStorage, releaseMediaStorage } from './index'
import { contentTypeOf, isStorageKey, type ByteRange, type StoredFileInfo } from './port'

/**
 * `/media/<key>`: the app's files, streamed from its storage (the folder or the bucket) with
 * the headers @fastify/static gave them when /media/ was served from the folder — type by
 * extension, `Cache-Control: public, max-age=0`, Last-Modified, ETag, byte ranges, 304/412 on
 * conditional requests — and the upload headers of `mediaHeaders`. Streaming rather than
 * redirecting to a signed bucket URL keeps the URLs stored in records, their headers, and a
 * private bucket; the price is the bytes passing through the app.
 */
export function registerMediaRoute(app: FastifyInstance, options: { mediaDir: string; mediaHeaders: (reply: FastifyReply, key: string) => void }): void {
  const storage = () => mediaStorage(options.mediaDir)
  app.route({
    method: ['HEAD', 'GET'],
    url: '/media/*',
    handler: async (request, reply) => {
      const key = (request.params as { '*'?: string })['*'] ?? ''
      if (!isStorageKey(key)) return reply.callNotFound()
      // A plain GET (most of them: an <img>) needs one round trip to the store; a conditional
      // or ranged one asks what the file is first.
      if (request.method === 'GET' && !isConditional(request) && request.headers.range === undefined) {
        const file = await storage().get(key)
        if (!file) return reply.callNotFound()
        fileHeaders(reply, key, file, options.mediaHeaders)
        return reply.code(200).header('content-length', file.size).send(file.body)
      }
      const info = await storage().head(key)
      if (!info) return reply.callNotFound()
      const say = (message: Parameters<typeof messageFor>[1]) => ({ detail: messageFor(request.headers['accept-language'], message) })
      if (isConditional(request) && isPreconditionFailure(request, info)) return reply.code(412).send(say({ key: 'detail.precondition_failed' }))
      if (isConditional(request) && isNotModified(request, info)) {
        fileHeaders(reply, key, info, options.mediaHeaders)
        reply.removeHeader('content-type')
        return reply.code(304).send()
      }
      const range = rangeOf(request, info)
      if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${info.size}`).send(say({ key: 'detail.range_not_satisfiable', params: { size: info.size } }))
      // Fetched before any header is set: a file removed since is a plain 404.
      const file = request.method === 'GET' ? await storage().get(key, range) : undefined
      if (request.method === 'GET' && !file) return reply.callNotFound()
      fileHeaders(reply, key, info, options.mediaHeaders)
      if (range) reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${info.size}`)
      reply.header('content-length', range ? range.end - range.start + 1 : info.size)
      return reply.send(file?.body ?? Readable.from([]))
    },
  })
  // The storage the app's files are kept in goes with the app (its client's sockets).
  app.addHook('onClose', async () => releaseMediaStorage(options.mediaDir))
}

function fileHeaders(reply: FastifyReply, key: string, info: StoredFileInfo, mediaHeaders: (reply: FastifyReply, key: string) => void): void {
  reply
    .header('accept-ranges', 'bytes')
    .header('cache-control', 'public, max-age=0')
    .header('last-modified', info.lastModified.toUTCString())
    .header('etag', info.etag)
    .header('content-type', contentTypeOf(key))
  mediaHeaders(reply, key)
}

// Conditional requests and ranges as @fastify/send judged them (RFC 9110), on the store's validators.

const isConditional = (request: FastifyRequest) =>
  request.headers['if-match'] !== undefined || request.headers['if-unmodified-since'] !== undefined || request.headers['if-none-match'] !== undefined || request.headers['if-modified-since'] !== undefined

const tokens = (header: string) =>
  header
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)

/** Weak comparison: `W/"x"` and `"x"` are the same validator. */
const sameTag = (a: string, b: string) => a.replace(/^W\//, '') === b.replace(/^W\//, '')

const secondsOf = (date: Date) => Math.floor(date.getTime() / 1000) * 1000

function isPreconditionFailure(request: FastifyRequest, info: StoredFileInfo): boolean {
  const ifMatch = request.headers['if-match']
  if (ifMatch && ifMatch !== '*' && !tokens(ifMatch).some((t) => t === info.etag || `W/${t}` === info.etag)) return true
  const since = Date.parse(request.headers['if-unmodified-since'] ?? '')
  return !Number.isNaN(since) && secondsOf(info.lastModified) > since
}

function isNotModified(request: FastifyRequest, info: StoredFileInfo): boolean {
  // An end-to-end reload asks again whatever the validators say.
  if ((request.headers['cache-control'] ?? '').includes('no-cache')) return false
  const ifNoneMatch = request.headers['if-none-match']
  if (ifNoneMatch !== undefined) return ifNoneMatch.trim() === '*' || tokens(ifNoneMatch).some((t) => sameTag(t, info.etag))
  const since = Date.parse(request.headers['if-modified-since'] ?? '')
  return !Number.isNaN(since) && secondsOf(info.lastModified) <= since
}

/** `If-Range`: the range holds only while the file is the one the client has part of. */
function isRangeFresh(request: FastifyRequest, info: StoredFileInfo): boolean {
  const given = request.headers['if-range']
  if (given === undefined) return true
  const ifRange = Array.isArray(given) ? given.join(',') : given
  if (ifRange.includes('"')) return ifRange.includes(info.etag)
  const at = Date.parse(ifRange)
  return !Number.isNaN(at) && secondsOf(info.lastModified) <= at
}

/**
 * The one byte range asked for, `unsatisfiable`, or undefined for the whole file: several
 * ranges, or a header that is not `bytes=…`, are answered with the whole file, as before.
 */
function rangeOf(request: FastifyRequest, info: StoredFileInfo): ByteRange | 'unsatisfiable' | undefined {
  const header = request.headers.range
  if (header === undefined || !/^ *bytes=/.test(header) || !isRangeFresh(request, info)) return undefined
  const specs = header.slice(header.indexOf('=') + 1).split(',')
  const ranges: ByteRange[] = []
  for (const spec of specs) {
    const m = /^\s*(\d*)-(\d*)\s*$/.exec(spec)
    if (!m || (m[1] === '' && m[2] === '')) return undefined
    let start: number
    let end: number
    if (m[1] === '') {
      // The last n bytes.
      start = Math.max(0, info.size - Number(m[2]))
      end = info.size - 1
    } else {
      start = Number(m[1])
      end = m[2] === '' ? info.size - 1 : Math.min(Number(m[2]), info.size - 1)
    }
    if (start <= end && start < info.size) ranges.push({ start, end })
  }
  if (ranges.length === 0) return 'unsatisfiable'
  return ranges.length === 1 ? ranges[0] : undefined
}
