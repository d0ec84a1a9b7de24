import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { registry } from '../../schema'
import { defineEntity, f, money } from '../../schema/kit'
import { seededLedger } from '../../server/domain/accounting/ledgers'
import type { DomainModule } from '../../server/engine/modules'
import { catalogues } from '../../server/i18n'
import { addThrowawayLabels, deliveryNote, throwawayEntities, throwawayReports } from '../support/throwaway-registry'
import { describeEachDatabase } from './helpers/app'
import { ledgerUnder } from './helpers/ledgers'
import { createRow } from './helpers/samples'
import { stockTransferModule, throwawayStub } from './helpers/throwaway-module'

/**
 * A numbered record whose date moves into another period of its numbering (issue 19): numbers
 * count per day (or year), so a voucher moved from the 15th to the 16th takes the 16th's next
 * number — gapless there — and what its old number posted is reversed under the old number
 * (the trail a cancelled voucher leaves; the old number is not given back). A move within the
 * period keeps the number. Shown for a voucher, for a document kept one row per line defined
 * at run time (a delivery note, numbered per day), and for a record numbered per year that
 * posts a journal counted per day by its date (`posts.date`).
 */
const shipment = defineEntity({
  name: 'gadget_shipment',
  module: 'test',
  listKey: 'gadget_shipments',
  labelField: 'number',
  route: { area: 'gadgetShipment-management', list: 'gadgetShipments' },
  fields: {
    shipped_on: f.date({ required: true, label: 'field.emp_join_date' }),
    value: f.money({ default: '0.00', min: '0', label: 'field.amount' }),
    number: f.text({ max: 30, readOnly: true, search: true, code: true, label: 'field.invoice_no' }),
    journal_no: f.text({ max: 50, readOnly: true, code: true, label: 'field.reference_no' }),
  },
  numbering: { field: 'number', prefix: 'GS', reset: 'year', date: 'shipped_on' },
  posts: { as: 'journal', number: 'journal_no', date: 'shipped_on', when: (row) => money.toMinor(row.value as string) > 0n },
})

const shipmentModule: DomainModule = {
  name: 'test-shipment',
  postings: {
    gadget_shipment: async ({ trx, record }) => ({
      date: String(record.shipped_on),
      lines: [
        { ledger: await seededLedger(trx, 'Company Purchase'), debit: String(record.value) },
        { ledger: await seededLedger(trx, 'Company Sales'), credit: String(record.value) },
      ],
    }),
  },
}

let undoLabels: () => void
beforeAll(() => {
  undoLabels = addThrowawayLabels(catalogues)
  for (const catalogue of Object.values(catalogues)) (catalogue.entity as Record<string, unknown>).gadget_shipment = { one: 'Gadget shipment', other: 'Gadget shipments' }
})
afterAll(() => {
  undoLabels()
  for (const catalogue of Object.values(catalogues)) delete (catalogue.entity as Record<string, unknown>).gadget_shipment
})

type LogRow = { debit_amount: string; credit_amount: string; log_date: string; reverses: number | null }

describeEachDatabase(
  'records moved to another period of their numbering',
  (t) => {
    const logsOf = async (reference: string) =>
      (await sql<LogRow>`select debit_amount, credit_amount, log_date, reverses from account_log where reference_no = ${reference} order by id`.execute(t.current.db)).rows
    const netsToZero = (rows: LogRow[]) => money.sum(rows.map((r) => r.debit_amount)) === money.sum(rows.map((r) => r.credit_amount)) && rows.slice(rows.length / 2).every((r) => r.reverses !== null)
    const numbersIn = async (table: string, column: string, value: string) => Number((await sql<{ n: number }>`select count(*)::int as n from ${sql.id(table)} where ${sql.ref(column)} = ${value}`.execute(t.current.db)).rows[0]!.n)

    it('gives a voucher moved to another day the next number of that day and reverses what its old number posted', async () => {
      const RECEIPTS = registry.receipt_voucher.api.base
      const [cash, customer] = [await seededLedger(t.current.db, 'Cash'), await ledgerUnder(t.current.db, 'Moved Customer', 'Customers')]
      const receipt = (date: string) =>
        t.current.call({ method: 'POST', url: `${RECEIPTS}/create/`, payload: { receipt_date: date, details: 'Moved', items: [{ ledger: cash, debit_amount: '80' }, { ledger: customer, credit_amount: '80' }] } })
      const first = await receipt('2026-04-15')
      expect(first.status, first.raw).toBe(201)
      expect(first.body.receipt_vouchers[0].invoice_no).toBe('RV20260415001')
      expect((await receipt('2026-04-16')).body.receipt_vouchers[0].invoice_no).toBe('RV20260416001')

      // The contract's update by invoice number, to the next day.
      const moved = await t.current.call({ method: 'PUT', url: `${RECEIPTS}/update/`, payload: { invoice_no: 'RV20260415001', receipt_date: '2026-04-16' } })
      expect(moved.status, moved.raw).toBe(200)
      expect(moved.body.detail).toBe('ReceiptVoucher RV20260416002 updated successfully')
      expect(moved.body.data.receipt_vouchers.map((r: { invoice_no: string; receipt_date: string }) => [r.invoice_no, r.receipt_date])).toEqual([
        ['RV20260416002', '2026-04-16'],
        ['RV20260416002', '2026-04-16'],
      ])
      expect(await numbersIn('receipt_voucher', 'invoice_no', 'RV20260415001')).toBe(0)
      const old = await logsOf('RV20260415001')
      expect(old).toHaveLength(4)
      expect(netsToZero(old)).toBe(true)
      expect((await logsOf('RV20260416002')).map((r) => [r.debit_amount, r.credit_amount, r.log_date, r.reverses])).toEqual([
        ['80.00', '0.00', '2026-04-16', null],
        ['0.00', '80.00', '2026-04-16', null],
      ])
      // The old number is not given back: the 15th's next voucher is its second.
      expect((await receipt('2026-04-15')).body.receipt_vouchers[0].invoice_no).toBe('RV20260415002')

      // A change within the day keeps the number (by a line's id, as the form sends it): reposted under it.
      const lineId = moved.body.data.receipt_vouchers[0].id as number
      const same = await t.current.call({ method: 'PATCH', url: `${RECEIPTS}/update/${lineId}`, payload: { receipt_date: '2026-04-16', details: 'Moved, then noted' } })
      expect(same.status, same.raw).toBe(200)
      expect(same.body.data.receipt_vouchers[0].invoice_no).toBe('RV20260416002')
      expect((await logsOf('RV20260416002')).map((r) => [r.debit_amount, r.credit_amount, r.reverses === null])).toEqual([
        ['80.00', '0.00', true],
        ['0.00', '80.00', true],
        ['0.00', '80.00', false],
        ['80.00', '0.00', false],
        ['80.00', '0.00', true],
        ['0.00', '80.00', true],
      ])
    })

    it('renumbers a document kept one row per line, every row of it, and audits the change of number', async () => {
      const country = await createRow(t.current, registry.country, { name: 'Moveland' })
      const depot = Number((await createRow(t.current, registry.city, { name: 'Move Depot', country: country.id })).id)
      const made = await t.current.call({ method: 'POST', url: `${deliveryNote.api.base}/create/`, payload: { note_date: '2026-05-04', depot, items: [{ gadget: depot, quantity: 2 }, { gadget: Number((await createRow(t.current, registry.city, { name: 'Move Hub', country: country.id })).id), quantity: 1 }] } })
      expect(made.status, made.raw).toBe(201)
      expect(made.body.number).toBe('DN20260504001')
      const moved = await t.current.call({ method: 'PATCH', url: `${deliveryNote.api.base}/update/${made.body.id}`, payload: { note_date: '2026-05-06' } })
      expect(moved.status, moved.raw).toBe(200)
      expect(moved.body).toMatchObject({ number: 'DN20260506001', note_date: '2026-05-06' })
      expect(await numbersIn('delivery_note', 'number', 'DN20260506001')).toBe(2)
      expect(await numbersIn('delivery_note', 'number', 'DN20260504001')).toBe(0)
      expect((await t.current.call({ method: 'GET', url: `${deliveryNote.api.base}/document/${made.body.items[1].id}` })).body.number).toBe('DN20260506001')
      const audit = await sql<{ changes: Record<string, unknown> }>`select changes from audit_log where entity = 'delivery_note' and entity_id = ${made.body.id} and action = 'update'`.execute(t.current.db)
      expect(audit.rows.map((r) => r.changes.number)).toEqual([['DN20260504001', 'DN20260506001']])
      // Within its day: kept.
      const same = await t.current.call({ method: 'PATCH', url: `${deliveryNote.api.base}/update/${made.body.id}`, payload: { remark: 'Later' } })
      expect(same.body.number).toBe('DN20260506001')
    })

    it('renumbers a record by its own period and its posting by the posting’s, each only when its period changes', async () => {
      const base = shipment.api.base
      const made = await t.current.call({ method: 'POST', url: `${base}/create/`, payload: { shipped_on: '2025-03-01', value: '10.00' } })
      expect(made.status, made.raw).toBe(201)
      expect(made.body).toMatchObject({ number: 'GS2025001', journal_no: 'JO20250301001' })

      // Another day of the same year: its own number stays, its journal (counted per day) moves.
      const nextDay = await t.current.call({ method: 'PATCH', url: `${base}/update/${made.body.id}`, payload: { shipped_on: '2025-03-02' } })
      expect(nextDay.status, nextDay.raw).toBe(200)
      expect(nextDay.body).toMatchObject({ number: 'GS2025001', journal_no: 'JO20250302001' })
      expect(await numbersIn('journal', 'invoice_no', 'JO20250301001')).toBe(0)
      expect(netsToZero(await logsOf('JO20250301001'))).toBe(true)
      expect((await logsOf('JO20250301001')).length).toBe(4)
      expect((await logsOf('JO20250302001')).map((r) => [r.debit_amount, r.credit_amount, r.log_date])).toEqual([
        ['10.00', '0.00', '2025-03-02'],
        ['0.00', '10.00', '2025-03-02'],
      ])

      // Another year: both move.
      const nextYear = await t.current.call({ method: 'PATCH', url: `${base}/update/${made.body.id}`, payload: { shipped_on: '2026-01-05' } })
      expect(nextYear.body).toMatchObject({ number: 'GS2026001', journal_no: 'JO20260105001' })
      expect(netsToZero(await logsOf('JO20250302001'))).toBe(true)
      const audit = await sql<{ changes: Record<string, unknown> }>`select changes from audit_log where entity = 'gadget_shipment' and entity_id = ${made.body.id} and action = 'update' order by id`.execute(t.current.db)
      expect(audit.rows.map((r) => [r.changes.number, r.changes.journal_no])).toEqual([
        [undefined, ['JO20250301001', 'JO20250302001']],
        [['GS2025001', 'GS2026001'], ['JO20250302001', 'JO20260105001']],
      ])

      // A change that keeps the day keeps both, and reposts under the same journal number.
      const revalued = await t.current.call({ method: 'PATCH', url: `${base}/update/${made.body.id}`, payload: { value: '12.00' } })
      expect(revalued.body).toMatchObject({ number: 'GS2026001', journal_no: 'JO20260105001' })
      expect((await logsOf('JO20260105001')).map((r) => [r.debit_amount, r.credit_amount, r.reverses === null])).toEqual([
        ['10.00', '0.00', true],
        ['0.00', '10.00', true],
        ['0.00', '10.00', false],
        ['10.00', '0.00', false],
        ['12.00', '0.00', true],
        ['0.00', '12.00', true],
      ])
      // The year's next shipment: the old number is not given back.
      expect((await t.current.call({ method: 'POST', url: `${base}/create/`, payload: { shipped_on: '2025-07-01', value: '1.00' } })).body.number).toBe('GS2025002')
    })
  },
  { entities: [...throwawayEntities, shipment], reports: throwawayReports, modules: [throwawayStub, stockTransferModule, shipmentModule] },
)
