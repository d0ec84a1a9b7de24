import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { sql } from 'kysely'
import { beforeAll, expect, it } from 'vitest'
import { registry } from '../../schema'
import { voucherSpecs } from '../../schema/entities/accounting/vouchers'
import type { Db } from '../../server/db/types'
import { sweepReleasedMedia } from '../../server/engine/uploads'
import { messageFor } from '../../server/i18n'
import { describeEachDatabase, type Reply } from './helpers/app'
import { multipart } from './helpers/multipart'
import { ledgerUnder, seededLedger } from './helpers/ledgers'

/**
 * The six vouchers (issue 10, api-contract §4.7, decisions.md "Accounting"): each create posts
 * its lines to the general ledger under a new invoice number, the list shows one row per
 * invoice, an update reverses what stood and posts again under the same number, a delete
 * cancels with reversing rows — and a refused voucher writes nothing and takes no number.
 */
type Line = { ledger: number; debit_amount?: string; credit_amount?: string }
type Ledgers = Record<'cash' | 'bank' | 'rent' | 'power' | 'sales' | 'purchase' | 'customer' | 'vendor', number>

const DATE = '2026-04-15'
const day = DATE.replaceAll('-', '')


const logsOf = async (db: Db, reference: string) =>
  (
    await sql<{ ledger: number; debit_amount: string; credit_amount: string; log_type: string; log_date: string; reverses: number | null; branch: number | null }>`
      select ledger, debit_amount, credit_amount, log_type, log_date, reverses, branch from account_log where reference_no = ${reference} order by id`.execute(db)
  ).rows

/** Each ledger's balance under a reference: all zero once it is cancelled. */
const net = async (db: Db, reference: string) =>
  (await sql<{ balance: string }>`select sum(debit_amount - credit_amount)::numeric(20,2)::text as balance from account_log where reference_no = ${reference} group by ledger order by ledger`.execute(db)).rows.map((r) => r.balance)

describeEachDatabase('vouchers', (t) => {
  let db: Db
  let l: Ledgers
  let branch: number
  let subLedger: number

  beforeAll(async () => {
    db = t.current.db
    l = {
      cash: await seededLedger(db, 'Cash'),
      bank: await seededLedger(db, 'Bank'),
      sales: await seededLedger(db, 'Company Sales'),
      purchase: await seededLedger(db, 'Company Purchase'),
      rent: await ledgerUnder(db, 'Office Rent', 'Indirect Expenses'),
      power: await ledgerUnder(db, 'Electricity', 'Indirect Expenses'),
      customer: await ledgerUnder(db, 'Karim Traders', 'Customers'),
      vendor: await ledgerUnder(db, 'Rahim Supplies', 'Sundry Creditors'),
    }
    branch = (await sql<{ id: number }>`insert into branch (name) values ('Voucher Branch') returning id`.execute(db)).rows[0]!.id
    subLedger = (await sql<{ id: number }>`insert into sub_ledger_account (name) values ('office_rent') returning id`.execute(db)).rows[0]!.id
  })

  const baseOf = (kind: string) => registry[kind as keyof typeof registry].api.base
  const specOf = (kind: string) => voucherSpecs.find((s) => s.kind === kind)!

  /** Multipart `items[i][…]` for the kinds with a file, JSON `items` for contra and journal. */
  function create(kind: string, lines: Line[], header: Record<string, string> = {}, headers: Record<string, string> = {}): Promise<Reply> {
    const spec = specOf(kind)
    const fields: Record<string, string> = { [spec.dateField]: DATE, branch: String(branch), ...(spec.hasSubLedger ? { sub_ledger: String(subLedger) } : {}), details: `${kind} of April`, ...header }
    if (spec.hasFile) {
      lines.forEach((line, i) => {
        fields[`items[${i}][ledger]`] = String(line.ledger)
        fields[`items[${i}][debit_amount]`] = line.debit_amount ?? '0'
        fields[`items[${i}][credit_amount]`] = line.credit_amount ?? '0'
      })
      const body = multipart(fields)
      return t.current.call({ method: 'POST', url: `${baseOf(kind)}/create/`, payload: body.payload, headers: { ...body.headers, ...headers } })
    }
    return t.current.call({ method: 'POST', url: `${baseOf(kind)}/create/`, payload: { ...fields, items: lines }, headers })
  }

  type Golden = { kind: string; lines: Line[]; listLedger: number; amount: string; related: string | string[] | null | undefined }
  const goldens = (): Golden[] => [
    { kind: 'payment_voucher', lines: [{ ledger: l.rent, debit_amount: '700' }, { ledger: l.power, debit_amount: '50.5' }, { ledger: l.cash, credit_amount: '750.50' }], listLedger: l.cash, amount: '750.50', related: ['Office Rent', 'Electricity'] },
    { kind: 'receipt_voucher', lines: [{ ledger: l.customer, credit_amount: '1200' }, { ledger: l.bank, debit_amount: '1200' }], listLedger: l.bank, amount: '1200.00', related: 'Karim Traders' },
    { kind: 'sales', lines: [{ ledger: l.customer, debit_amount: '1500.75' }, { ledger: l.sales, credit_amount: '1500.75' }], listLedger: l.sales, amount: '1500.75', related: 'Karim Traders' },
    { kind: 'purchase', lines: [{ ledger: l.vendor, credit_amount: '800' }, { ledger: l.purchase, debit_amount: '800' }], listLedger: l.purchase, amount: '800.00', related: 'Rahim Supplies' },
    { kind: 'contra', lines: [{ ledger: l.cash, debit_amount: '300' }, { ledger: l.bank, credit_amount: '300' }], listLedger: l.cash, amount: '300.00', related: undefined },
    { kind: 'journal', lines: [{ ledger: l.rent, debit_amount: '250' }, { ledger: l.vendor, credit_amount: '250' }], listLedger: l.rent, amount: '250.00', related: undefined },
  ]

  it('creates each kind: a new number, its lines and identical general-ledger rows (golden), the list row, the by-invoice shape', async () => {
    for (const g of goldens()) {
      const spec = specOf(g.kind)
      const invoice = `${spec.prefix}${day}001`
      const r = await create(g.kind, g.lines)
      expect(r.status, `${g.kind}: ${r.raw}`).toBe(201)
      const amounts = (line: Line) => [line.ledger, Number(line.debit_amount ?? 0).toFixed(2), Number(line.credit_amount ?? 0).toFixed(2)]
      expect(r.body[spec.listKey].map((x: Record<string, unknown>) => [x.ledger, x.debit_amount, x.credit_amount, x.invoice_no]), g.kind).toEqual(g.lines.map((line) => [...amounts(line), invoice]))
      expect(await logsOf(db, invoice), g.kind).toEqual(g.lines.map((line) => {
        const [ledger, debit, credit] = amounts(line)
        return { ledger, debit_amount: debit, credit_amount: credit, log_type: g.kind, log_date: DATE, reverses: null, branch }
      }))
      expect(r.body.account_logs).toHaveLength(g.lines.length)

      const list = await t.current.call({ method: 'GET', url: `${baseOf(g.kind)}/all/` })
      expect(list.status, list.raw).toBe(200)
      expect(list.body.total_elements, g.kind).toBe(1)
      const row = list.body[spec.listKey][0]
      expect(row, g.kind).toMatchObject({ invoice_no: invoice, amount: g.amount, ledger: { id: g.listLedger }, branch: { id: branch, name: 'Voucher Branch' }, [spec.dateField]: DATE, details: `${g.kind} of April`, created_by: 'admin@example.com' })
      if (g.related === undefined) expect(row, g.kind).not.toHaveProperty('related_ledgers')
      else expect(row.related_ledgers, g.kind).toEqual(g.related)

      const byInvoice = await t.current.call({ method: 'GET', url: `${baseOf(g.kind)}/${spec.byInvoice}/${invoice}` })
      expect(byInvoice.status).toBe(200)
      expect(byInvoice.body).toMatchObject({ invoice_no: invoice, branch: { id: branch, name: 'Voucher Branch' }, [spec.dateField]: DATE, details: `${g.kind} of April` })
      expect(byInvoice.body.sub_ledger, g.kind).toEqual(spec.hasSubLedger ? { id: subLedger, name: 'office_rent' } : null)
      expect(byInvoice.body.items.map((x: { ledger: { id: number } }) => x.ledger.id)).toEqual(g.lines.map((line) => line.ledger))

      const read = await t.current.call({ method: 'GET', url: `${baseOf(g.kind)}/${row.id}` })
      expect(read.status).toBe(200)
      expect(read.body.invoice_no).toBe(invoice)
    }
  })

  it('numbers the next voucher of a day after the last and finds it by search', async () => {
    const r = await create('journal', [{ ledger: l.power, debit_amount: '10' }, { ledger: l.vendor, credit_amount: '10' }])
    expect(r.status).toBe(201)
    const invoice = `JO${day}002`
    expect(r.body.journals[0].invoice_no).toBe(invoice)
    const found = await t.current.call({ method: 'GET', url: `${baseOf('journal')}/search/?invoice_no=${day}002` })
    expect(found.body.journals.map((x: { invoice_no: string }) => x.invoice_no)).toEqual([invoice])
    const none = await t.current.call({ method: 'GET', url: `${baseOf('journal')}/search/?invoice_no=NOPE` })
    expect(none.body).toMatchObject({ journals: [], total_elements: 0 })
    const nul = await t.current.call({ method: 'GET', url: `${baseOf('journal')}/search/?invoice_no=a%00b` })
    expect(nul.status).toBe(400)
    const unknownParam = await t.current.call({ method: 'GET', url: `${baseOf('journal')}/search/?nope=1` })
    expect(unknownParam.status).toBe(400)
    expect(unknownParam.body).toEqual({ detail: expect.any(String) })
    // Contra and journal lists go by invoice, ascending.
    const list = await t.current.call({ method: 'GET', url: `${baseOf('journal')}/all/` })
    expect(list.body.journals.map((x: { invoice_no: string }) => x.invoice_no)).toEqual([`JO${day}001`, invoice])
  })

  it('filters the list with the engine’s vocabulary: an invoice is listed when any of its lines meets them', async () => {
    const other = await create('payment_voucher', [{ ledger: l.power, debit_amount: '20' }, { ledger: l.bank, credit_amount: '20' }], { payment_date: '2026-05-02' })
    expect(other.status).toBe(201)
    const ids = async (query: string) => {
      const r = await t.current.call({ method: 'GET', url: `${baseOf('payment_voucher')}/all/?${query}` })
      expect(r.status, r.raw).toBe(200)
      return r.body.payment_vouchers.map((x: { invoice_no: string }) => x.invoice_no)
    }
    // By a ledger's id on any line (the rent was paid by the first voucher only), by a ledger's name through `q`.
    expect(await ids(`ledger=${l.rent}`)).toEqual([`PV${day}001`])
    expect(await ids('q=electric')).toEqual(['PV20260502001', `PV${day}001`])
    expect(await ids('q=20260502')).toEqual(['PV20260502001'])
    expect(await ids('payment_date_after=2026-05-01')).toEqual(['PV20260502001'])
    expect(await ids('payment_date_before=2026-04-30')).toEqual([`PV${day}001`])
    expect(await ids('ordering=payment_date')).toEqual([`PV${day}001`, 'PV20260502001'])
    // The shown line stays the cash or bank line whatever line matched.
    const shown = await t.current.call({ method: 'GET', url: `${baseOf('payment_voucher')}/all/?ledger=${l.rent}` })
    expect(shown.body.payment_vouchers[0]).toMatchObject({ ledger: { id: l.cash, name: 'Cash' }, amount: '750.50' })
    const bad = await t.current.call({ method: 'GET', url: `${baseOf('payment_voucher')}/all/?payment_date_after=someday` })
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual({ payment_date_after: [expect.any(String)] })
    const badOrder = await t.current.call({ method: 'GET', url: `${baseOf('payment_voucher')}/all/?ordering=amount` })
    expect(badOrder.status).toBe(400)
    await t.current.call({ method: 'DELETE', url: `${baseOf('payment_voucher')}/delete/${other.body.payment_vouchers[0].id}` })
  })

  it('answers an unknown invoice with its message, in the request’s language', async () => {
    const r = await t.current.call({ method: 'GET', url: `${baseOf('sales')}/receipt_voucher_by_invoice_no/SA20990101001` })
    expect(r.status).toBe(404)
    expect(r.body).toEqual({ detail: 'Invoice no SA20990101001 has no Receivable Bill.' })
    const tr = await t.current.call({ method: 'GET', url: `${baseOf('payment_voucher')}/payment_voucher_by_invoice_no/PV1`, headers: { 'accept-language': 'tr' } })
    expect(tr.body).toEqual({ detail: 'PV1 numaralı Ödeme Fişi bulunamadı.' })
  })

  it('refuses unbalanced, one-sided, negative and cash-breaking vouchers with a field map, writing nothing and taking no number', async () => {
    const before = Number((await sql<{ n: number }>`select count(*)::int as n from account_log`.execute(db)).rows[0]!.n)
    const cases: Array<[string, Line[], Record<string, unknown>]> = [
      ['unbalanced', [{ ledger: l.rent, debit_amount: '100' }, { ledger: l.cash, credit_amount: '90.25' }], { items: ['Total debit (100.00) and total credit (90.25) must be equal: they differ by 9.75.'] }],
      ['one line', [{ ledger: l.cash, credit_amount: '100' }], { items: [expect.any(String)] }],
      ['both sides', [{ ledger: l.rent, debit_amount: '5', credit_amount: '5' }, { ledger: l.cash, credit_amount: '5' }], { 'items.0.debit_amount': [expect.any(String)] }],
      ['negative', [{ ledger: l.rent, debit_amount: '-5' }, { ledger: l.cash, credit_amount: '-5' }], { 'items.0.debit_amount': [expect.any(String)], 'items.1.credit_amount': [expect.any(String)] }],
      ['cash debited', [{ ledger: l.cash, debit_amount: '5' }, { ledger: l.bank, credit_amount: '5' }], { 'items.0.ledger': [expect.any(String)] }],
    ]
    for (const [name, lines, fields] of cases) {
      const r = await create('payment_voucher', lines, { [specOf('payment_voucher').dateField]: '2026-05-01' })
      expect(r.status, name).toBe(400)
      expect(r.body, name).toMatchObject(fields)
    }
    const bad = await create('payment_voucher', [{ ledger: l.rent, debit_amount: '5' }, { ledger: l.cash, credit_amount: '5' }], { payment_date: '2026-02-30' })
    expect(bad.status).toBe(400)
    expect(Object.keys(bad.body)).toEqual(['payment_date'])
    expect(Number((await sql<{ n: number }>`select count(*)::int as n from account_log`.execute(db)).rows[0]!.n)).toBe(before)
    // No number was consumed: the first voucher of that day is 001.
    const ok = await create('payment_voucher', [{ ledger: l.rent, debit_amount: '5' }, { ledger: l.cash, credit_amount: '5' }], { payment_date: '2026-05-01' })
    expect(ok.status).toBe(201)
    expect(ok.body.payment_vouchers[0].invoice_no).toBe('PV20260501001')
  })

  it('says a line’s problem in the request’s language', async () => {
    const lines = [{ ledger: l.rent, debit_amount: '5' }, { ledger: l.cash, credit_amount: '5' }]
    const tr = await create('journal', lines, {}, { 'accept-language': 'tr' })
    expect(tr.status).toBe(400)
    expect(tr.body).toEqual({ 'items.1.ledger': [messageFor('tr', { key: 'validation.journal_no_cash' })] })
    const en = await create('journal', lines)
    expect(en.body).toEqual({ 'items.1.ledger': [messageFor('en', { key: 'validation.journal_no_cash' })] })
    expect(en.body['items.1.ledger'][0]).not.toBe(tr.body['items.1.ledger'][0])
  })

  it('updates by reversing what stood and posting the new version under the same number, history readable', async () => {
    const created = await create('receipt_voucher', [{ ledger: l.bank, debit_amount: '400' }, { ledger: l.customer, credit_amount: '400' }], { receipt_date: '2026-06-01' })
    const invoice = created.body.receipt_vouchers[0].invoice_no as string
    const r = await t.current.call({
      method: 'PUT',
      url: `${baseOf('receipt_voucher')}/update/`,
      payload: { invoice_no: invoice, details: 'corrected', items: [{ ledger: l.cash, debit_amount: '450' }, { ledger: l.customer, credit_amount: '450' }] },
    })
    expect(r.status, r.raw).toBe(200)
    expect(r.body.detail).toBe(`ReceiptVoucher ${invoice} updated successfully`)
    expect(r.body.data.receipt_vouchers.map((x: { invoice_no: string; ledger: number }) => [x.invoice_no, x.ledger])).toEqual([[invoice, l.cash], [invoice, l.customer]])
    const rows = await logsOf(db, invoice)
    expect(rows.map((x) => [x.ledger, x.debit_amount, x.credit_amount, x.reverses === null])).toEqual([
      [l.bank, '400.00', '0.00', true],
      [l.customer, '0.00', '400.00', true],
      [l.bank, '0.00', '400.00', false],
      [l.customer, '400.00', '0.00', false],
      [l.cash, '450.00', '0.00', true],
      [l.customer, '0.00', '450.00', true],
    ])
    const byInvoice = await t.current.call({ method: 'GET', url: `${baseOf('receipt_voucher')}/receipt_voucher_by_invoice_no/${invoice}` })
    expect(byInvoice.body).toMatchObject({ details: 'corrected', receipt_date: '2026-06-01' })

    // A refused update leaves the voucher and its ledger as they were.
    const count = (await logsOf(db, invoice)).length
    const refused = await t.current.call({ method: 'PUT', url: `${baseOf('receipt_voucher')}/update/`, payload: { invoice_no: invoice, items: [{ ledger: l.cash, debit_amount: '1' }, { ledger: l.customer, credit_amount: '2' }] } })
    expect(refused.status).toBe(400)
    expect((await logsOf(db, invoice)).length).toBe(count)
    const unknown = await t.current.call({ method: 'PUT', url: `${baseOf('receipt_voucher')}/update/`, payload: { invoice_no: 'RV20990101001', items: [] } })
    expect(unknown.status).toBe(404)
  })

  it('deletes by cancelling: reversing rows net the invoice to zero and it leaves the list', async () => {
    const one = await create('purchase', [{ ledger: l.purchase, debit_amount: '90' }, { ledger: l.vendor, credit_amount: '90' }], { purchase_date: '2026-06-02' })
    const two = await create('purchase', [{ ledger: l.purchase, debit_amount: '30' }, { ledger: l.vendor, credit_amount: '30' }], { purchase_date: '2026-06-02' })
    type Stored = { id: number; invoice_no: string }
    const a = one.body.purchases[0] as Stored
    const b = two.body.purchases[1] as Stored
    const del = await t.current.call({ method: 'DELETE', url: `${baseOf('purchase')}/delete/${a.id}` })
    expect(del.status).toBe(200)
    expect(del.body.detail).toBe(`Purchase id - ${a.id} is deleted successfully`)
    expect(await net(db, a.invoice_no)).toEqual(['0.00', '0.00'])
    expect((await logsOf(db, a.invoice_no)).filter((x) => x.reverses !== null)).toHaveLength(2)
    const missing = await t.current.call({ method: 'DELETE', url: `${baseOf('purchase')}/delete/${a.id}` })
    expect(missing.status).toBe(404)

    const many = await t.current.call({ method: 'DELETE', url: `${baseOf('purchase')}/delete_multiple/`, payload: { ids: [b.id] } })
    expect(many.status).toBe(200)
    expect(await net(db, b.invoice_no)).toEqual(['0.00', '0.00'])
    const audit = await sql<{ action: string; n: number }>`select action, count(*)::int as n from audit_log where entity = 'purchase' and entity_id = any(${[a.id, b.id]}::bigint[]) group by action order by action`.execute(db)
    expect(audit.rows).toEqual([{ action: 'create', n: 2 }, { action: 'delete', n: 2 }])
    const list = await t.current.call({ method: 'GET', url: `${baseOf('purchase')}/search/?invoice_no=PU20260602` })
    expect(list.body.purchases).toEqual([])
  })

  it('keeps the invoice a payment or receipt settles (ref_invoice_no) across an update, and refuses one too long', async () => {
    const lines = [{ ledger: l.customer, credit_amount: '40' }, { ledger: l.cash, debit_amount: '40' }]
    const made = await create('receipt_voucher', lines, { ref_invoice_no: 'SA20260415001' })
    expect(made.status, made.raw).toBe(201)
    const invoice = made.body.receipt_vouchers[0].invoice_no as string
    const read = await t.current.call({ method: 'GET', url: `${baseOf('receipt_voucher')}/receipt_voucher_by_invoice_no/${invoice}` })
    expect(read.body.items.map((i: { ref_invoice_no: string }) => i.ref_invoice_no)).toEqual(['SA20260415001', 'SA20260415001'])
    const lineId = made.body.receipt_vouchers[0].id as number
    const updated = await t.current.call({ method: 'PATCH', url: `${baseOf('receipt_voucher')}/update/${lineId}`, payload: { items: [{ ledger: l.customer, credit_amount: '45' }, { ledger: l.cash, debit_amount: '45' }] } })
    expect(updated.status, updated.raw).toBe(200)
    expect(updated.body.data.receipt_vouchers.map((x: { ref_invoice_no: string }) => x.ref_invoice_no)).toEqual(['SA20260415001', 'SA20260415001'])
    const tooLong = await create('payment_voucher', [{ ledger: l.rent, debit_amount: '1' }, { ledger: l.cash, credit_amount: '1' }], { ref_invoice_no: 'X'.repeat(51) })
    expect(tooLong.status).toBe(400)
    expect(Object.keys(tooLong.body)).toEqual(['ref_invoice_no'])
  })

  it('keeps a multipart file on a payment voucher', async () => {
    const body = multipart(
      { payment_date: '2026-06-03', 'items[0][ledger]': String(l.rent), 'items[0][debit_amount]': '20', 'items[1][ledger]': String(l.cash), 'items[1][credit_amount]': '20' },
      [{ name: 'file', filename: 'receipt.pdf', type: 'application/pdf', data: Buffer.from('%PDF-1.4 test') }],
    )
    const r = await t.current.call({ method: 'POST', url: `${baseOf('payment_voucher')}/create/`, payload: body.payload, headers: body.headers })
    expect(r.status, r.raw).toBe(201)
    const invoice = r.body.payment_vouchers[0].invoice_no as string
    const byInvoice = await t.current.call({ method: 'GET', url: `${baseOf('payment_voucher')}/payment_voucher_by_invoice_no/${invoice}` })
    expect(byInvoice.body.file).toMatch(/^\/media\/payment_voucher\/.+\.pdf$/)

    // A path the client names is not taken for a file: the write is refused, naming the field.
    const forged = await t.current.call({
      method: 'POST',
      url: `${baseOf('payment_voucher')}/create/`,
      payload: { payment_date: '2026-06-03', file: '/media/user/secret.pdf', items: [{ ledger: l.rent, debit_amount: '1' }, { ledger: l.cash, credit_amount: '1' }] },
    })
    expect(forged.status).toBe(400)
    expect(forged.body).toEqual({ file: ['File must be an uploaded file, not a path.'] })

    // An update by a line's id (multipart, as the form sends it) keeps the stored file and number
    // when it sends the file back as it is; a path of this kind's folder that climbs out of it is refused.
    const lineId = r.body.payment_vouchers[0].id as number
    const lines = { 'items[0][ledger]': String(l.power), 'items[0][debit_amount]': '25', 'items[1][ledger]': String(l.cash), 'items[1][credit_amount]': '25' }
    const climbing = multipart({ file: '/media/payment_voucher/../user/secret.pdf', ...lines })
    const refused = await t.current.call({ method: 'PATCH', url: `${baseOf('payment_voucher')}/update/${lineId}`, payload: climbing.payload, headers: climbing.headers })
    expect(refused.status, refused.raw).toBe(400)
    expect(refused.body).toEqual({ file: ['File must be an uploaded file, not a path.'] })
    const update = multipart({ file: byInvoice.body.file as string, ...lines })
    const updated = await t.current.call({ method: 'PATCH', url: `${baseOf('payment_voucher')}/update/${lineId}`, payload: update.payload, headers: update.headers })
    expect(updated.status, updated.raw).toBe(200)
    expect(updated.body.data.payment_vouchers.map((x: { invoice_no: string; file: string; payment_date: string }) => [x.invoice_no, x.file, x.payment_date])).toEqual([
      [invoice, byInvoice.body.file, '2026-06-03'],
      [invoice, byInvoice.body.file, '2026-06-03'],
    ])
    const onDisk = join(t.current.mediaDir, (byInvoice.body.file as string).slice('/media/'.length))
    // The update's new lines hold the file again: the sweeper keeps it.
    await sweepReleasedMedia(t.current.mediaDir)
    expect(existsSync(onDisk)).toBe(true)

    // A cancelled voucher holds it no more: released with the cancellation, then removed.
    const newLine = updated.body.data.payment_vouchers[0].id as number
    expect((await t.current.call({ method: 'DELETE', url: `${baseOf('payment_voucher')}/delete/${newLine}` })).status).toBe(200)
    await expect.poll(async () => (await sql<{ n: number }>`select count(*)::int as n from media_file where path = ${byInvoice.body.file} and released_at is not null`.execute(db)).rows[0]!.n).toBe(1)
    await sweepReleasedMedia(t.current.mediaDir)
    expect(existsSync(onDisk)).toBe(false)
  })
})
