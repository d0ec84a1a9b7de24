import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql, type RawBuilder } from 'kysely'
import type { Entity, Fields, Message } from '../../../schema/kit'
import { voucherSpecs, type VoucherSpec } from '../../../schema/entities/accounting/vouchers'
import { isCalendarDate, isIdText } from '../../../schema/kit/validators'
import type { Executor, Trx } from '../../db/types'
import { BusinessError, NotFoundError, ValidationError } from '../../engine/errors'
import type { ModuleDeps } from '../../engine/modules'
import { filtersOf, orderingOf, pageOf } from '../../engine/request'
import { nestedRef, whereClause, type Registry } from '../../engine/list-query'
import { actionConfig } from '../../engine/routes'
import { inTransaction } from '../../engine/service'
import { readBody } from '../../engine/uploads'
import { modelName } from '../../engine/validate'
import { messageFor } from '../../i18n'
import { nextInvoiceNo } from './numbering'
import { cashBankLedgerIds, reverseEntries, type PostingLine } from './posting'
import { cancelInvoice, linesOfInvoice, removeLines, writeVoucher, type VoucherHeader, type VoucherRow } from './voucher-service'

/**
 * The six vouchers' routes (api-contract §4.7, decisions.md "Accounting"): every write posts
 * to the general ledger in the same transaction — create takes the next invoice number and
 * posts, update reverses what stands and posts the new version under the same number, delete
 * cancels with reversing rows — and the list shows one row per invoice. Each write runs as the
 * engine's do (`inTransaction`): a deadlock with another posting on the same ledgers and days
 * (an update's reversal and new lines are two statements) runs it again.
 */
type Values = Record<string, unknown>

const say = (request: FastifyRequest, message: Message) => messageFor(request.headers['accept-language'], message)

/** An id as JSON or multipart sends it (`5` or `"5"`); blank is none; anything else is kept to be refused by the posting's rules. */
function idOf(raw: unknown): number | null | undefined {
  if (raw === undefined) return undefined
  if (raw === null || raw === '') return null
  if (typeof raw === 'number') return raw
  if (typeof raw === 'string' && isIdText(raw.trim())) return Number(raw.trim())
  return Number.NaN
}

const textOf = (raw: unknown): string | null => (typeof raw === 'string' && raw.trim() !== '' ? raw : typeof raw === 'number' ? String(raw) : null)
const flagOf = (raw: unknown): boolean => raw === true || raw === 'true' || raw === '1' || raw === 1

/** Only a file this kind's upload stored (`readBody` names it so): a client cannot point a voucher at another path. */
const isUploadOf = (spec: VoucherSpec, value: unknown): value is string =>
  typeof value === 'string' && new RegExp(`^/media/${spec.kind}/[0-9a-f-]{36}\\.[a-z0-9]{1,10}$`).test(value)

/** The voucher's header as sent, laid over the stored one on update. */
function headerOf(spec: VoucherSpec, body: Values, stored?: VoucherHeader): VoucherHeader {
  const errors: Record<string, Message[]> = {}
  const sentDate = body[spec.dateField]
  // The contract sends a date; a datetime's day is taken (the original added the time itself).
  const date = typeof sentDate === 'string' ? sentDate.slice(0, 10) : stored?.date
  if (!date) errors[spec.dateField] = [{ key: 'validation.required', params: { label: `field.${spec.dateField}` } }]
  else if (!isCalendarDate(date)) errors[spec.dateField] = [{ key: 'validation.date', params: { label: `field.${spec.dateField}` } }]
  const branch = idOf(body.branch)
  const subLedger = spec.hasSubLedger ? idOf(body.sub_ledger) : null
  if (Number.isNaN(branch)) errors.branch = [{ key: 'validation.ref', params: { label: 'field.branch' } }]
  if (Number.isNaN(subLedger)) errors.sub_ledger = [{ key: 'validation.ref', params: { label: 'field.sub_ledger' } }]
  const refInvoiceNo = spec.hasRefInvoice && 'ref_invoice_no' in body ? textOf(body.ref_invoice_no) : (stored?.refInvoiceNo ?? null)
  if (refInvoiceNo !== null && refInvoiceNo.length > 50) errors.ref_invoice_no = [{ key: 'validation.max_length', params: { label: 'field.ref_invoice_no', max: 50 } }]
  if (Object.keys(errors).length > 0) throw new ValidationError(errors)
  return {
    date: date!,
    branch: branch === undefined ? (stored?.branch ?? null) : branch,
    subLedger: subLedger === undefined ? (stored?.subLedger ?? null) : subLedger,
    details: 'details' in body ? textOf(body.details) : (stored?.details ?? null),
    file: spec.hasFile && isUploadOf(spec, body.file) ? body.file : (stored?.file ?? null),
    flag: spec.flag && spec.flag in body ? flagOf(body[spec.flag]) : (stored?.flag ?? false),
    refInvoiceNo,
  }
}

/** The lines as sent (`items`, JSON or multipart `items[i][…]`); the posting's rules judge them. */
function linesOf(body: Values): PostingLine[] {
  const items = body.items
  if (!Array.isArray(items)) throw new ValidationError({ items: [{ key: 'validation.lines_min', params: { min: 2 } }] })
  return items.map((raw) => {
    const item = (typeof raw === 'object' && raw !== null ? raw : {}) as Values
    const ledger = idOf(item.ledger)
    const amount = (v: unknown) => (typeof v === 'number' ? String(v) : typeof v === 'string' ? v : null)
    return { ledger: ledger ?? 0, debit: amount(item.debit_amount), credit: amount(item.credit_amount) }
  })
}

const storedHeader = (spec: VoucherSpec, first: VoucherRow): VoucherHeader => ({
  date: String(first[spec.dateField]).slice(0, 10),
  branch: (first.branch as number | null) ?? null,
  subLedger: spec.hasSubLedger ? ((first.sub_ledger as number | null) ?? null) : null,
  details: (first.details as string | null) ?? null,
  file: spec.hasFile ? ((first.file as string | null) ?? null) : null,
  flag: spec.flag ? Boolean(first[spec.flag]) : false,
  refInvoiceNo: spec.hasRefInvoice ? ((first.ref_invoice_no as string | null) ?? null) : null,
})


/**
 * One row per invoice: the line the contract shows (the cash or bank line of a payment or
 * receipt, the Company Sales / Company Purchase line, the first line of a contra or journal),
 * `amount` the sum of the kind's side over every line, and the other lines' ledgers. An
 * invoice is listed when any of its lines meets the filters (the engine's vocabulary: `q`,
 * `invoice_no`, `ledger=5`, `<date>_after`…), so a payment is found by the ledger it paid.
 */
async function listRows(db: Executor, registry: Registry, entity: Entity<string, Fields>, spec: VoucherSpec, query: Values) {
  const { page, size } = pageOf(query)
  const filters = filtersOf(entity, query)
  const ordering = query.ordering === undefined || query.ordering === '' ? undefined : orderingOf(entity, query)
  const table = sql.id(spec.kind)
  const filter = filters.length === 0 ? sql`true` : sql`v.invoice_no in (select f.invoice_no from ${table} f ${whereClause(registry, entity, 'f', filters)})`
  // The shown line sorts first within its invoice; an invoice without one shows its first line.
  let shownFirst: RawBuilder<unknown> = sql``
  if (spec.listLine === 'cash_bank') shownFirst = sql`(v.ledger in (${cashBankLedgerIds})) desc,`
  else if (spec.listLine !== 'first') shownFirst = sql`(v.ledger in (select id from ledger_account where name = ${spec.listLine} and is_deletable = false)) desc,`
  const invoices = sql`
    select distinct on (v.invoice_no) v.id, v.invoice_no, max(v.id) over (partition by v.invoice_no) as newest
    from ${table} v where ${filter}
    order by v.invoice_no, ${shownFirst} v.id`
  const count = await sql<{ n: number }>`select count(*)::int as n from (${invoices}) i`.execute(db)
  const total = count.rows[0]?.n ?? 0
  const totalPages = Math.max(1, Math.ceil(total / size))
  const current = Math.min(page, totalPages)
  const rows = await sql<Values & { related: string[] | null }>`
    select v.id, v.invoice_no, ${nestedRef('b')} as branch, ${nestedRef('l')} as ledger,
      ${spec.hasSubLedger ? nestedRef('s') : sql`null`} as sub_ledger,
      (select sum(${sql.ref(`o.${spec.amountSide}`)}) from ${table} o where o.invoice_no = v.invoice_no)::numeric(20,2)::text as amount,
      ${sql.ref(`v.${spec.dateField}`)}, v.details, v.created_at, v.updated_at, cu.email as created_by, uu.email as updated_by,
      (select array_agg(ol.name order by o.id) from ${table} o join ledger_account ol on ol.id = o.ledger where o.invoice_no = v.invoice_no and o.id <> v.id) as related
    from (${invoices}) i
    join ${table} v on v.id = i.id
    join ledger_account l on l.id = v.ledger
    left join branch b on b.id = v.branch
    ${spec.hasSubLedger ? sql`left join sub_ledger_account s on s.id = v.sub_ledger` : sql``}
    left join "user" cu on cu.id = v.created_by
    left join "user" uu on uu.id = v.updated_by
    order by ${ordering === undefined ? defaultOrder(spec) : orderOf(spec, ordering)}
    limit ${size} offset ${(current - 1) * size}`.execute(db)
  const withRelated = spec.listLine !== 'first'
  return {
    rows: rows.rows.map(({ related, ...row }) => (withRelated ? { ...row, related_ledgers: !related || related.length === 0 ? null : related.length === 1 ? related[0]! : related } : row)),
    page: current,
    size,
    totalPages,
    total,
  }
}

/** The contract's order: contras and journals by number, the others newest first. */
const defaultOrder = (spec: VoucherSpec) => (spec.listLine === 'first' ? sql`i.invoice_no asc` : sql`i.newest desc`)

/** `ordering` over the shown row: a reference by its name, ties by number. */
function orderOf(spec: VoucherSpec, ordering: string): RawBuilder<unknown> {
  const isDesc = ordering.startsWith('-')
  const name = isDesc ? ordering.slice(1) : ordering
  const dir = sql.raw(isDesc ? 'desc' : 'asc')
  const byRef: Record<string, string> = { ledger: 'l.name', branch: 'b.name', sub_ledger: 's.name' }
  const column = name === 'id' ? 'i.newest' : (byRef[name] ?? (name === spec.dateField || name === 'invoice_no' || name === 'details' ? `v.${name}` : 'i.newest'))
  return sql`${sql.ref(column)} ${dir} nulls last, v.invoice_no ${dir}`
}

/** The invoices of some line ids; 404 for an id that is no line. */
async function invoicesOfIds(trx: Trx, entity: Entity<string, Fields>, spec: VoucherSpec, ids: readonly number[]): Promise<string[]> {
  const found = await sql<{ id: number; invoice_no: string }>`select id, invoice_no from ${sql.id(spec.kind)} where id = any(${ids}::bigint[])`.execute(trx)
  const missing = ids.find((id) => !found.rows.some((r) => r.id === id))
  if (missing !== undefined) throw new NotFoundError({ key: 'detail.not_found', params: { model: modelName(entity), entity: entity.labelKey, id: String(missing) } })
  return [...new Set(found.rows.map((r) => r.invoice_no))]
}

const idsOf = (body: unknown): number[] => {
  const ids = (body as { ids?: unknown } | null)?.ids
  const parsed = Array.isArray(ids) ? ids.map((v) => idOf(v)) : []
  if (parsed.length === 0 || parsed.some((v) => typeof v !== 'number' || Number.isNaN(v) || v <= 0)) throw new BusinessError({ key: 'detail.ids_body' })
  return parsed as number[]
}

export function registerVoucherRoutes(app: FastifyInstance, deps: ModuleDeps): void {
  for (const spec of voucherSpecs) {
    const entity = deps.registry.find((e) => e.name === spec.kind)
    // A test's registry of its own may have no vouchers.
    if (!entity) continue
    registerKind(app, deps, spec, entity)
  }
}

function registerKind(app: FastifyInstance, deps: ModuleDeps, spec: VoucherSpec, entity: Entity<string, Fields>): void {
  const base = entity.api.base
  const actorOf = (request: FastifyRequest) => request.principal?.id ?? null
  const envelope = (result: Awaited<ReturnType<typeof listRows>>) => ({ [entity.listKey]: result.rows, page: result.page, size: result.size, total_pages: result.totalPages, total_elements: result.total })

  // `all/` and `search/` alike: the contract's `search/?invoice_no=`, and the engine's filters on both.
  for (const route of ['all', 'search']) {
    app.get(`${base}/${route}/`, { config: actionConfig(entity, 'LIST') }, async (request) => envelope(await listRows(deps.db, deps.registry, entity, spec, request.query as Values)))
  }

  app.get(`${base}/${spec.byInvoice}/:invoice_no`, { config: actionConfig(entity, 'DETAILS') }, async (request) => {
    const invoiceNo = (request.params as { invoice_no: string }).invoice_no
    const table = sql.id(spec.kind)
    const items = await sql<Values>`
      select v.id, v.invoice_no, ${nestedRef('l')} as ledger, ${spec.hasSubLedger ? nestedRef('s') : sql`null`} as sub_ledger, ${nestedRef('b')} as branch,
        v.debit_amount, v.credit_amount, ${sql.ref(`v.${spec.dateField}`)}, v.details ${spec.hasFile ? sql`, v.file` : sql``} ${spec.flag ? sql`, ${sql.ref(`v.${spec.flag}`)}` : sql``} ${spec.hasRefInvoice ? sql`, v.ref_invoice_no` : sql``},
        v.created_at, v.updated_at
      from ${table} v
      join ledger_account l on l.id = v.ledger
      left join branch b on b.id = v.branch
      ${spec.hasSubLedger ? sql`left join sub_ledger_account s on s.id = v.sub_ledger` : sql``}
      where v.invoice_no = ${invoiceNo}
      order by v.id`.execute(deps.db)
    const first = items.rows[0]
    if (!first) throw new NotFoundError({ key: 'detail.voucher_unknown_invoice', params: { invoice: invoiceNo, entity: entity.labelKey } })
    return {
      invoice_no: invoiceNo,
      file: spec.hasFile ? (first.file ?? null) : null,
      sub_ledger: first.sub_ledger ?? null,
      branch: first.branch ?? null,
      [spec.dateField]: first[spec.dateField],
      details: first.details ?? null,
      ...(spec.flag ? { [spec.flag]: first[spec.flag] } : {}),
      ...(spec.hasRefInvoice ? { ref_invoice_no: first.ref_invoice_no ?? null } : {}),
      items: items.rows,
    }
  })

  app.post(`${base}/create/`, { config: actionConfig(entity, 'CREATE') }, async (request, reply) => {
    const body = await readBody(request, entity, deps.mediaDir)
    try {
      const header = headerOf(spec, body.values)
      const lines = linesOf(body.values)
      const written = await inTransaction({ db: deps.db, entity }, async (trx) => {
        const invoiceNo = await nextInvoiceNo(trx, spec.prefix, header.date)
        return writeVoucher(trx, spec, invoiceNo, header, lines, actorOf(request))
      })
      return reply.code(201).send({ [entity.listKey]: written.lines, account_logs: written.logs })
    } catch (e) {
      await body.cleanup()
      throw e
    }
  })

  const update = async (request: FastifyRequest, lineId: number | undefined) => {
    const body = await readBody(request, entity, deps.mediaDir)
    try {
      const written = await inTransaction({ db: deps.db, entity }, async (trx) => {
        const invoiceNo = lineId === undefined ? textOf(body.values.invoice_no) : (await invoicesOfIds(trx, entity, spec, [lineId]))[0]!
        if (!invoiceNo) throw new ValidationError({ invoice_no: [{ key: 'validation.required', params: { label: 'field.invoice_no' } }] })
        const stored = await linesOfInvoice(trx, spec, invoiceNo, true)
        if (stored.length === 0) throw new NotFoundError({ key: 'detail.voucher_unknown_invoice', params: { invoice: invoiceNo, entity: entity.labelKey } })
        const header = headerOf(spec, body.values, storedHeader(spec, stored[0]!))
        const lines = linesOf(body.values)
        // The ledger is append-only: what stood is reversed, the new version posted under the same number.
        await reverseEntries(trx, invoiceNo, { actor: actorOf(request) })
        await removeLines(trx, spec, stored, actorOf(request))
        return { invoiceNo, ...(await writeVoucher(trx, spec, invoiceNo, header, lines, actorOf(request))) }
      })
      return {
        data: { [entity.listKey]: written.lines, account_logs: written.logs },
        detail: say(request, { key: 'detail.voucher_updated', params: { model: modelName(entity), entity: entity.labelKey, invoice: written.invoiceNo } }),
      }
    } catch (e) {
      await body.cleanup()
      throw e
    }
  }
  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({ method, url: `${base}/update/`, config: actionConfig(entity, 'UPDATE'), handler: (request) => update(request, undefined) })
    app.route({
      method,
      url: `${base}/update/:id`,
      config: actionConfig(entity, 'UPDATE', true),
      handler: (request) => update(request, lineIdOf(entity, (request.params as { id: string }).id)),
    })
  }

  app.delete(`${base}/delete/:id`, { config: actionConfig(entity, 'DELETE', true) }, async (request) => {
    const id = lineIdOf(entity, (request.params as { id: string }).id)
    await inTransaction({ db: deps.db, entity }, async (trx) => {
      const [invoiceNo] = await invoicesOfIds(trx, entity, spec, [id])
      await cancelInvoice(trx, spec, invoiceNo!, actorOf(request))
    })
    return { detail: say(request, { key: 'detail.delete_done', params: { model: modelName(entity), entity: entity.labelKey, id } }) }
  })

  app.delete(`${base}/delete_multiple/`, { config: actionConfig(entity, 'DELETE') }, async (request) => {
    const ids = idsOf(request.body)
    await inTransaction({ db: deps.db, entity }, async (trx) => {
      for (const invoiceNo of await invoicesOfIds(trx, entity, spec, ids)) await cancelInvoice(trx, spec, invoiceNo, actorOf(request))
    })
    return { detail: say(request, { key: 'detail.delete_done_many', params: { model: modelName(entity), entity: entity.labelKey, ids: ids.join(', ') } }) }
  })
}

function lineIdOf(entity: Entity<string, Fields>, raw: string): number {
  if (!isIdText(raw)) throw new NotFoundError({ key: 'detail.not_found', params: { model: modelName(entity), entity: entity.labelKey, id: raw } })
  return Number(raw)
}
