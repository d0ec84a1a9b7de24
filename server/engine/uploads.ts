import { randomUUID } from 'node:crypto'
import { mkdir, unlink, writeFile } from 'node:fs/promises'
import { extname, join } from 'node:path'
import type { FastifyRequest } from 'fastify'
import '@fastify/multipart'
import type { Entity, Fields } from '../../schema/kit'
import { BusinessError, HttpError, ValidationError } from './errors'
import type { Values } from './validate'

/**
 * Multipart bodies (what the original frontend sends for entities with files): plain
 * parts become values, file parts are checked by type and size and stored under
 * `<DATA_DIR>/media/<entity>/`, served at `/media/…`. `cleanup` removes them again
 * when the write that needed them fails, so nothing is left half-done.
 */
export type Body = { values: Values; cleanup: () => Promise<void> }

const EXT: Record<string, string> = {
  'image/png': '.png', 'image/jpeg': '.jpg', 'image/gif': '.gif', 'image/webp': '.webp',
  'image/x-icon': '.ico', 'image/vnd.microsoft.icon': '.ico', 'image/svg+xml': '.svg', 'application/pdf': '.pdf',
}

const TOO_LARGE = new Set(['FST_REQ_FILE_TOO_LARGE', 'FST_PARTS_LIMIT', 'FST_FILES_LIMIT', 'FST_FIELDS_LIMIT'])

/** The most lines a multipart body may give a document (`items[999][…]`): an index beyond is refused, not allocated. */
const MAX_LINES = 1_000

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

/** The field a multipart part is for: an entity's own, or a document line's (`items[0][file]`). */
function fieldOfPath(entity: Entity<string, Fields>, path: ReadonlyArray<string | number>): { entity: Entity<string, Fields>; name: string } | undefined {
  const [first, index, name] = path
  if (path.length === 1 && typeof first === 'string') return entity.fields[first] ? { entity, name: first } : undefined
  const lines = typeof first === 'string' ? entity.fields[first]?.lines : undefined
  if (path.length === 3 && lines && typeof index === 'number' && typeof name === 'string' && lines.entity.fields[name]) return { entity: lines.entity, name }
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

export async function readBody(request: FastifyRequest, entity: Entity<string, Fields>, mediaDir: string): Promise<Body> {
  if (!request.isMultipart()) {
    const body = request.body ?? {}
    if (typeof body !== 'object' || Array.isArray(body)) throw new BusinessError({ key: 'detail.json_object' })
    return { values: body as Values, cleanup: async () => {} }
  }
  const values: Values = {}
  const saved: string[] = []
  const cleanup = async () => {
    await Promise.all(saved.map((p) => unlink(p).catch(() => {})))
  }
  try {
    for await (const part of request.parts()) {
      // A name the contract's flattening does not make (`a]b`, `__proto__`) is taken as it is, at the top.
      const path = pathOf(part.fieldname) ?? [part.fieldname]
      if (part.type === 'field') {
        setPath(values, path, part.value)
        continue
      }
      const target = fieldOfPath(entity, path)
      const field = target?.entity.fields[target.name]
      if (!target || !field || field.kind !== 'file') {
        await part.toBuffer()
        continue
      }
      const buffer = await part.toBuffer()
      const label = target.entity.fieldLabelKey(target.name)
      const key = path.join('.')
      if (field.accept && !field.accept.includes(part.mimetype)) {
        throw new ValidationError({ [key]: [{ key: 'validation.file', params: { label } }] })
      }
      if (buffer.length > (field.maxBytes ?? Infinity)) {
        throw new ValidationError({ [key]: [{ key: 'validation.max_value', params: { label, max: field.maxBytes ?? 0 } }] })
      }
      const dir = join(mediaDir, target.entity.name)
      await mkdir(dir, { recursive: true })
      const name = `${randomUUID()}${EXT[part.mimetype] ?? (extname(part.filename).toLowerCase().replace(/[^.a-z0-9]/g, '') || '.bin')}`
      const file = join(dir, name)
      await writeFile(file, buffer)
      saved.push(file)
      setPath(values, path, `/media/${target.entity.name}/${name}`)
    }
  } catch (e) {
    await cleanup()
    throw malformed(e)
  }
  return { values, cleanup }
}
