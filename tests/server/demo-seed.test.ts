import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { entities, registry } from '../../schema'
import { buildApp } from '../../server/app'
import { DEMO_ADMIN, DEMO_STAFF, DEMO_USER, seed } from '../../server/demo/seed'
import { findRow } from '../../server/engine/list-query'
import { validateRecord } from '../../server/engine/validate'
import { JWT_SECRET, describeEachDatabase } from './helpers/app'
import { countRows } from './helpers/samples'

/** The demo data of the first start (spec §5), on both databases. */
const EXPECTED_ROWS: Record<string, number> = {
  country: 249, city: 64, thana: 545, branch: 5, department: 8, designation: 10, customer_type: 5,
  user: 8, employee: 1, customer: 2, vendor: 2, general_setting: 1,
  cms_menu: 3, cms_menu_content: 1, cms_blog_category: 1, cms_blog: 1, member: 1, cause: 1,
}

describeEachDatabase('demo seed', (t) => {
  it('creates the demo admin and the demo rows once; a second start seeds nothing', async () => {
    // The test app already has an admin; the seed only runs on a database without users.
    await sql`delete from "user"`.execute(t.current.db)
    expect(await seed(t.current.db, { isDemo: true, hooks: t.current.app.engine.hooks })).toBe('demo')
    for (const [table, n] of Object.entries(EXPECTED_ROWS)) expect(await countRows(t.current, table), table).toBe(n)
    expect(await seed(t.current.db, { isDemo: true })).toBe('none')
    expect(await countRows(t.current, 'country')).toBe(EXPECTED_ROWS.country)
    // With the app's hooks, the seeded people get their ledger accounts, as a create through the API does.
    const ledgers = await sql<{ ledger_type: string; n: string }>`
      select l.ledger_type, count(*) as n from ledger_account l
      join "user" u on l.reference_id = u.id::text where l.ledger_type <> 'cause_ledger' group by l.ledger_type order by l.ledger_type`.execute(t.current.db)
    expect(ledgers.rows.map((r) => [r.ledger_type, Number(r.n)])).toEqual([['customer_ledger', 2], ['employee_ledger', 1], ['member_ledger', 1], ['vendor_ledger', 2]])
    // The cause's sales entry of its goal (250,000), the confirmed purchase's bill (18,800) and its payment (10,000) are in the general ledger, which ties,
    // with the orders': a delivered sale of 1,220 (cost 820) paid by bkash, a sale of 1,140 with shipping (cost 600) paid 500,
    // and a sale of 240 (cost 135) paid, cancelled and refunded.
    const totals = await sql<{ debit: string; credit: string; n: string }>`select sum(debit_amount)::text as debit, sum(credit_amount)::text as credit, count(*) as n from account_log`.execute(t.current.db)
    expect({ ...totals.rows[0], n: Number(totals.rows[0]!.n) }).toEqual({ debit: '285530.00', credit: '285530.00', n: 31 })
    // Its goods are on hand at their cost, as much as the Stock In Hand ledger holds.
    const stock = await sql<{ value: string }>`select sum(stock_value)::text as value from inventory`.execute(t.current.db)
    expect(stock.rows[0]!.value).toBe('17380.00')
    const stockLedger = await sql<{ value: string }>`select sum(a.debit_amount - a.credit_amount)::text as value from account_log a join ledger_account l on l.id = a.ledger where l.name = 'Stock In Hand'`.execute(t.current.db)
    expect(stockLedger.rows[0]!.value).toBe('17380.00')
    const content = await sql<{ slug: string; value: string }>`select slug, value from cms_menu_content`.execute(t.current.db)
    expect(content.rows[0]!.slug).toBe('tea-gardens-of-srimangal')
  })

  it('keeps the trigger-kept row counts equal to the real counts', async () => {
    for (const table of Object.keys(EXPECTED_ROWS)) {
      const kept = await sql<{ n: string }>`select n from row_count where table_name = ${table}`.execute(t.current.db)
      expect(Number(kept.rows[0]!.n), table).toBe(await countRows(t.current, table))
    }
  })

  it('stores only rows that pass the registry validation unchanged, and passwords as argon2id hashes', async () => {
    for (const entity of entities) {
      const ids = await sql<{ id: number }>`select id from ${sql.id(entity.name)} order by id`.execute(t.current.db)
      // What a client could send back: every field but the server's (read-only) and the secrets (never answered).
      const sendable = entity.fieldNames.filter((n) => !entity.fields[n]!.isReadOnly && !entity.fields[n]!.isWriteOnly)
      for (const { id } of ids.rows) {
        const row = (await findRow(t.current.db, entity, id))!
        // A document's lines go back as they were read, without their display names.
        // A line's computed and read-only values (its total, the cost it left at) are the server's, as the document's are.
        const asSent = (n: string, v: unknown) => {
          const line = entity.fields[n]!.lines?.entity
          const isSent = (k: string) => k !== '_labels' && !line?.fields[k]?.compute && !line?.fields[k]?.isReadOnly
          return v instanceof Date ? v.toISOString() : Array.isArray(v) ? v.map((x) => (typeof x === 'object' && x !== null ? Object.fromEntries(Object.entries(x).filter(([k]) => isSent(k))) : x)) : v
        }
        const values = Object.fromEntries(sendable.map((n) => [n, asSent(n, row[n])]))
        const validated = validateRecord(entity, values, 'update')
        expect(Object.fromEntries(sendable.map((n) => [n, validated[n]])), `${entity.name} ${id}`).toEqual(values)
      }
    }
    const hashes = await sql<{ password: string }>`select password from "user"`.execute(t.current.db)
    for (const { password } of hashes.rows) expect(password).toMatch(/^\$argon2id\$/)
  })

  it('logs in with the demo credentials and lists the police stations of Dhaka', async () => {
    const login = await t.current.call({ method: 'POST', url: '/user/api/v1/user/login/', payload: DEMO_ADMIN, asAnonymous: true })
    expect(login.status).toBe(200)
    const auth = { authorization: `Bearer ${login.body.access}` }
    const dhaka = await t.current.call({ method: 'GET', url: '/city/api/v1/city/search/?name=dhaka', headers: auth })
    const city = dhaka.body.cities.find((c: { name: string }) => c.name === 'Dhaka')
    expect(city.country).toMatchObject({ name: 'Bangladesh' })
    const thanas = await t.current.call({ method: 'GET', url: `/thana/api/v1/thana/all_thana_by_city_id/${city.id}`, headers: auth })
    expect(thanas.body.thanas.map((x: { name: string }) => x.name)).toContain('Gulshan')
    const bangla = await t.current.call({ method: 'GET', url: `/thana/api/v1/thana/search/?bn_name=${encodeURIComponent('গুলশান')}`, headers: auth })
    expect(bangla.body.thanas.map((x: { name: string }) => x.name)).toContain('Gulshan')
    const branches = await t.current.call({ method: 'GET', url: '/branch/api/v1/branch/without_pagination/all/', headers: auth })
    expect(branches.body.branches.map((b: { name: string }) => b.name)).toEqual(
      [...branches.body.branches.map((b: { name: string }) => b.name)].sort(),
    )
  })

  it('signs in the demo admin, staff member and user with the roles ADMIN, STAFF and USER', async () => {
    const tokens: Record<string, string> = {}
    for (const [credentials, role] of [[DEMO_ADMIN, 'ADMIN'], [DEMO_STAFF, 'STAFF'], [DEMO_USER, 'USER']] as const) {
      const login = await t.current.call({ method: 'POST', url: '/user/api/v1/user/login/', payload: credentials, asAnonymous: true })
      expect(login.status, credentials.email).toBe(200)
      expect(login.body.role).toBe(role)
      tokens[role] = `Bearer ${login.body.access}`
    }
    const url = '/employee/api/v1/employee/search/?username=staff'
    expect((await t.current.call({ method: 'GET', url, headers: { authorization: tokens.USER! } })).status).toBe(403)
    const staff = await t.current.call({ method: 'GET', url, headers: { authorization: tokens.STAFF! } })
    expect(staff.body.employees[0]).toMatchObject({ email: DEMO_STAFF.email, branch: { name: 'Head office' }, thana: { name: 'Dhanmondi' } })
  })

  it('offers the demo credentials to the login form only in demo mode', async () => {
    const url = '/api/auth/demo-credentials'
    expect((await t.current.call({ method: 'GET', url, asAnonymous: true })).status).toBe(404)
    const demo = await buildApp({ db: t.current.db, jwtSecret: JWT_SECRET, mediaDir: t.current.mediaDir, isDemo: true })
    try {
      const res = await demo.inject({ method: 'GET', url })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual(DEMO_ADMIN)
    } finally {
      await demo.close()
    }
  })
})

// The registry object is the source of the expected tables; a renamed entity fails here first.
it('expects demo rows for registry entities only', () => {
  for (const name of Object.keys(EXPECTED_ROWS)) expect(Object.values(registry).map((e) => e.name)).toContain(name)
})
