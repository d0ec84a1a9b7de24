import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import type { Entity, Fields, Message } from '../../../schema/kit'
import { voucherSpecs, type VoucherSpec } from '../../../schema/entities/accounting/vouchers'
import type { Trx } from '../../db/types'
import { NotFoundError, ValidationError } from '../../engine/errors'
import type { ModuleDeps } from '../../engine/modules'
import { nestedRef } from '../../engine/list-query'
import { createDocument, deleteDocument, deleteDocuments, findDocument, updateDocument } from '../../engine/operations/documents'
import { rowIdOf } from '../../engine/request'
import { actionConfig, idsOfBody, requestContext } from '../../engine/routes'
import { inTransaction } from '../../engine/service'
import { readBody } from '../../engine/uploads'
import { modelName } from '../../engine/validate'
import { messageFor } from '../../i18n'
import { standingEntries } from './posting'

/**
 * The six vouchers' contract routes (api-contract §4.7), as an adapter over the engine's
 * document operations (Payload's "endpoint → operation"): the voucher is a document kept one
 * row per ledger line (the registry's `rowsPerLine`), judged, numbered, written and posted by
 * the engine; these routes only speak the contract — its per-line ids, its `update/` by
 * invoice number, its answers (the voucher's rows and general-ledger rows), its by-invoice
 * read. The list (`all/`, `search/`) and `{id}` are the engine's own.
 */
type Values = Record<string, unknown>

const say = (request: FastifyRequest, message: Message) => messageFor(request.headers['accept-language'], message)

/**
 * The body as the engine's document takes it, with the contract's looseness kept: a
 * datetime for the voucher's date is read as its day (the original added the time itself).
 * The file is the engine's to judge: an upload of this request, the voucher's own, or none.
 */
function documentBody(spec: VoucherSpec, values: Values): Values {
  const body = { ...values }
  const date = body[spec.dateField]
  if (typeof date === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(date)) body[spec.dateField] = date.slice(0, 10)
  return body
}

/** The voucher's rows as the contract answers them (`returning *`), and its general-ledger rows that stand. */
async function written(trx: Trx, spec: VoucherSpec, invoiceNo: string) {
  const rows = await sql<Values>`select * from ${sql.id(spec.kind)} where invoice_no = ${invoiceNo} order by id`.execute(trx)
  return { rows: rows.rows, logs: await standingEntries(trx, invoiceNo) }
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
  const engine = { db: deps.db, registry: deps.registry, hooks: deps.hooks, mediaDir: deps.mediaDir }
  const unknownInvoice = (invoice: string) => new NotFoundError({ key: 'detail.voucher_unknown_invoice', params: { invoice, entity: entity.labelKey } })

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
    if (!first) throw unknownInvoice(invoiceNo)
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
      const answer = await inTransaction({ db: deps.db, entity }, async (trx) => {
        const voucher = await createDocument({ ...requestContext(engine, entity, request), db: trx }, documentBody(spec, body.values))
        return written(trx, spec, String(voucher.invoice_no))
      })
      return reply.code(201).send({ [entity.listKey]: answer.rows, account_logs: answer.logs })
    } catch (e) {
      await body.cleanup()
      throw e
    }
  })

  /** `update/` names the voucher by its `invoice_no`, `update/{id}` by one of its lines. */
  const update = async (request: FastifyRequest, lineId: number | undefined) => {
    const body = await readBody(request, entity, deps.mediaDir)
    try {
      const answer = await inTransaction({ db: deps.db, entity }, async (trx) => {
        const ctx = { ...requestContext(engine, entity, request), db: trx }
        let rowId = lineId
        let found: { key?: string } = {}
        if (rowId === undefined) {
          const invoice = typeof body.values.invoice_no === 'string' ? body.values.invoice_no.trim() : ''
          if (invoice === '') throw new ValidationError({ invoice_no: [{ key: 'validation.required', params: { label: 'field.invoice_no' } }] })
          const voucher = await findDocument(ctx, invoice)
          if (!voucher) throw unknownInvoice(invoice)
          rowId = Number(voucher.id)
          // A parallel update that replaces its lines meanwhile is then a 409 about this voucher, not a 404 about the line read.
          found = { key: invoice }
        }
        const voucher = await updateDocument(ctx, rowId, documentBody(spec, body.values), found)
        return { invoiceNo: String(voucher.invoice_no), ...(await written(trx, spec, String(voucher.invoice_no))) }
      })
      return {
        data: { [entity.listKey]: answer.rows, account_logs: answer.logs },
        detail: say(request, { key: 'detail.voucher_updated', params: { model: modelName(entity), entity: entity.labelKey, invoice: answer.invoiceNo } }),
      }
    } catch (e) {
      await body.cleanup()
      throw e
    }
  }
  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({ method, url: `${base}/update/`, config: actionConfig(entity, 'UPDATE'), handler: (request) => update(request, undefined) })
    app.route({ method, url: `${base}/update/:id`, config: actionConfig(entity, 'UPDATE', true), handler: (request) => update(request, rowIdOf(entity, (request.params as { id: string }).id)) })
  }

  // A delete cancels the voucher a line belongs to: reversing rows in the general ledger, its lines leave the table.
  app.delete(`${base}/delete/:id`, { config: actionConfig(entity, 'DELETE', true) }, async (request) => ({
    detail: say(request, await deleteDocument(requestContext(engine, entity, request), rowIdOf(entity, (request.params as { id: string }).id))),
  }))
  app.delete(`${base}/delete_multiple/`, { config: actionConfig(entity, 'DELETE') }, async (request) => ({
    detail: say(request, await deleteDocuments(requestContext(engine, entity, request), idsOfBody(request.body))),
  }))
}
