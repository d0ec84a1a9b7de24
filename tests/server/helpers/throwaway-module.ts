import { sql } from 'kysely'
import { afterAll, beforeAll } from 'vitest'
import { utcDay } from '../../../schema/kit/dates'
import type { DomainModule } from '../../../server/engine/modules'
import { seededLedger } from '../../../server/domain/accounting/ledgers'
import { catalogues } from '../../../server/i18n'
import { addThrowawayLabels, throwawayEntities, throwawayReports } from '../../support/throwaway-registry'

/**
 * What code must say for the throwaway stock transfer (tests/support/throwaway-registry.ts):
 * what it posts when confirmed — its value from Company Sales to Company Purchase, as a journal.
 */
export const stockTransferModule: DomainModule = {
  name: 'test-stock-transfer',
  postings: {
    stock_transfer: async ({ trx, record }) => ({
      date: utcDay(),
      details: `Stock transfer ${String(record.number)}`,
      lines: [
        { ledger: await seededLedger(trx, 'Company Purchase'), debit: String(record.value) },
        { ledger: await seededLedger(trx, 'Company Sales'), credit: String(record.value) },
      ],
    }),
  },
}

/** The gadget orders' actions and the gadget sales report need a module to start; suites that do not run them use this one. */
export const throwawayStub: DomainModule = {
  name: 'test',
  actions: { gadget_order: { confirm: () => {}, cancel: () => {} } },
  reports: { gadget_sales: () => sql`select 1 where false` },
}

/** An app of the throwaway registry: its entities, reports and the modules they need. */
export const throwawayApp = { entities: throwawayEntities, reports: throwawayReports, modules: [throwawayStub, stockTransferModule] }

/** The throwaway registry's labels in the server's catalogues for the suite (the start-up check asks for them). */
export function useThrowawayLabels(): void {
  let undo: () => void = () => {}
  beforeAll(() => {
    undo = addThrowawayLabels(catalogues)
  })
  afterAll(() => undo())
}
