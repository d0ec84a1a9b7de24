import { sql } from 'kysely'
import type { Db } from '../../db/types'
import type { EntityHooks, HookRegistry } from '../../engine/hooks'
import type { Registry } from '../../engine/list-query'
import { ensureNamedLedger, seededLedger, type LedgerDeps } from '../accounting/ledgers'

/**
 * Where a payment method's money is received (issue 20): the cash or bank ledger its
 * donations' receipts debit. A method written without one gets it from the server — Cash for
 * cash, else a ledger of its own under Bank Accounts ("Bkash Account": a wallet is an account
 * with a balance of its own, not cash in hand) — so that no gift paid by bkash lands in Cash.
 */
const isCash = (method: { name?: unknown; type?: unknown }) => method.name === 'cash' || method.type === 'cash'

/** `bank_card` → `Bank Card Account`. */
const accountName = (name: string) => `${name.split('_').filter(Boolean).map((w) => w.charAt(0).toLocaleUpperCase('en') + w.slice(1)).join(' ')} Account`

async function receivingLedgerOf(deps: LedgerDeps, method: { name?: unknown; type?: unknown }): Promise<number> {
  if (isCash(method)) return seededLedger(deps.trx, 'Cash')
  return ensureNamedLedger(deps, { name: accountName(String(method.name)), group: 'Bank Accounts' })
}

export function paymentMethodHooks(engineHooks: () => HookRegistry | undefined): EntityHooks {
  return {
    async beforeWrite({ trx, registry, actor, values }) {
      if (!values || (values.ledger !== null && values.ledger !== undefined) || !registry.some((e) => e.name === 'ledger_account')) return
      values.ledger = await receivingLedgerOf({ trx, registry, actor, hooks: engineHooks() }, values)
    },
  }
}

/**
 * Methods that name no ledger (the seeded ones on their first start, those of a database from
 * before methods named one) get theirs at start, as the hook above would choose it. Only the
 * ledger is set: a row the current rules would judge otherwise does not stop the start.
 */
export async function giveLedgersToPaymentMethods(deps: { db: Db; registry: Registry; hooks: HookRegistry }): Promise<void> {
  const { db, registry, hooks } = deps
  if (!registry.some((e) => e.name === 'payment_method') || !registry.some((e) => e.name === 'ledger_account')) return
  await db.transaction().execute(async (trx) => {
    const missing = await sql<{ id: number; name: string; type: string | null }>`select id, name, type from payment_method where ledger is null order by id for update`.execute(trx)
    for (const method of missing.rows) {
      const ledger = await receivingLedgerOf({ trx, registry, hooks, actor: null }, method)
      await sql`update payment_method set ledger = ${ledger} where id = ${method.id}`.execute(trx)
    }
  })
}
