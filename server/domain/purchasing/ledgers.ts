import type { LedgerDeps } from '../accounting/ledgers'
import { ledgerOfRecord } from '../accounting/auto-ledger'

/** A vendor's own ledger under Sundry Creditors (the registry's `ledger` of vendors), made now for one from before. */
export const vendorLedger = (deps: LedgerDeps, vendor: number): Promise<number> => ledgerOfRecord(deps, deps.registry.find((e) => e.name === 'vendor')!, vendor)
