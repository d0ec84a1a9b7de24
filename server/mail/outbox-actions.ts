import type { ActionHandler } from '../engine/service'
import { OUTBOX_TABLE, requeueMail } from './outbox'

/** The outbox's custom actions (the registry's `outbox_message.actions`), for the workspace module. */
export const outboxActions: Readonly<Record<string, Readonly<Record<string, ActionHandler>>>> = {
  [OUTBOX_TABLE]: {
    send_again: async ({ trx, id }) => {
      await requeueMail(trx, id)
    },
  },
}
