import fs from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { readSheet, type SheetRow } from '../../../../server/engine/import/sheet'

/**
 * An XLSX book written by exceljs keeps its worksheets before its shared strings and its
 * workbook, so the reader copies each worksheet to a temporary file first. While it does, the
 * zip's small entries run ahead into a buffer; a slow disk (here: each temporary file finished
 * 100 ms late) made the read end there, without the shared strings or the workbook.
 */
describe('reading an XLSX book', () => {
  let dir: string
  let path: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sheet-'))
    path = join(dir, 'book.xlsx')
    const book = new ExcelJS.Workbook()
    const sheet = book.addWorksheet('First')
    book.addWorksheet('Second').addRow(['ignored'])
    sheet.addRow(['name', 'amount'])
    sheet.addRow(['One', 1.5])
    sheet.addRow(['Two', 2])
    await writeFile(path, Buffer.from(await book.xlsx.writeBuffer()))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  const rowsOf = async () => {
    const rows: SheetRow[] = []
    for await (const row of readSheet({ path, format: 'xlsx' })) rows.push(row)
    return rows
  }

  it('reads every row with its shared strings when the temporary files are slow', async () => {
    const createWriteStream = fs.createWriteStream
    const slow = vi.spyOn(fs, 'createWriteStream').mockImplementation(((...args: Parameters<typeof createWriteStream>) => {
      const file = createWriteStream(...args)
      // The copy is written at once, but says it has finished only later.
      const late = new PassThrough()
      late.pipe(file)
      const emit = late.emit.bind(late)
      late.emit = ((event: string | symbol, ...rest: unknown[]) => (event === 'finish' ? (setTimeout(() => emit(event, ...rest), 100), true) : emit(event, ...rest))) as typeof late.emit
      return late as unknown as fs.WriteStream
    }) as typeof createWriteStream)
    try {
      expect(await rowsOf()).toEqual([
        { row: 1, cells: ['name', 'amount'] },
        { row: 2, cells: ['One', 1.5] },
        { row: 3, cells: ['Two', 2] },
      ])
      expect(slow).toHaveBeenCalled()
    } finally {
      slow.mockRestore()
    }
  })

  it('refuses a book cut short as unreadable', async () => {
    const whole = fs.readFileSync(path)
    await writeFile(path + '.cut', whole.subarray(0, Math.floor(whole.length / 2)))
    const read = async () => {
      for await (const _ of readSheet({ path: path + '.cut', format: 'xlsx' })) void _
    }
    await expect(read()).rejects.toMatchObject({ detail: { key: 'detail.import_unreadable' } })
  })
})
