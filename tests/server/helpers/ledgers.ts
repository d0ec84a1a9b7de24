import { sql } from 'kysely'
import type { Db } from '../../../server/db/types'

/** Accounting tests' ledgers: a new ledger account under a seeded group, and a seeded one by name. */
export async function ledgerUnder(db: Db, name: string, group: string): Promise<number> {
  return (await sql<{ id: number }>`insert into ledger_account (name, head_group) values (${name}, (select id from "group" where name = ${group})) returning id`.execute(db)).rows[0]!.id
}

export const seededLedger = async (db: Db, name: string): Promise<number> =>
  (await sql<{ id: number }>`select id from ledger_account where name = ${name} and is_deletable = false`.execute(db)).rows[0]!.id
