import { sql } from 'kysely'
import { ensureLedger, type LedgerDeps } from '../accounting/ledgers'

/** A vendor's own ledger under Sundry Creditors (made with the vendor; made now for one from before). */
export async function vendorLedger(deps: LedgerDeps, vendor: number): Promise<number> {
  const found = await sql<{ username: string | null; email: string | null }>`select username, email from "user" where id = ${vendor}`.execute(deps.trx)
  const name = found.rows[0]?.username ?? found.rows[0]?.email ?? `vendor ${vendor}`
  return ensureLedger(deps, { type: 'vendor_ledger', referenceId: vendor, group: 'Sundry Creditors', name })
}
