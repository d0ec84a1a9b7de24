import type { ScreenMap } from '../../engine/form/extension'

/** The tickets module's screens, by entity (issue 23): a ticket opens as its thread, a new one on the generic form. */
export const ticketsScreens: ScreenMap = {
  ticket: { form: () => import('./TicketScreen').then((m) => m.TicketScreen) },
}
