import { money } from '../../../schema/kit'
import { openPdf } from '../../engine/pdf'

/**
 * An order's invoice as a PDF (issue 22), drawn with pdfkit in DejaVu Sans (server/engine/pdf.ts:
 * the font embedded as a subset, so Turkish (ı İ ş ğ) and any Latin text print the same on
 * every machine; pdfkit and the font are loaded on the first PDF, not at start-up).
 *
 * Right-to-left text is not laid out by pdfkit: it joins Arabic letters (fontkit shapes them)
 * but does not reorder a line that mixes directions (words, numbers, Latin). An Arabic
 * reader's invoice therefore carries English labels (the caller passes an English `t`); its
 * data — names, addresses — print as stored.
 */
export type InvoiceLine = { product_name: string; color: string | null; size: string | null; quantity: number; price: string; total_price: string }

export type InvoiceFacts = {
  /** The site settings in force (their newest row), or null when none are set. */
  company: { name: string; address: string | null; phone: string | null; email: string | null } | null
  order: {
    order_no: string
    order_date: string | null
    sales_no: string | null
    status: string
    payment_status: string
    items_total: string
    discount_amount: string
    shipping_price: string
    tax_price: string
    net_amount: string
    paid_amount: string
  }
  /** The lines of the billed-to block (the billing address, else the customer), and the ship-to's (null without a shipping address). */
  billedTo: readonly string[]
  shipTo: readonly string[] | null
  lines: readonly InvoiceLine[]
}

/** What the invoice is printed in: its labels (registry keys), its locale for numbers and dates. */
export type InvoiceLocale = { t: (key: string) => string; locale: string }

/** What the customer still owes: the net amount less what is paid (never below zero). */
export const dueOf = (order: { net_amount: string; paid_amount: string }): string => {
  const due = money.subtract(order.net_amount, order.paid_amount)
  return money.compare(due, '0') < 0 ? '0.00' : due
}

const A4 = { width: 595.28, height: 841.89 }
const MARGIN = 48
const INK = '#1f2937'
const MUTED = '#6b7280'
const RULE = '#d1d5db'
const BAND = '#f3f4f6'

export async function invoicePdf(facts: InvoiceFacts, { t, locale }: InvoiceLocale): Promise<Buffer> {
  const amounts = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 })
  const counts = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 })
  const dates = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' })
  // From the decimal string itself (Intl formats numeric strings exactly): money never passes through a float.
  const amount = (value: string) => (/^-?\d+(\.\d+)?$/.test(value) ? amounts.format(value as `${number}`) : value)
  const date = (value: string | null) => {
    if (!value) return '—'
    const d = new Date(`${value.slice(0, 10)}T00:00:00Z`)
    return Number.isNaN(d.getTime()) ? value : dates.format(d)
  }
  const { order } = facts
  const title = `${t('print.invoice')} ${order.order_no}`

  const { doc, ended } = await openPdf({ size: 'A4', margin: MARGIN, bufferPages: true, info: { Title: title, Author: facts.company?.name || undefined, Subject: title } })

  const left = MARGIN
  const right = A4.width - MARGIN
  const width = right - left
  const bottom = A4.height - MARGIN - 16

  // The company (site settings), and the title with the order's facts beside it.
  let y = MARGIN
  const headWidth = width * 0.55
  if (facts.company?.name) {
    doc.font('bold').fontSize(15).fillColor(INK).text(facts.company.name, left, y, { width: headWidth })
  }
  doc.font('body').fontSize(9).fillColor(MUTED)
  if (facts.company?.address) doc.text(facts.company.address, left, doc.y + 2, { width: headWidth })
  const contacts = [facts.company?.phone, facts.company?.email].filter((c): c is string => !!c)
  if (contacts.length > 0) doc.text(contacts.join('  ·  '), left, doc.y + 2, { width: headWidth })
  const companyBottom = doc.y

  const factsLeft = left + headWidth + 12
  const factsWidth = right - factsLeft
  doc.font('bold').fontSize(22).fillColor(INK).text(t('print.invoice'), factsLeft, y, { width: factsWidth, align: 'right' })
  y = doc.y + 6
  const rows: Array<[string, string]> = [
    [t('field.order_no'), order.order_no],
    [t('field.order_date'), date(order.order_date)],
    [t('field.sales_no'), order.sales_no || '—'],
    [t('field.status'), t(`option.${order.status}`)],
    [t('field.payment_status'), t(`option.${order.payment_status}`)],
  ]
  for (const [label, value] of rows) {
    doc.font('body').fontSize(9).fillColor(MUTED).text(label, factsLeft, y, { width: factsWidth * 0.48 })
    doc.font('bold').fillColor(INK).text(value, factsLeft + factsWidth * 0.5, y, { width: factsWidth * 0.5, align: 'right' })
    y = Math.max(doc.y, y + 12) + 2
  }
  y = Math.max(y, companyBottom) + 16
  doc.moveTo(left, y).lineTo(right, y).lineWidth(0.8).strokeColor(RULE).stroke()
  y += 12

  // Billed to, and shipped to.
  const partyWidth = (width - 24) / 2
  const party = (label: string, lines: readonly string[], x: number) => {
    doc.font('bold').fontSize(8).fillColor(MUTED).text(label.toLocaleUpperCase(locale), x, y, { width: partyWidth, characterSpacing: 0.4 })
    let py = doc.y + 3
    lines.forEach((line, i) => {
      doc.font(i === 0 ? 'bold' : 'body').fontSize(10).fillColor(INK).text(line, x, py, { width: partyWidth })
      py = doc.y + 1
    })
    return py
  }
  const billedBottom = party(t('print.billed_to'), facts.billedTo.length > 0 ? facts.billedTo : ['—'], left)
  const shipBottom = party(t('print.ship_to'), facts.shipTo && facts.shipTo.length > 0 ? facts.shipTo : ['—'], left + partyWidth + 24)
  y = Math.max(billedBottom, shipBottom) + 18

  // The lines: what was sold, in which colour and size, how many, at what price.
  const columns = [
    { label: '#', width: 22, align: 'left' as const },
    { label: t('field.product_name'), width: 0, align: 'left' as const },
    { label: t('field.color'), width: 64, align: 'left' as const },
    { label: t('field.size'), width: 52, align: 'left' as const },
    { label: t('field.quantity'), width: 50, align: 'right' as const },
    { label: t('field.unit_price'), width: 72, align: 'right' as const },
    { label: t('field.total_price'), width: 78, align: 'right' as const },
  ]
  columns[1]!.width = width - columns.reduce((sum, c) => sum + c.width, 0)
  const PAD = 4
  const drawRow = (cells: readonly string[], font: 'body' | 'bold', size: number, fill?: string) => {
    doc.font(font).fontSize(size)
    const height = Math.max(...cells.map((cell, i) => doc.heightOfString(cell, { width: columns[i]!.width - 2 * PAD }))) + 2 * PAD
    if (y + height > bottom) {
      doc.addPage()
      y = MARGIN
      if (font === 'body') drawHeader()
      doc.font(font).fontSize(size)
    }
    if (fill) doc.rect(left, y, width, height).fill(fill)
    let x = left
    cells.forEach((cell, i) => {
      const column = columns[i]!
      doc.fillColor(INK).text(cell, x + PAD, y + PAD, { width: column.width - 2 * PAD, align: column.align })
      x += column.width
    })
    y += height
    doc.moveTo(left, y).lineTo(right, y).lineWidth(0.5).strokeColor(RULE).stroke()
  }
  const drawHeader = () => drawRow(columns.map((c) => c.label), 'bold', 8.5, BAND)
  drawHeader()
  facts.lines.forEach((line, i) => {
    drawRow([String(i + 1), line.product_name || '—', line.color ?? '', line.size ?? '', counts.format(line.quantity), amount(line.price), amount(line.total_price)], 'body', 9)
  })

  // The totals, and what is still due.
  const totals: Array<[string, string, boolean]> = [
    [t('field.items_total'), amount(order.items_total), false],
    [t('field.discount_amount'), money.isZero(order.discount_amount) ? amount('0.00') : `−${amount(order.discount_amount)}`, false],
    [t('field.shipping_price'), amount(order.shipping_price), false],
    [t('field.tax_price'), amount(order.tax_price), false],
    [t('field.net_amount'), amount(order.net_amount), true],
    [t('field.paid_amount'), amount(order.paid_amount), false],
    [t('print.due_amount'), amount(dueOf(order)), true],
  ]
  const totalsLeft = right - 230
  if (y + 14 + totals.length * 17 > bottom) {
    doc.addPage()
    y = MARGIN
  }
  y += 10
  for (const [label, value, isStrong] of totals) {
    if (isStrong) doc.moveTo(totalsLeft, y - 2).lineTo(right, y - 2).lineWidth(0.5).strokeColor(RULE).stroke()
    doc.font(isStrong ? 'bold' : 'body').fontSize(isStrong ? 10.5 : 9.5).fillColor(isStrong ? INK : MUTED).text(label, totalsLeft, y, { width: 120 })
    doc.fillColor(INK).text(value, totalsLeft + 120, y, { width: 110, align: 'right' })
    y += isStrong ? 18 : 15
  }

  // Page numbers, once every page is drawn.
  const pages = doc.bufferedPageRange()
  for (let i = 0; i < pages.count; i++) {
    doc.switchToPage(pages.start + i)
    // Below the bottom margin, where pdfkit would otherwise start a page of its own.
    doc.page.margins.bottom = 0
    doc.font('body').fontSize(8).fillColor(MUTED).text(`${order.order_no} · ${i + 1} / ${pages.count}`, left, A4.height - MARGIN, { width, align: 'right', lineBreak: false })
  }
  doc.end()
  return ended
}
