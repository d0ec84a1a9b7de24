import { sql } from 'kysely'
import type { Executor } from './types'

export type LiveColumn = { type: string; notNull: boolean }
export type LiveSchema = {
  tables: Map<string, Map<string, LiveColumn>>
  constraints: Set<string>
  /** ON DELETE action of each foreign key, by constraint name. */
  foreignKeys: Map<string, string>
  indexes: Set<string>
  triggers: Set<string>
  hasTrgm: boolean
}

type ColumnRow = {
  table_name: string
  column_name: string
  data_type: string
  character_maximum_length: number | null
  numeric_precision: number | null
  numeric_scale: number | null
  is_nullable: 'YES' | 'NO'
}

/** Writes an information_schema type the way the registry spells it. */
export function typeName(c: Pick<ColumnRow, 'data_type' | 'character_maximum_length' | 'numeric_precision' | 'numeric_scale'>): string {
  switch (c.data_type) {
    case 'character varying':
      return c.character_maximum_length ? `varchar(${c.character_maximum_length})` : 'text'
    case 'numeric':
      return `numeric(${c.numeric_precision},${c.numeric_scale})`
    case 'timestamp with time zone':
      return 'timestamptz'
    default:
      return c.data_type
  }
}

export async function introspect(db: Executor): Promise<LiveSchema> {
  const columns = await sql<ColumnRow>`
    select table_name, column_name, data_type, character_maximum_length, numeric_precision, numeric_scale, is_nullable
    from information_schema.columns where table_schema = current_schema()`.execute(db)
  const tables = new Map<string, Map<string, LiveColumn>>()
  for (const c of columns.rows) {
    let t = tables.get(c.table_name)
    if (!t) tables.set(c.table_name, (t = new Map()))
    t.set(c.column_name, { type: typeName(c), notNull: c.is_nullable === 'NO' })
  }
  const names = async (q: ReturnType<typeof sql<{ name: string }>>) => new Set((await q.execute(db)).rows.map((r) => r.name))
  const actions: Record<string, string> = { a: 'no action', r: 'restrict', c: 'cascade', n: 'set null', d: 'set default' }
  const foreignKeys = await sql<{ name: string; action: string }>`
    select c.conname as name, c.confdeltype as action from pg_constraint c join pg_namespace n on n.oid = c.connamespace
    where n.nspname = current_schema() and c.contype = 'f'`.execute(db)
  return {
    tables,
    constraints: await names(sql`select conname as name from pg_constraint c join pg_namespace n on n.oid = c.connamespace where n.nspname = current_schema()`),
    foreignKeys: new Map(foreignKeys.rows.map((r) => [r.name, actions[r.action] ?? r.action])),
    indexes: await names(sql`select indexname as name from pg_indexes where schemaname = current_schema()`),
    triggers: await names(sql`select tgname as name from pg_trigger where not tgisinternal`),
    hasTrgm: (await names(sql`select extname as name from pg_extension`)).has('pg_trgm'),
  }
}
