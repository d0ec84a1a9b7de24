import { sql } from 'kysely'
import { renderMessage } from '../../../schema/kit'
import type { Row, Trx } from '../../db/types'
import { languageOf, translator, type Language } from '../../i18n'
import type { ActionArgs, ActionHandler } from '../../engine/service'
import { readRow } from '../../engine/service'
import { queueMail } from '../../mail/outbox'
import { addressOf } from './addresses'
import { dueOf, invoicePdf, type InvoiceFacts, type InvoiceLine } from './invoice-pdf'

/**
 * An order's invoice as a PDF, mailed through the outbox (issue 22; the order's `send_email`
 * action, `POST …/send_email/{id}` with `{to}`): to `to`, else the customer's e-mail. It runs
 * in the action's transaction — the engine has checked ORDER_SEND_EMAIL, locked the order and
 * judged `to` — and queues the mail with its PDF in that transaction, so that the message and
 * its attachment exist exactly when the request commits. The sender delivers it after.
 *
 * Its language: the request's (Accept-Language; `language` of the action's arguments). The PDF of an Arabic
 * invoice has English labels (./invoice-pdf.ts: pdfkit lays out no right-to-left line), its
 * mail is Arabic.
 */
type Address = { name: string | null; email: string | null; phone: string | null; street_address: string | null; zip_code: string | null; thana: string | null; city: string | null; country: string | null }

/** An order's newest address of a kind, as the PDF prints it: its names flat. */
async function flatAddressOf(trx: Trx, table: 'billingaddress' | 'shippingaddress', orderId: number): Promise<Address | null> {
  const a = await addressOf(trx, table, orderId)
  return a && { name: a.name, email: a.email, phone: a.phone, street_address: a.street_address, zip_code: a.zip_code, thana: a.thana?.name ?? null, city: a.city?.name ?? null, country: a.country?.name ?? null }
}

/** An address as the lines of its block: the name, the street, the place, the contacts. */
const linesOf = (a: Address): string[] => {
  const place = [a.thana, a.city, a.zip_code].filter((p) => !!p).join(', ')
  return [a.name, a.street_address, place, a.country, [a.phone, a.email].filter((c) => !!c).join('  ·  ')].filter((l): l is string => !!l && l.trim() !== '')
}

type Customer = { email: string; first_name: string | null; last_name: string | null }
type SiteSettings = { site_name: string | null; title: string | null; site_address: string | null; address: string | null; phone: string | null; email: string | null }

/** The company as the print view shows it (src/engine/print/PrintDocument.tsx): the newest site settings. */
async function companyOf(trx: Trx): Promise<InvoiceFacts['company']> {
  const found = await sql<SiteSettings>`select site_name, title, site_address, address, phone, email from general_setting order by id desc limit 1`.execute(trx)
  const site = found.rows[0]
  if (!site) return null
  return { name: site.site_name || site.title || '', address: site.address || site.site_address || null, phone: site.phone || null, email: site.email || null }
}

const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value))
const label = (row: Row, field: string): string | null => {
  const labels = row._labels as Record<string, unknown> | undefined
  const value = labels?.[field]
  return value === null || value === undefined || value === '' ? null : String(value)
}

/** The request's language, when the engine passes it to the action; English otherwise. */
const languageFor = (args: ActionArgs): Language => languageOf(args.language)

export const sendInvoiceHandler: ActionHandler = async (args) => {
  const { trx, id, input, registry, engine } = args
  const orderEntity = registry.find((e) => e.name === 'order')!
  // The order with its lines and their colour's and size's names, as the engine reads it (in this transaction).
  const order = await readRow(engine(orderEntity), id)
  const customerFound = await sql<Customer>`select u.email, u.first_name, u.last_name from "order" o join "user" u on u.id = o."user" where o.id = ${id}`.execute(trx)
  const customer = customerFound.rows[0]
  const [billing, shipping, company] = await Promise.all([flatAddressOf(trx, 'billingaddress', id), flatAddressOf(trx, 'shippingaddress', id), companyOf(trx)])
  const customerName = customer ? [customer.first_name, customer.last_name].filter((n) => !!n && n.trim() !== '').join(' ') : ''
  const lines = ((order.order_items as Row[] | undefined) ?? []).map<InvoiceLine>((l) => ({
    product_name: text(l.product_name),
    color: label(l, 'color'),
    size: label(l, 'size'),
    quantity: Number(l.quantity),
    price: text(l.price),
    total_price: text(l.total_price),
  }))
  const facts: InvoiceFacts = {
    company,
    order: {
      order_no: text(order.order_no),
      order_date: order.order_date ? text(order.order_date) : null,
      sales_no: order.sales_no ? text(order.sales_no) : null,
      status: text(order.status),
      payment_status: text(order.payment_status),
      items_total: text(order.items_total || '0.00'),
      discount_amount: text(order.discount_amount || '0.00'),
      shipping_price: text(order.shipping_price || '0.00'),
      tax_price: text(order.tax_price || '0.00'),
      net_amount: text(order.net_amount || '0.00'),
      paid_amount: text(order.paid_amount || '0.00'),
    },
    billedTo: billing ? linesOf(billing) : [customerName, customer?.email].filter((l): l is string => !!l),
    shipTo: shipping ? linesOf(shipping) : null,
    lines,
  }

  const language = languageFor(args)
  const t = translator(language)
  // An Arabic invoice's PDF speaks English (see ./invoice-pdf.ts); its mail is Arabic.
  const pdf = await invoicePdf(facts, language === 'ar' ? { t: translator('en'), locale: 'en' } : { t, locale: language })
  const to = typeof input.to === 'string' && input.to.trim() !== '' ? input.to.trim() : customer?.email
  if (!to) throw new Error(`order ${id} has no customer e-mail`)
  const dateText = facts.order.order_date ? new Intl.DateTimeFormat(language === 'ar' ? 'ar-u-nu-latn' : language, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${facts.order.order_date.slice(0, 10)}T00:00:00Z`)) : ''
  const params = { order_no: facts.order.order_no, name: billing?.name || customerName || to, date: dateText, amount: facts.order.net_amount, due: dueOf(facts.order), company: company?.name ?? '' }
  await queueMail(trx, {
    to,
    subject: renderMessage(t, { key: 'print.invoice_mail_subject', params }),
    text: renderMessage(t, { key: 'print.invoice_mail_text', params }).trimEnd(),
    attachments: [{ filename: `invoice-${facts.order.order_no}.pdf`, contentType: 'application/pdf', content: pdf }],
  })
}
