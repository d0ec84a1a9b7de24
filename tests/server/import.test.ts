import { request } from 'node:http'
import ExcelJS from 'exceljs'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registry } from '../../schema'
import { defineEntity, f, type Entity, type Fields } from '../../schema/kit'
import { catalogues } from '../../server/i18n'
import { decimalText } from '../../server/engine/import/cells'
import { autoMapping, foldName } from '../../server/engine/import/fields'
import { throwawayApp, useThrowawayLabels } from './helpers/throwaway-module'
import { callerWith, describeEachDatabase, type Reply, type TestApp } from './helpers/app'
import { multipart } from './helpers/multipart'

/**
 * Import of a CSV or XLSX file into any entity a role may create (issue 25): the columns
 * matched to fields by name or label in any language, a dry run that writes nothing and
 * tells every row's errors, all or nothing in one transaction, batches with a file of the
 * rejected rows, references by label (a District by its name within its Country) — for an
 * entity defined here at run time and for the app's own branches and districts.
 */
const crate = defineEntity({
  name: 'crate',
  module: 'test',
  listKey: 'crates',
  route: { area: 'crate-management', list: 'crates' },
  nav: false,
  fields: {
    name: f.text({ max: 50, required: true, unique: true, search: true }),
    amount: f.money({ min: '0' }),
    serial_number: f.integer({ min: 0 }),
    is_active: f.boolean(),
    type: f.choice(['open', 'closed'], { default: 'open' }),
    emp_join_date: f.date(),
    district: f.ref('city', { label: 'field.district' }),
  },
})

function useCrateLabels(): void {
  const before = new Map<string, unknown>()
  beforeAll(() => {
    for (const [lang, catalogue] of Object.entries(catalogues) as Array<[string, Record<string, Record<string, unknown>>]>) {
      before.set(lang, catalogue.entity)
      catalogue.entity = { ...catalogue.entity, crate: { one: 'Crate', other: 'Crates' } }
    }
  })
  afterAll(() => {
    for (const [lang, catalogue] of Object.entries(catalogues) as Array<[string, Record<string, Record<string, unknown>>]>) catalogue.entity = before.get(lang) as Record<string, unknown>
  })
}

const CSV = 'text/csv'
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

type Line = { progress?: { rows: number; total: number }; result?: ImportResult; error?: { detail: string } }
type ImportResult = { mode: string; rows: number; valid: number; created: number; rejected: number; errors: Array<{ row: number; fields: Record<string, string[]>; detail?: string }>; rejected_file?: string }

type Call = (o: Parameters<TestApp['call']>[0]) => Promise<Reply>

function upload(entity: Entity<string, Fields>, path: string, file: { data: Buffer | string; name?: string; type?: string }, fields: Record<string, string> = {}, headers: Record<string, string> = {}) {
  const body = multipart(fields, [{ name: 'file', filename: file.name ?? 'rows.csv', type: file.type ?? CSV, data: typeof file.data === 'string' ? Buffer.from(file.data) : file.data }])
  return { method: 'POST' as const, url: `${entity.api.base}/${path}`, payload: body.payload, headers: { ...body.headers, ...headers } }
}

/** The NDJSON answer of an import: its lines, and the result (the last). */
async function runImport(call: Call, entity: Entity<string, Fields>, data: Buffer | string, mapping: Record<string, string | null>, mode: string, options: { name?: string; type?: string; headers?: Record<string, string> } = {}) {
  const res = await call(upload(entity, 'import/', { data, name: options.name, type: options.type }, { mode, mapping: JSON.stringify(mapping) }, options.headers))
  expect(res.status, res.raw).toBe(200)
  expect(String(res.headers['content-type'])).toContain('application/x-ndjson')
  const lines = res.raw
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Line)
  const result = lines.at(-1)?.result
  expect(result, res.raw).toBeDefined()
  return { lines, result: result! }
}

const count = async (t: TestApp, table: string) => Number((await sql<{ n: string }>`select count(*) as n from ${sql.id(table)}`.execute(t.db)).rows[0]!.n)

describe('reading what people type', () => {
  it('reads numbers with grouping when only one reading is possible', () => {
    expect(decimalText('1,234.50')).toBe('1234.50')
    expect(decimalText('1.234,50')).toBe('1234.50')
    expect(decimalText('12,5')).toBe('12.5')
    expect(decimalText('1,234,567')).toBe('1234567')
    expect(decimalText('1 234,5')).toBe('1234.5')
    expect(decimalText('١٢٫٥')).toBe('12.5')
    // One comma and three digits: a thousand and some, or one and a fraction.
    expect(decimalText('1,234')).toBeUndefined()
    expect(decimalText('1,23.4')).toBeUndefined()
  })

  it('matches headers by name or label in any language, ignoring case, accents, spaces and underscores', () => {
    expect(foldName('Posta_Kodu')).toBe(foldName('posta kodu'))
    const mapping = autoMapping(registry.branch, ['AD', 'Ülke', 'ilce', 'karakol', 'Postal code', 'street_address_one', 'الاسم', 'Unknown'])
    expect(mapping).toEqual({ AD: 'name', Ülke: 'country', ilce: 'city', karakol: 'thana', 'Postal code': 'postal_code', street_address_one: 'street_address_one', الاسم: null, Unknown: null })
  })
})

// The labels first: the app is built with the registry checked against them.
useThrowawayLabels()
useCrateLabels()

describeEachDatabase(
  'import',
  (t) => {
    const ids: Record<string, number> = {}

    beforeAll(async () => {
      const db = t.current.db
      const country = async (name: string) => Number((await sql<{ id: string }>`insert into country (name) values (${name}) returning id`.execute(db)).rows[0]!.id)
      const city = async (name: string, c: number) => Number((await sql<{ id: string }>`insert into city (name, country) values (${name}, ${c}) returning id`.execute(db)).rows[0]!.id)
      const thana = async (name: string, c: number) => Number((await sql<{ id: string }>`insert into thana (name, city) values (${name}, ${c}) returning id`.execute(db)).rows[0]!.id)
      ids.uk = await country('United Kingdom')
      ids.us = await country('United States')
      ids.tr = await country('Türkiye')
      ids.kentUk = await city('Kent', ids.uk)
      ids.kentUs = await city('Kent', ids.us)
      ids.izmir = await city('İzmir', ids.tr)
      ids.kotwali = await thana('Kotwali', ids.izmir)
      ids.kotwaliKent = await thana('Kotwali', ids.kentUk)
    })

    describe('preview', () => {
      it('answers the columns, matched from Turkish headers (a ; delimited file with a byte-order mark), the fields and the first rows', async () => {
        const csv = '\ufeffAd;Ülke;İlçe;Karakol;Etkin;Posta Kodu;Notlar\nMerkez;Türkiye;İzmir;Kotwali;evet;35000;ilk\n"Kuzey; Şube";Türkiye;izmir;;hayır;;\n'
        const res = await t.current.call({ ...upload(registry.branch, 'import/preview/', { data: csv }), headers: { ...upload(registry.branch, 'import/preview/', { data: csv }).headers, 'accept-language': 'tr' } })
        expect(res.status, res.raw).toBe(200)
        expect(res.body.format).toBe('csv')
        expect(res.body.columns).toEqual(['Ad', 'Ülke', 'İlçe', 'Karakol', 'Etkin', 'Posta Kodu', 'Notlar'])
        expect(res.body.mapping).toEqual({ Ad: 'name', Ülke: 'country', İlçe: 'city', Karakol: 'thana', Etkin: 'is_active', 'Posta Kodu': 'postal_code', Notlar: null })
        expect(res.body.sample).toEqual([
          ['Merkez', 'Türkiye', 'İzmir', 'Kotwali', 'evet', '35000', 'ilk'],
          ['Kuzey; Şube', 'Türkiye', 'izmir', '', 'hayır', '', ''],
        ])
        expect(res.body.fields).toContainEqual({ name: 'city', label: 'İlçe', required: false, kind: 'ref' })
        expect(res.body.fields).toContainEqual({ name: 'name', label: 'Ad', required: true, kind: 'text' })
        // Nothing the server sets itself, no file.
        expect(res.body.fields.map((x: { name: string }) => x.name)).not.toContain('id')
      })

      it('refuses what is not a sheet, a file without a header, and a request without a file', async () => {
        const binary = await t.current.call(upload(crate, 'import/preview/', { data: Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 1, 2, 3, 4]), name: 'old.xls', type: 'application/vnd.ms-excel' }))
        expect(binary.status).toBe(400)
        expect(binary.body.detail).toMatch(/CSV and Excel/)
        const empty = await t.current.call(upload(crate, 'import/preview/', { data: '\n\n' }))
        expect(empty.status).toBe(400)
        expect(empty.body.detail).toMatch(/header/)
        const json = await t.current.call({ method: 'POST', url: `${crate.api.base}/import/preview/`, payload: {} })
        expect(json.status).toBe(400)
        expect(json.body.detail).toMatch(/multipart/)
      })
    })

    describe('a throwaway entity', () => {
      const header = 'Name,Amount,Serial Number,Active,Type,Join Date,District'
      const mapping = { Name: 'name', Amount: 'amount', 'Serial Number': 'serial_number', Active: 'is_active', Type: 'type', 'Join Date': 'emp_join_date', District: 'district' }

      it('checks every row in a dry run and writes nothing: each row its errors, duplicates within the file and unknown or ambiguous districts included', async () => {
        const before = await count(t.current, 'crate')
        const csv = [
          header,
          'Alpha,"1,234.50",3,yes,Closed,2024-03-01,İzmir',
          'Beta,12,x,maybe,Shut,2024-02-30,Atlantis',
          'Alpha,5,1,no,open,45352,#' + ids.izmir,
          '',
          ',5,1,no,open,,Kent',
          'Gamma,"1,234",1,1,kapalı,,',
        ].join('\n')
        const { lines, result } = await runImport(t.current.call, crate, csv, mapping, 'dry_run')
        expect(lines[0]).toEqual({ progress: { rows: 0, total: 5 } })
        expect(result).toMatchObject({ mode: 'dry_run', rows: 5, valid: 1, created: 0, rejected: 4 })
        expect(await count(t.current, 'crate')).toBe(before)
        const byRow = Object.fromEntries(result.errors.map((e) => [e.row, e]))
        expect(Object.keys(byRow).map(Number)).toEqual([3, 4, 6, 7])
        expect(Object.keys(byRow[3]!.fields).sort()).toEqual(['district', 'emp_join_date', 'is_active', 'serial_number', 'type'])
        expect(byRow[3]!.fields.district).toEqual(['No District is named “Atlantis”.'])
        // The second Alpha: unique within the file, as the create would judge it after the first.
        expect(byRow[4]!.fields.name?.[0]).toMatch(/already exists|unique|taken/i)
        // No name, and a Kent in two countries.
        expect(byRow[6]!.fields.name).toBeDefined()
        expect(byRow[6]!.fields.district?.[0]).toMatch(new RegExp(`More than one District is named “Kent” \\(#${ids.kentUk} Kent \\(United Kingdom\\), #${ids.kentUs} Kent \\(United States\\)\\)`))
        // `1,234` could be read two ways.
        expect(Object.keys(byRow[7]!.fields)).toEqual(['amount'])
      })

      it('imports all or nothing: one bad row and nothing is written', async () => {
        const before = await count(t.current, 'crate')
        const csv = [header, 'Delta,1,1,yes,open,,', 'Epsilon,-5,1,yes,open,,', 'Zeta,2,2,no,closed,,'].join('\n')
        const { result } = await runImport(t.current.call, crate, csv, mapping, 'all')
        expect(result).toMatchObject({ mode: 'all', rows: 3, valid: 2, created: 0, rejected: 1 })
        expect(result.errors).toEqual([{ row: 3, fields: { amount: [expect.any(String)] } }])
        expect(await count(t.current, 'crate')).toBe(before)

        const good = [header, 'Delta,1,1,yes,open,,', 'Zeta,2,2,no,closed,2024-05-06,#' + ids.izmir].join('\n')
        const done = await runImport(t.current.call, crate, good, mapping, 'all', { headers: { 'x-screen': '/apps/crate-management/crates' } })
        expect(done.result).toMatchObject({ rows: 2, valid: 2, created: 2, rejected: 0, errors: [] })
        const rows = await sql<{ name: string; amount: string; is_active: boolean; type: string; district: string | null }>`select name, amount, is_active, type, district from crate where name in ('Delta', 'Zeta') order by name`.execute(t.current.db)
        expect(rows.rows.map((r) => ({ ...r, district: r.district === null ? null : Number(r.district) }))).toEqual([
          { name: 'Delta', amount: '1.00', is_active: true, type: 'open', district: null },
          { name: 'Zeta', amount: '2.00', is_active: false, type: 'closed', district: ids.izmir },
        ])
        // One audit entry per record, from the screen, the import's rows as one batch.
        const audit = await sql<{ source: string; batch: string }>`select a.source, a.batch::text as batch from audit_log a join crate c on c.id = a.entity_id where a.entity = 'crate' and a.action = 'create' and c.name in ('Delta', 'Zeta')`.execute(t.current.db)
        expect(audit.rows).toHaveLength(2)
        expect(audit.rows.every((r) => r.source === '/apps/crate-management/crates')).toBe(true)
        expect(new Set(audit.rows.map((r) => r.batch)).size).toBe(1)
      })

      it('imports in batches: the valid rows are written, the rejected ones with their reasons are downloaded by the same user only', async () => {
        const importer = await callerWith(t.current, ['CRATE_CREATE', 'CITY_LIST'])
        const other = await callerWith(t.current, ['CRATE_CREATE'])
        const rows = Array.from({ length: 1203 }, (_, i) => (i % 400 === 7 ? `Batch ${i},-1,1,yes,open,,` : `Batch ${i},${i}.5,${i},no,closed,,`))
        const csv = [header, ...rows, 'Batch 10,1,1,yes,open,,Kent'].join('\r\n')
        const { lines, result } = await runImport(importer, crate, csv, mapping, 'batches', { headers: { 'accept-language': 'tr' } })
        expect(lines.filter((l) => l.progress).length).toBeGreaterThan(2)
        expect(result).toMatchObject({ mode: 'batches', rows: 1204, valid: 1200, created: 1200, rejected: 4 })
        expect(result.errors.map((e) => e.row)).toEqual([9, 409, 809, 1205])
        expect(Number((await sql<{ n: string }>`select count(*) as n from crate where name like 'Batch %'`.execute(t.current.db)).rows[0]!.n)).toBe(1200)
        const token = result.rejected_file!
        expect(token).toMatch(/^[0-9a-f-]{36}$/)
        const file = await importer({ method: 'GET', url: `${crate.api.base}/import/rejected/${token}` })
        expect(file.status).toBe(200)
        expect(String(file.headers['content-type'])).toContain('text/csv')
        const csvLines = file.raw.replace(/^\ufeff/, '').trim().split('\r\n')
        expect(csvLines[0]).toBe(`${header},Nedenler`)
        expect(csvLines).toHaveLength(5)
        expect(csvLines[1]).toMatch(/^Batch 7,-1,1,yes,open,,,"?Tutar: /)
        // The last: a name taken in the same file, and a Kent in two countries — the candidates named, since the caller may list districts.
        expect(csvLines[4]).toContain('Batch 10,1,1,yes,open,,Kent,')
        expect(csvLines[4]).toContain(`#${ids.kentUk} Kent (United Kingdom)`)
        expect((await other({ method: 'GET', url: `${crate.api.base}/import/rejected/${token}` })).status).toBe(404)
        expect((await importer({ method: 'GET', url: `${crate.api.base}/import/rejected/not-a-token` })).status).toBe(400)
        expect((await importer({ method: 'GET', url: `${registry.branch.api.base}/import/rejected/${token}` })).status).toBe(403)
      })

      it('imports an XLSX book made with exceljs: numbers, dates, flags and text as the sheet holds them', async () => {
        const book = new ExcelJS.Workbook()
        const sheet = book.addWorksheet('Crates')
        book.addWorksheet('Other').addRow(['ignored'])
        sheet.addRow(['name', 'AMOUNT', 'serial number', 'is_active', 'type', 'emp join date', 'district'])
        sheet.addRow(['Xlsx one', 1234.5, 7, true, 'Closed', new Date(Date.UTC(2024, 0, 15)), 'izmir'])
        sheet.addRow([])
        sheet.addRow([{ richText: [{ text: 'Xlsx ' }, { text: 'two' }] }, 0.1 + 0.2, 8, 'Evet', 'open', 45352, `#${ids.izmir}`])
        const data = Buffer.from(await book.xlsx.writeBuffer())
        const preview = await t.current.call(upload(crate, 'import/preview/', { data, name: 'crates.xlsx', type: XLSX }))
        expect(preview.status, preview.raw).toBe(200)
        expect(preview.body.format).toBe('xlsx')
        expect(preview.body.mapping).toEqual({ name: 'name', AMOUNT: 'amount', 'serial number': 'serial_number', is_active: 'is_active', type: 'type', 'emp join date': 'emp_join_date', district: 'district' })
        const { result } = await runImport(t.current.call, crate, data, preview.body.mapping, 'all', { name: 'crates.xlsx', type: XLSX })
        expect(result).toMatchObject({ rows: 2, created: 2, rejected: 0 })
        const rows = await sql<{ name: string; amount: string; serial_number: number; is_active: boolean; type: string; emp_join_date: string }>`
          select name, amount, serial_number, is_active, type, to_char(emp_join_date, 'YYYY-MM-DD') as emp_join_date from crate where name like 'Xlsx%' order by name`.execute(t.current.db)
        expect(rows.rows).toEqual([
          { name: 'Xlsx one', amount: '1234.50', serial_number: 7, is_active: true, type: 'closed', emp_join_date: '2024-01-15' },
          { name: 'Xlsx two', amount: '0.30', serial_number: 8, is_active: true, type: 'open', emp_join_date: '2024-03-01' },
        ])
      })

      it('stops when the caller goes away: the batches written stay, no more are started', async () => {
        const address = await t.current.app.listen({ port: 0, host: '127.0.0.1' })
        const csv = [header, ...Array.from({ length: 5000 }, (_, i) => `Gone ${i},1,1,yes,open,,`)].join('\n')
        const body = upload(crate, 'import/', { data: csv }, { mode: 'batches', mapping: JSON.stringify(mapping) }, { authorization: `Bearer ${await t.current.token()}` })
        await new Promise<void>((resolve, reject) => {
          const req = request(`${address}${body.url}`, { method: 'POST', headers: { ...body.headers, 'content-length': String(body.payload.length) } }, (res) => {
            res.on('data', (chunk: Buffer) => {
              // The first batch is in: the page closes.
              if (/"rows":[1-9]\d{2,}/.test(chunk.toString())) {
                req.destroy()
                resolve()
              }
            })
            res.on('error', () => resolve())
          })
          req.on('error', () => resolve())
          req.end(body.payload)
          setTimeout(() => reject(new Error('no progress')), 60_000)
        })
        const gone = async () => Number((await sql<{ n: string }>`select count(*) as n from crate where name like 'Gone %'`.execute(t.current.db)).rows[0]!.n)
        let before = -1
        for (let now = await gone(); now !== before; now = await gone()) {
          before = now
          await new Promise((r) => setTimeout(r, 1500))
        }
        expect(before).toBeGreaterThan(0)
        expect(before % 500).toBe(0)
        expect(before).toBeLessThan(5000)
      })

      it('refuses a caller without CREATE, before reading the file', async () => {
        const reader = await callerWith(t.current, ['CRATE_LIST', 'CRATE_DETAILS'])
        for (const path of ['import/preview/', 'import/']) {
          const res = await reader(upload(crate, path, { data: `${header}\nNope,1,1,yes,open,,` }, { mode: 'all', mapping: JSON.stringify(mapping) }))
          expect(res.status).toBe(403)
        }
        expect((await reader({ method: 'GET', url: `${crate.api.base}/import/rejected/00000000-0000-4000-8000-000000000000` })).status).toBe(403)
      })

      it('answers a 400 before anything is imported: a bad mapping, mode, size or number of rows', async () => {
        const before = await count(t.current, 'crate')
        const csv = `${header}\nOmega,1,1,yes,open,,`
        const bad = async (fields: Record<string, string>, data: string | Buffer = csv) => {
          const res = await t.current.call(upload(crate, 'import/', { data }, fields))
          expect(res.status, res.raw).toBe(400)
          return res.body
        }
        expect(await bad({ mode: 'all', mapping: '{not json' })).toEqual({ mapping: [expect.stringContaining('JSON')] })
        expect(await bad({ mode: 'all', mapping: JSON.stringify({ Name: 'name', Amount: 'name' }) })).toEqual({ mapping: ['Name is matched to more than one column.'] })
        expect(await bad({ mode: 'all', mapping: JSON.stringify({ Name: 'id', Nothing: 'amount' }) })).toEqual({
          mapping: ['“id” is not a field that can be imported (column “Name”).', 'The file has no column “Nothing”.'],
        })
        expect(await bad({ mode: 'everything', mapping: JSON.stringify(mapping) })).toEqual({ mode: [expect.stringContaining('dry_run')] })
        expect(await bad({ mapping: JSON.stringify(mapping) })).toHaveProperty('mode')
        const tooMany = `${header}\n${'Row,1,1,yes,open,,\n'.repeat(100_001)}`
        expect((await bad({ mode: 'dry_run', mapping: JSON.stringify(mapping) }, tooMany)).detail).toMatch(/100000 rows/)
        const tooLarge = Buffer.alloc(25 * 1024 * 1024 + 1, 'a')
        expect((await bad({ mode: 'dry_run', mapping: JSON.stringify(mapping) }, tooLarge)).detail).toMatch(/25 MB/)
        expect(await count(t.current, 'crate')).toBe(before)
      })
    })

    describe('a real entity with cascading references: branches', () => {
      it('finds a District by its name within the Country the row gives, and a Police Station within its District', async () => {
        const header = 'Ad;Ülke;İlçe;Karakol;Etkin'
        const mapping = { Ad: 'name', Ülke: 'country', İlçe: 'city', Karakol: 'thana', Etkin: 'is_active' }
        const csv = [
          header,
          'Import Kent UK;united kingdom;KENT;kotwali;evet',
          'Import Kent US;United States;Kent;;hayır',
          'Import Kent ?;;Kent;;evet',
          'Import Izmir;Türkiye;Izmir;Kotwali;1',
          'Import Mars;Türkiye;Kent;;1',
          'Import Kotwali;;;Kotwali;1',
        ].join('\n')
        const { result } = await runImport(t.current.call, registry.branch, csv, mapping, 'batches', { headers: { 'accept-language': 'en' } })
        expect(result).toMatchObject({ rows: 6, created: 3, rejected: 3 })
        const byRow = Object.fromEntries(result.errors.map((e) => [e.row, e.fields]))
        expect(byRow[4]).toEqual({ city: [`More than one District is named “Kent” (#${ids.kentUk} Kent (United Kingdom), #${ids.kentUs} Kent (United States)): give its Country.`] })
        expect(byRow[6]).toEqual({ city: ['No District named “Kent” lies within the Country given.'] })
        expect(byRow[7]).toEqual({ thana: [`More than one Police Station is named “Kotwali” (#${ids.kotwali} Kotwali (İzmir), #${ids.kotwaliKent} Kotwali (Kent)): give its District.`] })
        const rows = await sql<{ name: string; country: string; city: string; thana: string | null }>`select name, country, city, thana from branch where name like 'Import %' order by name`.execute(t.current.db)
        expect(rows.rows.map((r) => [r.name, Number(r.country), Number(r.city), r.thana === null ? null : Number(r.thana)])).toEqual([
          ['Import Izmir', ids.tr, ids.izmir, ids.kotwali],
          ['Import Kent UK', ids.uk, ids.kentUk, ids.kotwaliKent],
          ['Import Kent US', ids.us, ids.kentUs, null],
        ])
      })

      it('imports districts into their countries, a name repeated within the file and its country refused', async () => {
        const csv = 'Name,Country\nImported Town,Türkiye\nImported Town,United Kingdom\nImported Town,türkiye\nNowhere,Atlantis\n'
        const { result } = await runImport(t.current.call, registry.city, csv, { Name: 'name', Country: 'country' }, 'dry_run', { headers: { 'accept-language': 'ar' } })
        expect(result).toMatchObject({ rows: 4, valid: 2, rejected: 2 })
        expect(result.errors.map((e) => [e.row, Object.keys(e.fields)])).toEqual([
          [4, ['name']],
          [5, ['country']],
        ])
        expect(result.errors[1]!.fields.country).toEqual(['لا يوجد سجل دولة باسم “Atlantis”.'])
        expect(await sql`select 1 from city where name = 'Imported Town'`.execute(t.current.db).then((r) => r.rows.length)).toBe(0)
      })
    })
  },
  { ...throwawayApp, entities: [...throwawayApp.entities, crate] },
)
