import { utcDay } from '../../../schema/kit/dates'
import type { DomainModule } from '../../../server/engine/modules'
import { seededLedger } from '../../../server/domain/accounting/ledgers'

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
