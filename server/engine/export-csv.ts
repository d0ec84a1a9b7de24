import { stringify } from 'csv-stringify/sync'
import type { Row } from '../db/types'
import type { CellValue, ExportColumn } from './export-columns'

/**
 * An export as CSV for Excel: UTF-8 with a byte order mark (without it Excel reads UTF-8 as
 * the system's code page), CRLF line ends, a header of the columns' labels. Text is always
 * quoted and made inert (OWASP's CSV injection): a cell a spreadsheet would read as a formula
 * — starting with `=`, `+`, `-`, `@`, a tab or a carriage return, or their full-width forms
 * that some spreadsheets fold into them — gets a leading `'`. Numbers are written as they are
 * (`-5.00` stays a number), so are days and instants (ISO).
 */
export const CSV_TYPE = 'text/csv; charset=utf-8'

const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/

/** A text cell a spreadsheet will not evaluate. */
export const inertText = (text: string): string => (FORMULA_START.test(text) ? `'${text}` : text)

/** Text is passed to the stringifier wrapped, so that it alone is quoted. */
type Text = { text: string }
type CsvCell = Text | string | number | null

const csvCell = (column: ExportColumn, value: CellValue): CsvCell => {
  if (value === null) return null
  if (column.kind === 'text') return { text: String(value) }
  return typeof value === 'number' ? value : String(value)
}

const lines = (records: CsvCell[][]) =>
  stringify(records, {
    record_delimiter: 'windows',
    cast: { object: (value) => ({ value: inertText(String((value as Text).text)), quoted: true }) },
  })

/** The file, a batch of rows at a time (pulled: nothing is read before the client takes what came before). */
export async function* csvChunks(columns: readonly ExportColumn[], batches: AsyncIterable<Row[]>): AsyncGenerator<string> {
  yield `\ufeff${lines([columns.map((c) => ({ text: c.label }))])}`
  for await (const rows of batches) {
    if (rows.length > 0) yield lines(rows.map((row) => columns.map((c) => csvCell(c, c.cell(row)))))
  }
}
