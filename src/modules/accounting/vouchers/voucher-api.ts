import type { VoucherSpec } from '../../../../schema/entities/accounting/vouchers'
import { apiRequest } from '../../../engine/api'
import { fetchList, fetchRecord, type AnyEntity, type Row } from '../../../engine/entity-api'
import type { FormValues } from '../../../engine/form/form-values'
import { voucherPayload, type StoredVoucher } from './voucher-model'

/**
 * The voucher screens' calls (api-contract §4.7): a voucher is opened by one of its lines'
 * ids (the list's rows are lines) and read whole by its invoice number; it is saved whole —
 * `create/`, or `update/` under its number — and cancelled by `delete/{line id}`.
 */
export async function fetchVoucher(entity: AnyEntity, spec: VoucherSpec, lineId: string, signal?: AbortSignal): Promise<StoredVoucher> {
  const line = await fetchRecord(entity, lineId, signal)
  return (await apiRequest(`${entity.api.base}/${spec.byInvoice}/${encodeURIComponent(String(line.invoice_no))}`, { signal })) as StoredVoucher
}

/** Creates or changes a voucher; the server posts it to the general ledger in the same transaction. */
export async function saveVoucher(entity: AnyEntity, spec: VoucherSpec, values: FormValues, invoiceNo?: string): Promise<void> {
  const payload = voucherPayload(spec, values, invoiceNo)
  const body = payload instanceof FormData ? { body: payload } : { json: payload }
  await apiRequest(`${entity.api.base}/${invoiceNo ? 'update' : 'create'}/`, { method: invoiceNo ? 'put' : 'post', ...body })
}

/** Cancels the voucher a line belongs to: reversing rows are posted; the server's words come back. */
export async function cancelVoucher(entity: AnyEntity, lineId: number): Promise<string | undefined> {
  const body = (await apiRequest(`${entity.api.base}/delete/${lineId}`, { method: 'delete' })) as { detail?: string } | null
  return body?.detail
}

/** The general-ledger rows under an invoice number, postings and reversals, in the order they were written. */
export async function fetchPostings(accountLog: AnyEntity, invoiceNo: string, signal?: AbortSignal): Promise<Row[]> {
  const page = await fetchList(accountLog, { page: 1, size: 100, filters: { reference_no: invoiceNo } }, signal)
  // `reference_no` filters by "contains": PV…001 also finds PV…0010.
  return page.rows.filter((row) => row.reference_no === invoiceNo).sort((a, b) => a.id - b.id)
}
