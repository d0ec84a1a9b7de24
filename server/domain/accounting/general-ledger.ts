import { logTypes, type LogType } from '../../../schema/entities/accounting/account-log'
import { voucherSpecOf } from '../../../schema/entities/accounting/vouchers'
import type { Entity, Fields } from '../../../schema/kit'
import type { Trx } from '../../db/types'
import type { EngineCtx } from '../../engine/access'
import type { Actor, HookRegistry } from '../../engine/hooks'
import type { Registry } from '../../engine/list-query'
import { createDocument, deleteDocument, findDocument } from '../../engine/operations/documents'
import type { Ledger } from '../../engine/posting'
import { postEntries, reverseEntries, standingEntries } from './posting'
import { voucherDocumentOf } from './voucher-postings'

/**
 * The general ledger as the engine posts into it (server/engine/posting.ts): a record that
 * posts `as: 'ledger'` writes general-ledger rows of its own kind under its number (a
 * voucher); one that posts as a voucher kind writes a voucher of that kind through the
 * engine — its rows, which post in turn (a donation's receipt) — so that every voucher,
 * whoever writes it, is the same rows. Reversals leave the history.
 */
const logTypeOf = (kind: string): LogType => {
  if (!(logTypes as readonly string[]).includes(kind)) throw new Error(`'${kind}' is not a kind of voucher (${logTypes.join(', ')})`)
  return kind as LogType
}

/** The voucher entity of a kind, as the engine writes it: as the system (the record that posts was allowed), audited as the caller. */
function voucherCtx(trx: Trx, as: string, deps: { registry: Registry; hooks: HookRegistry | undefined; actor: Actor | null }): { ctx: EngineCtx; entity: Entity<string, Fields> } {
  const entity = deps.registry.find((e) => e.name === as)
  if (!entity) throw new Error(`no voucher entity '${as}' in the registry`)
  return { entity, ctx: { db: trx, registry: deps.registry, entity, actor: deps.actor, access: 'system', hooks: deps.hooks } }
}

export const generalLedger: Ledger = {
  async post(trx, { as, kind, number, posting, actor, registry, hooks }) {
    const header = { date: posting.date, branch: posting.branch ?? null, subLedger: posting.subLedger ?? null, details: posting.details ?? null }
    if (as === 'ledger') {
      await postEntries(trx, { kind: logTypeOf(kind), referenceNo: number, ...header, lines: posting.lines }, { actor: actor?.id ?? null })
      return
    }
    const spec = voucherSpecOf(logTypeOf(as))!
    await createDocument(voucherCtx(trx, as, { registry, hooks, actor }).ctx, voucherDocumentOf(spec, number, posting))
  },

  async reverse(trx, { as, number, actor, registry, hooks }) {
    if (as === 'ledger') {
      if ((await standingEntries(trx, number)).length > 0) await reverseEntries(trx, number, { actor: actor?.id ?? null })
      return
    }
    const { ctx } = voucherCtx(trx, as, { registry, hooks, actor })
    const voucher = await findDocument(ctx, number)
    if (voucher) await deleteDocument(ctx, Number(voucher.id))
  },

  async standing(trx, { as, number }) {
    const rows = await standingEntries(trx, number)
    if (rows.length === 0) return null
    // A voucher also holds the invoice it settles, which the general ledger does not.
    const spec = as === 'ledger' ? undefined : voucherSpecOf(as)
    const ref = spec?.hasRefInvoice ? await trx.selectFrom(spec.kind).select('ref_invoice_no').where('invoice_no', '=', number).orderBy('id').executeTakeFirst() : undefined
    return {
      date: rows[0]!.log_date,
      details: rows[0]!.details,
      ...(spec ? { refInvoiceNo: (ref?.ref_invoice_no as string | null | undefined) ?? null } : {}),
      lines: rows.map((r) => ({ ledger: r.ledger, debit: r.debit_amount, credit: r.credit_amount, subLedger: r.sub_ledger, branch: r.branch })),
    }
  },
}
