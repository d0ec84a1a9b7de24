import { sql, type RawBuilder } from 'kysely'
import type { LogType } from '../../../schema/entities/accounting/account-log'
import type { Message, Rule } from '../../../schema/kit'
import { sideRules, voucherRules } from '../../../schema/entities/accounting/voucher-rules'
import { MONEY_MAX, MONEY_WHOLE_DIGITS, parseDecimal, rules as ruleKit } from '../../../schema/kit'
import { fromMinor, MONEY_SCALE, toMinor } from '../../../schema/kit/money'
import { isCalendarDate } from '../../../schema/kit/validators'
import { utcDay } from '../../../schema/kit/dates'
import type { Executor, Trx } from '../../db/types'
import { ConflictError, ValidationError } from '../../engine/errors'

/**
 * The posting service: the only writer of the general ledger (`account_log`). A voucher of
 * any kind becomes rows here through `postEntries`, inside the transaction that writes the
 * voucher, after its number is taken (numbering.ts): a rule that fails throws before any
 * row is written, so the caller's transaction holds nothing of it. A voucher that changes or
 * is cancelled calls `reverseEntries` — the rows are never updated or deleted (the database
 * refuses: migration 5) — and, for a change, posts its new lines under the same number. The
 * database adds every insert to the per-ledger per-day totals the reports read (migration 6).
 */

/** Money as the API carries it: a decimal string (`"1250.50"`); blank or null is zero. Never a float. */
export type AmountInput = string | null | undefined

export type PostingLine = {
  ledger: number
  debit?: AmountInput
  credit?: AmountInput
  /** Overrides the posting's own, for this line. */
  subLedger?: number | null
  branch?: number | null
}

export type Posting = {
  /** The kind of voucher, which decides the cash/bank rules; stored as the rows' `log_type`. */
  kind: LogType
  /** `YYYY-MM-DD`: the voucher's date, the rows' `log_date`. */
  date: string
  /** The voucher's invoice number (`nextInvoiceNo`), the rows' `reference_no`. */
  referenceNo: string
  branch?: number | null
  subLedger?: number | null
  details?: string | null
  lines: readonly PostingLine[]
}

/**
 * Where a problem is reported in the 400's field map: the names of the caller's body. A
 * voucher passes `{ lines: 'items', debit: 'debit_amount', credit: 'credit_amount' }` so that
 * a line's error reads `items.3.debit_amount`, as its form knows it.
 */
export type PostingFieldNames = { lines: string; ledger: string; debit: string; credit: string; subLedger: string; branch: string; date: string; referenceNo: string }

export const defaultFieldNames: PostingFieldNames = {
  lines: 'lines',
  ledger: 'ledger',
  debit: 'debit',
  credit: 'credit',
  subLedger: 'sub_ledger',
  branch: 'branch',
  date: 'date',
  referenceNo: 'reference_no',
}

/** A general-ledger row as written (amounts as decimal strings, the date as `YYYY-MM-DD`). */
export type LedgerRow = {
  id: number
  ledger: number
  sub_ledger: number | null
  branch: number | null
  reference_no: string
  log_type: LogType
  debit_amount: string
  credit_amount: string
  log_date: string
  details: string | null
  reverses: number | null
}

export type PostingOptions = {
  /** The user the rows are written for (`created_by`); null for the system. */
  actor?: number | null
  fieldNames?: Partial<PostingFieldNames>
}

/** What the database knows of the posting's references, for the rules to judge. */
export type PostingFacts = {
  /** Ledger accounts that exist. */
  ledgers: ReadonlySet<number>
  /** Of those, the cash and bank ledgers (their group chain reaches "Cash-in-Hand" or "Bank Accounts"). */
  cashBank: ReadonlySet<number>
  subLedgers: ReadonlySet<number>
  branches: ReadonlySet<number>
}

export type FieldErrors = Record<string, Message[]>

/** The groups whose ledgers hold money (domain-anchors §1.2): payments leave them, receipts enter them. */
export const CASH_BANK_GROUPS = ['Cash-in-Hand', 'Bank Accounts'] as const

const EXACTLY_BALANCED = ruleKit.balanced('items', 'debit_amount', 'credit_amount', 'validation.unbalanced')
const MAX_REFERENCE = 50
const PRECISION = 20
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0

/** An amount in minor units, or the message that refuses it (more than two places, not a number, negative, above a money field's bound). */
function amountOf(raw: AmountInput): { units: bigint } | { message: Message } {
  if (raw === null || raw === undefined || (typeof raw === 'string' && raw.trim() === '')) return { units: 0n }
  const canonical = typeof raw === 'string' ? parseDecimal(raw, PRECISION, MONEY_SCALE) : undefined
  if (canonical === undefined) return { message: { key: 'validation.decimal', params: { scale: MONEY_SCALE, whole: MONEY_WHOLE_DIGITS } } }
  const units = toMinor(canonical)
  if (units < 0n) return { message: { key: 'validation.min_value', params: { min: 0 } } }
  // The bound every money field has (f.money): a posting a module makes is held to it too.
  if (units > toMinor(MONEY_MAX)) return { message: { key: 'validation.max_amount', params: { max: MONEY_MAX, whole: MONEY_WHOLE_DIGITS } } }
  return { units }
}

/**
 * Judges a posting against what the database knows (pure). Returns the field map of every
 * problem found, empty when it may be posted: a day, a reference, known ledgers, sub-ledgers
 * and branches, at least two lines, amounts in decimals of at most two places, never
 * negative — and then the voucher's own rules, the ones its form and the engine judge with
 * (schema/entities/accounting/voucher-rules.ts: one side per line, debits equal to credits,
 * the kind's cash/bank rule), so that a posting any module makes is held to them too.
 */
export function judgePosting(posting: Posting, facts: PostingFacts, names: PostingFieldNames = defaultFieldNames): FieldErrors {
  const errors: FieldErrors = {}
  const refuse = (field: string, message: Message) => (errors[field] ??= []).push(message)
  const lineField = (i: number, field: string) => `${names.lines}.${i}.${field}`

  if (!isCalendarDate(posting.date)) refuse(names.date, { key: 'validation.date', params: { label: 'field.log_date' } })
  const reference = posting.referenceNo.trim()
  if (reference === '') refuse(names.referenceNo, { key: 'validation.required', params: { label: 'field.reference_no' } })
  else if (reference.length > MAX_REFERENCE) refuse(names.referenceNo, { key: 'validation.max_length', params: { max: MAX_REFERENCE } })
  if (posting.subLedger != null && !facts.subLedgers.has(posting.subLedger)) refuse(names.subLedger, { key: 'validation.ref', params: { label: 'field.sub_ledger' } })
  if (posting.branch != null && !facts.branches.has(posting.branch)) refuse(names.branch, { key: 'validation.ref', params: { label: 'field.branch' } })

  if (posting.lines.length < 2) refuse(names.lines, { key: 'validation.lines_min', params: { min: 2 } })

  let areAmountsValid = true
  let areLedgersKnown = true
  const items = posting.lines.map((line, i) => {
    if (!isId(line.ledger) || !facts.ledgers.has(line.ledger)) {
      refuse(lineField(i, names.ledger), { key: 'validation.ref', params: { label: 'field.ledger' } })
      areLedgersKnown = false
    }
    if (line.subLedger != null && !facts.subLedgers.has(line.subLedger)) refuse(lineField(i, names.subLedger), { key: 'validation.ref', params: { label: 'field.sub_ledger' } })
    if (line.branch != null && !facts.branches.has(line.branch)) refuse(lineField(i, names.branch), { key: 'validation.ref', params: { label: 'field.branch' } })
    const debit = amountOf(line.debit)
    const credit = amountOf(line.credit)
    if ('message' in debit) refuse(lineField(i, names.debit), debit.message)
    if ('message' in credit) refuse(lineField(i, names.credit), credit.message)
    if ('message' in debit || 'message' in credit) {
      areAmountsValid = false
      return {}
    }
    return { ledger: line.ledger, debit_amount: fromMinor(debit.units), credit_amount: fromMinor(credit.units) }
  })
  if (!areAmountsValid || !areLedgersKnown || posting.lines.length < 2) return errors

  const { rules: kindRules, lineRules } = voucherRules(posting.kind)
  // The ledger balances to the cent, whatever a voucher's form lets through: its rounding is a line of its own by now (voucher-postings.ts).
  const rules = kindRules.map((rule) => (rule.kind?.balanced ? EXACTLY_BALANCED : rule))
  const context = { mode: 'create' as const, input: {}, fact: (target: string, id: unknown, name: string) => (target === 'ledger_account' && name === 'is_cash_bank' ? facts.cashBank.has(Number(id)) : undefined) }
  const inNames: Readonly<Record<string, string>> = { ledger: names.ledger, debit_amount: names.debit, credit_amount: names.credit }
  const messageOf = (rule: Rule, values: Readonly<Record<string, unknown>>): Message => {
    const params = rule.params?.(values)
    return params ? { key: rule.message, params } : { key: rule.message }
  }
  let isEachLineOneSided = true
  items.forEach((line, i) => {
    for (const rule of lineRules) {
      if (rule.check(line, context)) continue
      refuse(lineField(i, inNames[rule.field] ?? rule.field), messageOf(rule, line))
      if (sideRules.includes(rule)) isEachLineOneSided = false
    }
  })
  // A line without exactly one side says so; the totals and the cash rule wait for it.
  if (!isEachLineOneSided) return errors
  for (const rule of rules) if (!rule.check({ items }, context)) refuse(names.lines, messageOf(rule, { items }))
  return errors
}

/**
 * Every cash and bank ledger's id, as a subquery: the groups under Cash-in-Hand or Bank
 * Accounts walked down (`union` stops at a cycle), and the ledgers in them — the one
 * definition the posting rules, the ledgers' `is_cash_bank` and the voucher lists share.
 */
export const cashBankLedgerIds: RawBuilder<unknown> = ledgersUnder(CASH_BANK_GROUPS)

/** The ids of the ledgers in the named groups or any group below them, as a subquery (names compared without case). */
export function ledgersUnder(groups: readonly string[]): RawBuilder<unknown> {
  return sql`
  with recursive down (id) as (
    select g.id from "group" g where lower(g.name) = any(${groups.map((g) => g.toLowerCase())}::text[])
    union
    select g.id from "group" g join down on g.head_group = down.id
  )
  select l.id from ledger_account l join down on l.head_group = down.id`
}

/**
 * Of the given ledger accounts, those that hold cash or money in a bank: their group, or a
 * group above it, is "Cash-in-Hand" or "Bank Accounts" (compared without case, as admins may
 * retype a name). For the posting rules, and for screens that mark such ledgers.
 */
export async function cashBankLedgers(db: Executor, ledgerIds: readonly number[]): Promise<Set<number>> {
  const ids = [...new Set(ledgerIds.filter(isId))]
  if (ids.length === 0) return new Set()
  const result = await sql<{ id: number }>`select id from ledger_account where id = any(${ids}::bigint[]) and id in (${cashBankLedgerIds})`.execute(db)
  return new Set(result.rows.map((r) => r.id))
}

/** What the database knows of every reference the posting makes. */
async function factsOf(db: Executor, posting: Posting): Promise<PostingFacts> {
  const ledgerIds = [...new Set(posting.lines.map((l) => l.ledger).filter(isId))]
  const subLedgerIds = [...new Set([posting.subLedger, ...posting.lines.map((l) => l.subLedger)].filter(isId))]
  const branchIds = [...new Set([posting.branch, ...posting.lines.map((l) => l.branch)].filter(isId))]
  const existing = async (table: string, ids: number[]) =>
    ids.length === 0 ? new Set<number>() : new Set((await sql<{ id: number }>`select id from ${sql.id(table)} where id = any(${ids}::bigint[])`.execute(db)).rows.map((r) => r.id))
  return {
    ledgers: await existing('ledger_account', ledgerIds),
    cashBank: await cashBankLedgers(db, ledgerIds),
    subLedgers: await existing('sub_ledger_account', subLedgerIds),
    branches: await existing('branch', branchIds),
  }
}

// The driver gives bigint as a number, a date as its text and numeric as a decimal string (server/db/connect.ts).
const ROW_COLUMNS = sql`id, ledger, sub_ledger, branch, reference_no, log_type, debit_amount, credit_amount, log_date, details, reverses`

/**
 * Posts a voucher's lines as general-ledger rows, in the caller's transaction, after
 * `judgePosting` finds nothing wrong (else a 400 field map, nothing written). Rows keep the
 * lines' order; a line's sub-ledger and branch default to the posting's.
 */
export async function postEntries(trx: Trx, posting: Posting, options: PostingOptions = {}): Promise<LedgerRow[]> {
  const names = { ...defaultFieldNames, ...options.fieldNames }
  const errors = judgePosting(posting, await factsOf(trx, posting), names)
  if (Object.keys(errors).length > 0) throw new ValidationError(errors)
  const actor = options.actor ?? null
  const reference = posting.referenceNo.trim()
  const canonical = (amount: AmountInput) => fromMinor(toMinor(amount))
  const values = posting.lines.map(
    (line) => sql`(${line.ledger}::bigint, ${line.subLedger ?? posting.subLedger ?? null}::bigint, ${line.branch ?? posting.branch ?? null}::bigint,
      ${reference}, ${posting.kind}, ${canonical(line.debit)}::numeric, ${canonical(line.credit)}::numeric, ${posting.date}::date,
      ${posting.details ?? null}, ${actor}::bigint, ${actor}::bigint)`,
  )
  const inserted = await sql<LedgerRow>`
    insert into account_log (ledger, sub_ledger, branch, reference_no, log_type, debit_amount, credit_amount, log_date, details, created_by, updated_by)
    values ${sql.join(values)}
    returning ${ROW_COLUMNS}`.execute(trx)
  return [...inserted.rows].sort((a, b) => a.id - b.id)
}

/**
 * Two reversals of one reference (a cancellation and a change at the same moment) wait for
 * each other: the second sees what the first left standing, so no row is reversed twice.
 */
async function lockReference(trx: Trx, referenceNo: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`account_log:${referenceNo}`}, 0))`.execute(trx)
}

export type ReversalOptions = {
  /** The reversing rows' date; default today (the cancel date: domain-anchors §6 rule 21). */
  date?: string
  actor?: number | null
}


/**
 * Undoes what stands for a reference: every row not reversed yet (and not itself a
 * reversal) gets a row on the other side for the same amount, ledger, sub-ledger and
 * branch, dated the cancel date, with `reverses` naming it — so the reference nets to zero
 * and both stay in the history. 409 when nothing stands (unknown, or already reversed).
 * A voucher's update reverses first and then posts its new lines (`postEntries`).
 */
export async function reverseEntries(trx: Trx, referenceNo: string, options: ReversalOptions = {}): Promise<LedgerRow[]> {
  const date = options.date ?? utcDay()
  if (!isCalendarDate(date)) throw new ValidationError({ date: [{ key: 'validation.date', params: { label: 'field.log_date' } }] })
  const reference = referenceNo.trim()
  await lockReference(trx, reference)
  const actor = options.actor ?? null
  const inserted = await sql<LedgerRow>`
    insert into account_log (ledger, sub_ledger, branch, reference_no, log_type, debit_amount, credit_amount, log_date, details, reverses, created_by, updated_by)
    select a.ledger, a.sub_ledger, a.branch, a.reference_no, a.log_type, a.credit_amount, a.debit_amount, ${date}::date, a.details, a.id, ${actor}::bigint, ${actor}::bigint
    from account_log a
    where a.reference_no = ${reference} and a.reverses is null
      and not exists (select 1 from account_log r where r.reverses = a.id)
    order by a.id
    returning ${ROW_COLUMNS}`.execute(trx)
  if (inserted.rows.length === 0) throw new ConflictError({ key: 'detail.reversal_nothing_stands', params: { reference } })
  return [...inserted.rows].sort((a, b) => a.id - b.id)
}

/** The rows that stand for a reference (posted and not reversed), in order: what a voucher's screen shows as posted. */
export async function standingEntries(db: Executor, referenceNo: string): Promise<LedgerRow[]> {
  const rows = await sql<LedgerRow>`
    select ${ROW_COLUMNS} from account_log a
    where a.reference_no = ${referenceNo.trim()} and a.reverses is null and not exists (select 1 from account_log r where r.reverses = a.id)
    order by a.id`.execute(db)
  return rows.rows
}
