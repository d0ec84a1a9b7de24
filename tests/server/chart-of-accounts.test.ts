import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { registry } from '../../schema'
import { PRIMARY_GROUPS, seedChart, SEEDED_GROUPS, SEEDED_LEDGERS } from '../../server/domain/accounting/chart-seed'
import { describeEachDatabase, type TestApp } from './helpers/app'
import { countRows, createSample } from './helpers/samples'

/**
 * The chart of accounts (issue 10, api-contract §4.6): the seeded primary groups, groups and
 * ledgers, exactly one head, no cycles, seeded rows never deleted, nature and normal balance
 * from the primary group, and the employee's automatic ledger (§4.1, §5.1).
 */
const PRIMARY = registry.primary_group.api.base
const GROUP = registry.group.api.base
const LEDGER = registry.ledger_account.api.base
const SUB_LEDGER = registry.sub_ledger_account.api.base

let sequence = 0
const unique = (prefix: string) => `${prefix} ${String.fromCharCode(97 + (++sequence % 26))}${sequence}`

async function idOf(t: TestApp, table: 'primary_group' | 'group', name: string): Promise<number> {
  const found = await sql<{ id: number }>`select id from ${sql.table(table)} where name = ${name}`.execute(t.db)
  return Number(found.rows[0]!.id)
}

const TREE = {
  Assets: {
    'Current Assets': {
      'Bank Accounts': {}, 'Cash-in-Hand': {}, 'Deposits (Asssets)': {}, 'Loans and Advances (Assets)': {}, 'Stock-in-Hand': {}, 'Sundry Debtors': { Customers: {} },
    },
    'Fixed Assets': {}, Investments: {}, 'Misc. Expenses (ASSETS)': {},
  },
  Liabilities: {
    'Branch / Divisions': {}, 'Capital Account': { 'Reserves & Surplus': {} }, 'Current Liabilities': { 'Duties & Taxes': {}, Provisions: {}, 'Sundry Creditors': {} },
    Salary: {}, Investment: {}, 'Loans (Liability)': { 'Bank OD A/c': {}, 'Secured Loans': {}, 'Unsecured Loans': {} }, 'Suspense A/c': {},
  },
  Expenses: { 'Direct Expenses': {}, 'Indirect Expenses': {}, 'Purchase Accounts': {} },
  Incomes: { 'Direct Incomes': {}, 'Indirect Incomes': {}, 'Sales Accounts': {} },
}

type Tree = { [name: string]: Tree }
type Listed = { id: number; name: string; head_group: { id: number; name: string } | null; head_primarygroup: { id: number; name: string } | null; is_deletable: boolean; nature: string; normal_balance: string }

describeEachDatabase('chart of accounts', (t) => {
  it('seeds the four primary groups, the 31 groups and the 6 ledgers of §4.6 exactly — with the 3 of perpetual inventory, the order’s 2 and Round Off — none deletable, and seeds nothing twice', async () => {
    const primaries = (await t.current.call({ method: 'GET', url: `${PRIMARY}/without_pagination/all/` })).body.primary_groups as Listed[]
    expect(primaries.map((p) => [p.name, p.is_deletable])).toEqual(PRIMARY_GROUPS.map((n) => [n, false]))
    const groups = (await t.current.call({ method: 'GET', url: `${GROUP}/without_pagination/all/` })).body.groups as Listed[]
    expect(groups).toHaveLength(31)
    // The tree as it is stored, rebuilt from each group's head.
    const childrenOf = (head: (g: Listed) => boolean): Tree => Object.fromEntries(groups.filter(head).map((g) => [g.name, childrenOf((c) => c.head_group?.id === g.id)]))
    const tree = Object.fromEntries(primaries.map((p) => [p.name, childrenOf((g) => g.head_primarygroup?.id === p.id)]))
    expect(tree).toEqual(TREE)
    expect(groups.every((g) => g.is_deletable === false)).toBe(true)
    // The chart's own (not deletable); the ledgers the payment methods are received into come beside them (membership).
    const ledgers = ((await t.current.call({ method: 'GET', url: `${LEDGER}/without_pagination/all/` })).body.ledger_accounts as Listed[]).filter((l) => l.is_deletable === false)
    const headName = (l: Listed) => l.head_group?.name ?? l.head_primarygroup?.name
    expect(ledgers.map((l) => [l.name, headName(l), l.is_deletable]).sort()).toEqual(
      [['Bank', 'Bank Accounts'], ['Cash', 'Cash-in-Hand'], ['Profit & Loss A/C', 'Liabilities'], ['Company Purchase', 'Purchase Accounts'], ['Company Sales', 'Sales Accounts'], ['Opening Balance Of Customer', 'Customers'], ['Stock In Hand', 'Stock-in-Hand'], ['Stock Adjustment', 'Indirect Expenses'], ['Cost of Goods Sold', 'Direct Expenses'], ['Shipping Charges', 'Direct Incomes'], ['Output Tax', 'Duties & Taxes'], ['Round Off', 'Indirect Expenses']]
        .map(([n, h]) => [n, h, false])
        .sort(),
    )
    expect(SEEDED_GROUPS).toHaveLength(31)
    expect(SEEDED_LEDGERS).toHaveLength(12)
    // Every start seeds again: nothing is added twice.
    await t.current.db.transaction().execute((trx) => seedChart(trx))
    expect([await countRows(t.current, 'primary_group'), await countRows(t.current, 'group')]).toEqual([4, 31])
    expect((await sql<{ n: number }>`select count(*)::int as n from ledger_account where is_deletable = false`.execute(t.current.db)).rows[0]!.n).toBe(12)
  })

  it('answers the contract list keys and nests a head as {id, name}; primary groups have no create or update', async () => {
    const page = await t.current.call({ method: 'GET', url: `${GROUP}/all/?page=1&size=5` })
    expect(Object.keys(page.body).sort()).toEqual(['groups', 'page', 'size', 'total_elements', 'total_pages'])
    expect(page.body.total_elements).toBeGreaterThanOrEqual(31)
    const salary = (await t.current.call({ method: 'GET', url: `${GROUP}/search/?name=salary` })).body.groups as Listed[]
    expect(salary).toHaveLength(1)
    expect(salary[0]!.head_primarygroup).toEqual({ id: await idOf(t.current, 'primary_group', 'Liabilities'), name: 'Liabilities' })
    expect(salary[0]!.head_group).toBeNull()
    expect(Object.keys((await t.current.call({ method: 'GET', url: `${LEDGER}/all/` })).body)).toContain('ledger_accounts')
    expect(Object.keys((await t.current.call({ method: 'GET', url: `${PRIMARY}/all/` })).body)).toContain('primary_groups')
    const sub = await t.current.call({ method: 'POST', url: `${SUB_LEDGER}/create/`, payload: { name: 'Office Rent' } })
    expect(sub.status, sub.raw).toBe(201)
    expect(sub.body.name).toBe('office_rent')
    expect((await t.current.call({ method: 'GET', url: `${SUB_LEDGER}/all/` })).body.sub_ledger_accounts.map((s: Listed) => s.name)).toContain('office_rent')
    expect((await t.current.call({ method: 'POST', url: `${PRIMARY}/create/`, payload: { name: 'Equity' } })).status).toBe(404)
    expect((await t.current.call({ method: 'PUT', url: `${PRIMARY}/update/1`, payload: { name: 'Equity' } })).status).toBe(404)
  })

  it('takes exactly one head: neither or both is refused with the contract messages, in the request language', async () => {
    const assets = await idOf(t.current, 'primary_group', 'Assets')
    const current = await idOf(t.current, 'group', 'Current Assets')
    for (const base of [GROUP, LEDGER]) {
      const neither = await t.current.call({ method: 'POST', url: `${base}/create/`, payload: { name: unique('Orphan') } })
      expect(neither.status).toBe(400)
      expect(neither.body).toEqual({ head_group: ['Must provide either Head Group or Head Primary Group.'] })
      const both = await t.current.call({ method: 'POST', url: `${base}/create/`, payload: { name: unique('Twice'), head_group: current, head_primarygroup: assets } })
      expect(both.status).toBe(400)
      expect(both.body).toEqual({ head_group: ['Must provide either Head Group or Head Primary Group, but not both.'] })
      const tr = await t.current.call({ method: 'POST', url: `${base}/create/`, payload: { name: unique('Twice'), head_group: current, head_primarygroup: assets }, headers: { 'accept-language': 'tr' } })
      expect(tr.body).toEqual({ head_group: ['Üst Grup ya da Üst Ana Grup seçilmelidir, ikisi birden değil.'] })
    }
    const before = await countRows(t.current, 'group')
    const ok = await t.current.call({ method: 'POST', url: `${GROUP}/create/`, payload: { name: unique('petty cash'), head_group: current } })
    expect(ok.status, ok.raw).toBe(201)
    expect(ok.body.is_deletable).toBe(true)
    expect(await countRows(t.current, 'group')).toBe(before + 1)
  })

  it('refuses a group under itself or under its own descendant (400 on head_group) and keeps the tree', async () => {
    const assets = await idOf(t.current, 'primary_group', 'Assets')
    const create = async (name: string, head: Record<string, number>) => (await t.current.call({ method: 'POST', url: `${GROUP}/create/`, payload: { name, ...head } })).body.id as number
    const a = await create(unique('Tree A'), { head_primarygroup: assets })
    const b = await create(unique('Tree B'), { head_group: a })
    const c = await create(unique('Tree C'), { head_group: b })
    for (const head of [a, c]) {
      const res = await t.current.call({ method: 'PATCH', url: `${GROUP}/update/${a}`, payload: { head_group: head, head_primarygroup: null } })
      expect(res.status, res.raw).toBe(400)
      expect(res.body).toEqual({ head_group: ['A group cannot be placed under itself or under one of its own subgroups.'] })
    }
    expect((await t.current.call({ method: 'GET', url: `${GROUP}/${a}` })).body).toMatchObject({ head_group: null, head_primarygroup: assets })
    // Moving a subtree elsewhere is fine.
    const moved = await t.current.call({ method: 'PATCH', url: `${GROUP}/update/${c}`, payload: { head_group: a } })
    expect(moved.status, moved.raw).toBe(200)
  })

  it('never deletes a seeded row (400 {detail} in each language), nor takes one in a multiple delete, and keeps its flag', async () => {
    const salary = await idOf(t.current, 'group', 'Salary')
    const del = await t.current.call({ method: 'DELETE', url: `${GROUP}/delete/${salary}` })
    expect(del.status).toBe(400)
    expect(del.body).toEqual({ detail: "The Group 'Salary' belongs to the standard chart of accounts and cannot be deleted." })
    const ar = await t.current.call({ method: 'DELETE', url: `${GROUP}/delete/${salary}`, headers: { 'accept-language': 'ar' } })
    expect(ar.body.detail).toContain("'Salary'")
    expect(ar.body.detail).toContain('دليل الحسابات')
    const assets = await idOf(t.current, 'primary_group', 'Assets')
    expect((await t.current.call({ method: 'DELETE', url: `${PRIMARY}/delete/${assets}` })).status).toBe(400)
    const cash = (await sql<{ id: number }>`select id from ledger_account where name = 'Cash' and is_deletable = false`.execute(t.current.db)).rows[0]!.id
    expect((await t.current.call({ method: 'DELETE', url: `${LEDGER}/delete/${cash}` })).status).toBe(400)
    const mine = (await t.current.call({ method: 'POST', url: `${GROUP}/create/`, payload: { name: unique('Spare'), head_group: salary } })).body.id as number
    const many = await t.current.call({ method: 'DELETE', url: `${GROUP}/delete_multiple/`, payload: { ids: [mine, salary] } })
    expect(many.status).toBe(400)
    expect((await t.current.call({ method: 'GET', url: `${GROUP}/${mine}` })).status).toBe(200)
    // The flag is the server's: a client cannot clear it.
    const cleared = await t.current.call({ method: 'PATCH', url: `${GROUP}/update/${salary}`, payload: { is_deletable: true } })
    expect(cleared.status, cleared.raw).toBe(200)
    expect(cleared.body.is_deletable).toBe(false)
    expect((await t.current.call({ method: 'DELETE', url: `${GROUP}/delete/${mine}` })).status).toBe(200)
  })

  it('derives nature and normal balance from the primary group at the root, on lists and records, and follows a move', async () => {
    const groups = (await t.current.call({ method: 'GET', url: `${GROUP}/without_pagination/all/` })).body.groups as Listed[]
    const of = (name: string) => groups.find((g) => g.name === name)!
    expect([of('Customers').nature, of('Customers').normal_balance]).toEqual(['assets', 'debit'])
    expect([of('Salary').nature, of('Salary').normal_balance]).toEqual(['liabilities', 'credit'])
    expect([of('Bank OD A/c').nature, of('Bank OD A/c').normal_balance]).toEqual(['liabilities', 'credit'])
    expect([of('Purchase Accounts').nature, of('Purchase Accounts').normal_balance]).toEqual(['expenses', 'debit'])
    expect([of('Sales Accounts').nature, of('Sales Accounts').normal_balance]).toEqual(['incomes', 'credit'])
    const ledgers = (await t.current.call({ method: 'GET', url: `${LEDGER}/without_pagination/all/` })).body.ledger_accounts as Listed[]
    const sales = ledgers.find((l) => l.name === 'Company Sales')!
    expect((await t.current.call({ method: 'GET', url: `${LEDGER}/${sales.id}` })).body).toMatchObject({ nature: 'incomes', normal_balance: 'credit' })
    expect(ledgers.find((l) => l.name === 'Profit & Loss A/C')).toMatchObject({ nature: 'liabilities', normal_balance: 'credit' })
    // Where money is held: what a voucher's ledger search marks (domain-anchors §1.2).
    const seeded = ledgers.filter((l) => l.is_deletable === false)
    expect(seeded.filter((l) => (l as Listed & { is_cash_bank: boolean }).is_cash_bank).map((l) => l.name).sort()).toEqual(['Bank', 'Cash'])
    // A payment method's own ledger (bkash's) sits under Bank Accounts: money held, too.
    expect(ledgers.find((l) => l.name === 'Bkash Account')).toMatchObject({ is_cash_bank: true })
    expect((await t.current.call({ method: 'GET', url: `${LEDGER}/${sales.id}` })).body.is_cash_bank).toBe(false)
    const primaries = (await t.current.call({ method: 'GET', url: `${PRIMARY}/all/` })).body.primary_groups as Listed[]
    expect(primaries.map((p) => p.normal_balance)).toEqual(['debit', 'credit', 'debit', 'credit'])
    // Moving a group moves what lies under it.
    const top = (await t.current.call({ method: 'POST', url: `${GROUP}/create/`, payload: { name: unique('Movable'), head_primarygroup: await idOf(t.current, 'primary_group', 'Expenses') } })).body
    const ledger = (await t.current.call({ method: 'POST', url: `${LEDGER}/create/`, payload: { name: unique('Rent'), head_group: top.id, ledger_type: 'Office Rent' } })).body
    expect(ledger).toMatchObject({ nature: 'expenses', normal_balance: 'debit', ledger_type: 'office_rent' })
    await t.current.call({ method: 'PATCH', url: `${GROUP}/update/${top.id}`, payload: { head_primarygroup: await idOf(t.current, 'primary_group', 'Incomes') } })
    expect((await t.current.call({ method: 'GET', url: `${LEDGER}/${ledger.id}` })).body).toMatchObject({ nature: 'incomes', normal_balance: 'credit' })
  })

  it('creates an employee with its ledger under Salary in the same transaction, and refuses the create without a Salary group', async () => {
    const { row } = await createSample(t.current, registry.employee)
    const ledgers = (await t.current.call({ method: 'GET', url: `${LEDGER}/search/?name=${encodeURIComponent(String(row.username))}` })).body.ledger_accounts as Listed[]
    const own = (await sql<Record<string, unknown>>`select * from ledger_account where reference_id = ${String(row.id)} and ledger_type = 'employee_ledger'`.execute(t.current.db)).rows
    expect(own).toHaveLength(1)
    expect(own[0]).toMatchObject({ ledger_type: 'employee_ledger', reference_id: String(row.id), head_primarygroup: null, is_deletable: true })
    expect(Number(own[0]!.head_group)).toBe(await idOf(t.current, 'group', 'Salary'))
    expect(String(own[0]!.name).toLowerCase()).toBe(String(row.username).toLowerCase())
    expect(ledgers.map((l) => l.id)).toContain(Number(own[0]!.id))

    const salary = await idOf(t.current, 'group', 'Salary')
    expect((await t.current.call({ method: 'PATCH', url: `${GROUP}/update/${salary}`, payload: { name: 'Wages' } })).status).toBe(200)
    try {
      const [employees, accounts] = [await countRows(t.current, 'employee'), await countRows(t.current, 'ledger_account')]
      const refused = await createSample(t.current, registry.employee).catch((e: Error) => e)
      expect(refused).toBeInstanceOf(Error)
      expect((refused as Error).message).toContain(`{"detail":"Please insert a 'Salary' data in the Group table and then try again"}`)
      expect([await countRows(t.current, 'employee'), await countRows(t.current, 'ledger_account')]).toEqual([employees, accounts])
    } finally {
      await t.current.call({ method: 'PATCH', url: `${GROUP}/update/${salary}`, payload: { name: 'Salary' } })
    }
  })

  it('refuses to delete an account with postings (409 naming them)', async () => {
    const ledger = (await t.current.call({ method: 'POST', url: `${LEDGER}/create/`, payload: { name: unique('Posted'), head_group: await idOf(t.current, 'group', 'Indirect Expenses') } })).body.id as number
    await sql`insert into account_log (ledger, reference_no, log_type, debit_amount, credit_amount, log_date) values (${ledger}, 'JO20260101001', 'journal', 1, 0, '2026-01-01')`.execute(t.current.db)
    const del = await t.current.call({ method: 'DELETE', url: `${LEDGER}/delete/${ledger}` })
    expect(del.status).toBe(409)
    expect(del.body.detail).toMatch(/cannot be deleted/)
  })
})
