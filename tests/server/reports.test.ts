import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { registry, reportRegistry } from '../../schema'
import { signToken } from '../../server/auth/tokens'
import { JWT_SECRET, describeEachDatabase } from './helpers/app'
import { createReferences, createRow, sampleInput } from './helpers/samples'

/** The app's own reports (schema/reports/): their rows, totals and who may see what. */
const { staff_costs: staffCosts, change_log: changeLog } = reportRegistry

describeEachDatabase('reports', (t) => {
  it('sums staff costs by branch, with the company total in the totals row', async () => {
    const refIds = await createReferences(t.current, registry.employee)
    for (const [basic, allowance] of [[30000, 5000], [42000, 0]]) {
      await createRow(t.current, registry.employee, { ...sampleInput(registry.employee, refIds), basic_money: basic, allowance_money: allowance })
    }
    const res = await t.current.call({ method: 'GET', url: `${staffCosts.api.base}/?branch=${refIds.branch}` })
    expect(res.status, res.raw).toBe(200)
    expect(res.body.rows).toEqual([{ branch: expect.any(String), employees: 2, basic_money: 72000, allowance_money: 5000, total_money: 77000 }])
    expect(res.body.totals).toEqual({ employees: '2', basic_money: '72000', allowance_money: '5000', total_money: '77000' })
    const all = await t.current.call({ method: 'GET', url: `${staffCosts.api.base}/` })
    const employees = (await sql<{ n: string }>`select count(*) as n from employee`.execute(t.current.db)).rows[0]!.n
    expect(all.body.totals.employees).toBe(String(employees))
    // Unpaged: every branch on one page.
    expect(all.body.rows).toHaveLength(all.body.total_elements)
  })

  it('lists changes newest first, only of the records the caller may list', async () => {
    const department = await createRow(t.current, registry.department, { name: 'Change logged' })
    const res = await t.current.call({ method: 'GET', url: `${changeLog.api.base}/?record=department&size=5` })
    expect(res.status, res.raw).toBe(200)
    expect(res.body.rows[0]).toMatchObject({ actor: 'admin@example.com', record: 'department', record_id: department.id, action: 'create', fields: 'name' })
    // A STAFF member does not list users: their changes are not in the log they see.
    const staffId = await t.current.createUser({ email: `staff-log-${t.current.kind}@example.com` })
    await sql`update "user" set role = (select id from role where name = 'STAFF') where id = ${staffId}`.execute(t.current.db)
    const staff = await t.current.call({ method: 'GET', url: `${changeLog.api.base}/?record=user`, headers: { authorization: `Bearer ${await signToken(JWT_SECRET, staffId)}` } })
    expect(staff.status).toBe(200)
    expect(staff.body.total_elements).toBe(0)
    // A document's lines go with the document: who may list role menus sees their items' changes, STAFF does not.
    const menuReaderRole = await sql<{ id: number }>`insert into role (name) values (${`MENU_READER_${t.current.kind.toUpperCase()}`}) returning id`.execute(t.current.db)
    await sql`insert into role_permissions (owner_id, target_id) select ${menuReaderRole.rows[0]!.id}, id from permission where name in ('ROLE_MENU_LIST', 'CHANGE_LOG_VIEW')`.execute(t.current.db)
    const readerId = await t.current.createUser({ email: `menu-reader-${t.current.kind}@example.com` })
    await sql`update "user" set role = ${menuReaderRole.rows[0]!.id} where id = ${readerId}`.execute(t.current.db)
    const asReader = await t.current.call({ method: 'GET', url: `${changeLog.api.base}/?record=role_menu_item`, headers: { authorization: `Bearer ${await signToken(JWT_SECRET, readerId)}` } })
    expect(asReader.status, asReader.raw).toBe(200)
    expect(asReader.body.total_elements).toBeGreaterThan(0)
    const asStaff = await t.current.call({ method: 'GET', url: `${changeLog.api.base}/?record=role_menu_item`, headers: { authorization: `Bearer ${await signToken(JWT_SECRET, staffId)}` } })
    expect(asStaff.body.total_elements).toBe(0)
    const reversed = await t.current.call({ method: 'GET', url: `${changeLog.api.base}/?date_after=2026-02-02&date_before=2026-02-01` })
    expect(reversed.body).toEqual({ date_before: ['The end of the period comes before its start.'] })
  })
})
