import type { Readable } from 'node:stream'

/**
 * Where the app keeps its files (uploads and their thumbnails): one port, two adapters —
 * the local folder `DATA_DIR/media` (local.ts) or an S3-compatible bucket (s3.ts). A file is
 * named by its key, `<folder>/<name>` as `/media/<folder>/<name>` names it; what a key may
 * be is `isStorageKey`'s, checked by both adapters as well as by their callers.
 */
export type StoredFileInfo = {
  size: number
  /** What the store says it is; `/media/` answers by the name's extension (contentTypeOf), as it always did. */
  contentType: string | undefined
  /** A validator for conditional requests, quoted (`W/"…"` locally, the bucket's own ETag). */
  etag: string
  lastModified: Date
}

/** The bytes `start`..`end` (both included) of a file. */
export type ByteRange = { start: number; end: number }

export type StoredFile = StoredFileInfo & {
  /** The file's bytes, or the range asked for: the caller consumes or destroys it. */
  body: Readable
}

export type FileStorage = {
  /** `local` or `s3`: for logs and tests, never for a second code path. */
  readonly kind: 'local' | 's3'
  /** Where the files are, as an operator reads it (a folder, `s3://bucket/prefix`). */
  readonly description: string
  put(key: string, body: Buffer, options: { contentType: string }): Promise<void>
  /** The file (or `range` of it) with what is known of it; `undefined` when there is none under the key. */
  get(key: string, range?: ByteRange): Promise<StoredFile | undefined>
  head(key: string): Promise<StoredFileInfo | undefined>
  /** Removes the file; answers whether there was one. */
  delete(key: string): Promise<boolean>
  /** Fails, saying why, when files cannot be kept here (the bucket is missing or refused, the folder cannot be written): asked once at start-up. */
  check(): Promise<void>
  /** Lets go of what the adapter holds open (the S3 client's sockets). */
  close(): Promise<void>
}

/** S3's own bound on a key; a folder and a generated name are far shorter. */
const MAX_KEY_BYTES = 1024

/**
 * A key the stores take: `/`-separated segments, none empty, `.`-led (`..`, a dotfile — what
 * /media never served), or holding a backslash or NUL. Keeps a key from climbing out of the
 * media folder, and names the same file in a folder and in a bucket.
 */
export function isStorageKey(key: string): boolean {
  if (key.length === 0 || Buffer.byteLength(key) > MAX_KEY_BYTES) return false
  return key.split('/').every((segment) => segment.length > 0 && !segment.startsWith('.') && !/[\\\0]/.test(segment))
}

/**
 * The type a file is served as, by its extension: the same answers @fastify/send's `mime`
 * gave when /media/ was served from the folder, for every extension uploads are stored
 * under (media-type.ts) and the few a browser would run (served as downloads anyway).
 */
const TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  ico: 'image/vnd.microsoft.icon',
  avif: 'image/avif',
  bmp: 'image/bmp',
  pdf: 'application/pdf',
  zip: 'application/zip',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  svg: 'image/svg+xml',
  json: 'application/json; charset=utf-8',
  bin: 'application/octet-stream',
}

export function contentTypeOf(key: string): string {
  const dot = key.lastIndexOf('.')
  return (dot > key.lastIndexOf('/') && TYPES[key.slice(dot + 1).toLowerCase()]) || 'application/octet-stream'
}
