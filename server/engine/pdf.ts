import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'

/**
 * PDFs drawn on the server with pdfkit in DejaVu Sans — a TrueType font shipped in the
 * `dejavu-fonts-ttf` package, embedded as a subset, so Turkish (ı İ ş ğ) and any Latin text
 * print the same on every machine. pdfkit and the font are loaded with the first PDF, not at
 * start-up. An order's invoice (server/domain/orders/invoice-pdf.ts) and every report's PDF
 * (`tablePdf`, server/engine/reports.ts) are drawn with them.
 *
 * Right-to-left text is not laid out by pdfkit: it joins Arabic letters (fontkit shapes them)
 * but does not reorder a line that mixes directions (words, numbers, Latin). A PDF for an
 * Arabic reader therefore carries English labels (`pdfLanguageOf`); its data print as stored.
 */
const require = createRequire(import.meta.url)
let fonts: Promise<{ regular: Buffer; bold: Buffer }> | undefined

/** DejaVu Sans and its bold, read once from their package. */
const pdfFonts = () =>
  (fonts ??= Promise.all([readFile(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')), readFile(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'))]).then(([regular, bold]) => ({ regular, bold })))

/** The language a PDF is printed in: the reader's, but English for a right-to-left one (see above). */
/**
 * A new document's bytes, whole once it ends, with DejaVu Sans registered as `body` and
 * `bold`: what every PDF the app draws starts from.
 */
export async function openPdf(options: PDFKit.PDFDocumentOptions): Promise<{ doc: PDFKit.PDFDocument; ended: Promise<Buffer> }> {
  const [{ default: PDFDocument }, { regular, bold }] = await Promise.all([import('pdfkit'), pdfFonts()])
  const doc = new PDFDocument(options)
  const chunks: Buffer[] = []
  doc.on('data', (chunk: Buffer) => chunks.push(chunk))
  const ended = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
  doc.registerFont('body', regular)
  doc.registerFont('bold', bold)
  return { doc, ended }
}

export const pdfLanguageOf = <L extends string>(language: L): L | 'en' => (language === 'ar' ? 'en' : language)

export type PdfColumn = {
  label: string
  align: 'left' | 'right'
  /** Kept on one line where it can (numbers, dates, codes): only text wraps. */
  isWhole: boolean
}

/** A table as a PDF: a title, what it was made of, its rows under a header repeated on every page, and its totals. */
export type TablePdf = {
  title: string
  /** The parameters used, label and value. */
  facts: ReadonlyArray<readonly [string, string]>
  /** Said when there are none. */
  noFacts: string
  factsLabel: string
  columns: readonly PdfColumn[]
  rows: ReadonlyArray<readonly string[]>
  /** Said instead of the rows when there are none. */
  empty: string
  /** The totals row (its first cell the word for it), or null. */
  totals: readonly string[] | null
  /** Said above the table in bold: rows left out. */
  warning?: string
  /** The footer of page `page` of `pages`. */
  footer: (page: number, pages: number) => string
}

const A4 = { short: 595.28, long: 841.89 }
const MARGIN = 36
const INK = '#1f2937'
const MUTED = '#6b7280'
const RULE = '#d1d5db'
const BAND = '#f3f4f6'
const WARN = '#92400e'
const PAD = 3.5
const BODY = 8
/** Rows measured to size the columns: enough to know a column's usual width. */
const SAMPLE = 400

type Doc = PDFKit.PDFDocument

/**
 * A column's width for its header (whole, or its longest word when the page is short of room)
 * and its usual value (every value, for one kept whole).
 */
function naturalWidths(doc: Doc, table: TablePdf, isHeaderWhole: boolean): number[] {
  const sample = table.rows.slice(0, SAMPLE)
  return table.columns.map((column, i) => {
    doc.font('bold').fontSize(BODY)
    const header = isHeaderWhole ? doc.widthOfString(column.label) : Math.max(...column.label.split(/\s+/).map((word) => doc.widthOfString(word)))
    // The totals are bold, and whole: a total never wraps.
    const total = table.totals ? doc.widthOfString(table.totals[i] ?? '') : 0
    doc.font('body').fontSize(BODY)
    const widths = sample.map((row) => doc.widthOfString(row[i] ?? '')).sort((a, b) => a - b)
    const usual = widths.length === 0 ? 0 : column.isWhole ? widths.at(-1)! : widths[Math.floor(widths.length * 0.9)]!
    return Math.ceil(Math.max(header, usual, total)) + 2 * PAD + 1
  })
}

/** Widths that fill `room`: whole columns keep theirs where they can, text columns share the rest. */
function fitWidths(natural: readonly number[], columns: readonly PdfColumn[], room: number): number[] {
  const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0)
  const total = sum(natural)
  const flexible = columns.map((c) => !c.isWhole)
  const flexTotal = sum(natural.filter((_, i) => flexible[i]))
  if (total <= room) {
    // Room to spare goes to text (or to every column when all are kept whole).
    const grow = flexTotal > 0 ? (room - total) / flexTotal : (room - total) / total
    return natural.map((w, i) => (flexTotal === 0 || flexible[i] ? w * (1 + grow) : w))
  }
  const fixed = total - flexTotal
  if (flexTotal > 0 && fixed < room * 0.8) {
    const share = (room - fixed) / flexTotal
    return natural.map((w, i) => (flexible[i] ? w * share : w))
  }
  return natural.map((w) => (w * room) / total)
}

export async function tablePdf(table: TablePdf): Promise<Buffer> {
  const { doc, ended } = await openPdf({ autoFirstPage: false, bufferPages: true, margin: MARGIN, info: { Title: table.title } })

  // Landscape when the columns would not fit a portrait page as they are; headers wrap between words only when they must.
  const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0)
  const compact = naturalWidths(doc, table, false)
  const isLandscape = table.columns.length > 7 || sum(compact) > (A4.short - 2 * MARGIN) * 1.1
  const page = isLandscape ? { width: A4.long, height: A4.short } : { width: A4.short, height: A4.long }
  const roomy = naturalWidths(doc, table, true)
  const natural = sum(roomy) <= page.width - 2 * MARGIN ? roomy : compact
  const layout = isLandscape ? 'landscape' : 'portrait'
  doc.addPage({ size: 'A4', layout, margin: MARGIN })
  const left = MARGIN
  const width = page.width - 2 * MARGIN
  const right = left + width
  const bottom = page.height - MARGIN - 14
  const widths = fitWidths(natural, table.columns, width)

  // The title, and the parameters it was made of.
  doc.font('bold').fontSize(15).fillColor(INK).text(table.title, left, MARGIN, { width })
  let y = doc.y + 4
  const facts = table.facts.length === 0 ? table.noFacts : table.facts.map(([label, value]) => `${label}: ${value}`).join('   ·   ')
  doc.font('bold').fontSize(8.5).fillColor(MUTED).text(`${table.factsLabel}: `, left, y, { width, continued: true })
  doc.font('body').text(facts)
  y = doc.y + 6
  if (table.warning) {
    doc.font('bold').fontSize(9).fillColor(WARN).text(table.warning, left, y, { width })
    y = doc.y + 6
  }
  y += 4

  const drawRow = (cells: readonly string[], font: 'body' | 'bold', fill?: string, isTotals = false) => {
    doc.font(font).fontSize(BODY)
    const height = Math.max(...cells.map((cell, i) => doc.heightOfString(cell || ' ', { width: widths[i]! - 2 * PAD }))) + 2 * PAD
    if (y + height > bottom) {
      doc.addPage({ size: 'A4', layout, margin: MARGIN })
      y = MARGIN
      drawHeader()
      doc.font(font).fontSize(BODY)
    }
    if (fill) doc.rect(left, y, width, height).fill(fill)
    if (isTotals) doc.moveTo(left, y).lineTo(right, y).lineWidth(1.2).strokeColor(INK).stroke()
    let x = left
    cells.forEach((cell, i) => {
      doc.fillColor(INK).text(cell, x + PAD, y + PAD, { width: widths[i]! - 2 * PAD, align: table.columns[i]!.align })
      x += widths[i]!
    })
    y += height
    doc.moveTo(left, y).lineTo(right, y).lineWidth(0.4).strokeColor(RULE).stroke()
  }
  const drawHeader = () => drawRow(table.columns.map((c) => c.label), 'bold', BAND)

  drawHeader()
  for (const row of table.rows) drawRow(row, 'body')
  if (table.rows.length === 0) {
    doc.font('body').fontSize(9).fillColor(MUTED).text(table.empty, left, y + 8, { width, align: 'center' })
  } else if (table.totals) {
    drawRow(table.totals, 'bold', BAND, true)
  }

  // Page numbers, once every page is drawn.
  const pages = doc.bufferedPageRange()
  for (let i = 0; i < pages.count; i++) {
    doc.switchToPage(pages.start + i)
    // Below the bottom margin, where pdfkit would otherwise start a page of its own.
    doc.page.margins.bottom = 0
    doc.font('body').fontSize(7.5).fillColor(MUTED).text(table.footer(i + 1, pages.count), left, page.height - MARGIN + 2, { width, align: 'right', lineBreak: false })
  }
  doc.end()
  return ended
}
