import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { entities, registry } from '../../schema'
import { defineEntity, f, type Fields } from '../../schema/kit'
import type { Connection } from '../../server/db/connect'
import { introspect } from '../../server/db/introspect'
import { registrySchema } from '../../server/db/registry-schema'
import { MigrationRefusedError, migrate } from '../../server/db/sync'
import type { Db } from '../../server/db/types'
import { databaseKinds, freshDatabase, isAvailable, type DatabaseKind } from './helpers/databases'

/**
 * Versioned migrations and the registry sync (architecture §3): the migrated database is
 * what the registry declares, a second run is a no-op, and nothing loses data silently.
 */
const ON_DELETE: Record<string, string> = { a: 'no action', r: 'restrict', c: 'cascade', n: 'set null', d: 'set default' }

async function withDatabase(kind: DatabaseKind, options: { empty?: boolean }, work: (db: Db) => Promise<void>): Promise<void> {
  const connection: Connection = await freshDatabase(kind, options)
  try {
    await work(connection.db)
  } finally {
    await connection.close()
  }
}

/** The registry's `city` with other fields, as a later version of its file would declare it. */
function cityWith(fields: Fields) {
  // The same filters as the registry's city: the changes under test are the fields'.
  const city = defineEntity({ name: 'city', module: 'geo', listKey: 'cities', ordering: 'id', route: { area: 'city-management', list: 'cities' }, fields, filters: registry.city.filterFields as never, trash: registry.city.trash !== undefined })
  return entities.map((e) => (e.name === 'city' ? city : e))
}

async function insertCity(db: Db): Promise<{ countryId: number; cityId: number }> {
  const country = await sql<{ id: number }>`insert into country (name) values ('Bangladesh') returning id`.execute(db)
  const countryId = country.rows[0]!.id
  const city = await sql<{ id: number }>`insert into city (name, bn_name, country) values ('Narayanganj', 'নারায়ণগঞ্জ', ${countryId}) returning id`.execute(db)
  return { countryId, cityId: city.rows[0]!.id }
}

const cityRow = async (db: Db, id: number) => (await sql<Record<string, unknown>>`select * from city where id = ${id}`.execute(db)).rows[0]

/** Compares the live catalogue with `registrySchema(entities)`, in detail. */
async function expectSchemaMatchesRegistry(db: Db): Promise<void> {
  const spec = registrySchema(entities)
  const live = await introspect(db)

  for (const table of spec.tables) {
    const columns = live.tables.get(table.name)
    expect(columns, `table ${table.name}`).toBeDefined()
    expect([...columns!.keys()].sort(), `columns of ${table.name}`).toEqual(table.columns.map((c) => c.name).sort())
    for (const c of table.columns) expect(columns!.get(c.name), `${table.name}.${c.name}`).toEqual({ type: c.type, notNull: c.notNull })
  }

  const defaults = await sql<{ table_name: string; column_name: string; column_default: string | null }>`
    select table_name, column_name, column_default from information_schema.columns where table_schema = current_schema()`.execute(db)
  for (const table of spec.tables) {
    for (const c of table.columns.filter((x) => x.default !== undefined)) {
      const d = defaults.rows.find((r) => r.table_name === table.name && r.column_name === c.name)?.column_default
      expect(d, `default of ${table.name}.${c.name}`).toContain(c.default!.replace(/^'(.*)'$/, '$1'))
    }
  }

  const fks = await sql<{ name: string; table: string; column: string; target: string; action: string }>`
    select con.conname as name, cl.relname as table, a.attname as column, t.relname as target, con.confdeltype as action
    from pg_constraint con
    join pg_class cl on cl.oid = con.conrelid
    join pg_class t on t.oid = con.confrelid
    join pg_namespace n on n.oid = con.connamespace
    join pg_attribute a on a.attrelid = con.conrelid and a.attnum = con.conkey[1]
    where con.contype = 'f' and n.nspname = current_schema()`.execute(db)
  for (const fk of spec.foreignKeys) {
    const found = fks.rows.find((r) => r.name === fk.name)
    expect(found, `foreign key ${fk.name}`).toBeDefined()
    expect({ ...found!, action: ON_DELETE[found!.action] }).toEqual({ name: fk.name, table: fk.table, column: fk.column, target: fk.target, action: fk.onDelete })
  }

  const uniques = await sql<{ name: string; table: string; column: string }>`
    select con.conname as name, cl.relname as table, a.attname as column
    from pg_constraint con
    join pg_class cl on cl.oid = con.conrelid
    join pg_namespace n on n.oid = con.connamespace
    join pg_attribute a on a.attrelid = con.conrelid and a.attnum = con.conkey[1]
    where con.contype = 'u' and n.nspname = current_schema()`.execute(db)
  const indexes = await sql<{ name: string; table: string; def: string }>`
    select indexname as name, tablename as table, indexdef as def from pg_indexes where schemaname = current_schema()`.execute(db)
  for (const u of spec.uniques.filter((x) => !x.live)) expect(uniques.rows.find((r) => r.name === u.name)).toEqual({ name: u.name, table: u.table, column: u.column })
  // Unique among the rows not in a Trash: a partial unique index, no constraint.
  for (const u of spec.uniques.filter((x) => x.live)) {
    expect(uniques.rows.find((r) => r.name === u.name), `${u.name} is no constraint`).toBeUndefined()
    const found = indexes.rows.find((r) => r.name === u.name)
    expect(found?.table, `unique index ${u.name}`).toBe(u.table)
    expect(found!.def).toMatch(new RegExp(`^CREATE UNIQUE INDEX ${u.name} ON .* \\(${u.column}${u.within ? `, ${u.within}` : ''}\\) WHERE \\(deleted_at IS NULL\\)$`))
  }
  expect(live.hasTrgm, 'pg_trgm is installed on both PGlite and PostgreSQL 15 with contrib').toBe(true)
  for (const ix of spec.indexes) {
    const found = indexes.rows.find((r) => r.name === ix.name)
    expect(found, `index ${ix.name}`).toBeDefined()
    expect(found!.table).toBe(ix.table)
    // A search index is on the unaccented text (PostgreSQL writes the varchar's cast to text).
    if (ix.using === 'search') expect(found!.def).toMatch(new RegExp(`USING gin \\(bo_unaccent\\(\\(?${ix.column}\\)?(::text)?\\) gin_trgm_ops\\)`))
    else expect(found!.def).toMatch(new RegExp(`USING btree \\("?${ix.column}"?\\)`))
  }

  for (const table of spec.tables.filter((x) => x.counted)) {
    for (const suffix of ['ins', 'del', 'trunc', 'upd']) expect(live.triggers.has(`${table.name}_count_${suffix}`), `${table.name}_count_${suffix}`).toBe(true)
  }
}

describe('migrations', () => {
  for (const kind of databaseKinds) {
    describe.skipIf(!isAvailable(kind))(`[${kind}]`, () => {
      it('migrates an empty database to exactly what the registry declares, and a second run applies nothing', async () => {
        await withDatabase(kind, { empty: true }, async (db) => {
          const first = await migrate(db, entities)
          expect(first.applied[0]).toMatch(/^system-0001 /)
          // "user" is a system table of migration 1 that the registry's user entity adopts, and
          // "account_log" migration 5's and "stock_ledger" migration 8's (their day-total triggers need the table before the sync).
          for (const e of entities.filter((x) => x.name !== 'user' && x.name !== 'account_log' && x.name !== 'stock_ledger')) expect(first.applied).toContain(`create table ${e.name}`)
          expect(first.applied).toContain('add column user.role')
          await expectSchemaMatchesRegistry(db)

          const versions = await sql<{ version: string }>`select version from schema_migrations order by version`.execute(db)
          const second = await migrate(db, entities)
          expect(second).toEqual({ applied: [], notices: [] })
          expect((await sql<{ version: string }>`select version from schema_migrations order by version`.execute(db)).rows).toEqual(versions.rows)
        })
      })

      it('keeps row counters exact through inserts, deletes and truncate', async () => {
        await withDatabase(kind, {}, async (db) => {
          const count = async () => Number((await sql<{ n: string }>`select n from row_count where table_name = 'department'`.execute(db)).rows[0]!.n)
          await sql`insert into department (name) values ('A'), ('B'), ('C')`.execute(db)
          expect(await count()).toBe(3)
          await sql`delete from department where name = 'B'`.execute(db)
          expect(await count()).toBe(2)
          // Employees refer to departments: a truncate must cascade to them (also counted).
          await sql`truncate department cascade`.execute(db)
          expect(await count()).toBe(0)
        })
      })

      it("moves a table's version with every insert, update, delete and truncate", async () => {
        await withDatabase(kind, {}, async (db) => {
          const version = async () => Number((await sql<{ v: string }>`select version as v from row_count where table_name = 'department'`.execute(db)).rows[0]!.v)
          const seen = [await version()]
          await sql`insert into department (name) values ('A'), ('B')`.execute(db)
          seen.push(await version())
          await sql`update department set name = 'C' where name = 'A'`.execute(db)
          seen.push(await version())
          await sql`delete from department where name = 'B'`.execute(db)
          seen.push(await version())
          await sql`truncate department cascade`.execute(db)
          seen.push(await version())
          expect(new Set(seen).size).toBe(seen.length)
          expect([...seen].sort((a, b) => a - b)).toEqual(seen)
        })
      })

      it('turns role menus of the earlier shape (a row per role and item) into a document per role with its items as lines', async () => {
        await withDatabase(kind, {}, async (db) => {
          // The tables as the earlier version had them, with two roles' menus.
          await sql`drop table role_menu_item`.execute(db)
          await sql`drop table role_menu`.execute(db)
          await sql`delete from row_count where table_name in ('role_menu', 'role_menu_item')`.execute(db)
          await sql`create table role_menu (id bigint generated by default as identity primary key, role bigint not null references role(id) on delete cascade,
            menu_item bigint not null references menu_item(id) on delete cascade, created_at timestamptz not null default now(),
            updated_at timestamptz not null default now(), created_by bigint, updated_by bigint)`.execute(db)
          const roles = (await sql<{ id: number }>`insert into role (name) values ('CLERK'), ('AUDITOR') returning id`.execute(db)).rows.map((r) => r.id)
          const items = (await sql<{ id: number }>`insert into menu_item (translate, type) values ('a', 'item'), ('b', 'item'), ('c', 'item') returning id`.execute(db)).rows.map((r) => r.id)
          await sql`insert into role_menu (role, menu_item) values (${roles[0]}, ${items[2]}), (${roles[0]}, ${items[0]}), (${roles[1]}, ${items[1]})`.execute(db)
          await sql`delete from schema_migrations where version = 'system-0002'`.execute(db)
          await sql`drop table menu_nav_entry`.execute(db)
          await sql`alter table row_count drop column version`.execute(db)

          const result = await migrate(db, entities)
          expect(result.applied[0]).toMatch(/^system-0002 /)
          await expectSchemaMatchesRegistry(db)
          const documents = await sql<{ id: number; role: number; item_count: number }>`select id, role, item_count from role_menu order by id`.execute(db)
          expect(documents.rows).toEqual([...roles].sort((a, b) => a - b).map((r) => ({ id: r, role: r, item_count: r === roles[0] ? 2 : 1 })))
          const lines = await sql<{ role_menu: number; menu_item: number; position: number }>`select role_menu, menu_item, position from role_menu_item order by role_menu, position`.execute(db)
          expect(lines.rows).toEqual(
            [
              { role_menu: roles[0]!, menu_item: items[0]!, position: 0 },
              { role_menu: roles[0]!, menu_item: items[2]!, position: 1 },
              { role_menu: roles[1]!, menu_item: items[1]!, position: 0 },
            ].sort((a, b) => a.role_menu - b.role_menu || a.position - b.position),
          )
          const counted = await sql<{ table_name: string; n: string }>`select table_name, n from row_count where table_name in ('role_menu', 'role_menu_item') order by table_name`.execute(db)
          expect(counted.rows.map((r) => [r.table_name, Number(r.n)])).toEqual([['role_menu', 2], ['role_menu_item', 3]])
        })
      })

      it('turns cause donations of the earlier shape into donations with a cause (number, donor and history kept), and raises every cause by all its donations', async () => {
        await withDatabase(kind, {}, async (db) => {
          // The tables as the earlier version had them: cause donations apart, naming no donor; donations not raising their cause.
          await sql`drop table cause_donation`.execute(db)
          await sql`delete from row_count where table_name = 'cause_donation'`.execute(db)
          await sql`alter table donation drop column donor, drop column is_anonymous, drop column ref_invoice_no`.execute(db)
          await sql`alter table donation alter column first_name set not null, alter column last_name set not null, alter column email set not null`.execute(db)
          await sql`create table cause_donation (id bigint generated by default as identity primary key, cause bigint not null references cause(id),
            amount numeric(20,2) not null, invoice_no varchar(50), ref_invoice_no varchar(50), created_at timestamptz not null default now(),
            updated_at timestamptz not null default now(), created_by bigint references "user"(id) on delete set null, updated_by bigint)`.execute(db)
          const clerk = (await sql<{ id: number }>`insert into "user" (email, password, first_name, last_name) values ('clerk@example.com', 'x', 'Desk', 'Clerk') returning id`.execute(db)).rows[0]!.id
          const [flood, school] = (await sql<{ id: number }>`insert into cause (name, goal_amount, raised_amount, sales_invoice_no) values
            ('Flood', '1000.00', '30.00', 'SA20240101001'), ('School', '0.00', '0.00', null) returning id`.execute(db)).rows.map((r) => r.id)
          // A donation to a cause that never raised it, and one to no cause.
          await sql`insert into donation (cause, amount, first_name, last_name, email, invoice_no) values
            (${flood}, '5.00', 'Rahima', 'Khatun', 'rahima@example.com', 'RV20240101003'), (null, '7.00', 'Abul', 'Kalam', 'abul@example.com', 'RV20240101004')`.execute(db)
          const legacy = (await sql<{ id: number }>`insert into cause_donation (cause, amount, invoice_no, ref_invoice_no, created_by, updated_by) values
            (${flood}, '10.00', 'RV20240101001', 'SA20240101001', ${clerk}, ${clerk}), (${flood}, '20.00', 'RV20240101002', 'SA20240101001', null, null) returning id`.execute(db)).rows.map((r) => r.id)
          await sql`insert into audit_log (actor, entity, entity_id, action, changes) values (${clerk}, 'cause_donation', ${legacy[0]}, 'create', '{}'::jsonb)`.execute(db)
          await sql`delete from schema_migrations where version = 'system-0007'`.execute(db)

          const result = await migrate(db, entities)
          expect(result.applied[0]).toMatch(/^system-0007 /)
          await expectSchemaMatchesRegistry(db)
          type Moved = { id: number; cause: number | null; amount: string; first_name: string | null; email: string | null; is_anonymous: boolean; invoice_no: string; ref_invoice_no: string | null; created_by: number | null }
          const donations = (await sql<Moved>`select id, cause, amount, first_name, email, is_anonymous, invoice_no, ref_invoice_no, created_by from donation order by invoice_no`.execute(db)).rows
          expect(donations.map(({ id: _, ...d }) => d)).toEqual([
            // The clerk's cause donation: their receipt credited them, so they are its donor (a person by e-mail).
            { cause: flood, amount: '10.00', first_name: 'Desk', email: 'clerk@example.com', is_anonymous: false, invoice_no: 'RV20240101001', ref_invoice_no: 'SA20240101001', created_by: clerk },
            // One whose author is gone: anonymous.
            { cause: flood, amount: '20.00', first_name: null, email: null, is_anonymous: true, invoice_no: 'RV20240101002', ref_invoice_no: 'SA20240101001', created_by: null },
            { cause: flood, amount: '5.00', first_name: 'Rahima', email: 'rahima@example.com', is_anonymous: false, invoice_no: 'RV20240101003', ref_invoice_no: null, created_by: null },
            { cause: null, amount: '7.00', first_name: 'Abul', email: 'abul@example.com', is_anonymous: false, invoice_no: 'RV20240101004', ref_invoice_no: null, created_by: null },
          ])
          // Every donation naming a cause is a cause donation; its history follows it to its new id.
          const withCause = donations.filter((d) => d.cause !== null).map((d) => d.id).sort((a, b) => a - b)
          expect((await sql<{ id: number }>`select id from cause_donation order by id`.execute(db)).rows.map((r) => Number(r.id))).toEqual(withCause)
          expect(Number((await sql<{ n: string }>`select n from row_count where table_name = 'cause_donation'`.execute(db)).rows[0]!.n)).toBe(3)
          const history = await sql<{ entity: string; entity_id: number }>`select entity, entity_id from audit_log where actor = ${clerk}`.execute(db)
          expect(history.rows.map((r) => [r.entity, Number(r.entity_id)])).toEqual([['donation', donations[0]!.id]])
          const raised = await sql<{ id: number; raised_amount: string }>`select id, raised_amount from cause order by id`.execute(db)
          expect(raised.rows.map((r) => [r.id, r.raised_amount])).toEqual([
            [flood, '35.00'],
            [school, '0.00'],
          ])
        })
      })

      it('refuses to shorten a text field on a table with rows (50 → 10), and changes nothing', async () => {
        await withDatabase(kind, {}, async (db) => {
          const { cityId } = await insertCity(db)
          const before = await cityRow(db, cityId)
          const shortened = cityWith({ ...registry.city.fields, name: f.text({ max: 10, required: true, search: true }) })
          const error = await migrate(db, shortened).catch((e: unknown) => e)
          expect(error).toBeInstanceOf(MigrationRefusedError)
          expect((error as MigrationRefusedError).problems).toEqual([expect.stringMatching(/^city\.name is varchar\(50\) in the database but varchar\(10\) in the registry/)])
          expect((error as Error).message).toContain('write a migration in server/db/migrations/')
          expect((await introspect(db)).tables.get('city')!.get('name')).toEqual({ type: 'varchar(50)', notNull: true })
          expect(await cityRow(db, cityId)).toEqual(before)
        })
      })

      it('refuses a new required field without a default on a table with rows', async () => {
        await withDatabase(kind, {}, async (db) => {
          await insertCity(db)
          const error = await migrate(db, cityWith({ ...registry.city.fields, code: f.text({ max: 5, required: true, label: 'field.name' }) })).catch((e: unknown) => e)
          expect(error).toBeInstanceOf(MigrationRefusedError)
          expect((error as MigrationRefusedError).problems).toEqual([expect.stringContaining('city.code is new and required but the table has rows')])
          expect((await introspect(db)).tables.get('city')!.has('code')).toBe(false)
        })
      })

      it('adds a new optional field as a column and keeps the rows', async () => {
        await withDatabase(kind, {}, async (db) => {
          const { cityId } = await insertCity(db)
          const before = await cityRow(db, cityId)
          const result = await migrate(db, cityWith({ ...registry.city.fields, nickname: f.text({ max: 30, label: 'field.name' }) }))
          expect(result.applied).toEqual(['add column city.nickname'])
          expect((await introspect(db)).tables.get('city')!.get('nickname')).toEqual({ type: 'varchar(30)', notNull: false })
          expect(await cityRow(db, cityId)).toEqual({ ...before, nickname: null })
        })
      })

      it('widens a text field (50 → 100) in place and keeps the data', async () => {
        await withDatabase(kind, {}, async (db) => {
          const { cityId } = await insertCity(db)
          const before = await cityRow(db, cityId)
          const result = await migrate(db, cityWith({ ...registry.city.fields, name: f.text({ max: 100, required: true, search: true, normalize: 'capitalize' }) }))
          expect(result.applied).toEqual(['widen city.name to varchar(100)'])
          expect(await cityRow(db, cityId)).toEqual(before)
        })
      })

      it('keeps the column of a field removed from the registry and says so', async () => {
        await withDatabase(kind, {}, async (db) => {
          const { cityId } = await insertCity(db)
          const { bn_name: _removed, ...rest } = registry.city.fields
          const result = await migrate(db, cityWith(rest))
          expect(result.applied).toEqual([])
          expect(result.notices).toEqual([expect.stringContaining('city.bn_name is in the database but not in the registry; it is kept')])
          expect((await cityRow(db, cityId))!.bn_name).toBe('নারায়ণগঞ্জ')
        })
      })
    })
  }
})
