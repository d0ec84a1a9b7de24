import { randomUUID } from 'node:crypto'
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs'
import { mkdir, readdir, readFile, stat, unlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { finished } from 'node:stream/promises'
import { stringify } from 'csv-stringify'
import { BusinessError, NotFoundError } from '../errors'

/**
 * The import's temporary files, in one folder of the system's temporary directory: uploads
 * while they are read, and the rejected rows of an import in batches (with the reasons),
 * which its user may download for an hour. A sweep removes what is older, whatever server
 * wrote it (a server stopped mid-import leaves its upload behind).
 */
export const REJECTED_TTL_MS = 60 * 60 * 1000
const SWEEP_EVERY_MS = 10 * 60 * 1000

let dir: string | undefined
let sweeper: NodeJS.Timeout | undefined

export async function importDir(): Promise<string> {
  if (!dir) {
    const path = join(tmpdir(), 'backoffice-import')
    await mkdir(path, { recursive: true, mode: 0o700 })
    dir = path
  }
  if (!sweeper) {
    sweeper = setInterval(() => void sweepImportFiles(), SWEEP_EVERY_MS)
    sweeper.unref()
  }
  return dir
}

/** Removes the import files older than an hour; answers how many. */
export async function sweepImportFiles(now = Date.now()): Promise<number> {
  const folder = await importDir()
  let removed = 0
  for (const name of await readdir(folder).catch(() => [] as string[])) {
    const path = join(folder, name)
    const info = await stat(path).catch(() => undefined)
    if (info && now - info.mtimeMs > REJECTED_TTL_MS) {
      await unlink(path).catch(() => {})
      removed++
    }
  }
  return removed
}

const TOKEN = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** Who may download a file of rejected rows: the user who imported, from the same entity's import. */
type RejectedMeta = { user: number; entity: string; at: number }

export type RejectedWriter = {
  readonly token: string
  /** One rejected row: its cells as the file had them, and why it was refused. */
  add: (cells: readonly string[], reasons: string) => Promise<void>
  readonly count: () => number
  /** Finishes the file; without rows it is removed and answers undefined. */
  close: () => Promise<string | undefined>
}

/**
 * A CSV of the rejected rows, written as they are found (the columns of the file and a
 * "Reasons" column), UTF-8 with a byte-order mark so that spreadsheet programs read its letters.
 * The cells are the user's own, unchanged, so the file can be corrected and imported again.
 */
export async function rejectedWriter(meta: { user: number; entity: string }, header: readonly string[]): Promise<RejectedWriter> {
  const folder = await importDir()
  const token = randomUUID()
  const path = join(folder, `rejected-${token}.csv`)
  const out = createWriteStream(path)
  out.write('\ufeff')
  const csv = stringify({ record_delimiter: '\r\n' })
  csv.pipe(out)
  let rows = 0
  const write = (record: readonly string[]) =>
    new Promise<void>((resolve) => {
      if (csv.write(record)) resolve()
      else csv.once('drain', resolve)
    })
  await write(header)
  return {
    token,
    count: () => rows,
    add: async (cells, reasons) => {
      rows++
      await write([...cells, reasons])
    },
    close: async () => {
      csv.end()
      await finished(out)
      if (rows === 0) {
        await unlink(path).catch(() => {})
        return undefined
      }
      const info: RejectedMeta = { ...meta, at: Date.now() }
      await writeFile(join(folder, `rejected-${token}.json`), JSON.stringify(info))
      return token
    },
  }
}

/** The rejected rows of an import, for the user who imported them: a 400 for a malformed token, a 404 for any other's, gone or unknown. */
export async function openRejected(token: string, who: { user: number; entity: string }): Promise<ReadStream> {
  if (!TOKEN.test(token)) throw new BusinessError({ key: 'detail.import_token' })
  const folder = await importDir()
  const gone = new NotFoundError({ key: 'detail.import_rejected_gone' })
  const meta = await readFile(join(folder, `rejected-${token}.json`), 'utf8')
    .then((text) => JSON.parse(text) as RejectedMeta)
    .catch(() => undefined)
  if (!meta || meta.user !== who.user || meta.entity !== who.entity || Date.now() - meta.at > REJECTED_TTL_MS) throw gone
  const path = join(folder, `rejected-${token}.csv`)
  if (!(await stat(path).catch(() => undefined))) throw gone
  return createReadStream(path)
}
