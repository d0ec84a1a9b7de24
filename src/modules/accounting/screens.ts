import { voucherSpecs } from '../../../schema/entities/accounting/vouchers'
import type { ScreenMap } from '../../engine/form/extension'

const voucherForm = () => import('./vouchers/voucher-form').then((m) => m.voucherForm)

/**
 * The accounting module's screens, by entity (issue 10): the groups as a list or as the
 * chart's tree; each kind of voucher on the generic form with the module's ledger picker and
 * postings (its list is the generic one).
 */
export const accountingScreens: ScreenMap = {
  group: { list: () => import('./GroupList').then((m) => m.GroupList) },
  ...Object.fromEntries(voucherSpecs.map((spec) => [spec.kind, { formExtension: voucherForm }])),
}
