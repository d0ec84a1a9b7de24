import { voucherSpecs } from '../../../schema/entities/accounting/vouchers'
import type { ScreenMap } from '../../engine/form/extension'

const voucherScreen = () => import('./vouchers/VoucherScreen').then((m) => m.VoucherScreen)

/**
 * The accounting module's screens, by entity (issue 10): the groups as a list or as the
 * chart's tree; each kind of voucher entered on its own screen (its list is the generic one).
 */
export const accountingScreens: ScreenMap = {
  group: { list: () => import('./GroupList').then((m) => m.GroupList) },
  ...Object.fromEntries(voucherSpecs.map((spec) => [spec.kind, { form: voucherScreen }])),
}
