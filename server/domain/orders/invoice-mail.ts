import type { ActionHandler } from '../../engine/service'

/** An order's invoice as a PDF, queued as a mail with it attached (issue 22). */
export const sendInvoiceHandler: ActionHandler = async () => {
  throw new Error('not built yet')
}
