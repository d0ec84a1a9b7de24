import { randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { open, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { FastifyRequest } from 'fastify'
import { BusinessError } from '../errors'
import { importDir } from './files'

/**
 * The file of an import as it arrives (multipart, field `file`, with the fields `mapping` and
 * `mode`), written to a temporary file as it streams in — never held in memory — so that the
 * file is judged whole (its size, its rows, its columns) before the answer starts, and read
 * again row by row as it is imported. Removed by `discard` once the request is done (and by the
 * sweep of the import folder, should the server stop before).
 */
export type ImportFormat = 'csv' | 'xlsx'
export type ImportUpload = { path: string; format: ImportFormat; fields: Readonly<Record<string, string>>; discard: () => Promise<void> }

/** The largest file an import takes. */
export const MAX_IMPORT_BYTES = 25 * 1024 * 1024
export const MAX_IMPORT_MB = MAX_IMPORT_BYTES / 1024 / 1024
/** The fields an import request may carry beside its file. */
const FIELD_NAMES = new Set(['mapping', 'mode'])
const MAX_FIELD_BYTES = 100_000

const TOO_LARGE = new Set(['FST_REQ_FILE_TOO_LARGE'])
const TOO_MANY_PARTS = new Set(['FST_PARTS_LIMIT', 'FST_FILES_LIMIT', 'FST_FIELDS_LIMIT'])

const tooLarge = () => new BusinessError({ key: 'detail.import_too_large', params: { max: MAX_IMPORT_MB } })

/** What the file's first bytes say it is: a zip (XLSX is one), an old binary Excel book, or text taken as CSV. */
async function formatOf(path: string, filename: string): Promise<ImportFormat> {
  const handle = await open(path, 'r')
  try {
    const head = Buffer.alloc(8)
    const { bytesRead } = await handle.read(head, 0, 8, 0)
    if (bytesRead === 0) throw new BusinessError({ key: 'detail.import_no_header' })
    if (head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return 'xlsx'
    // An .xls (OLE compound file), or any other binary: not a sheet we read.
    if (head.subarray(0, 4).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0])) || /\.(xls|xlsb|ods|numbers)$/i.test(filename) || head.subarray(0, bytesRead).includes(0)) {
      throw new BusinessError({ key: 'detail.import_format' })
    }
    return 'csv'
  } finally {
    await handle.close()
  }
}

export async function receiveUpload(request: FastifyRequest): Promise<ImportUpload> {
  if (!request.isMultipart()) throw new BusinessError({ key: 'detail.import_multipart' })
  const path = join(await importDir(), `upload-${randomUUID()}`)
  const discard = () => unlink(path).catch(() => {})
  const fields: Record<string, string> = {}
  let filename: string | undefined
  try {
    const parts = request.parts({ limits: { fileSize: MAX_IMPORT_BYTES, files: 1, fields: 10, fieldSize: MAX_FIELD_BYTES, parts: 12 } })
    for await (const part of parts) {
      if (part.type === 'field') {
        if (FIELD_NAMES.has(part.fieldname) && typeof part.value === 'string') {
          if (part.valueTruncated) throw new BusinessError({ key: 'detail.import_field_too_large', params: { field: part.fieldname } })
          if (part.value.includes('\u0000')) throw new BusinessError({ key: 'detail.nul_parameter', params: { param: part.fieldname } })
          fields[part.fieldname] = part.value
        }
        continue
      }
      if (part.fieldname !== 'file' || filename !== undefined) {
        // Read and dropped, never held.
        for await (const _chunk of part.file) void _chunk
        continue
      }
      filename = part.filename
      // Past the limit the plugin reads the rest and drops it (the body is consumed, the answer can be read): the file says it was cut.
      await pipeline(part.file, createWriteStream(path))
      if (part.file.truncated) throw tooLarge()
    }
    if (filename === undefined) throw new BusinessError({ key: 'detail.import_no_file' })
    return { path, format: await formatOf(path, filename), fields, discard }
  } catch (e) {
    await discard()
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && TOO_LARGE.has(code)) throw tooLarge()
    if (typeof code === 'string' && TOO_MANY_PARTS.has(code)) throw new BusinessError({ key: 'detail.import_parts' })
    throw e
  }
}
