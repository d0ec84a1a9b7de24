import { randomUUID } from 'node:crypto'
import { posix, resolve } from 'node:path'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { MultipartFile } from '@fastify/multipart'
import { sql } from 'kysely'
import { f, MAX_LINES, storageOf, thumbnailOf, type AnyField, type Entity, type Fields, type Message } from '../../schema/kit'
import type { Db, Executor, Row } from '../db/types'
import { BusinessError, HttpError, ValidationError } from './errors'
import type { EntityHooks } from './hooks'
import { refuseNulInBody } from './input-guard'
import type { Registry } from './list-query'
import { mediaStorage } from '../storage'
import { makeThumbnail } from './media-thumbnail'
import { INERT, canonicalType, sniffType, type SniffedType } from './media-type'
import type { Values } from './validate'

/**
 * Multipart bodies (what the original frontend sends for entities with files): plain
 * parts become values, file parts are checked by size (while they stream in) and by the
 * type their bytes show (media-type.ts; never the name or the declared type) and stored
 * under a generated name as `<entity>/<name>` in the app's file storage (server/storage: the
 * folder `<DATA_DIR>/media/`, or an S3 bucket), served at `/media/…`. An image
 * field takes PNG, JPEG, GIF or WebP (ICO where its `accept` lists it), whatever it is
 * called; a plain file field stores what is not a known type — markup above all — inert,
 * as `.bin`, which /media serves as a download. Every stored image gets its thumbnail
 * beside it (`thumbnailOf`). `cleanup` removes them again when the write that needed
 * them fails, so nothing is left half-done.
 *
 * Every stored file is a row of `media_file` (its uploader and size): a user's files
 * together stay within the upload quota (`UPLOAD_QUOTA_MB`). A file a record no longer
 * holds — replaced by an update, or its record deleted — is released in the write's
 * transaction and removed from the storage after it commits (the media sweeper, below).
 */
export type Body = { values: Values; cleanup: () => Promise<void> }

/** The image types the engine stores (it can decode them and make their thumbnail), as people name them. */
const IMAGE_FORMATS: Record<string, string> = { 'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/gif': 'GIF', 'image/webp': 'WebP', 'image/x-icon': 'ICO' }

const TOO_LARGE = new Set(['FST_REQ_FILE_TOO_LARGE', 'FST_PARTS_LIMIT', 'FST_FILES_LIMIT', 'FST_FIELDS_LIMIT'])

export const MEDIA_FILE_TABLE = 'media_file'
export const DEFAULT_UPLOAD_QUOTA_BYTES = 50 * 1024 * 1024
/** A file field without its own `maxBytes` (the field kit gives every one 5 MB). */
const DEFAULT_MAX_FILE_BYTES = 5 * 1024 * 1024

/**
 * The routes whose purpose is to receive a file (the user's `uploadimage/{id}`): a file field
 * takes an uploaded file there, never a path to one already stored (which would let a caller
 * take over someone else's file, and have it removed when they replace it).
 */
const FILE_ONLY_ROUTE = /\/upload\w*\/:id$/

/** What the app's uploads are recorded in, by media directory (set up at start, see `trackUploads`). */
type MediaStore = { db: Db; registry: Registry; mediaDir: string; quotaBytes: number; kick: () => void }
const stores = new Map<string, MediaStore>()

/** The per-user upload quota of the app serving `mediaDir` (config `UPLOAD_QUOTA_MB`). */
export function setUploadQuota(mediaDir: string, bytes: number): void {
  const store = stores.get(resolve(mediaDir))
  if (!store) throw new Error(`no uploads are tracked for ${mediaDir}`)
  store.quotaBytes = bytes
}

const isFileField = (entity: Entity<string, Fields>, name: string) => entity.fields[name]?.kind === 'file'

/** The stored file columns of an entity: its file fields (a line entity's too, through its own hooks). */
const fileFieldsOf = (entity: Entity<string, Fields>): string[] => entity.fieldNames.filter((n) => isFileField(entity, n) && entity.fields[n]!.sql !== undefined)

/** An image field (`f.image`, or a file field that accepts images only): it takes a raster image or nothing. */
const isImageField = (field: AnyField) => field.widget === 'image' || (field.accept !== undefined && field.accept.length > 0 && field.accept.every((t) => t.startsWith('image/')))

/** The image types a field takes, as people name them (`PNG, JPEG, GIF, WebP`). */
const imageFormatsOf = (field: AnyField) => {
  const accepted = new Set((field.accept ?? f.IMAGE_TYPES).map(canonicalType))
  return Object.entries(IMAGE_FORMATS).filter(([mime]) => accepted.has(mime))
}

/**
 * A file part's bytes, counted as they stream in: past the field's `maxBytes` the rest
 * is read and dropped (the body must still be consumed), never held. `undefined`: too large.
 */
async function readWithin(part: MultipartFile, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of part.file as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size <= maxBytes) chunks.push(chunk)
    else chunks.length = 0
  }
  // The multipart plugin's own file limit truncates silently when read this way.
  if (size > maxBytes || part.file.truncated) return undefined
  return Buffer.concat(chunks, size)
}

/** A stored file and, for an image, its thumbnail. */
type Accepted = { type: SniffedType; thumbnail?: Buffer }

/**
 * Judges an uploaded file by its bytes for its field: what to store it as, or the field's
 * message. An image field refuses anything but the raster types it accepts, and an image
 * its decoder cannot read; a plain file field refuses a type outside its `accept` and
 * keeps the rest (unknown types inert).
 */
async function acceptFile(field: AnyField, bytes: Buffer, filename: string, label: string): Promise<Accepted | { message: Message }> {
  const type = sniffType(bytes, filename)
  if (isImageField(field)) {
    const formats = imageFormatsOf(field)
    const notImage = { message: { key: 'validation.file_not_image', params: { label, types: formats.map(([, name]) => name).join(', ') } } }
    if (!type.isImage || !formats.some(([mime]) => mime === type.mime)) return notImage
    const thumbnail = await makeThumbnail(bytes, type.mime)
    return thumbnail ? { type, thumbnail } : notImage
  }
  if (field.accept && !field.accept.map(canonicalType).includes(type.mime)) return { message: { key: 'validation.file', params: { label } } }
  if (!type.isImage) return { type }
  // An image in a plain file field gets its preview too; one that cannot be decoded is kept, inert.
  const thumbnail = await makeThumbnail(bytes, type.mime)
  return thumbnail ? { type, thumbnail } : { type: INERT }
}

function fileExpected(entity: Entity<string, Fields>, names: readonly string[]): ValidationError {
  return new ValidationError(Object.fromEntries(names.map((n) => [n, [{ key: 'validation.file_expected', params: { label: entity.fieldLabelKey(n) } }]])))
}

/** Advisory-lock class of a user's uploads (the other key is the user's id). */
const UPLOADS_LOCK = 724_009

/**
 * Records a file before it is written, refusing it when its uploader's files (uploaded and
 * not released) would pass the quota. One user's uploads are judged one at a time (a lock
 * per user), so parallel requests cannot together pass it.
 */
async function recordUpload(store: MediaStore, file: { url: string; uploader: number | null; bytes: number }): Promise<void> {
  await store.db.transaction().execute(async (trx) => {
    if (file.uploader !== null) {
      await sql`select pg_advisory_xact_lock(${UPLOADS_LOCK}, ${file.uploader % 2_147_483_647}::int)`.execute(trx)
      const r = await sql<{ n: string }>`
        select coalesce(sum(bytes), 0) as n from ${sql.id(MEDIA_FILE_TABLE)} where uploader = ${file.uploader} and released_at is null`.execute(trx)
      const held = Number(r.rows[0]!.n)
      if (held + file.bytes > store.quotaBytes) {
        throw new BusinessError({ key: 'detail.upload_quota', params: { quota: megabytes(store.quotaBytes), used: megabytes(held) } })
      }
    }
    await sql`insert into ${sql.id(MEDIA_FILE_TABLE)} (path, uploader, bytes) values (${file.url}, ${file.uploader}, ${file.bytes})`.execute(trx)
  })
}

/** Megabytes as people read them: whole from 10 up, else two significant digits (a small quota is not "0 MB"). */
const megabytes = (bytes: number) => {
  const mb = bytes / (1024 * 1024)
  return String(mb >= 10 || mb === 0 ? Math.round(mb) : Number(mb.toPrecision(2)))
}

/**
 * A multipart field name as a path: `items[2][ledger]` → `['items', 2, 'ledger']` (the
 * contract's flattened lines, api-contract §2.5); a plain name is a path of one.
 */
export function pathOf(name: string): Array<string | number> | undefined {
  const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(name)
  if (!m) return undefined
  const rest = [...m[2]!.matchAll(/\[([^[\]]*)\]/g)].map((x) => x[1]!)
  const path: Array<string | number> = [m[1]!, ...rest.map((p) => (/^\d{1,9}$/.test(p) ? Number(p) : p))]
  if (path.some((p) => p === '' || p === '__proto__' || p === 'constructor' || p === 'prototype')) return undefined
  return path
}

/** Puts a value at a path, making the arrays (numeric segments) and objects on the way. */
function setPath(target: Values, path: ReadonlyArray<string | number>, value: unknown): void {
  let node: Record<string | number, unknown> = target
  path.forEach((key, i) => {
    // A document's lines (`items[999][…]`) are bounded as JSON lines are (the kit's MAX_LINES): an index beyond is refused, not allocated.
    if (typeof key === 'number' && key >= MAX_LINES) throw new BusinessError({ key: 'detail.too_many_lines', params: { max: MAX_LINES } })
    if (i === path.length - 1) {
      node[key] = value
      return
    }
    const next = path[i + 1]
    const existing = node[key]
    if (typeof existing !== 'object' || existing === null) node[key] = typeof next === 'number' ? [] : {}
    node = node[key] as Record<string | number, unknown>
  })
}

/**
 * The field a multipart part is for: an entity's own, a document line's (`items[0][file]`),
 * or one of a line's files (`items[0][images][1]`: a lines field of the line whose `scalar`
 * is a file — the pictures of an offered item).
 */
function fieldOfPath(entity: Entity<string, Fields>, path: ReadonlyArray<string | number>): { entity: Entity<string, Fields>; name: string } | undefined {
  const [first, index, name, position] = path
  if (path.length === 1 && typeof first === 'string') return entity.fields[first] ? { entity, name: first } : undefined
  const lines = typeof first === 'string' ? entity.fields[first]?.lines : undefined
  if (!lines || typeof index !== 'number' || typeof name !== 'string' || !lines.entity.fields[name]) return undefined
  if (path.length === 3) return { entity: lines.entity, name }
  const files = lines.entity.fields[name]!.lines
  if (path.length === 4 && typeof position === 'number' && files?.scalar && files.entity.fields[files.scalar]?.kind === 'file') return { entity: files.entity, name: files.scalar }
  return undefined
}

/**
 * The multipart parser throws plain errors for a body it cannot read (no boundary, a
 * truncated or broken part): that is bad input, answered 400, not a server error.
 */
function malformed(e: unknown): unknown {
  if (e instanceof HttpError) return e
  const code = (e as { code?: string }).code
  if (code && TOO_LARGE.has(code)) return e
  return new BusinessError({ key: 'detail.multipart_malformed', params: { reason: e instanceof Error ? e.message : String(e) } })
}

/**
 * Whether `value` is a file this entity's uploads stored (`readBody` names each
 * `/media/<entity>/<uuid>.<ext>`): what a route that receives a file checks it got one —
 * not another entity's file, nor a path it made up.
 */
export const isUploadOf = (entity: Pick<Entity<string, Fields>, 'name'>, value: unknown): value is string =>
  typeof value === 'string' && new RegExp(`^/media/${entity.name}/[0-9a-f-]{36}\\.[a-z0-9]{1,10}$`).test(value)

/** The files a request's multipart body stored (`readBody`): what its write may put in a file field. */
const requestUploads = new WeakMap<FastifyRequest, Set<string>>()
export const uploadsOf = (request: FastifyRequest): ReadonlySet<string> => requestUploads.get(request) ?? new Set()

/**
 * A file field holds a file uploaded by the request that writes it, or keeps the value the
 * record holds (`before`; null on create), or is cleared: any other value — another record's
 * file, a path made up (`/media/product/../user/<file>`) — is refused, naming the field, on
 * every write path (the engine's create and update, a document's, JSON or multipart). Taken,
 * such a value would be released when the record lets go of it, and the sweeper would remove
 * a file that was never the record's.
 */
export function refuseForeignFiles(entity: Entity<string, Fields>, values: Values, before: Row | null, uploads: ReadonlySet<string> = new Set()): void {
  const foreign = fileFieldsOf(entity).filter((name) => {
    const value = values[name]
    return value !== undefined && value !== null && value !== '' && !uploads.has(value as string) && value !== before?.[name]
  })
  if (foreign.length > 0) throw fileExpected(entity, foreign)
}

export async function readBody(request: FastifyRequest, entity: Entity<string, Fields>, mediaDir: string): Promise<Body> {
  const isFileOnly = FILE_ONLY_ROUTE.test(request.routeOptions.url ?? '')
  if (!request.isMultipart()) {
    const body = request.body ?? {}
    if (typeof body !== 'object' || Array.isArray(body)) throw new BusinessError({ key: 'detail.json_object' })
    if (isFileOnly) {
      const named = Object.keys(body).filter((n) => isFileField(entity, n))
      throw fileExpected(entity, named.length > 0 ? named : entity.fieldNames.filter((n) => isFileField(entity, n)))
    }
    return { values: body as Values, cleanup: async () => {} }
  }
  const store = stores.get(resolve(mediaDir))
  const storage = mediaStorage(mediaDir)
  const uploader = request.principal?.id ?? null
  const values: Values = {}
  const saved: string[] = []
  const recorded: string[] = []
  const uploads = new Set<string>()
  requestUploads.set(request, uploads)
  const cleanup = async () => {
    await Promise.all(saved.map((key) => storage.delete(key).catch(() => false)))
    if (store && recorded.length > 0) await sql`delete from ${sql.id(MEDIA_FILE_TABLE)} where path = any(${recorded})`.execute(store.db).catch(() => {})
  }
  try {
    for await (const part of request.parts()) {
      // A name the contract's flattening does not make (`a]b`, `__proto__`) is taken as it is, at the top.
      const path = pathOf(part.fieldname) ?? [part.fieldname]
      if (part.type === 'field') {
        if (isFileOnly && path.length === 1 && isFileField(entity, String(path[0]))) throw fileExpected(entity, [String(path[0])])
        setPath(values, path, part.value)
        continue
      }
      const target = fieldOfPath(entity, path)
      const field = target?.entity.fields[target.name]
      if (!target || !field || field.kind !== 'file') {
        await part.toBuffer()
        continue
      }
      const label = target.entity.fieldLabelKey(target.name)
      const fieldKey = path.join('.')
      const maxBytes = field.maxBytes ?? DEFAULT_MAX_FILE_BYTES
      const buffer = await readWithin(part, maxBytes)
      if (!buffer) throw new ValidationError({ [fieldKey]: [{ key: 'validation.file_too_large', params: { label, max: megabytes(maxBytes) } }] })
      const accepted = await acceptFile(field, buffer, part.filename, label)
      if ('message' in accepted) throw new ValidationError({ [fieldKey]: [accepted.message] })
      const name = `${randomUUID()}${accepted.type.ext}`
      const key = `${target.entity.name}/${name}`
      const url = `/media/${target.entity.name}/${name}`
      // The quota counts what was uploaded; the thumbnail is the engine's, and small.
      if (store) {
        await recordUpload(store, { url, uploader, bytes: buffer.length })
        recorded.push(url)
      }
      // Named before it is written: a write that fails half-way is still removed by `cleanup`.
      saved.push(key)
      await storage.put(key, buffer, { contentType: accepted.type.mime })
      if (accepted.thumbnail) {
        const thumbnail = `${target.entity.name}/${thumbnailOf(name)}`
        saved.push(thumbnail)
        await storage.put(thumbnail, accepted.thumbnail, { contentType: 'image/webp' })
      }
      uploads.add(url)
      setPath(values, path, url)
    }
    // What the API's guard refuses in a JSON body (input-guard.ts), refused as the parts are read.
    refuseNulInBody(values)
  } catch (e) {
    await cleanup()
    throw malformed(e)
  }
  return { values, cleanup }
}

// ---------------------------------------------------------------- files a record no longer holds

/**
 * A stored file's URL as `readBody` makes it, `/media/<folder>/<name>`: one folder, one file
 * name, nothing a normalisation would change (no `..`, `.`, `//`, backslash or NUL) — else
 * undefined. Only such a URL is ever released or removed from the storage.
 */
export function storedFileOf(url: unknown): { folder: string; name: string } | undefined {
  if (typeof url !== 'string') return undefined
  const m = /^\/media\/([^/\\\0]+)\/([^/\\\0]+)$/.exec(url)
  if (!m || posix.normalize(url) !== url || [m[1], m[2]].some((segment) => segment === '.' || segment === '..')) return undefined
  return { folder: m[1]!, name: m[2]! }
}

/**
 * The folders whose files a file field's column may hold: those of the entities that share
 * the column (a user's photo is an upload of the user or of an employee, who is a user).
 */
function foldersOf(registry: Registry, entity: Entity<string, Fields>, field: string): ReadonlySet<string> {
  const table = storageOf(entity, field).name
  return new Set([entity, ...registry].filter((e) => isFileField(e, field) && storageOf(e, field).name === table).map((e) => e.name))
}

/**
 * Marks files as no longer needed by the write in progress (the media hooks, for a replaced
 * or deleted record's files): once the transaction commits the sweeper removes those that no
 * record holds — one a record still holds, or took again, stays.
 */
async function releaseFiles(trx: Executor, paths: readonly string[]): Promise<void> {
  const released = [...new Set(paths)]
  if (released.length === 0) return
  await sql`
    insert into ${sql.id(MEDIA_FILE_TABLE)} (path, released_at) select unnest(${released}::text[]), now()
    on conflict (path) do update set released_at = now()`.execute(trx)
  for (const store of stores.values()) store.kick()
}

/**
 * Engine hooks, for every entity with a file field, that release the files a write leaves
 * behind: the former value of a file field an update changed, every file of a deleted row.
 * The release is part of the write's transaction (a write that fails releases nothing); the
 * sweeper removes released files once committed. A file uploaded before uploads were
 * recorded is released too.
 */
export function mediaHooks(registry: Registry): Record<string, EntityHooks> {
  const hooks: EntityHooks = {
    async afterWrite({ trx, entity, before, after }) {
      if (!before) return
      // Only a file of the field's own folders: a value planted some other way (a path that
      // climbs out, another field's folder) is let go of without anything being released.
      const released = fileFieldsOf(entity)
        .filter((n) => before[n] !== after?.[n] && foldersOf(registry, entity, n).has(storedFileOf(before[n])?.folder ?? ''))
        .map((n) => before[n] as string)
      await releaseFiles(trx, released)
    },
  }
  // A child entity runs its parent's hooks: the parent's registration covers the fields it inherits.
  return Object.fromEntries(registry.filter((e) => e.ownFieldNames.some((n) => isFileField(e, n))).map((e) => [e.name, hooks]))
}

/**
 * The file's key in the storage: only for a URL exactly `/media/<folder>/<name>` (`storedFileOf`)
 * whose folder is one a file field stores into (`folders`) — never `..`, another folder, or an
 * absolute path. The stores judge every key again (`isStorageKey`; the folder's never leaves its root).
 */
function storageKeyOf(url: string, folders: ReadonlySet<string>): string | undefined {
  const stored = storedFileOf(url)
  if (!stored || !folders.has(stored.folder)) return undefined
  return `${stored.folder}/${stored.name}`
}

/**
 * Removes the released files that no record holds any more (a released path a record took
 * again stays, and counts again), and forgets them. Answers how many files were removed.
 */
export async function sweepReleasedMedia(mediaDir: string): Promise<number> {
  const store = stores.get(resolve(mediaDir))
  if (!store) return 0
  const released = await sql<{ path: string }>`
    select path from ${sql.id(MEDIA_FILE_TABLE)} where released_at is not null order by released_at limit 500`.execute(store.db)
  if (released.rows.length === 0) return 0
  const paths = released.rows.map((r) => r.path)
  const holders = store.registry.flatMap((e) => fileFieldsOf(e).filter((n) => storageOf(e, n) === e).map((n) => ({ table: e.name, column: n })))
  // The folders uploads are stored in: those of the entities with a file field.
  const folders = new Set(store.registry.filter((e) => fileFieldsOf(e).length > 0).map((e) => e.name))
  const held = new Set<string>()
  for (const { table, column } of holders) {
    const r = await sql<{ path: string }>`select distinct ${sql.id(column)} as path from ${sql.id(table)} where ${sql.id(column)} = any(${paths})`.execute(store.db)
    for (const row of r.rows) held.add(row.path)
  }
  if (held.size > 0) await sql`update ${sql.id(MEDIA_FILE_TABLE)} set released_at = null where path = any(${[...held]})`.execute(store.db)
  const gone = paths.filter((p) => !held.has(p))
  const storage = mediaStorage(store.mediaDir)
  let removed = 0
  for (const url of gone) {
    const file = storageKeyOf(url, folders)
    if (file && (await storage.delete(file))) removed++
    // An image's thumbnail goes with it (a file without one has none to remove).
    const thumbnail = storageKeyOf(thumbnailOf(url), folders)
    if (thumbnail && thumbnail !== file) await storage.delete(thumbnail)
  }
  if (gone.length > 0) await sql`delete from ${sql.id(MEDIA_FILE_TABLE)} where path = any(${gone}) and released_at is not null`.execute(store.db)
  return removed
}

const SWEEP_EVERY_MS = 10_000
const SWEEP_AFTER_WRITE_MS = 200

/**
 * Records the app's uploads and removes released files: soon after a write released one
 * (once its transaction has had time to commit) and every few seconds for any left over.
 */
export function trackUploads(app: FastifyInstance, deps: { db: Db; registry: Registry; mediaDir: string }, quotaBytes = DEFAULT_UPLOAD_QUOTA_BYTES): void {
  const key = resolve(deps.mediaDir)
  let timer: NodeJS.Timeout | null = null
  let running: Promise<unknown> | null = null
  const sweep = () => {
    running ??= sweepReleasedMedia(key)
      .catch((e: unknown) => console.error(`media: ${e instanceof Error ? e.message : String(e)}`))
      .finally(() => (running = null))
  }
  const store: MediaStore = {
    db: deps.db,
    registry: deps.registry,
    mediaDir: key,
    quotaBytes,
    kick: () => {
      if (timer) return
      timer = setTimeout(() => {
        timer = null
        sweep()
      }, SWEEP_AFTER_WRITE_MS)
      timer.unref()
    },
  }
  stores.set(key, store)
  const poll = setInterval(sweep, SWEEP_EVERY_MS)
  poll.unref()
  app.addHook('onClose', async () => {
    clearInterval(poll)
    if (timer) clearTimeout(timer)
    await running
    if (stores.get(key) === store) stores.delete(key)
  })
}
