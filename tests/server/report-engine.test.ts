import { inflateSync } from 'node:zlib'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { entities, reportRegistry } from '../../schema'
import { defineReport, f, rules } from '../../schema/kit'
import type { DomainModule } from '../../server/engine/modules'
import { CHART_POINTS, PDF_ROWS } from '../../server/engine/reports'
import { catalogues } from '../../server/i18n'
import { callerWith, describeEachDatabase, type Reply } from './helpers/app'

/**
 * What the report engine gives every report besides its page of rows (issue 24): the PDF of a
 * run from the server (its title and labels in the caller's language, the parameters used,
 * numbers right-aligned in the reader's locale, the totals, landscape when wide, cut with a
 * warning past 10,000 rows), a chart's points summed over every row, hidden columns kept apart
 * for a drill-down — on reports defined here at run time, one of them also at a contract's
 * route — and the ledger report's drill-down from a line to its voucher.
 */
const regions = ['north', 'south', 'east'] as const

const regionSales = defineReport({
  name: 'region_sales',
  module: 'test',
  route: 'region-sales',
  contract: { path: '/region_report/api/v1/region_report/sales/', key: 'region_sales' },
  params: {
    region: f.choice(regions, { label: 'field.type' }),
    branch: f.ref('branch'),
    date_after: f.date(),
    date_before: f.date(),
  },
  columns: {
    day: f.date({ label: 'field.log_date' }),
    region: f.choice(regions, { label: 'field.type' }),
    orders: f.integer({ label: 'field.item_count' }),
    amount: f.money(),
  },
  hidden: { branch_id: f.integer() },
  totals: ['orders', 'amount'],
  ordering: ['day', 'region'],
  chart: { kind: 'line', label: 'day', values: ['amount', 'orders'] },
  drill: { region: { entity: 'branch', id: 'branch_id' } },
  rules: [rules.notAfter('date_after', 'date_before', 'validation.date_order')],
})

/** `count` numbered rows in 25 buckets, nine columns wide: a long, wide run. */
const numberColumns = {
  n: f.integer({ label: 'field.line_no' }),
  bucket: f.text({ label: 'field.name' }),
  a: f.money({ label: 'field.debit_amount' }),
  b: f.money({ label: 'field.credit_amount' }),
  c: f.money({ label: 'field.balance' }),
  d: f.integer({ label: 'field.quantity' }),
  e: f.text({ label: 'field.details' }),
  g: f.text({ label: 'field.reference_no', code: true }),
  h: f.date({ label: 'field.log_date' }),
}
const numberRows = defineReport({
  name: 'number_rows',
  module: 'test',
  route: 'number-rows',
  params: { count: f.integer({ required: true, min: 0, max: 20_000, label: 'field.quantity' }) },
  columns: numberColumns,
  totals: ['a', 'd'],
  ordering: ['n'],
  chart: { kind: 'bar', label: 'bucket', values: ['a'] },
})
const numberParams = { count: f.integer({ required: true, min: 0, max: 20_000, label: 'field.quantity' }) }
const numberShare = defineReport({ name: 'number_share', module: 'test', route: 'number-share', params: numberParams, columns: numberColumns, ordering: ['n'], chart: { kind: 'pie', label: 'bucket', values: ['d'] } })
const numberLine = defineReport({ name: 'number_line', module: 'test', route: 'number-line', params: numberParams, columns: numberColumns, ordering: ['n'], chart: { kind: 'line', label: 'n', values: ['a'] } })
const plain = defineReport({ name: 'plain_rows', module: 'test', route: 'plain-rows', paged: false, params: {}, columns: { name: f.text() } })

let branches: Array<{ id: number; name: string }> = []

const testModule: DomainModule = {
  name: 'test',
  reports: {
    region_sales: ({ params }) => {
      const [north, south] = branches
      return sql`
        select v.day::date as day, v.region, v.orders, v.amount::numeric(20, 2) as amount, v.branch_id::bigint as branch_id
        from (values ('2026-03-01', 'north', 3, '1250.50', ${north!.id}::bigint), ('2026-03-01', 'south', 1, '7.25', ${south!.id}::bigint),
          ('2026-03-02', 'north', 2, '100.00', ${north!.id}::bigint), ('2026-03-03', 'east', 5, '0.05', ${south!.id}::bigint)) v(day, region, orders, amount, branch_id)
        where (${params.region ?? null}::text is null or v.region = ${params.region ?? null})
          and (${params.branch ?? null}::bigint is null or v.branch_id = ${params.branch ?? null}::bigint)
          and (${params.date_after ?? null}::date is null or v.day::date >= ${params.date_after ?? null}::date)
          and (${params.date_before ?? null}::date is null or v.day::date <= ${params.date_before ?? null}::date)`
    },
    number_rows: ({ params }) => numbered(Number(params.count)),
    number_share: ({ params }) => numbered(Number(params.count)),
    number_line: ({ params }) => numbered(Number(params.count)),
    plain_rows: () => sql`select 'only' as name`,
  },
}

function numbered(count: number) {
  return sql`
    select g::int as n, 'B' || lpad((g % 25)::text, 2, '0') as bucket, (g * 0.01)::numeric(20, 2) as a, 0.00::numeric(20, 2) as b, 1.00::numeric(20, 2) as c,
      1 as d, 'Row ' || g as e, 'REF-' || g as g, date '2026-01-01' + (g % 365) as h
    from generate_series(1, ${count}::int) g`
}

/** The labels an author adds with these reports, in each language (the rest reuse the catalogues' own). */
const labels: Record<string, Record<string, Record<string, string>>> = {
  en: { report: { region_sales: 'Sales by region', number_rows: 'Numbered rows', number_share: 'Numbered shares', number_line: 'Numbered line', plain_rows: 'Plain rows' }, option: { north: 'North', south: 'South', east: 'East' } },
  tr: { report: { region_sales: 'Bölgelere göre satışlar', number_rows: 'Numaralı satırlar', number_share: 'Numaralı paylar', number_line: 'Numaralı çizgi', plain_rows: 'Düz satırlar' }, option: { north: 'Kuzey', south: 'Güney', east: 'Doğu' } },
  ar: { report: { region_sales: 'المبيعات حسب المنطقة', number_rows: 'صفوف مرقّمة', number_share: 'حصص مرقّمة', number_line: 'خط مرقّم', plain_rows: 'صفوف بسيطة' }, option: { north: 'الشمال', south: 'الجنوب', east: 'الشرق' } },
}

type Mutable = Record<string, Record<string, Record<string, unknown>>>
let undoLabels: () => void
beforeAll(() => {
  const target = catalogues as unknown as Mutable
  const before = Object.fromEntries(Object.keys(labels).map((lang) => [lang, { report: target[lang]!.report, option: target[lang]!.option }]))
  for (const [lang, sections] of Object.entries(labels)) for (const [section, values] of Object.entries(sections)) target[lang]![section] = { ...target[lang]![section], ...values }
  undoLabels = () => {
    for (const [lang, sections] of Object.entries(before)) Object.assign(target[lang]!, sections)
  }
})
afterAll(() => undoLabels())

/**
 * The text a PDF shows: each content stream's text operators decoded through the embedded
 * font's ToUnicode map (pdfkit writes glyph ids in hex), with where each is drawn (`x y Tm`).
 */
type Placed = { x: number; y: number; text: string }
function pdfPlaced(pdf: Buffer): Placed[] {
  const raw = pdf.toString('latin1')
  const objects = new Map<number, { dict: string; stream?: Buffer }>()
  for (const m of raw.matchAll(/(\d+) 0 obj\s*/g)) {
    const start = m.index! + m[0].length
    const body = raw.slice(start, raw.indexOf('endobj', start))
    const streamAt = body.indexOf('stream\n')
    if (streamAt < 0) {
      objects.set(Number(m[1]), { dict: body })
      continue
    }
    const dict = body.slice(0, streamAt)
    const bytes = pdf.subarray(start + streamAt + 7, start + streamAt + 7 + Number(/\/Length (\d+)/.exec(dict)?.[1]))
    objects.set(Number(m[1]), { dict, stream: /FlateDecode/.test(dict) ? inflateSync(bytes) : bytes })
  }
  const fonts = new Map<string, Map<number, string>>()
  for (const { dict } of objects.values()) {
    for (const ref of dict.matchAll(/\/(F\d+) (\d+) 0 R/g)) {
      const toUnicode = /\/ToUnicode (\d+) 0 R/.exec(objects.get(Number(ref[2]))?.dict ?? '')
      if (!toUnicode || fonts.has(ref[1]!)) continue
      const map = new Map<number, string>()
      for (const r of objects.get(Number(toUnicode[1]))!.stream!.toString('latin1').matchAll(/<([0-9a-f]{4})> <([0-9a-f]{4})> \[([^\]]*)\]/gi)) {
        let code = parseInt(r[1]!, 16)
        for (const entry of r[3]!.matchAll(/<([0-9a-f ]+)>/gi)) map.set(code++, String.fromCharCode(...entry[1]!.split(' ').map((h) => parseInt(h, 16))))
      }
      fonts.set(ref[1]!, map)
    }
  }
  const placed: Placed[] = []
  for (const { dict, stream } of objects.values()) {
    if (!stream || /ToUnicode|FontFile|Subtype|CIDToGIDMap|Length1/.test(dict)) continue
    let font = new Map<number, string>()
    let at = { x: 0, y: 0 }
    for (const op of stream.toString('latin1').matchAll(/1 0 0 1 ([\d.-]+) ([\d.-]+) Tm|\/(F\d+) [\d.]+ Tf|\[([^\]]*)\] TJ/gi)) {
      if (op[1]) at = { x: Number(op[1]), y: Number(op[2]) }
      else if (op[3]) font = fonts.get(op[3]) ?? new Map()
      else {
        const hex = [...op[4]!.matchAll(/<([0-9a-f]*)>/gi)].map((h) => h[1]).join('')
        let text = ''
        for (let i = 0; i + 4 <= hex.length; i += 4) text += font.get(parseInt(hex.slice(i, i + 4), 16)) ?? '?'
        placed.push({ ...at, text })
      }
    }
  }
  return placed
}

/** The text of a PDF, a line per text operator. */
const pdfText = (pdf: Buffer) => pdfPlaced(pdf).map((p) => p.text).join('\n')

const pageCount = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length
const mediaBoxes = (pdf: Buffer) => [...new Set([...pdf.toString('latin1').matchAll(/\/MediaBox \[([^\]]+)\]/g)].map((m) => m[1]!.trim()))]

const options = { entities, reports: [regionSales, numberRows, numberShare, numberLine, plain, ...Object.values(reportRegistry)], modules: [testModule] }

describeEachDatabase(
  'the report engine',
  (t) => {
    const ok = (r: Reply, status = 200) => {
      expect(r.status, r.raw).toBe(status)
      return r.body
    }
    /** A PDF asked for as the admin, in a language. */
    const pdfOf = async (url: string, language = 'en') => {
      const res = await t.current.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${await t.current.token()}`, 'accept-language': language } })
      return { status: res.statusCode, headers: res.headers, body: res.rawPayload, json: String(res.headers['content-type']).includes('json') ? res.json() : undefined }
    }

    beforeAll(async () => {
      for (const name of ['Head office', 'Sylhet branch']) {
        const found = await sql<{ id: number; name: string }>`select id, name from branch where name = ${name}`.execute(t.current.db)
        branches.push(found.rows[0] ?? ok(await t.current.call({ method: 'POST', url: '/branch/api/v1/branch/create/', payload: { name } }), 201))
      }
      branches = branches.map((b) => ({ id: Number(b.id), name: b.name }))
    })
    afterAll(() => {
      branches = []
    })

    describe('the PDF of a run', () => {
      it('prints the title and labels in the caller’s language, the parameters used, every row with its numbers in the reader’s locale, and the totals', async () => {
        const res = await pdfOf(`${regionSales.api.base}/pdf?branch=${branches[0]!.id}&date_after=2026-03-01`, 'tr-TR,tr;q=0.9')
        expect(res.status).toBe(200)
        expect(res.headers['content-type']).toBe('application/pdf')
        expect(res.headers['content-disposition']).toBe('attachment; filename="region_sales.pdf"')
        expect(res.body.subarray(0, 5).toString()).toBe('%PDF-')
        expect(res.body.toString('latin1')).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans\b/)
        const text = pdfText(res.body)
        for (const shown of ['Bölgelere göre satışlar', 'Parametreler:', 'Şube: Head office', 'Başlangıç: 1 Mar 2026', 'Tarih', 'Tür', 'Öğe sayısı', 'Tutar', 'Kuzey', '1.250,50', '100,00', 'Toplamlar', '1.350,50', 'Bölgelere göre satışlar · Sayfa 1 / 1']) {
          expect(text, shown).toContain(shown)
        }
        // The rows of the run alone, in its order; the hidden column is no one's to read.
        expect(text).not.toContain('Güney')
        expect(text).not.toMatch(new RegExp(`^${branches[0]!.id}$`, 'm'))
        expect(text.indexOf('1.250,50')).toBeLessThan(text.indexOf('100,00'))
        expect(pageCount(res.body)).toBe(1)
        expect(mediaBoxes(res.body)).toEqual(['0 0 595.28 841.89'])
      })

      it('right-aligns the numbers and the totals, and starts text where its column starts', async () => {
        const placed = pdfPlaced((await pdfOf(`${regionSales.api.base}/pdf`)).body)
        const xOf = (text: string) => placed.find((p) => p.text === text)!.x
        expect(placed.map((p) => p.text)).toEqual(expect.arrayContaining(['Parameters: ', 'None: every row.']))
        // DejaVu's digits are all as wide: numbers as long end where each other ends, a shorter one starts further in.
        expect(xOf('0.05')).toBeCloseTo(xOf('7.25'), 2)
        expect(xOf('100.00')).toBeGreaterThan(xOf('1,250.50') + 5)
        expect(xOf('7.25')).toBeGreaterThan(xOf('100.00') + 5)
        expect(xOf('1,357.80')).toBeLessThan(xOf('100.00'))
        expect(xOf('5')).toBeGreaterThan(xOf('Items'))
        expect(xOf('11')).toBeGreaterThan(xOf('Items'))
        expect(xOf('South')).toBeCloseTo(xOf('North'), 2)
        expect(xOf('North')).toBeCloseTo(xOf('Type'), 2)
      })

      it('prints an Arabic reader’s PDF with English labels: pdfkit does not lay out right-to-left lines', async () => {
        const text = pdfText((await pdfOf(`${regionSales.api.base}/pdf?region=east`, 'ar')).body)
        expect(text).toContain('Sales by region')
        expect(text).toContain('Type: East')
        expect(text).toContain('0.05')
      })

      it('prints every row over as many pages as they need, landscape when the columns are many, the header on each page', async () => {
        const res = await pdfOf(`${numberRows.api.base}/pdf?count=300`)
        expect(res.status).toBe(200)
        expect(mediaBoxes(res.body)).toEqual(['0 0 841.89 595.28'])
        const pages = pageCount(res.body)
        expect(pages).toBeGreaterThan(3)
        const text = pdfText(res.body)
        expect(text).toContain('Row 300')
        expect(text).toContain(`Numbered rows · Page ${pages} of ${pages}`)
        expect(text.match(/^Reference( No)?$/gm)).toHaveLength(pages)
        // Totals over every row: 0.01 + … + 3.00, and 300 ones.
        expect(text).toMatch(/^Totals\n451\.50\n300$/m)
      })

      it(`cuts a run at ${PDF_ROWS.toLocaleString('en')} rows, says so at the top, and totals every row`, async () => {
        const count = PDF_ROWS + 50
        const res = await pdfOf(`${numberRows.api.base}/pdf?count=${count}`)
        expect(res.status).toBe(200)
        const text = pdfText(res.body)
        expect(text).toContain('Only the first 10,000 of 10,050 rows are printed here: the CSV download has every row.')
        expect(text.indexOf('Only the first')).toBeLessThan(text.indexOf('Row 1\n'))
        expect(text).toContain(`Row ${PDF_ROWS}`)
        expect(text).not.toContain(`Row ${PDF_ROWS + 1}`)
        const sum = ((count * (count + 1)) / 2 / 100).toLocaleString('en', { minimumFractionDigits: 2 })
        expect(text).toMatch(new RegExp(`^Totals\\n${sum.replace(/[.,]/g, '\\$&')}\\n10,050$`, 'm'))
      }, 120_000)

      it('says when a run has no rows', async () => {
        const text = pdfText((await pdfOf(`${regionSales.api.base}/pdf?date_after=2027-01-01`)).body)
        expect(text).toContain('No rows for these parameters.')
        expect(text).not.toContain('Totals')
      })

      it('judges the parameters as the JSON route does: 400 with a field map, nothing drawn', async () => {
        const bad = await pdfOf(`${regionSales.api.base}/pdf?region=west&date_after=2026-02-30`)
        expect(bad.status).toBe(400)
        expect(bad.json).toEqual({ region: ['Select a valid choice.'], date_after: ['Enter a valid date (YYYY-MM-DD).'] })
        const missing = await pdfOf(`${numberRows.api.base}/pdf`)
        expect(missing.status).toBe(400)
        expect(Object.keys(missing.json)).toEqual(['count'])
        expect((await pdfOf(`${regionSales.api.base}/pdf?date_after=2026-03-02&date_before=2026-03-01`)).status).toBe(400)
      })

      it('needs the report’s permission', async () => {
        const other = await callerWith(t.current, ['NUMBER_ROWS_VIEW'])
        expect((await other({ method: 'GET', url: `${regionSales.api.base}/pdf` })).status).toBe(403)
        expect((await other({ method: 'GET', url: `${regionSales.api.base}/chart` })).status).toBe(403)
        const viewer = await callerWith(t.current, ['REGION_SALES_VIEW'])
        const res = await viewer({ method: 'GET', url: `${regionSales.api.base}/pdf` })
        expect(res.status).toBe(200)
        expect(res.headers['content-type']).toBe('application/pdf')
        expect((await viewer({ method: 'GET', url: `${regionSales.api.base}/chart` })).status).toBe(200)
        expect((await t.current.call({ method: 'GET', url: `${regionSales.api.base}/pdf`, asAnonymous: true })).status).toBe(401)
      })

      it('prints an unpaged report too', async () => {
        const res = await pdfOf(`${plain.api.base}/pdf`)
        expect(res.status).toBe(200)
        expect(pdfText(res.body)).toContain('only')
      })
    })

    describe('a chart', () => {
      it('sums each value over every row with the same label, in the label’s order for a line chart', async () => {
        expect(ok(await t.current.call({ method: 'GET', url: `${regionSales.api.base}/chart?size=1&page=2` }))).toEqual({
          points: [
            { label: '2026-03-01', values: { amount: '1257.75', orders: '4' }, is_other: false },
            { label: '2026-03-02', values: { amount: '100.00', orders: '2' }, is_other: false },
            { label: '2026-03-03', values: { amount: '0.05', orders: '5' }, is_other: false },
          ],
          is_cut: false,
        })
        expect(ok(await t.current.call({ method: 'GET', url: `${regionSales.api.base}/chart?region=north` })).points.map((p: { values: { amount: string } }) => p.values.amount)).toEqual(['1250.50', '100.00'])
        const bad = await t.current.call({ method: 'GET', url: `${regionSales.api.base}/chart?region=west` })
        expect(bad.status).toBe(400)
        expect(bad.body).toEqual({ region: ['Select a valid choice.'] })
      })

      it(`draws a bar chart’s ${CHART_POINTS.bar} largest points and a pie’s ${CHART_POINTS.pie}, the rest summed into one`, async () => {
        const bars = ok(await t.current.call({ method: 'GET', url: `${numberRows.api.base}/chart?count=100` }))
        expect(bars.points).toHaveLength(CHART_POINTS.bar + 1)
        // Bucket 0 holds 25, 50, 75 and 100: the largest, 2.50; then bucket 24's 24, 49, 74 and 99.
        expect(bars.points.slice(0, 2)).toEqual([
          { label: 'B00', values: { a: '2.50' }, is_other: false },
          { label: 'B24', values: { a: '2.46' }, is_other: false },
        ])
        const amounts = bars.points.slice(0, -1).map((p: { values: { a: string } }) => Number(p.values.a))
        expect(amounts).toEqual([...amounts].sort((x, y) => y - x))
        expect(bars.points.at(-1)).toMatchObject({ label: expect.any(String), is_other: true })
        // Every row is in the chart once: its points add up to the totals.
        const cents = bars.points.reduce((sum: number, p: { values: { a: string } }) => sum + Math.round(Number(p.values.a) * 100), 0)
        expect(cents).toBe(5050)
        const pie = ok(await t.current.call({ method: 'GET', url: `${numberShare.api.base}/chart?count=100` }))
        expect(pie.points).toHaveLength(CHART_POINTS.pie + 1)
        expect(pie.points.reduce((sum: number, p: { values: { d: string } }) => sum + Number(p.values.d), 0)).toBe(100)
      })

      it(`stops a line chart at ${CHART_POINTS.line} points and says so`, async () => {
        const line = ok(await t.current.call({ method: 'GET', url: `${numberLine.api.base}/chart?count=${CHART_POINTS.line + 20}` }))
        expect(line.is_cut).toBe(true)
        expect(line.points).toHaveLength(CHART_POINTS.line)
        expect(line.points.slice(0, 2)).toEqual([
          { label: '1', values: { a: '0.01' }, is_other: false },
          { label: '2', values: { a: '0.02' }, is_other: false },
        ])
        expect(ok(await t.current.call({ method: 'GET', url: `${numberLine.api.base}/chart?count=${CHART_POINTS.line}` })).is_cut).toBe(false)
      })

      it('is served only for a report that has one', async () => {
        expect((await t.current.call({ method: 'GET', url: `${plain.api.base}/chart` })).status).toBe(404)
      })
    })

    describe('hidden columns', () => {
      it('are answered apart from the rows, a row each, and left out of the CSV and the contract’s route', async () => {
        const run = ok(await t.current.call({ method: 'GET', url: `${regionSales.api.base}/?size=2` }))
        expect(run.rows).toEqual([
          { day: '2026-03-01', region: 'north', orders: 3, amount: '1250.50' },
          { day: '2026-03-01', region: 'south', orders: 1, amount: '7.25' },
        ])
        expect(run.hidden.map((h: { branch_id: unknown }) => Number(h.branch_id))).toEqual([branches[0]!.id, branches[1]!.id])
        expect(run.totals).toEqual({ orders: '11', amount: '1357.80' })
        const csv = await t.current.call({ method: 'GET', url: `${regionSales.api.base}/csv`, headers: { 'accept-language': 'en' } })
        expect(csv.raw.replace(/^\ufeff/, '').split('\r\n')[0]).toBe('"Date","Type","Items","Amount"')
        const contract = ok(await t.current.call({ method: 'GET', url: `${regionSales.contract!.path}?size=2` }))
        expect(contract).toEqual({ region_sales: run.rows, page: 1, size: 2, total_pages: 2, total_elements: 4 })
        // A report without hidden columns answers as it did.
        expect(Object.keys(ok(await t.current.call({ method: 'GET', url: `${plain.api.base}/` })))).toEqual(['rows', 'page', 'size', 'total_pages', 'total_elements', 'totals'])
      })
    })

    describe('the ledger report’s drill-down', () => {
      it('gives each line the id of a row of its voucher, and none to the opening, the closing and a cancelled voucher’s lines', async () => {
        const ledgers = await sql<{ id: number; name: string }>`select id, name from ledger_account where name in ('Cash', 'Company Purchase', 'Shipping Charges') and is_deletable = false`.execute(t.current.db)
        const ledger = Object.fromEntries(ledgers.rows.map((r) => [r.name, Number(r.id)]))
        const voucher = async (kind: string, date: Record<string, string>, items: Array<Record<string, unknown>>) =>
          ok(await t.current.call({ method: 'POST', url: `/${kind}/api/v1/${kind}/create/`, payload: { ...date, details: 'drill', items } }), 201)
        const paid = (await voucher('payment_voucher', { payment_date: '2026-04-15' }, [
          { ledger: ledger['Company Purchase'], debit_amount: '70.00' },
          { ledger: ledger.Cash, credit_amount: '70.00' },
        ])).payment_vouchers
        const journal = (await voucher('journal', { journal_date: '2026-04-16' }, [
          { ledger: ledger['Shipping Charges'], debit_amount: '5.00' },
          { ledger: ledger['Company Purchase'], credit_amount: '5.00' },
        ])).journals
        const cancelled = (await voucher('payment_voucher', { payment_date: '2026-04-17' }, [
          { ledger: ledger['Company Purchase'], debit_amount: '1.00' },
          { ledger: ledger.Cash, credit_amount: '1.00' },
        ])).payment_vouchers
        ok(await t.current.call({ method: 'DELETE', url: `/payment_voucher/api/v1/payment_voucher/delete/${cancelled[0].id}` }))

        const run = ok(await t.current.call({ method: 'GET', url: `${reportRegistry.ledger_report!.api.base}/?ledger=${ledger['Company Purchase']}&date_after=2026-04-15&date_before=2026-04-17&size=100` }))
        expect(run.rows[0]).not.toHaveProperty('voucher_id')
        const lines = run.rows.map((row: { reference_no: string | null; log_type: string }, i: number) => [row.reference_no, row.log_type, run.hidden[i].voucher_id === null ? null : Number(run.hidden[i].voucher_id)])
        const idsOf = (rows: Array<{ id: number }>) => rows.map((r) => Number(r.id))
        expect(lines[0]).toEqual([null, 'opening_balance', null])
        expect(idsOf(paid)).toContain(lines[1][2])
        expect(lines[1].slice(0, 2)).toEqual([paid[0].invoice_no, 'payment_voucher'])
        expect(idsOf(journal)).toContain(lines[2][2])
        expect(lines[2].slice(0, 2)).toEqual([journal[0].invoice_no, 'journal'])
        // The cancelled voucher's line leads nowhere: it is gone (its reversal is dated the day it was cancelled).
        expect(lines.filter((l: unknown[]) => l[0] === cancelled[0].invoice_no).map((l: unknown[]) => l[2])).toEqual([null])
        expect(lines.at(-1)).toEqual([null, 'closing_balance', null])
      })
    })
  },
  options,
)
