import type { Kysely, Transaction } from 'kysely'

/**
 * Tables are derived from the registry at run time, so the engine sees them as
 * string-keyed rows; typed views come from `EntityRow<'name'>` at the edges.
 */
export type Row = Record<string, unknown>
export type Database = Record<string, Row>
export type Db = Kysely<Database>
export type Trx = Transaction<Database>
export type Executor = Db | Trx
