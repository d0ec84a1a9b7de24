import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inflateSync } from 'node:zlib'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { invoicePdf, type InvoiceFacts } from '../../server/domain/orders/invoice-pdf'
import { translator } from '../../server/i18n'
import { ATTACHMENT_TABLE, attachmentsOf, OUTBOX_TABLE } from '../../server/mail/outbox'
import { startMailSender } from '../../server/mail/sender'
import { fileTransport } from '../../server/mail/transport'
import { callerWith, describeEachDatabase, type Reply } from './helpers/app'

/**
 * An order's invoice (issue 22): a PDF made on the server (pdfkit, DejaVu Sans embedded),
 * mailed through the outbox with the PDF attached — `POST …/order/send_email/{id}` with `{to}`,
 * else to the customer. The message and its attachment exist exactly when the request commits,
 * and the delivered mail carries the PDF as a base64 `application/pdf` part.
 */

/**
 * The text of a PDF as pdfkit writes it: every content stream inflated, each `Tj`/`TJ` string
 * of glyph ids read through its font's ToUnicode map, one line per text operator.
 */
function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1')
  const objects = new Map<number, { dict: string; stream?: Buffer }>()
  for (const m of raw.matchAll(/(\d+) 0 obj\s*/g)) {
    const start = m.index! + m[0].length
    const end = raw.indexOf('endobj', start)
    const body = raw.slice(start, end)
    const streamAt = body.indexOf('stream\n')
    if (streamAt < 0) {
      objects.set(Number(m[1]), { dict: body })
      continue
    }
    const dict = body.slice(0, streamAt)
    const length = Number(/\/Length (\d+)/.exec(dict)?.[1])
    const bytes = pdf.subarray(start + streamAt + 7, start + streamAt + 7 + length)
    objects.set(Number(m[1]), { dict, stream: /FlateDecode/.test(dict) ? inflateSync(bytes) : bytes })
  }
  const cmapOf = (ref: number) => {
    const map = new Map<number, string>()
    const cmap = objects.get(ref)!.stream!.toString('latin1')
    for (const r of cmap.matchAll(/<([0-9a-f]{4})> <([0-9a-f]{4})> \[([^\]]*)\]/gi)) {
      let code = parseInt(r[1]!, 16)
      for (const entry of r[3]!.matchAll(/<([0-9a-f ]+)>/gi)) map.set(code++, String.fromCharCode(...entry[1]!.split(' ').map((h) => parseInt(h, 16))))
    }
    return map
  }
  // Font resource names (/F1, /F2…) → their ToUnicode maps.
  const fonts = new Map<string, Map<number, string>>()
  for (const { dict } of objects.values()) {
    for (const f of dict.matchAll(/\/(F\d+) (\d+) 0 R/g)) {
      const font = objects.get(Number(f[2]))?.dict ?? ''
      const toUnicode = /\/ToUnicode (\d+) 0 R/.exec(font)
      if (toUnicode && !fonts.has(f[1]!)) fonts.set(f[1]!, cmapOf(Number(toUnicode[1])))
    }
  }
  const lines: string[] = []
  for (const { dict, stream } of objects.values()) {
    if (!stream || /ToUnicode|FontFile|Subtype|CIDToGIDMap|Length1/.test(dict)) continue
    const content = stream.toString('latin1')
    let font = new Map<number, string>()
    for (const op of content.matchAll(/\/(F\d+) [\d.]+ Tf|\[([^\]]*)\] TJ|<([0-9a-f]*)> Tj/gi)) {
      if (op[1]) {
        font = fonts.get(op[1]) ?? new Map()
        continue
      }
      const hex = op[2] !== undefined ? [...op[2].matchAll(/<([0-9a-f]*)>/gi)].map((h) => h[1]).join('') : op[3]!
      let line = ''
      for (let i = 0; i + 4 <= hex.length; i += 4) line += font.get(parseInt(hex.slice(i, i + 4), 16)) ?? '?'
      lines.push(line)
    }
  }
  return lines.join('\n')
}

/** The attachments of a delivered `.eml`: each part's headers and its base64 body decoded. */
function emlParts(eml: string): Array<{ headers: string; body: Buffer }> {
  const boundaries = [...eml.matchAll(/boundary="?([^"\r\n;]+)"?/g)].map((m) => m[1]!)
  const parts: Array<{ headers: string; body: Buffer }> = []
  for (const boundary of boundaries) {
    for (const chunk of eml.split(`--${boundary}`).slice(1)) {
      const split = chunk.indexOf('\r\n\r\n')
      if (split < 0) continue
      const headers = chunk.slice(0, split)
      if (!/Content-Transfer-Encoding: base64/i.test(headers)) continue
      parts.push({ headers, body: Buffer.from(chunk.slice(split + 4).replace(/\s+/g, ''), 'base64') })
    }
  }
  return parts
}

describeEachDatabase('order invoice mail', (t) => {
  const call = (o: Parameters<typeof t.current.call>[0]) => t.current.call(o)
  const orders = '/order/api/v1/order'
  const ok = (r: Reply, status = 200) => {
    expect(r.status, r.raw).toBe(status)
    return r.body
  }
  let customer: number
  let plain: { id: number; order_no: string }
  let addressed: { id: number; order_no: string }
  let mailDir: string

  const counts = async () => {
    const r = await sql<{ messages: string; files: string }>`
      select (select count(*) from ${sql.id(OUTBOX_TABLE)})::text as messages, (select count(*) from ${sql.id(ATTACHMENT_TABLE)})::text as files`.execute(t.current.db)
    return { messages: Number(r.rows[0]!.messages), files: Number(r.rows[0]!.files) }
  }
  const newest = async () =>
    (await sql<{ id: number; recipient: string; subject: string; body_text: string; status: string }>`select id, recipient, subject, body_text, status from ${sql.id(OUTBOX_TABLE)} order by id desc limit 1`.execute(t.current.db)).rows[0]!
  const sendInvoice = (id: number, payload: object = {}, headers: Record<string, string> = {}) => call({ method: 'POST', url: `${orders}/send_email/${id}`, payload, headers })

  beforeAll(async () => {
    mailDir = mkdtempSync(join(tmpdir(), 'invoice-mail-'))
    const tea = ok(await call({ method: 'POST', url: '/product/api/v1/product/create/', payload: { name: 'Garden Tea', unit_price: '25.00' } }), 201).id
    const shirt = ok(await call({ method: 'POST', url: '/product/api/v1/product/create/', payload: { name: 'Şile Bezi Gömlek', unit_price: '40.00' } }), 201).id
    const red = ok(await call({ method: 'POST', url: '/color/api/v1/color/create/', payload: { name: 'red' } }), 201).id
    const large = ok(await call({ method: 'POST', url: '/size/api/v1/size/create/', payload: { name: 'xl' } }), 201).id
    customer = ok(
      await call({ method: 'POST', url: '/customer/api/v1/customer/create/', payload: { username: 'ayse', email: 'ayse@shop.example', first_name: 'Ayşe', last_name: 'Yılmaz', password: 'ayse-pass-123', confirm_password: 'ayse-pass-123' } }),
      201,
    ).id
    for (const product of [tea, shirt]) {
      const made = ok(await call({ method: 'POST', url: '/stock_adjustment/api/v1/stock_adjustment/create/', payload: { reason: 'Opening', items: [{ product, quantity: 50, unit_cost: '10.00' }] } }), 201)
      ok(await call({ method: 'POST', url: `/stock_adjustment/api/v1/stock_adjustment/confirm/${made.id}` }))
    }
    await sql`insert into general_setting (title, site_name, site_address, email, phone, address, facebook_url, twitter_url, instagram_url)
      values ('Shop', 'Istanbul Tea House', 'Moda', 'hello@teahouse.example', '+905551112233', 'Moda Cd. 12, Kadıköy, İstanbul', 'https://facebook.com/x', 'https://x.com/x', 'https://instagram.com/x')`.execute(t.current.db)
    plain = ok(
      await call({ method: 'POST', url: `${orders}/create/`, payload: { user: customer, order_items: [{ product: tea, quantity: 3 }, { product: shirt, quantity: 2, price: '37.50', color: red, size: large }], shipping_price: '5.00', tax_price: '2.00', discount_amount: '1.00' } }),
      201,
    )
    addressed = ok(await call({ method: 'POST', url: `${orders}/create/`, payload: { user: customer, order_items: [{ product: tea, quantity: 1 }] } }), 201)
    ok(await call({ method: 'POST', url: '/billingaddress/api/v1/billingaddress/create/', payload: { user: customer, order: addressed.id, name: 'Ayşe Yılmaz (Accounts)', email: 'billing@shop.example', street_address: 'Bağdat Cd. 5' } }), 201)
    ok(await call({ method: 'POST', url: '/shippingaddress/api/v1/shippingaddress/create/', payload: { user: customer, order: addressed.id, name: 'Ayşe at the office', street_address: 'Büyükdere Cd. 201' } }), 201)
    // Paid in part: the invoice shows what is still due.
    ok(await call({ method: 'POST', url: `${orders}/confirm/${addressed.id}`, payload: { pay_amount: '10.00', payment_method: 'cash' } }))
  })
  afterAll(() => {
    rmSync(mailDir, { recursive: true, force: true })
  })

  it("queues exactly one message to the customer's e-mail with one PDF attached, whose text shows the invoice", async () => {
    const before = await counts()
    const sent = ok(await sendInvoice(plain.id))
    expect(sent).toMatchObject({ id: plain.id, order_no: plain.order_no })
    expect(await counts()).toEqual({ messages: before.messages + 1, files: before.files + 1 })

    const message = await newest()
    expect(message).toMatchObject({ recipient: 'ayse@shop.example', subject: `Invoice ${plain.order_no}`, status: 'queued' })
    expect(message.body_text).toContain(`order ${plain.order_no}`)
    expect(message.body_text).toContain('156.00 in all, of which 156.00 is still due')
    expect(message.body_text).toMatch(/Istanbul Tea House$/)

    const files = await attachmentsOf(t.current.db, message.id)
    expect(files).toHaveLength(1)
    const [file] = files
    expect(file).toMatchObject({ filename: `invoice-${plain.order_no}.pdf`, contentType: 'application/pdf' })
    const pdf = file!.content
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect(pdf.subarray(-6).toString('latin1')).toMatch(/%%EOF\s*$/)
    expect(pdf.length).toBeGreaterThan(5_000)
    expect(pdf.length).toBeLessThan(200_000)
    // The font is embedded (a subset of DejaVu Sans), so the text is the same on every reader.
    expect(pdf.toString('latin1')).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans\b/)

    const text = pdfText(pdf)
    for (const shown of [
      'Istanbul Tea House',
      'Moda Cd. 12, Kadıköy, İstanbul',
      'Invoice',
      plain.order_no,
      'Pending',
      'Unpaid',
      'Billed to'.toUpperCase(),
      'Ayşe Yılmaz',
      'ayse@shop.example',
      'Garden Tea',
      'Şile Bezi Gömlek',
      'RED',
      'XL',
      '25.00',
      '75.00',
      '37.50',
      '−1.00',
      '156.00',
    ]) {
      expect(text, shown).toContain(shown)
    }
    // Items 150.00, less 1.00, plus 5.00 shipping and 2.00 tax; nothing paid: all of it due.
    expect(text).toMatch(/Items Total\n150\.00/)
    expect(text).toMatch(/Net Amount\n156\.00/)
    expect(text).toMatch(/Due\n156\.00/)
  })

  it('bills and ships to the order’s addresses, shows what is paid and still due, and mails whom `to` names', async () => {
    ok(await sendInvoice(addressed.id, { to: 'accounts@shop.example' }))
    const message = await newest()
    expect(message.recipient).toBe('accounts@shop.example')
    expect(message.body_text).toMatch(/^Hello Ayşe Yılmaz \(Accounts\),/)
    const [file] = await attachmentsOf(t.current.db, message.id)
    const text = pdfText(file!.content)
    for (const shown of ['BILLED TO', 'Ayşe Yılmaz (Accounts)', 'Bağdat Cd. 5', 'billing@shop.example', 'SHIP TO', 'Ayşe at the office', 'Büyükdere Cd. 201', 'Confirmed', 'Partly Paid']) {
      expect(text, shown).toContain(shown)
    }
    const order = ok(await call({ method: 'GET', url: `${orders}/${addressed.id}` }))
    expect(text).toContain(order.sales_no)
    expect(text).toMatch(/Paid\n10\.00/)
    expect(text).toMatch(/Due\n15\.00/)
  })

  it('leaves neither message nor attachment when the request fails: a `to` that is no e-mail (400), an unknown order (404)', async () => {
    const before = await counts()
    const bad = await sendInvoice(plain.id, { to: 'not an address' })
    expect(bad.status, bad.raw).toBe(400)
    expect(bad.body.to).toBeDefined()
    const unknown = await sendInvoice(987_654)
    expect(unknown.status, unknown.raw).toBe(404)
    expect(await counts()).toEqual(before)
  })

  it('refuses a caller without ORDER_SEND_EMAIL (403) and queues nothing; one with it may send', async () => {
    const before = await counts()
    const reader = await callerWith(t.current, ['ORDER_LIST', 'ORDER_DETAILS'])
    const refused = await reader({ method: 'POST', url: `${orders}/send_email/${plain.id}`, payload: {} })
    expect(refused.status, refused.raw).toBe(403)
    expect(refused.body.detail).toContain('ORDER_SEND_EMAIL')
    expect(await counts()).toEqual(before)

    const mailer = await callerWith(t.current, ['ORDER_SEND_EMAIL'])
    expect((await mailer({ method: 'POST', url: `${orders}/send_email/${plain.id}`, payload: {} })).status).toBe(200)
    expect(await counts()).toEqual({ messages: before.messages + 1, files: before.files + 1 })
  })

  it('delivers the mail without SMTP as an .eml holding the PDF as a base64 application/pdf part', async () => {
    ok(await sendInvoice(plain.id))
    const { id } = await newest()
    const sender = startMailSender({ db: t.current.db, transport: fileTransport(mailDir, 'Shop <shop@example.com>'), pollMs: 60_000 })
    try {
      await sender.runOnce()
    } finally {
      await sender.stop()
    }
    expect((await newest()).status).toBe('sent')
    const eml = readFileSync(join(mailDir, `${id}.eml`), 'utf8')
    expect(eml).toMatch(/^To: ayse@shop\.example\r$/m)
    expect(eml).toContain('Content-Type: multipart/mixed')
    const pdfs = emlParts(eml).filter((p) => /^Content-Type: application\/pdf/im.test(p.headers))
    expect(pdfs).toHaveLength(1)
    expect(pdfs[0]!.headers).toMatch(new RegExp(`Content-Disposition: attachment;\\s+filename=("?)invoice-${plain.order_no}\\.pdf\\1`, 'i'))
    const pdf = pdfs[0]!.body
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect(pdfText(pdf)).toContain(plain.order_no)
    // The bytes delivered are the bytes stored.
    expect(pdf.equals((await attachmentsOf(t.current.db, id))[0]!.content)).toBe(true)
  })
})

const facts: InvoiceFacts = {
  company: { name: 'Çay Evi', address: 'Moda, Kadıköy', phone: null, email: null },
  order: {
    order_no: 'OR2026112700 1',
    order_date: '2026-11-27',
    sales_no: null,
    status: 'pending',
    payment_status: 'unpaid',
    items_total: '1234567.50',
    discount_amount: '0.00',
    shipping_price: '0.00',
    tax_price: '0.00',
    net_amount: '1234567.50',
    paid_amount: '0.00',
  },
  billedTo: ['Işıl Güneş'],
  shipTo: null,
  lines: Array.from({ length: 60 }, (_, i) => ({ product_name: `Ürün ${i + 1}`, color: null, size: null, quantity: 1, price: '20576.125', total_price: '20576.13' })),
}

it('prints the invoice in Turkish with its letters (ı İ ş ğ) and Turkish number formats, over as many pages as its lines need', async () => {
  const pdf = await invoicePdf(facts, { t: translator('tr'), locale: 'tr' })
  const text = pdfText(pdf)
  for (const shown of ['Fatura', 'Sipariş No', 'Ödeme Durumu', 'Beklemede', 'Ödenmedi', 'FATURA EDİLEN', 'Işıl Güneş', 'Çay Evi', 'Ürün 60', '1.234.567,50', 'Kalan borç', '27 Kas 2026']) {
    expect(text, shown).toContain(shown)
  }
  expect((pdf.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length).toBeGreaterThan(1)
  expect(text).toMatch(/OR2026112700 1 · 2 \/ \d/)
})

it('prints an Arabic reader’s invoice with English labels (pdfkit does not lay out right-to-left lines) and the data as stored', async () => {
  const pdf = await invoicePdf({ ...facts, billedTo: ['نادية إسلام'], lines: facts.lines.slice(0, 1) }, { t: translator('en'), locale: 'en' })
  const text = pdfText(pdf)
  expect(text).toContain('Billed to'.toUpperCase())
  expect(text).toContain('1,234,567.50')
  // Arabic letters are in the font and joined (their presentation forms), not missing glyphs.
  expect(text).toMatch(/[\u0600-\u06ff\ufb50-\ufdff\ufe70-\ufeff]{3}/)
  expect(text).not.toContain('?')
})
