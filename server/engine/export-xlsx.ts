import type { PassThrough } from 'node:stream'
import ExcelJS from 'exceljs'
import type { Row } from '../db/types'
import type { CellValue, ColumnKind, ExportColumn } from './export-columns'

/**
 * An export as an Excel workbook, written as its rows come (exceljs's streaming writer: each
 * row is committed to the zip and the response, never the whole sheet held): typed cells —
 * numbers as numbers, money with two places, days and instants as dates (instants in UTC) —
 * a bold header row frozen above the rows, widths fitted to the first rows, the sheet named
 * after the list. A spreadsheet never evaluates a text cell of a workbook: no escaping needed.
 */
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

const NUMBER_FORMATS: Partial<Record<ColumnKind, (scale: number) => string>> = {
  integer: () => '0',
  money: () => '#,##0.00',
  decimal: (scale) => (scale > 0 ? `#,##0.${'0'.repeat(scale)}` : '#,##0'),
  date: () => 'yyyy-mm-dd',
  datetime: () => 'yyyy-mm-dd hh:mm:ss',
}

/** A sheet's name as Excel takes it: at most 31 characters, none of `[]:*?/\`, not starting or ending with `'`. */
export function sheetName(title: string): string {
  const name = title.replace(/[[\]:*?/\\]/g, ' ').replace(/^'+|'+$/g, '').trim().slice(0, 31).trim()
  return name === '' ? 'Sheet1' : name
}

const DAY = /^\d{4}-\d{2}-\d{2}$/

/** A cell as its typed value: a number, a date, or the text. */
function xlsxCell(kind: ColumnKind, value: CellValue): string | number | Date | null {
  if (value === null) return null
  switch (kind) {
    case 'integer':
      return typeof value === 'number' ? value : Number(value)
    case 'decimal':
    case 'money': {
      const n = Number(value)
      return Number.isFinite(n) ? n : String(value)
    }
    case 'date':
      return DAY.test(String(value)) ? new Date(`${String(value)}T00:00:00Z`) : String(value)
    case 'datetime': {
      const d = new Date(String(value))
      return Number.isNaN(d.getTime()) ? String(value) : d
    }
    default:
      return String(value)
  }
}

const FIXED_WIDTHS: Partial<Record<ColumnKind, number>> = { date: 12, datetime: 20 }
const MIN_WIDTH = 8
const MAX_WIDTH = 60

/** A column wide enough for its label and its longest value among the first rows (characters, as Excel counts width). */
function widthOf(column: ExportColumn, sample: readonly Row[]): number {
  const longest = sample.reduce((most, row) => {
    const value = column.cell(row)
    const text = value === null ? '' : column.kind === 'money' || column.kind === 'decimal' ? Number(value).toFixed(column.scale ?? 2) : String(value)
    return Math.max(most, ...text.split('\n').map((line) => line.length))
  }, 0)
  const wanted = Math.max(column.label.length + 2, FIXED_WIDTHS[column.kind] ?? longest + 2)
  return Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, wanted))
}

export type SheetSpec = { readonly title: string; readonly rightToLeft: boolean }

/** Waits until the response has taken what it was given (bounded: a client that stops reading ends the export). */
function drained(out: PassThrough, stallMs: number): Promise<void> {
  if (!out.writableNeedDrain) return Promise.resolve()
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      clearTimeout(timer)
      out.off('drain', onDrain)
      out.off('close', onClose)
      if (error) reject(error)
      else resolve()
    }
    const onDrain = () => done()
    const onClose = () => done(new Error('the client closed the download'))
    const timer = setTimeout(() => done(new Error(`the client took nothing for ${stallMs} ms`)), stallMs)
    out.on('drain', onDrain)
    out.on('close', onClose)
  })
}

/**
 * Writes the workbook to `out` as the batches come; resolves when the file is whole. The
 * batches are given up (their transaction ended) when the client goes or the writing fails.
 */
export async function writeXlsx(out: PassThrough, sheet: SheetSpec, columns: readonly ExportColumn[], batches: AsyncGenerator<Row[]>, stallMs: number): Promise<void> {
  try {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false })
    const worksheet = workbook.addWorksheet(sheetName(sheet.title), { views: [{ state: 'frozen', ySplit: 1, rightToLeft: sheet.rightToLeft }] })
    const first = await batches.next()
    const sample = first.done ? [] : first.value.slice(0, 200)
    worksheet.columns = columns.map((c) => {
      const numFmt = NUMBER_FORMATS[c.kind]?.(c.scale ?? 2)
      return { key: c.name, width: widthOf(c, sample), ...(numFmt ? { style: { numFmt } } : {}) }
    })
    const header = worksheet.addRow(columns.map((c) => c.label))
    header.font = { bold: true }
    header.commit()
    const write = async (rows: Row[]) => {
      for (const row of rows) worksheet.addRow(columns.map((c) => xlsxCell(c.kind, c.cell(row)))).commit()
      await drained(out, stallMs)
    }
    if (!first.done) {
      await write(first.value)
      for await (const rows of batches) {
        if (out.destroyed) break
        await write(rows)
      }
    }
    worksheet.commit()
    await workbook.commit()
  } finally {
    await batches.return(undefined)
  }
}
