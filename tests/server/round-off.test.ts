import { sql } from 'kysely'
import { beforeAll, expect, it } from 'vitest'
import { describeEachDatabase, type Reply } from './helpers/app'

/**
 * A voucher's rounding (domain-anchors rule 35; issue 24's "rounding ledger"): debits and
 * credits a few cents apart — up to 0.05 — are saved, and the difference is posted to the
 * seeded Round Off ledger on the short side, so the general ledger balances to the cent;
 * more than that is refused, and a contra (cash to bank) must balance exactly.
 */
describeEachDatabase('round off', (t) => {
  const call = (o: Parameters<typeof t.current.call>[0]) => t.current.call(o)
  let ledger: Record<string, number>

  beforeAll(async () => {
    const found = await sql<{ id: number; name: string }>`select id, name from ledger_account where name in ('Cash', 'Bank', 'Company Purchase', 'Shipping Charges', 'Round Off') and is_deletable = false`.execute(t.current.db)
    ledger = Object.fromEntries(found.rows.map((r) => [r.name, Number(r.id)]))
  })

  const post = (kind: string, header: Record<string, unknown>, items: Array<Record<string, unknown>>): Promise<Reply> => call({ method: 'POST', url: `/${kind}/api/v1/${kind}/create/`, payload: { ...header, items } })
  const rowsOf = async (reference: string) =>
    (
      await sql<{ name: string; debit_amount: string; credit_amount: string }>`select l.name, a.debit_amount, a.credit_amount from account_log a join ledger_account l on l.id = a.ledger where a.reference_no = ${reference} order by a.id`.execute(t.current.db)
    ).rows.map((r) => [r.name, r.debit_amount, r.credit_amount])

  it('seeds the Round Off ledger under Indirect Expenses, not to be deleted', async () => {
    const row = (await sql<{ group_name: string; is_deletable: boolean }>`select g.name as group_name, l.is_deletable from ledger_account l join "group" g on g.id = l.head_group where l.name = 'Round Off'`.execute(t.current.db)).rows
    expect(row).toEqual([{ group_name: 'Indirect Expenses', is_deletable: false }])
  })

  it('posts a journal three cents apart with the difference credited to Round Off', async () => {
    const res = await post('journal', { journal_date: '2026-05-04' }, [
      { ledger: ledger['Company Purchase'], debit_amount: '100.00' },
      { ledger: ledger['Shipping Charges'], credit_amount: '99.97' },
    ])
    expect(res.status, res.raw).toBe(201)
    expect(await rowsOf(res.body.journals[0].invoice_no)).toEqual([
      ['Company Purchase', '100.00', '0.00'],
      ['Shipping Charges', '0.00', '99.97'],
      ['Round Off', '0.00', '0.03'],
    ])
  })

  it('debits Round Off when the credits are the larger side', async () => {
    const res = await post('payment_voucher', { payment_date: '2026-05-05' }, [
      { ledger: ledger['Company Purchase'], debit_amount: '49.98' },
      { ledger: ledger.Cash, credit_amount: '50.00' },
    ])
    expect(res.status, res.raw).toBe(201)
    expect(await rowsOf(res.body.payment_vouchers[0].invoice_no)).toEqual([
      ['Company Purchase', '49.98', '0.00'],
      ['Cash', '0.00', '50.00'],
      ['Round Off', '0.02', '0.00'],
    ])
  })

  it('refuses more than five cents apart, and a contra any', async () => {
    const far = await post('journal', { journal_date: '2026-05-04' }, [
      { ledger: ledger['Company Purchase'], debit_amount: '100.00' },
      { ledger: ledger['Shipping Charges'], credit_amount: '99.94' },
    ])
    expect(far.status).toBe(400)
    expect(far.body).toEqual({ items: ['Total debit (100.00) and total credit (99.94) must be equal: they differ by 0.06.'] })
    const contra = await post('contra', { contra_date: '2026-05-04' }, [
      { ledger: ledger.Bank, debit_amount: '10.00' },
      { ledger: ledger.Cash, credit_amount: '9.99' },
    ])
    expect(contra.status).toBe(400)
  })

  it('keeps the general ledger balanced to the cent', async () => {
    const totals = (await sql<{ debit: string; credit: string }>`select sum(debit_amount)::text as debit, sum(credit_amount)::text as credit from account_log`.execute(t.current.db)).rows[0]!
    expect(totals.debit).toBe(totals.credit)
  })
})
