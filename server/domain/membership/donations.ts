import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import { money } from '../../../schema/kit'
import { utcDay } from '../../../schema/kit/dates'
import { rowIdValueOf } from '../../../schema/kit/validators'
import type { Row, Trx } from '../../db/types'
import { BusinessError } from '../../engine/errors'
import type { EntityHooks } from '../../engine/hooks'
import { createRow } from '../../engine/service'
import { lockName, seededLedger, type LedgerDeps } from '../accounting/ledgers'
import { anonymousDonorsLedger, memberLedger, userLedger } from './ledgers'
import { receiptOf } from './receipts'

/**
 * Donations (api-contract §4.5; issue 20: one donation model). A donation names its donor — a
 * member, a person by name and e-mail, or nobody (anonymous) — optionally its cause, and its
 * payment method; whichever route writes it (`donation/…` or `cause_donation/…`, a donation
 * seen from its cause), these rules hold in its transaction:
 * - a cause it names is raised by its amount, and given back what a change or delete takes
 *   away, in one UPDATE that holds the cause's row until the transaction ends — parallel
 *   donations queue there and none is lost;
 * - its receipt debits the payment method's cash or bank ledger (Cash when it names none) and
 *   credits the donor's ledger: the member's own, the person's (the user with that e-mail,
 *   made when there is none, with a password nobody knows — they may set one with "forgot
 *   password"), or the anonymous donors' — never the signed-in user's who typed it;
 * - a donation with a cause is listed as a Cause Donation (its id in `cause_donation`).
 */
const isSet = (v: unknown) => v !== null && v !== undefined && v !== ''
const isTrue = (v: unknown) => v === true || v === 'true'
// Before validation a request's value may be anything (1e400 is Infinity): only a real row id is looked up.
const idOf = rowIdValueOf

/** The names a member's donation takes from the member where it gives none. */
const FROM_MEMBER = ['first_name', 'last_name', 'email'] as const

/** Adds `amount` (a decimal string, negative to take back) to a cause's raised amount. */
async function raise(trx: Trx, cause: number, amount: string): Promise<void> {
  await sql`update cause set raised_amount = raised_amount + ${amount}::numeric where id = ${cause}`.execute(trx)
}

const negated = (amount: string) => money.subtract('0', amount)

type Gift = { cause: number; amount: string }
const giftOf = (row: Row | null | undefined): Gift | null => {
  const cause = idOf(row?.cause)
  return row && cause !== null ? { cause, amount: String(row.amount) } : null
}

export const donationHooks: EntityHooks = {
  /**
   * A member's donation says who gave as the member is known: their names and e-mail fill the
   * blank ones, and those that followed another donor (sent back unchanged, or not sent) when
   * the member changes.
   */
  async beforeValidate({ trx, before, input }) {
    const given = (name: string) => (Object.hasOwn(input, name) ? input[name] : before?.[name])
    const donor = idOf(given('donor'))
    if (donor === null || isTrue(given('is_anonymous'))) return
    const member = await sql<Record<(typeof FROM_MEMBER)[number], string | null>>`select first_name, last_name, email from "user" where id = ${donor}`.execute(trx)
    const known = member.rows[0]
    if (!known) return
    const isNewDonor = before !== null && idOf(before.donor) !== donor
    for (const name of FROM_MEMBER) {
      const followedOld = isNewDonor && (!Object.hasOwn(input, name) || input[name] === before[name])
      if ((!isSet(given(name)) || followedOld) && isSet(known[name])) input[name] = known[name]
    }
  },

  /** The cause's raised amount follows the donation; the receipt refers to the cause's sales invoice. */
  async beforeWrite({ trx, before, values }) {
    const [was, now] = [giftOf(before), giftOf(values)]
    const isSame = was && now && was.cause === now.cause && money.toMinor(was.amount) === money.toMinor(now.amount)
    if (!isSame) {
      // Each cause's row in the order of its id: two donations moved between the same causes never wait on each other.
      const moves = [...(was ? [{ cause: was.cause, amount: negated(was.amount) }] : []), ...(now ? [now] : [])].sort((a, b) => a.cause - b.cause)
      for (const move of moves) await raise(trx, move.cause, move.amount)
    }
    if (values) {
      const invoice = now ? await sql<{ sales_invoice_no: string | null }>`select sales_invoice_no from cause where id = ${now.cause}`.execute(trx) : undefined
      values.ref_invoice_no = invoice?.rows[0]?.sales_invoice_no ?? null
    }
  },

  /**
   * A donation with a cause is a Cause Donation (schema/entities/membership/cause-donation.ts):
   * its id is kept in `cause_donation` while it names one (a delete takes it by the cascade).
   */
  async afterWrite({ trx, registry, rowId, after }) {
    if (!after || !registry.some((e) => e.name === 'cause_donation' && e.parent?.name === 'donation')) return
    if (isSet(after.cause)) await sql`insert into cause_donation (id) select ${rowId} where not exists (select 1 from cause_donation where id = ${rowId})`.execute(trx)
    else await sql`delete from cause_donation where id = ${rowId}`.execute(trx)
  },
}

/** The user with the donation's e-mail, made when there is none. */
async function personOf(deps: LedgerDeps, row: Row): Promise<number> {
  const email = String(row.email)
  await lockName(deps.trx, `donor:${email.toLowerCase()}`)
  const found = await sql<{ id: number }>`select id from "user" where lower(email) = lower(${email}) order by id limit 1`.execute(deps.trx)
  if (found.rows[0]) return Number(found.rows[0].id)
  const user = deps.registry.find((e) => e.name === 'user')!
  const made = await createRow(
    { db: deps.trx, registry: deps.registry, entity: user, actor: deps.actor, access: 'system', hooks: deps.hooks },
    { email, first_name: row.first_name ?? '', last_name: row.last_name ?? '', password: randomBytes(24).toString('base64url') },
  )
  return Number(made.id)
}

/** The ledger a donation's receipt credits: the donor's. */
async function donorLedger(deps: LedgerDeps, row: Row): Promise<number> {
  if (row.is_anonymous === true) return anonymousDonorsLedger(deps)
  const member = idOf(row.donor)
  if (member !== null) return memberLedger(deps, member)
  return userLedger(deps, await personOf(deps, row))
}

/** The cash or bank ledger a donation's receipt debits: its payment method's, or Cash for money given at the desk. */
async function receivedInto(deps: LedgerDeps, row: Row): Promise<number> {
  const method = idOf(row.payment_method)
  if (method === null) return seededLedger(deps.trx, 'Cash')
  const found = await sql<{ name: string; ledger: number | null }>`select name, ledger from payment_method where id = ${method}`.execute(deps.trx)
  const ledger = found.rows[0]?.ledger
  if (ledger === null || ledger === undefined) throw new BusinessError({ key: 'detail.payment_method_ledger_missing', params: { name: found.rows[0]?.name ?? String(method) } })
  return Number(ledger)
}

export const donationReceipt = receiptOf({
  creditLedger: donorLedger,
  debitLedger: receivedInto,
  date: (row) => utcDay(row.created_at as Date | string),
})
