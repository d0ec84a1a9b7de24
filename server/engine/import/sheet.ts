import { createReadStream } from 'node:fs'
import { open } from 'node:fs/promises'
import type { Readable } from 'node:stream'
import { parse, type Info } from 'csv-parse'
import ExcelJS from 'exceljs'
import { BusinessError } from '../errors'
import { MAX_COLUMNS } from './fields'
import type { ImportFormat } from './upload'

/**
 * The rows of an uploaded sheet, one at a time: a CSV read by csv-parse as it streams from
 * the disk (its delimiter, `,` `;` or a tab, found on the header line; a byte-order mark
 * dropped; quoted fields), or the first worksheet of an XLSX book read by exceljs's streaming
 * reader. Neither holds more than the row at hand — but an XLSX book keeps its shared strings
 * (the texts its cells point at) for as long as it is read: that is how the format stores them.
 */
export type Cell = string | number | boolean | Date | null
/** A row of the sheet: where it starts (a CSV's line, an XLSX row's number: the header's is 1) and its cells. */
export type SheetRow = { row: number; cells: Cell[] }

/** The most rows an import takes (besides its header). */
export const MAX_IMPORT_ROWS = 100_000
/** The longest a CSV record may be: a wrong delimiter or a quote never closed stops the read here, not at the end of the file. */
const MAX_RECORD_CHARS = 1_000_000

const unreadable = (row?: number) => new BusinessError(row === undefined ? { key: 'detail.import_unreadable' } : { key: 'detail.import_unreadable_row', params: { row } })

/** The delimiter of a CSV, from its first line: whichever of `,` `;` and a tab appears most outside quotes (`,` when none does). */
export async function delimiterOf(path: string): Promise<string> {
  const handle = await open(path, 'r')
  try {
    const head = Buffer.alloc(64 * 1024)
    const { bytesRead } = await handle.read(head, 0, head.length, 0)
    const text = head.subarray(0, bytesRead).toString('utf8')
    const counts = new Map<string, number>([[',', 0], [';', 0], ['\t', 0]])
    let isQuoted = false
    for (const ch of text) {
      if (ch === '"') isQuoted = !isQuoted
      else if (!isQuoted && (ch === '\n' || ch === '\r')) break
      else if (!isQuoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1)
    }
    return [...counts.entries()].reduce((best, next) => (next[1] > best[1] ? next : best))[0]
  } finally {
    await handle.close()
  }
}

async function* csvRows(path: string): AsyncGenerator<SheetRow> {
  const delimiter = await delimiterOf(path)
  const parser = createReadStream(path).pipe(
    parse({ bom: true, delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, info: true, max_record_size: MAX_RECORD_CHARS }),
  )
  // Where the record started: the line after the one the previous record ended on, past the empty lines skipped.
  let lastLine = 0
  let lastEmpty = 0
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: Info }>) {
      const row = lastLine + 1 + info.empty_lines - lastEmpty
      lastLine = info.lines
      lastEmpty = info.empty_lines
      yield { row, cells: record }
    }
  } catch (e) {
    parser.destroy()
    throw unreadable((e as { lines?: number }).lines ?? lastLine + 1)
  }
}

/** An exceljs cell value as the cell shows it: rich text and links as their text, a formula as its result, an error as blank. */
function cellOf(value: unknown): Cell {
  if (value === null || value === undefined) return null
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value instanceof Date) return value
  if (typeof value === 'object') {
    const v = value as { richText?: Array<{ text?: string }>; text?: unknown; result?: unknown; error?: unknown }
    if (Array.isArray(v.richText)) return v.richText.map((part) => part.text ?? '').join('')
    if ('result' in v) return cellOf(v.result)
    if ('error' in v) return null
    if ('text' in v) return cellOf(v.text)
  }
  return null
}

/**
 * exceljs's reader iterates unzipper's entries until the stream says 'end' — but unzipper says
 * 'end' as soon as the file has been written into it, while entries it has parsed may still wait
 * in its buffer behind a worksheet the reader is copying to a temporary file. The rest of the
 * book (shared strings, the workbook) was then silently skipped, under load (about 1 read in 300).
 * The parser's own end, after the zip's central directory, is the one that counts: an 'end' said
 * before the readable side has ended is not passed on. A truncated file still fails (FILE_ENDED).
 */
function zipSource(path: string): Readable {
  const input = createReadStream(path)
  const pipe = input.pipe.bind(input)
  input.pipe = (<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }) => {
    const zip = destination as unknown as Readable
    const emit = zip.emit.bind(zip)
    zip.emit = ((event: string | symbol, ...args: unknown[]) => (event === 'end' && !zip.readableEnded ? false : emit(event, ...args))) as typeof zip.emit
    return pipe(destination, options)
  }) as typeof input.pipe
  return input
}

async function* xlsxRows(path: string): AsyncGenerator<SheetRow> {
  const input = zipSource(path)
  const book = new ExcelJS.stream.xlsx.WorkbookReader(input, { worksheets: 'emit', sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', entries: 'ignore' })
  try {
    for await (const sheet of book) {
      for await (const row of sheet) {
        const values = row.values as unknown[]
        // `values` is 1-based: its first slot is always empty.
        yield { row: row.number, cells: values.slice(1, MAX_COLUMNS + 2).map(cellOf) }
      }
      // The first worksheet alone.
      break
    }
  } catch (e) {
    if (e instanceof BusinessError) throw e
    throw unreadable()
  } finally {
    input.destroy()
  }
}

const isBlankCell = (cell: Cell) => cell === null || (typeof cell === 'string' && cell.trim() === '')
export const isBlankRow = (cells: readonly Cell[]) => cells.every(isBlankCell)

/** Every non-blank row of the sheet, its header first. */
export function readSheet(upload: { path: string; format: ImportFormat }): AsyncGenerator<SheetRow> {
  return upload.format === 'csv' ? csvRows(upload.path) : xlsxRows(upload.path)
}

/** A cell as text: what a column is called, what the rejected rows' file repeats. */
export function cellText(cell: Cell): string {
  if (cell === null) return ''
  if (cell instanceof Date) {
    const iso = cell.toISOString()
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso
  }
  return String(cell)
}

/**
 * The columns of a header row: trimmed, a blank one named by its place (`#3`), and a name
 * that repeats one before it told apart (`Name (2)`), so that each column has one name.
 */
export function columnsOf(cells: readonly Cell[]): string[] {
  let last = cells.length
  while (last > 0 && isBlankCell(cells[last - 1]!)) last--
  if (last === 0) throw new BusinessError({ key: 'detail.import_no_header' })
  if (last > MAX_COLUMNS) throw new BusinessError({ key: 'detail.import_too_many_columns', params: { max: MAX_COLUMNS } })
  const seen = new Set<string>()
  return cells.slice(0, last).map((cell, i) => {
    const base = cellText(cell).trim().slice(0, 200) || `#${i + 1}`
    let name = base
    for (let n = 2; seen.has(name); n++) name = `${base} (${n})`
    seen.add(name)
    return name
  })
}

/** The header's columns and how many rows follow (a read of the whole file, stopped past the limit: a 400 before anything is imported). */
export async function surveySheet(upload: { path: string; format: ImportFormat }): Promise<{ columns: string[]; rows: number }> {
  let columns: string[] | undefined
  let rows = 0
  for await (const { cells } of readSheet(upload)) {
    if (isBlankRow(cells)) continue
    if (!columns) {
      columns = columnsOf(cells)
      continue
    }
    if (++rows > MAX_IMPORT_ROWS) throw new BusinessError({ key: 'detail.import_too_many_rows', params: { max: MAX_IMPORT_ROWS } })
  }
  if (!columns) throw new BusinessError({ key: 'detail.import_no_header' })
  return { columns, rows }
}
