import type { LedgerDeps } from '../accounting/ledgers'
import { ledgerOfRecord } from '../accounting/auto-ledger'

/** A customer's own ledger under Sundry Debtors (the registry's `ledger` of customers), made now for one from before. */
export const customerLedger = (deps: LedgerDeps, customer: number): Promise<number> => ledgerOfRecord(deps, deps.registry.find((e) => e.name === 'customer')!, customer)
