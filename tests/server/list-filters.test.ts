import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { registry } from '../../schema'
import { registrySchema } from '../../server/db/registry-schema'
import { entities } from '../../schema'
import { describeEachDatabase, type TestApp } from './helpers/app'
import { createReferences, createRow, sampleInput, type RefIds } from './helpers/samples'

/**
 * The list's filters on the server (issue 8): ranges of dates and datetimes
 * (`<field>_after` / `<field>_before`, inclusive days) and of numbers and money
 * (`<field>_min` / `<field>_max`), beside the equality filters; bad values answered with a
 * 400 field map in the request's language; exact counts; indexes behind the filters.
 */
const ids = (rows: Array<{ id: number }>) => rows.map((r) => r.id).sort((a, b) => a - b)
const base = registry.employee.api.base

/** Employees of a department of their own, so that a filter on it sees only this test's rows. */
async function staffOf(t: TestApp, people: Array<Record<string, unknown>>): Promise<{ department: number; refIds: RefIds; ids: number[] }> {
  const refIds = await createReferences(t, registry.employee)
  const department = (await createRow(t, registry.department, sampleInput(registry.department, {}))).id as number
  const created: number[] = []
  for (const person of people) created.push((await createRow(t, registry.employee, { ...sampleInput(registry.employee, refIds), department, ...person })).id as number)
  return { department, refIds, ids: created }
}

async function search(t: TestApp, query: string, headers: Record<string, string> = {}) {
  return t.call({ method: 'GET', url: `${base}/search/?${query}`, headers })
}

describeEachDatabase('list filters', (t) => {
  it('filters dates by range, both ends inclusive, and counts exactly', async () => {
    const { department, ids: [jan, feb, mar, none] } = await staffOf(t.current, [
      { emp_join_date: '2024-01-31' },
      { emp_join_date: '2024-02-15' },
      { emp_join_date: '2024-03-01' },
      { emp_join_date: null },
    ])
    const found = async (range: string) => {
      const res = await search(t.current, `department=${department}&${range}&size=100`)
      expect(res.status, res.raw).toBe(200)
      expect(res.body.total_elements, range).toBe(res.body.employees.length)
      return ids(res.body.employees)
    }
    expect(await found('emp_join_date_after=2024-02-01')).toEqual([feb, mar])
    expect(await found('emp_join_date_before=2024-02-15')).toEqual([jan, feb])
    expect(await found('emp_join_date_after=2024-01-31&emp_join_date_before=2024-03-01')).toEqual([jan, feb, mar])
    expect(await found('emp_join_date_after=2024-02-16&emp_join_date_before=2024-02-28')).toEqual([])
    // An empty bound is no bound; a row without a date is in no range.
    expect(await found('emp_join_date_after=&emp_join_date_before=')).toEqual([jan, feb, mar, none])
    // Paged, the count is the filtered one.
    const paged = await search(t.current, `department=${department}&emp_join_date_after=2024-02-01&size=1`)
    expect(paged.body).toMatchObject({ total_elements: 2, total_pages: 2, size: 1 })
    await t.current.call({ method: 'PUT', url: `${base}/update/${jan}`, payload: { emp_join_date: '2024-02-20' } })
    expect((await search(t.current, `department=${department}&emp_join_date_after=2024-02-01&size=1`)).body.total_elements).toBe(3)
  })

  it('filters a datetime by whole days: _before takes in the whole of its day', async () => {
    const { department, ids: [a, b, c] } = await staffOf(t.current, [{}, {}, {}])
    const at = { [a!]: '2024-05-10T12:00:00Z', [b!]: '2024-05-11T12:00:00Z', [c!]: '2024-05-12T12:00:00Z' }
    for (const [id, when] of Object.entries(at)) await sql`update "user" set last_login = ${when}::timestamptz where id = ${Number(id)}`.execute(t.current.db)
    const found = async (range: string) => ids((await search(t.current, `department=${department}&${range}&size=100`)).body.employees)
    expect(await found('last_login_after=2024-05-11&last_login_before=2024-05-11')).toEqual([b])
    expect(await found('last_login_before=2024-05-11')).toEqual([a, b])
    expect(await found('last_login_after=2024-05-11T13:00:00Z')).toEqual([c])
  })

  it('filters numbers and money by range (_min, _max), a fractional bound of a whole number included', async () => {
    const { department, ids: [low, mid, high] } = await staffOf(t.current, [{ basic_money: 900 }, { basic_money: 1000 }, { basic_money: 2500 }])
    const found = async (range: string) => ids((await search(t.current, `department=${department}&${range}&size=100`)).body.employees)
    expect(await found('basic_money_min=1000')).toEqual([mid, high])
    expect(await found('basic_money_max=1000')).toEqual([low, mid])
    expect(await found('basic_money_min=900.5&basic_money_max=2499.99')).toEqual([mid])
    expect(await found('basic_money_min=-5&basic_money_max=99999999999999999999')).toEqual([low, mid, high])

    const employee = await createReferences(t.current, registry.qualification)
    const grades = []
    for (const grade of ['3.25', '3.50', '4.00']) grades.push((await createRow(t.current, registry.qualification, { ...sampleInput(registry.qualification, employee), grade })).id as number)
    const byGrade = await t.current.call({ method: 'GET', url: `${registry.qualification.api.base}/search/?employee_id=${employee.employee}&grade_min=3.5&grade_max=4` })
    expect(ids(byGrade.body.qualifications)).toEqual(grades.slice(1))
  })

  it('takes a range with the other filters and q on search/, and equality on choices and flags', async () => {
    const { department, ids: [x, y] } = await staffOf(t.current, [
      { emp_join_date: '2024-06-01', gender: 'female', is_active: true, username: `rangefinder${Date.now()}` },
      { emp_join_date: '2024-06-02', gender: 'male', is_active: false },
    ])
    expect(ids((await search(t.current, `department=${department}&gender=female`)).body.employees)).toEqual([x])
    expect(ids((await search(t.current, `department=${department}&is_active=false`)).body.employees)).toEqual([y])
    expect(ids((await search(t.current, `q=rangefinder&emp_join_date_after=2024-06-01`)).body.employees)).toEqual([x])
  })

  it('answers a bad filter value with 400 and a field map in the request’s language, never a 500', async () => {
    const cases: Array<[string, Record<string, string[]>]> = [
      ['emp_join_date_after=2024-02-30', { emp_join_date_after: ['Enter a valid date (YYYY-MM-DD).'] }],
      ['emp_join_date_before=yesterday', { emp_join_date_before: ['Enter a valid date (YYYY-MM-DD).'] }],
      ['last_login_after=noon', { last_login_after: ['Enter a valid date and time.'] }],
      ['basic_money_min=lots', { basic_money_min: ['Enter a number.'] }],
      ['basic_money_min=1e5', { basic_money_min: ['Enter a number.'] }],
      ['emp_join_date_after=2024-03-01&emp_join_date_before=2024-02-01', { emp_join_date_before: ['The end of the period comes before its start.'] }],
      ['basic_money_min=10&basic_money_max=9.99', { basic_money_max: ['The upper bound is below the lower bound.'] }],
      ['is_active=maybe', { is_active: ['Must be true or false.'] }],
      ['gender=robot', { gender: ['Select a valid choice.'] }],
      ['emp_join_date=2024-13-01&basic_money_max=x', { emp_join_date: ['Enter a valid date (YYYY-MM-DD).'], basic_money_max: ['Enter a number.'] }],
    ]
    for (const [query, body] of cases) {
      const res = await search(t.current, query)
      expect(res.status, query).toBe(400)
      expect(res.body, query).toEqual(body)
    }
    const tr = await search(t.current, 'emp_join_date_after=2024-02-30&basic_money_min=lots', { 'accept-language': 'tr' })
    expect(tr.body).toEqual({ emp_join_date_after: ['Geçerli bir tarih girin (YYYY-AA-GG).'], basic_money_min: ['Bir sayı girin.'] })
    const ar = await search(t.current, 'basic_money_min=10&basic_money_max=1', { 'accept-language': 'ar' })
    expect(ar.body).toEqual({ basic_money_max: ['الحد الأعلى أقل من الحد الأدنى.'] })
    // A range of a field that has none (text), or of no field, is an unknown parameter: 400 {detail}.
    for (const query of ['first_name_after=2024-01-01', 'nothing_min=1', 'image_max=2']) {
      const res = await search(t.current, query)
      expect(res.status, query).toBe(400)
      expect(res.body, query).toEqual({ detail: expect.stringContaining('emp_join_date_after') })
    }
  })

  it('indexes the columns the lists filter by (ranges and choices; references have theirs)', async () => {
    const spec = registrySchema(entities)
    const indexed = new Set(spec.indexes.map((ix) => `${ix.table}.${ix.column}`))
    for (const e of entities) {
      for (const name of e.filterFields) {
        const field = e.fields[name]!
        if (field.kind === 'boolean') continue
        const table = e.parent && !e.ownFieldNames.includes(name) ? e.parent.name : e.name
        const isUnique = spec.uniques.some((u) => u.table === table && u.column === name && !u.within)
        expect(indexed.has(`${table}.${name}`) || isUnique, `${e.name}.${name}`).toBe(true)
      }
    }
    await sql`analyze employee`.execute(t.current.db)
    await sql`analyze qualification`.execute(t.current.db)
    await sql`set enable_seqscan = off`.execute(t.current.db)
    try {
      const plan = await sql<{ 'QUERY PLAN': string }>`explain select id from employee where emp_join_date >= '2024-01-01'::date and emp_join_date <= '2024-02-01'::date`.execute(t.current.db)
      expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('employee_emp_join_date_idx')
      const grade = await sql<{ 'QUERY PLAN': string }>`explain select id from qualification where grade >= ${'3.5'}::numeric`.execute(t.current.db)
      expect(grade.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('qualification_grade_idx')
    } finally {
      await sql`reset enable_seqscan`.execute(t.current.db)
    }
  })
})
