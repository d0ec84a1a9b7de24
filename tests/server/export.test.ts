import { gunzipSync } from 'node:zlib'
import { parse } from 'csv-parse/sync'
import ExcelJS from 'exceljs'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registry } from '../../schema'
import { defineEntity, f } from '../../schema/kit'
import { catalogues } from '../../server/i18n'
import { EXPORT_BATCH, openSnapshot } from '../../server/engine/export-rows'
import { exportColumns } from '../../server/engine/export-columns'
import { inertText } from '../../server/engine/export-csv'
import { sheetName } from '../../server/engine/export-xlsx'
import type { Db } from '../../server/db/types'
import type { DomainModule } from '../../server/engine/modules'
import { deliveryNote, throwawayEntities, wish } from '../support/throwaway-registry'
import { callerWith, describeEachDatabase, type Reply, type TestApp } from './helpers/app'
import { throwawayApp, useThrowawayLabels } from './helpers/throwaway-module'
import { createRow } from './helpers/samples'

/**
 * Export of a list (issue 25): every row the list holds — its search, filters, view and
 * order, not a page — as CSV or XLSX, streamed from one snapshot a batch at a time; the
 * caller's LIST and scope as `all/` has them; labels, choices and flags in the caller's
 * language, references by their rows' labels, never a write-only field; CSV cells a
 * spreadsheet would evaluate made inert. Proved on an entity defined here, on the throwaway
 * registry's own-rows and document entities, and on the app's districts.
 */
const gizmo = defineEntity({
  name: 'gizmo',
  module: 'test',
  listKey: 'gizmos',
  route: { area: 'gizmo-management', list: 'gizmos' },
  fields: {
    name: f.text({ max: 80, required: true, search: true }),
    note: f.text({ max: 200, label: 'field.note' }),
    serial: f.integer({ label: 'field.serial_number' }),
    price: f.money({ label: 'field.price' }),
    quantity: f.decimal({ precision: 12, scale: 3, label: 'field.quantity' }),
    is_active: f.boolean({ default: true }),
    made_on: f.date({ label: 'field.emp_join_date' }),
    checked_at: f.datetime({ label: 'field.changed_at' }),
    stage: f.choice(['customer', 'vendor'], { label: 'field.type' }),
    district: f.ref('city', { label: 'field.district' }),
    permissions: f.refs('permission', { label: 'field.permissions' }),
    secret: f.password({ label: 'field.password' }),
  },
})
const GIZMOS = gizmo.api.base

/** While set, reads of gizmo lists wait for it: an export held in the middle of its rows. */
let gate: Promise<void> | null = null
const gateModule: DomainModule = {
  name: 'test-export-gate',
  hooks: { gizmo: { afterRead: async () => void (await gate) } },
  // The throwaway report's rows, from the gizmos (its own module's query gives none).
  reports: { gadget_sales: () => sql`select name as gadget, serial as orders, serial * 2 as quantity, price as amount from gizmo where serial between 1 and 30` },
}
const options = { ...throwawayApp, entities: [...throwawayEntities, gizmo], modules: [...throwawayApp.modules, gateModule] }

type Mutable = Record<string, Record<string, Record<string, unknown>>>
useThrowawayLabels()
beforeAll(() => {
  for (const lang of Object.values(catalogues as unknown as Mutable)) lang.entity = { ...lang.entity, gizmo: { one: 'Gizmo', other: 'Gizmos' } }
})
afterAll(() => {
  for (const lang of Object.values(catalogues as unknown as Mutable)) {
    const { gizmo: _, ...rest } = lang.entity as Record<string, unknown>
    lang.entity = rest
  }
})

/** 4,500 gizmos: half of them vendors (2,250, more than a batch), serials 1…4,500, in two districts. */
const COUNT = 4_500
const csvOf = (r: Reply): string[][] => parse(r.raw, { bom: true, relax_column_count: false }) as string[][]
const exportUrl = (query: string) => `${GIZMOS}/export/?${query}`

describeEachDatabase(
  'exporting a list',
  (t, kind) => {
    let north: { id: number; name: string }
    let south: { id: number; name: string }
    let permissionNames: string[]
    let special: number
    beforeAll(async () => {
      const country = await createRow(t.current, registry.country, { name: `Exportland ${Math.random()}` })
      north = { id: Number((await createRow(t.current, registry.city, { name: 'Northfield', country: country.id })).id), name: 'Northfield' }
      south = { id: Number((await createRow(t.current, registry.city, { name: 'Southfield', country: country.id })).id), name: 'Southfield' }
      await sql`
        insert into gizmo (name, note, serial, price, quantity, is_active, made_on, checked_at, stage, district, secret)
        select 'Gizmo ' || lpad(i::text, 4, '0'), 'plain ' || i, i, (i * 1.25)::numeric(20, 2), (i / 8.0)::numeric(12, 3), i % 3 <> 0,
          date '2026-01-01' + (i % 28), timestamptz '2026-02-03T04:05:06.789Z' + (i || ' seconds')::interval,
          case when i % 2 = 0 then 'vendor' else 'customer' end, case when i % 4 < 2 then ${north.id}::bigint else ${south.id}::bigint end, 'hash-' || i
        from generate_series(1, ${COUNT}) i`.execute(t.current.db)
      const perms = await sql<{ id: number; name: string }>`select id, name from permission order by id limit 2`.execute(t.current.db)
      permissionNames = perms.rows.map((p) => p.name)
      // One gizmo whose texts a spreadsheet would evaluate, with a negative price, two permissions and no district.
      const made = await t.current.call({
        method: 'POST',
        url: `${GIZMOS}/create/`,
        payload: { name: '=HYPERLINK("http://evil")', note: '+1+1', serial: -7, price: '-5.00', quantity: '-0.125', is_active: false, made_on: '2026-03-04', checked_at: '2026-03-04T10:11:12Z', stage: 'vendor', permissions: perms.rows.map((p) => p.id), secret: 'very-secret-1' },
      })
      expect(made.status, made.raw).toBe(201)
      special = made.body.id
    })

    it('exports every row of the filtered, searched and sorted list as CSV, beyond one batch, in the list’s order', async () => {
      const r = await t.current.call({ method: 'GET', url: exportUrl('format=csv&stage=vendor&ordering=-serial&q=Gizmo') })
      expect(r.status, r.raw.slice(0, 500)).toBe(200)
      expect(r.headers['content-type']).toBe('text/csv; charset=utf-8')
      expect(r.headers['content-disposition']).toMatch(/^attachment; filename="gizmos-\d{4}-\d{2}-\d{2}\.csv"$/)
      expect(r.headers['cache-control']).toBe('no-store')
      // Vendors among the 4,500 are 2,250; the special one's name does not hold "Gizmo".
      const expected = Array.from({ length: COUNT / 2 }, (_, k) => COUNT - 2 * k)
      expect(r.headers['x-total-count']).toBe(String(expected.length))
      expect(expected.length).toBeGreaterThan(EXPORT_BATCH)
      expect(r.raw.startsWith('\ufeff')).toBe(true)
      // The write-only field is in no row.
      expect(r.raw).not.toContain('hash-')
      expect(r.raw.split('\r\n').length).toBe(expected.length + 2)
      const [header, ...rows] = csvOf(r)
      expect(header).toEqual(['Id', 'Name', 'Note', 'Serial Number', 'Price', 'Quantity', 'Active', 'Join Date', 'When', 'Type', 'District', 'Permissions'])
      expect(rows.map((row) => Number(row[3]))).toEqual(expected)
      expect(new Set(rows.map((row) => row[9]))).toEqual(new Set(['Vendor']))
      // A HEAD says how many would come, reading none.
      const head = await t.current.app.inject({ method: 'HEAD', url: exportUrl('stage=vendor&q=Gizmo'), headers: { authorization: `Bearer ${await t.current.token()}` } })
      expect([head.statusCode, head.headers['x-total-count'], head.body]).toEqual([200, String(expected.length), ''])
      const first = rows[0]!
      // 4,500: 4500 % 3 = 0 (inactive), 4500 % 4 = 0 (north), 4500 % 28 = 20 (2026-01-21).
      expect(first.slice(1)).toEqual(['Gizmo 4500', 'plain 4500', '4500', '5625.00', '562.500', 'No', '2026-01-21', '2026-02-03T05:20:06.789Z', 'Vendor', 'Northfield', ''])
    })

    it('narrows by a search alone and by ranges, and sorts by a reference’s label then the id', async () => {
      const searched = await t.current.call({ method: 'GET', url: exportUrl('q=Gizmo%20449&ordering=serial') })
      expect(csvOf(searched).slice(1).map((row) => row[1])).toEqual(Array.from({ length: 10 }, (_, i) => `Gizmo 449${i}`))
      const ranged = await t.current.call({ method: 'GET', url: exportUrl('serial_min=10&serial_max=13&ordering=-price') })
      expect(csvOf(ranged).slice(1).map((row) => row[3])).toEqual(['13', '12', '11', '10'])
      // Ascending by the district's name, then by id; a gizmo with none last (PostgreSQL's nulls last).
      const byDistrict = await t.current.call({ method: 'GET', url: exportUrl('columns=district,serial&ordering=district&serial_max=8') })
      const named = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => [n % 4 < 2 ? 'Northfield' : 'Southfield', String(n)]).sort((a, b) => a[0]!.localeCompare(b[0]!) || Number(a[1]) - Number(b[1]))
      expect(csvOf(byDistrict)).toEqual([['District', 'Serial Number'], ...named, ['', '-7']])
    })

    it('makes cells a spreadsheet would evaluate inert, and leaves numbers as numbers (-5.00 stays a number)', async () => {
      const r = await t.current.call({ method: 'GET', url: exportUrl(`id__in=${special}&columns=name,note,price,serial,quantity,permissions`) })
      expect(r.status, r.raw).toBe(200)
      const line = r.raw.split('\r\n')[1]
      expect(line).toBe(`"'=HYPERLINK(""http://evil"")","'+1+1",-5.00,-7,-0.125,"${permissionNames.join('; ')}"`)
      for (const text of ['=1', '+1', '-1', '@SUM(A1)', '\tx', '\rx', '＝1']) expect(inertText(text)).toBe(`'${text}`)
      for (const text of ['1-2', 'a=b', 'plain', '']) expect(inertText(text)).toBe(text)
    })

    it('says labels, choices and flags in the caller’s language (Turkish, Arabic)', async () => {
      for (const [lang, expected] of [
        ['tr', { header: ['Ad', 'Tür', 'Etkin'], customer: 'Müşteri', vendor: 'Tedarikçi', yes: 'Evet', no: 'Hayır' }],
        ['ar', { header: ['الاسم', 'النوع', 'نشط'], customer: 'العميل', vendor: 'المورّد', yes: 'نعم', no: 'لا' }],
      ] as const) {
        const r = await t.current.call({ method: 'GET', url: exportUrl('columns=name,stage,is_active&serial_max=2&serial_min=1&ordering=serial'), headers: { 'accept-language': lang } })
        expect(csvOf(r)).toEqual([[...expected.header], ['Gizmo 0001', expected.customer, expected.yes], ['Gizmo 0002', expected.vendor, expected.yes]])
        const three = await t.current.call({ method: 'GET', url: exportUrl('columns=is_active&serial_max=3&serial_min=3'), headers: { 'accept-language': lang } })
        expect(csvOf(three)[1]).toEqual([expected.no])
      }
    })

    it('never shows a write-only field, and refuses to be asked for one', async () => {
      const r = await t.current.call({ method: 'GET', url: exportUrl(`id__in=${special}`) })
      expect(r.raw).not.toContain('very-secret')
      expect(r.raw).not.toContain('Password')
      const xlsx = await bytesOf(t.current, exportUrl(`format=xlsx&id__in=${special}`))
      const sheet = (await workbookOf(xlsx.bytes)).worksheets[0]!
      expect(sheet.getRow(1).values).not.toContain('Password')
      const asked = await t.current.call({ method: 'GET', url: exportUrl('columns=name,secret'), headers: { 'accept-language': 'tr' } })
      expect(asked.status).toBe(400)
      expect(Object.keys(asked.body)).toEqual(['columns'])
      expect(asked.body.columns[0]).toMatch(/^'secret' bu listenin bir sütunu değil/)
    })

    it('writes an XLSX workbook with typed cells, a bold frozen header, fitted widths and the list’s name', async () => {
      const r = await bytesOf(t.current, exportUrl(`format=xlsx&ordering=serial&serial_max=2&serial_min=-7`))
      expect(r.status, r.bytes.toString().slice(0, 300)).toBe(200)
      expect(r.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      expect(r.headers['content-disposition']).toMatch(/filename="gizmos-\d{4}-\d{2}-\d{2}\.xlsx"$/)
      expect(r.headers['x-total-count']).toBe('3')
      const book = await workbookOf(r.bytes)
      const sheet = book.worksheets[0]!
      expect(sheet.name).toBe('Gizmos')
      expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 })
      expect(sheet.rowCount).toBe(4)
      const header = sheet.getRow(1)
      expect(header.getCell(2).value).toBe('Name')
      expect(header.getCell(2).font?.bold).toBe(true)
      // The special gizmo first (-7), then 1 and 2.
      const first = sheet.getRow(2)
      expect(first.getCell(1).value).toBe(special)
      expect(first.getCell(2).value).toBe('=HYPERLINK("http://evil")')
      expect(first.getCell(2).type).toBe(ExcelJS.ValueType.String)
      expect(first.getCell(4).value).toBe(-7)
      expect(first.getCell(5).value).toBe(-5)
      expect(first.getCell(5).numFmt).toBe('#,##0.00')
      expect(first.getCell(6).value).toBe(-0.125)
      expect(first.getCell(6).numFmt).toBe('#,##0.000')
      expect(first.getCell(7).value).toBe('No')
      expect(first.getCell(8).value).toEqual(new Date('2026-03-04T00:00:00Z'))
      expect(first.getCell(8).numFmt).toBe('yyyy-mm-dd')
      expect(first.getCell(9).value).toEqual(new Date('2026-03-04T10:11:12Z'))
      expect(first.getCell(11).value).toBeNull()
      expect(first.getCell(12).value).toBe(permissionNames.join('; '))
      const one = sheet.getRow(3)
      expect([one.getCell(2).value, one.getCell(4).value, one.getCell(5).value, one.getCell(6).value, one.getCell(7).value, one.getCell(10).value, one.getCell(11).value]).toEqual([
        'Gizmo 0001', 1, 1.25, 0.125, 'Yes', 'Customer', 'Northfield',
      ])
      expect(one.getCell(9).value).toEqual(new Date('2026-02-03T04:05:07.789Z'))
      for (const column of [1, 2, 12]) expect(sheet.getColumn(column).width).toBeGreaterThanOrEqual(8)
      expect(sheet.getColumn(2).width).toBeGreaterThanOrEqual('=HYPERLINK("http://evil")'.length)
      const arabic = await workbookOf((await bytesOf(t.current, exportUrl('format=xlsx&columns=stage&serial_max=2&serial_min=2'), { 'accept-language': 'ar' })).bytes)
      expect(arabic.worksheets[0]!.getRow(2).getCell(1).value).toBe('المورّد')
      expect(arabic.worksheets[0]!.views[0]).toMatchObject({ rightToLeft: true })
    })

    it('streams an XLSX of every row beyond one batch, each cell as the CSV says it', async () => {
      const query = 'stage=vendor&ordering=-serial&columns=serial,name,price&q=Gizmo'
      const rows = csvOf(await t.current.call({ method: 'GET', url: exportUrl(`format=csv&${query}`) })).slice(1)
      const xlsx = await bytesOf(t.current, exportUrl(`format=xlsx&${query}`))
      expect(xlsx.headers['x-total-count']).toBe(String(rows.length))
      const sheet = (await workbookOf(xlsx.bytes)).worksheets[0]!
      expect(sheet.rowCount).toBe(rows.length + 1)
      expect(rows.length).toBeGreaterThan(EXPORT_BATCH)
      rows.forEach((row, i) => {
        const cells = sheet.getRow(i + 2)
        expect([cells.getCell(1).value, cells.getCell(2).value, cells.getCell(3).value]).toEqual([Number(row[0]), row[1], Number(row[2])])
      })
    })

    it('exports a user’s own rows alone where the entity gives them their own (own), everyone’s with its LIST', async () => {
      const mine = await callerWith(t.current, [])
      const other = await callerWith(t.current, [])
      await sql`insert into wish (name, owner, state) values ('Mine A', ${mine.id}, 'open'), ('Mine B', ${mine.id}, 'granted'), ('Theirs', ${other.id}, 'open')`.execute(t.current.db)
      const r = await mine({ method: 'GET', url: `${wish.api.base}/export/?columns=name,state&ordering=name` })
      expect(r.status, r.raw).toBe(200)
      expect(r.headers['x-total-count']).toBe('2')
      expect(csvOf(r)).toEqual([['Name', 'Type'], ['Mine A', 'Open'], ['Mine B', 'Granted']])
      const all = await t.current.call({ method: 'GET', url: `${wish.api.base}/export/?columns=name&q=Theirs` })
      expect(csvOf(all)).toEqual([['Name'], ['Theirs']])
    })

    it('refuses a caller without the list’s LIST (403) and bad requests (400) in the caller’s language', async () => {
      const districtsOnly = await callerWith(t.current, ['CITY_LIST'])
      expect((await districtsOnly({ method: 'GET', url: exportUrl('format=csv') })).status).toBe(403)
      expect((await t.current.call({ method: 'GET', url: exportUrl('format=csv'), asAnonymous: true })).status).toBe(401)
      const format = await t.current.call({ method: 'GET', url: exportUrl('format=pdf'), headers: { 'accept-language': 'ar' } })
      expect(format.status).toBe(400)
      expect(format.body).toEqual({ format: ['اختر صيغة الملف: csv, xlsx.'] })
      const column = await t.current.call({ method: 'GET', url: exportUrl('columns=name,nope') })
      expect(column.status).toBe(400)
      expect(column.body.columns[0]).toMatch(/^'nope' is not a column of this list\. Use: id, name, note/)
      const many = await t.current.call({ method: 'GET', url: exportUrl(`columns=${Array.from({ length: 201 }, () => 'name').join(',')}`) })
      expect(many.body).toEqual({ columns: ['Give at most 200 columns.'] })
      // A filter the list does not know is refused, never an export of everything.
      const filter = await t.current.call({ method: 'GET', url: exportUrl('colour=red') })
      expect(filter.status).toBe(400)
      expect(filter.body.detail).toMatch(/^Unknown search parameter 'colour'/)
      expect((await t.current.call({ method: 'GET', url: exportUrl('ordering=secret') })).status).toBe(400)
      expect((await t.current.call({ method: 'GET', url: exportUrl('serial=abc') })).body).toHaveProperty('serial')
    })

    it('exports a document kept one row per line a row per document, as its list shows it, with a list view', async () => {
      const note = (depot: number, gadget: number) => ({ note_date: '2026-05-04', depot, items: [{ gadget, quantity: 2 }, { gadget: depot, quantity: 3 }] })
      const made = []
      for (const [depot, gadget] of [[north.id, south.id], [south.id, north.id], [north.id, south.id]] as const) {
        const r = await t.current.call({ method: 'POST', url: `${deliveryNote.api.base}/create/`, payload: note(depot, gadget) })
        expect(r.status, r.raw).toBe(201)
        made.push(r.body.number as string)
      }
      const listed = await t.current.call({ method: 'GET', url: `${deliveryNote.api.base}/all/?size=100` })
      const r = await t.current.call({ method: 'GET', url: `${deliveryNote.api.base}/export/?columns=number,depot,total_quantity` })
      expect(r.status, r.raw).toBe(200)
      expect(r.headers['x-total-count']).toBe(String(listed.body.total_elements))
      expect(csvOf(r).slice(1)).toEqual(listed.body.delivery_notes.map((n: { number: string; depot: { name: string }; total_quantity: number }) => [n.number, n.depot.name, String(n.total_quantity)]))
      expect(csvOf(r).slice(1).map((row) => row[0])).toEqual(expect.arrayContaining(made))
    })

    it('answers the app’s own lists too: districts with their country by name, the header in Arabic', async () => {
      const r = await t.current.call({ method: 'GET', url: `${registry.city.api.base}/export/?q=field&ordering=name&columns=name,country`, headers: { 'accept-language': 'ar' } })
      expect(r.status, r.raw).toBe(200)
      const [header, ...rows] = csvOf(r)
      expect(header).toEqual(['الاسم', 'الدولة'])
      expect(rows.map((row) => row[0])).toEqual(['Northfield', 'Southfield'])
      expect(rows[0]![1]).toMatch(/^Exportland /)
    })

    it('reads batches from one snapshot in the list’s order, a document list a page at a time', async () => {
      const changeAfterSnapshot = async () => {
        if (kind !== 'postgres') return undefined
        await sql`update gizmo set serial = 0 where serial = 1`.execute(t.current.db)
        return { undo: async () => void (await sql`update gizmo set serial = 1 where serial = 0`.execute(t.current.db)) }
      }
      const app = t.current.app as unknown as { engine: { registry: typeof options.entities; hooks: never } }
      const ctx = (entity: typeof gizmo | typeof deliveryNote) => ({ db: t.current.db as Db, registry: app.engine.registry, entity, actor: null, access: 'system' as const, hooks: app.engine.hooks })
      const snapshot = await openSnapshot(ctx(gizmo), { filters: [{ field: 'serial', op: 'lte', value: '5' }], ordering: '-serial' }, 2)
      // A write after the snapshot began is not in it (the embedded database has one connection: the write would wait for the snapshot).
      const other = await changeAfterSnapshot()
      const batches: number[][] = []
      for await (const rows of snapshot.batches) batches.push(rows.map((r) => Number(r.serial)))
      await other?.undo()
      expect(snapshot.total).toBe(6)
      expect(batches).toEqual([[5, 4], [3, 2], [1, -7]])
      const notes = await openSnapshot(ctx(deliveryNote), { filters: [], ordering: '-id' }, 2)
      const numbers: string[] = []
      for await (const rows of notes.batches) numbers.push(...rows.map((r) => String(r.number)))
      const listed = await t.current.call({ method: 'GET', url: `${deliveryNote.api.base}/all/?size=100` })
      expect(numbers).toEqual(listed.body.delivery_notes.map((n: { number: string }) => n.number))
    })

    it('gives a report’s run as a workbook too, the same rows as its CSV', async () => {
      const csv = await t.current.call({ method: 'GET', url: '/api/reports/gadget_sales/csv' })
      const xlsx = await bytesOf(t.current, '/api/reports/gadget_sales/xlsx', { 'accept-language': 'tr' })
      expect(xlsx.status, xlsx.bytes.toString().slice(0, 300)).toBe(200)
      expect(xlsx.headers['content-disposition']).toMatch(/filename="gadget_sales-\d{4}-\d{2}-\d{2}\.xlsx"$/)
      const rows = csvOf(csv).slice(1)
      expect(rows).toHaveLength(30)
      const sheet = (await workbookOf(xlsx.bytes)).worksheets[0]!
      expect(sheet.name).toBe('Gadget sales')
      expect(sheet.getRow(1).getCell(2).value).toBe('Sıra Numarası')
      expect(sheet.rowCount).toBe(rows.length + 1)
      rows.forEach((row, i) => {
        const cells = sheet.getRow(i + 2)
        expect([cells.getCell(1).value, cells.getCell(2).value, cells.getCell(3).value, cells.getCell(4).value]).toEqual([row[0], Number(row[1]), Number(row[2]), Number(row[3])])
      })
      expect(sheet.getRow(2).getCell(4)).toMatchObject({ value: 37.5, numFmt: '#,##0.00' })
      const bad = await t.current.call({ method: 'GET', url: '/api/reports/gadget_sales/xlsx?date_after=nope' })
      expect(bad.status).toBe(400)
    })

    it('compresses a CSV as it streams, never a workbook (a zip already)', async () => {
      const plain = await t.current.call({ method: 'GET', url: exportUrl('columns=name,note&serial_max=500') })
      const zipped = await bytesOf(t.current, exportUrl('columns=name,note&serial_max=500'), { 'accept-encoding': 'gzip' })
      expect(zipped.headers['content-encoding']).toBe('gzip')
      expect(gunzipSync(zipped.bytes).toString('utf8')).toBe(plain.raw)
      const workbook = await bytesOf(t.current, exportUrl('format=xlsx&serial_max=500'), { 'accept-encoding': 'gzip, br' })
      expect(workbook.headers['content-encoding']).toBeUndefined()
    })

    it('holds a place while it streams (one at a time on the embedded database), and frees it and its snapshot when the client goes away', async () => {
      const address = await t.current.app.listen({ port: 0, host: '127.0.0.1' })
      const get = async (url: string, signal?: AbortSignal) => fetch(`${address}${url}`, { headers: { authorization: `Bearer ${await t.current.token()}` }, signal })
      let open: () => void = () => {}
      gate = new Promise((resolve) => (open = resolve))
      try {
        const controller = new AbortController()
        const held = await get(exportUrl('format=csv'), controller.signal)
        expect(held.status).toBe(200)
        const reader = held.body!.getReader()
        // The header line came; its first batch waits at the gate.
        expect(new TextDecoder().decode((await reader.read()).value)).toContain('Serial Number')
        const meanwhile = await get(`${wish.api.base}/export/?columns=name`)
        expect(meanwhile.status).toBe(kind === 'pglite' ? 429 : 200)
        if (kind === 'pglite') expect(meanwhile.headers.get('retry-after')).toBe('5')
        await meanwhile.arrayBuffer()
        controller.abort()
        await reader.cancel().catch(() => undefined)
        await new Promise((resolve) => setTimeout(resolve, 100))
        gate = null
        open()
        // The place and the connection are free again: an export of each kind and a list answer.
        for (const format of ['csv', 'xlsx']) {
          const again = await get(exportUrl(`format=${format}&serial_max=3`))
          expect(again.status).toBe(200)
          await again.arrayBuffer()
        }
        expect((await t.current.call({ method: 'GET', url: `${GIZMOS}/all/?size=1` })).status).toBe(200)
      } finally {
        gate = null
        open()
        await t.current.app.close()
      }
    })
  },
  options,
)

/** The answer's bytes (a workbook is binary: the JSON helper's text would mangle it). */
async function bytesOf(t: TestApp, url: string, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${await t.token()}`, ...headers } })
  return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload }
}

async function workbookOf(bytes: Buffer): Promise<ExcelJS.Workbook> {
  const book = new ExcelJS.Workbook()
  await book.xlsx.load(bytes as unknown as ArrayBuffer)
  return book
}

describe('export pieces', () => {
  it('names a sheet as Excel takes it', () => {
    expect(sheetName('Orders: pending/late [2026]')).toBe('Orders  pending late  2026')
    expect(sheetName('x'.repeat(40))).toHaveLength(31)
    expect(sheetName("'''")).toBe('Sheet1')
  })

  it('says a reference given as a raw id by its label, and formatted text as its words', () => {
    const entity = defineEntity({
      name: 'probe',
      module: 'test',
      listKey: 'probes',
      route: { area: 'probe-management', list: 'probes' },
      fields: { place: f.ref('city', { listAs: 'id' }), body: f.html({ label: 'field.details' }) },
    })
    const [place, body] = exportColumns(entity, ['place', 'body'], 'en')
    expect(place!.cell({ place: 3, _labels: { place: 'Dhaka' } })).toBe('Dhaka')
    expect(body!.cell({ body: '<p>One &amp; two</p><p>Three<br>four</p>' })).toBe('One & two\nThree\nfour')
  })
})

