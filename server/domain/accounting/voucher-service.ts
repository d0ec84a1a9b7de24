import { sql } from 'kysely'
import { voucherSpecOf, type VoucherSpec } from '../../../schema/entities/accounting/vouchers'
import type { LogType } from '../../../schema/entities/accounting/account-log'
import type { Executor, Trx } from '../../db/types'
import { diff, writeAudit } from '../../engine/audit'
import { releaseFiles } from '../../engine/uploads'
import { nextInvoiceNo } from './numbering'
import { postEntries, reverseEntries, standingEntries, type LedgerRow, type PostingLine } from './posting'

/**
 * Writing a voucher (api-contract §4.7): its lines in the voucher's table and, through the
 * posting service, the same lines in the general ledger, under one invoice number — inside
 * the caller's transaction. The voucher routes use it for what clients send; other modules
 * for the vouchers their records post (a cause's sales entry, a donation's receipt), so that
 * every voucher, whoever writes it, is the same rows.
 */
export type VoucherRow = Record<string, unknown> & { id: number; invoice_no: string }

/** A voucher's header: the fields its lines share. */
export type VoucherHeader = { date: string; branch: number | null; subLedger: number | null; details: string | null; file: string | null; flag: boolean; refInvoiceNo: string | null }

/** Where a refused line is reported: the names of the voucher's body (`items.3.debit_amount`). */
export const voucherFieldNames = (spec: VoucherSpec) => ({ lines: 'items', ledger: 'ledger', debit: 'debit_amount', credit: 'credit_amount', subLedger: 'sub_ledger', branch: 'branch', date: spec.dateField, referenceNo: 'invoice_no' })

const specOf = (kind: LogType): VoucherSpec => {
  const spec = voucherSpecOf(kind)
  if (!spec) throw new Error(`no voucher of kind '${kind}'`)
  return spec
}

/** Posts a voucher's lines and writes them as its rows, under its number (taken by the caller). */
export async function writeVoucher(trx: Trx, spec: VoucherSpec, invoiceNo: string, header: VoucherHeader, lines: readonly PostingLine[], actor: number | null): Promise<{ lines: VoucherRow[]; logs: LedgerRow[] }> {
  const logs = await postEntries(trx, { kind: spec.kind, date: header.date, referenceNo: invoiceNo, branch: header.branch, subLedger: header.subLedger, details: header.details, lines }, { actor, fieldNames: voucherFieldNames(spec) })
  const written: VoucherRow[] = []
  for (const log of logs) {
    const values: Record<string, unknown> = {
      ledger: log.ledger,
      branch: log.branch,
      invoice_no: invoiceNo,
      debit_amount: log.debit_amount,
      credit_amount: log.credit_amount,
      [spec.dateField]: header.date,
      details: header.details,
      created_by: actor,
      updated_by: actor,
    }
    if (spec.hasSubLedger) values.sub_ledger = log.sub_ledger
    if (spec.hasFile) values.file = header.file
    if (spec.flag) values[spec.flag] = header.flag
    if (spec.hasRefInvoice) values.ref_invoice_no = header.refInvoiceNo
    const columns = Object.keys(values)
    const row = await sql<VoucherRow>`insert into ${sql.id(spec.kind)} (${sql.join(columns.map((c) => sql.id(c)))}) values (${sql.join(columns.map((c) => values[c]))}) returning *`.execute(trx)
    written.push(row.rows[0]!)
    await writeAudit(trx, { actor: actor === null ? null : { id: actor }, entity: spec.kind, entityId: row.rows[0]!.id, action: 'create', changes: diff(null, row.rows[0]!, columns) })
  }
  return { lines: written, logs }
}

/** The stored lines of an invoice, locked for the write that changes them. */
export async function linesOfInvoice(db: Executor, spec: VoucherSpec, invoiceNo: string, lock = false): Promise<VoucherRow[]> {
  const rows = await sql<VoucherRow>`select * from ${sql.id(spec.kind)} where invoice_no = ${invoiceNo} order by id ${lock ? sql`for update` : sql``}`.execute(db)
  return rows.rows
}

/**
 * Takes an invoice's lines out of the voucher's table (its ledger rows stay: the caller
 * reverses them), each with its audit row; their file is released (kept if the new version
 * still holds it).
 */
export async function removeLines(trx: Trx, spec: VoucherSpec, lines: readonly VoucherRow[], actor: number | null): Promise<void> {
  if (spec.hasFile) await releaseFiles(trx, lines.map((line) => line.file))
  for (const line of lines) {
    await sql`delete from ${sql.id(spec.kind)} where id = ${line.id}`.execute(trx)
    await writeAudit(trx, { actor: actor === null ? null : { id: actor }, entity: spec.kind, entityId: line.id, action: 'delete', changes: diff(line, null, Object.keys(line)) })
  }
}

/** Cancels an invoice: reversing rows for what stands, and its lines leave the voucher's table. */
export async function cancelInvoice(trx: Trx, spec: VoucherSpec, invoiceNo: string, actor: number | null): Promise<void> {
  const lines = await linesOfInvoice(trx, spec, invoiceNo, true)
  await reverseEntries(trx, invoiceNo, { actor })
  await removeLines(trx, spec, lines, actor)
}

/** What a module's voucher needs: a day, the lines; the rest of the header is optional. */
export type VoucherInput = {
  kind: LogType
  date: string
  lines: readonly PostingLine[]
  subLedger?: number | null
  branch?: number | null
  details?: string | null
  /** The invoice this voucher settles (payment and receipt vouchers). */
  refInvoiceNo?: string | null
  actor: number | null
}

const headerOf = (input: VoucherInput): VoucherHeader => ({ date: input.date, branch: input.branch ?? null, subLedger: input.subLedger ?? null, details: input.details ?? null, file: null, flag: false, refInvoiceNo: input.refInvoiceNo ?? null })

/**
 * Posts a voucher of the kind under `invoiceNo` — one the caller took with `nextInvoiceNo`
 * in this transaction (so that its record can hold it), or a new one when none is given.
 */
export async function postVoucher(trx: Trx, input: VoucherInput & { invoiceNo?: string }): Promise<{ invoiceNo: string; lines: VoucherRow[]; logs: LedgerRow[] }> {
  const spec = specOf(input.kind)
  const invoiceNo = input.invoiceNo ?? (await nextInvoiceNo(trx, spec.prefix, input.date))
  return { invoiceNo, ...(await writeVoucher(trx, spec, invoiceNo, headerOf(input), input.lines, input.actor)) }
}

/**
 * A record's voucher changed (an amount, a ledger): what stands is reversed and the new
 * lines posted under the same number — the general ledger keeps both (decisions.md).
 * A number with nothing standing (cancelled before) is simply posted again.
 */
export async function repostVoucher(trx: Trx, input: VoucherInput & { invoiceNo: string }): Promise<void> {
  await cancelVoucher(trx, input.kind, input.invoiceNo, input.actor)
  await postVoucher(trx, input)
}

/** Cancels a record's voucher when something of it stands (a record that never posted has nothing to undo). */
export async function cancelVoucher(trx: Trx, kind: LogType, invoiceNo: string, actor: number | null): Promise<void> {
  if ((await standingEntries(trx, invoiceNo)).length === 0) return
  await cancelInvoice(trx, specOf(kind), invoiceNo, actor)
}
