import { sql } from 'kysely'
import type { Executor, Trx } from '../../db/types'
import { BusinessError } from '../../engine/errors'
import type { Actor, HookRegistry } from '../../engine/hooks'
import type { Registry } from '../../engine/list-query'
import { createRow } from '../../engine/service'

/**
 * The ledger accounts postings need, found or made in the caller's transaction: the seeded
 * ones (Cash, Company Sales), and the ledgers of persons and causes (api-contract §5.1),
 * found by `ledger_type` and `reference_id` or made under their group — through the engine,
 * audited, with the accounting rules. The one place a ledger is made for a record: the
 * registry's automatic ledgers (auto-ledger.ts) and every module's postings come here.
 */
export type LedgerDeps = { trx: Trx; registry: Registry; hooks: HookRegistry | undefined; actor: Actor | null }

const LEDGER_NAME_MAX = 100

/** A seeded ledger by its name (Cash, Company Sales): the chart's start-up seed makes them; an admin may not delete them. */
export async function seededLedger(trx: Executor, name: string): Promise<number> {
  const found = await sql<{ id: number }>`select id from ledger_account where name = ${name} and is_deletable = false order by id limit 1`.execute(trx)
  const id = found.rows[0]?.id
  if (id === undefined) throw new BusinessError({ key: 'detail.seeded_ledger_missing', params: { name } })
  return Number(id)
}

/** Waits for any other transaction making the same thing (a second donation of one donor): one makes it, the other finds it. */
export async function lockName(trx: Trx, name: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${name}, 0))`.execute(trx)
}

/**
 * The ledger of a person or cause (`ledger_type`, `reference_id`), made under `group` when it
 * has none yet. A missing group refuses with the contract's message ("Please insert a
 * 'Salary' data in the Group table and then try again").
 */
export async function ensureLedger(deps: LedgerDeps, spec: { type: string; referenceId: number; group: string; name: string }): Promise<number> {
  const { trx } = deps
  const reference = String(spec.referenceId)
  await lockName(trx, `ledger:${spec.type}:${reference}`)
  const found = await sql<{ id: number }>`select id from ledger_account where ledger_type = ${spec.type} and reference_id = ${reference} order by id limit 1`.execute(trx)
  if (found.rows[0]) return Number(found.rows[0].id)
  const group = await sql<{ id: number }>`select id from "group" where name = ${spec.group} order by id limit 1`.execute(trx)
  if (!group.rows[0]) throw new BusinessError({ key: 'detail.ledger_group_missing', params: { group: spec.group } })
  const entity = deps.registry.find((e) => e.name === 'ledger_account')!
  const name = spec.name.trim().slice(0, LEDGER_NAME_MAX) || `${spec.type} ${reference}`
  const row = await createRow(
    { db: trx, registry: deps.registry, entity, actor: deps.actor, access: 'system', hooks: deps.hooks },
    { name, ledger_type: spec.type, reference_id: reference, head_group: Number(group.rows[0].id) },
  )
  return Number(row.id)
}

/**
 * A ledger of the chart found by its name under `group` (any case), made there when there is
 * none: an account the business holds rather than a person's — a payment method's wallet
 * ("Bkash Account" under Bank Accounts).
 */
export async function ensureNamedLedger(deps: LedgerDeps, spec: { name: string; group: string }): Promise<number> {
  const { trx } = deps
  const name = spec.name.trim().slice(0, LEDGER_NAME_MAX)
  await lockName(trx, `ledger:${spec.group}:${name.toLowerCase()}`)
  const found = await sql<{ id: number }>`
    select l.id from ledger_account l join "group" g on g.id = l.head_group
    where lower(l.name) = lower(${name}) and g.name = ${spec.group} order by l.id limit 1`.execute(trx)
  if (found.rows[0]) return Number(found.rows[0].id)
  const group = await sql<{ id: number }>`select id from "group" where name = ${spec.group} order by id limit 1`.execute(trx)
  if (!group.rows[0]) throw new BusinessError({ key: 'detail.ledger_group_missing', params: { group: spec.group } })
  const entity = deps.registry.find((e) => e.name === 'ledger_account')!
  const row = await createRow({ db: trx, registry: deps.registry, entity, actor: deps.actor, access: 'system', hooks: deps.hooks }, { name, head_group: Number(group.rows[0].id) })
  return Number(row.id)
}

/** A sub-ledger by name (`cause`), made when missing. */
export async function ensureSubLedger(deps: LedgerDeps, name: string): Promise<number> {
  const { trx } = deps
  await lockName(trx, `sub_ledger:${name}`)
  const found = await sql<{ id: number }>`select id from sub_ledger_account where name = ${name} order by id limit 1`.execute(trx)
  if (found.rows[0]) return Number(found.rows[0].id)
  const entity = deps.registry.find((e) => e.name === 'sub_ledger_account')!
  const row = await createRow({ db: trx, registry: deps.registry, entity, actor: deps.actor, access: 'system', hooks: deps.hooks }, { name })
  return Number(row.id)
}
