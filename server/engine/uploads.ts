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

/**
 * The multipart parser throws plain errors for a body it cannot read (no boundary, a
 * truncated or broken part): that is bad input, answered 400, not a server error.
 */
function malformed(e: unknown): unknown {
  if (e instanceof HttpError) return e
  const code = (e as { code?: string }).code
  if (code && TOO_LARGE.has(code)) return e
  return new BusinessError(`Malformed multipart body: ${e instanceof Error ? e.message : String(e)}`)
}

export async function readBody(request: FastifyRequest, entity: Entity<string, Fields>, mediaDir: string): Promise<Body> {
  if (!request.isMultipart()) {
    const body = request.body ?? {}
    if (typeof body !== 'object' || Array.isArray(body)) throw new BusinessError('Expected a JSON object in the request body.')
    return { values: body as Values, cleanup: async () => {} }
  }
  const values: Values = {}
  const saved: string[] = []
  const cleanup = async () => {
    await Promise.all(saved.map((p) => unlink(p).catch(() => {})))
  }
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        values[part.fieldname] = part.value
        continue
      }
      const field = entity.fields[part.fieldname]
      if (!field || field.kind !== 'file') {
        await part.toBuffer()
        continue
      }
      const buffer = await part.toBuffer()
      const label = entity.fieldLabelKey(part.fieldname)
      if (field.accept && !field.accept.includes(part.mimetype)) {
        throw new ValidationError({ [part.fieldname]: [{ key: 'validation.file', params: { label } }] })
      }
      if (buffer.length > (field.maxBytes ?? Infinity)) {
        throw new ValidationError({ [part.fieldname]: [{ key: 'validation.max_value', params: { label, max: field.maxBytes ?? 0 } }] })
      }
      const dir = join(mediaDir, entity.name)
      await mkdir(dir, { recursive: true })
      const name = `${randomUUID()}${EXT[part.mimetype] ?? (extname(part.filename).toLowerCase().replace(/[^.a-z0-9]/g, '') || '.bin')}`
      const path = join(dir, name)
      await writeFile(path, buffer)
      saved.push(path)
      values[part.fieldname] = `/media/${entity.name}/${name}`
    }
  } catch (e) {
    await cleanup()
    throw malformed(e)
  }
  return { values, cleanup }
}
