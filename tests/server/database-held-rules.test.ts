import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { entities } from '../../schema'
import { defineEntity, f } from '../../schema/kit'
import { introspect } from '../../server/db/introspect'
import { migrate } from '../../server/db/sync'
import { catalogues } from '../../server/i18n'
import { testApp } from './helpers/app'
import { databaseKinds, isAvailable } from './helpers/databases'

/**
 * Rules the registry asks the database to hold, for every writer (the engine, issue 21):
 * `appendOnly` gives an entity's table triggers that refuse UPDATE, DELETE and TRUNCATE — the
 * general ledger's rule, which the stock ledger and any other journal take by saying so, not
 * by a migration of their own; `enforced` makes a field's lower bound a CHECK (on-hand stock
 * never below zero).
 */
const journal = defineEntity({
  name: 'tally',
  module: 'test',
  listKey: 'tallies',
  appendOnly: true,
  route: { area: 'tally-management', list: 'tallies' },
  fields: { name: f.text({ max: 40, required: true, search: true }), amount: f.integer({ min: 0 }) },
  routes: { update: false, delete: false, delete_multiple: false },
})
const bin = defineEntity({
  name: 'tally',
  module: 'test',
  listKey: 'tallies',
  route: { area: 'tally-management', list: 'tallies' },
  fields: { name: f.text({ max: 40, required: true, search: true }), amount: f.integer({ min: 0, enforced: true }), weight: f.decimal({ scale: 3, precision: 12, gt: '0', enforced: true, label: 'field.price' }) },
})
const loose = defineEntity({ ...{ name: 'tally', module: 'test', listKey: 'tallies', route: { area: 'tally-management', list: 'tallies' } }, fields: { name: f.text({ max: 40, required: true, search: true }), amount: f.integer(), weight: f.decimal({ scale: 3, precision: 12, label: 'field.price' }) } })
const mutable = catalogues as unknown as Record<string, Record<string, Record<string, unknown>>>
beforeAll(() => {
  for (const lang of Object.keys(mutable)) mutable[lang]!.entity = { ...mutable[lang]!.entity, tally: { one: 'Tally', other: 'Tallies' } }
})
afterAll(() => {
  for (const lang of Object.keys(mutable)) delete (mutable[lang]!.entity as Record<string, unknown>).tally
})

describe('an append-only entity', () => {
  for (const kind of databaseKinds) {
    it.runIf(isAvailable(kind))(`keeps every row it was given: the database refuses to change, delete or empty them [${kind}]`, async () => {
      const t = await testApp(kind, { entities: [...entities, journal] })
      try {
        const created = await t.call({ method: 'POST', url: '/tally/api/v1/tally/create/', payload: { name: 'First', amount: 3 } })
        expect(created.status).toBe(201)
        const id = (created.body as { id: number }).id
        const refusal = async (statement: ReturnType<typeof sql>) => {
          try {
            await statement.execute(t.db)
            return undefined
          } catch (e) {
            return { code: (e as { code?: string }).code, message: (e as Error).message }
          }
        }
        for (const statement of [sql`update tally set amount = 4 where id = ${id}`, sql`delete from tally where id = ${id}`, sql`truncate tally`]) {
          expect(await refusal(statement)).toMatchObject({ code: '23001', message: expect.stringMatching(/^tally is append-only: (UPDATE|DELETE|TRUNCATE) refused/) })
        }
        const rows = await sql<{ amount: number }>`select amount from tally`.execute(t.db)
        expect(rows.rows).toEqual([{ amount: 3 }])
        // Its triggers are the registry's: the next start finds them and adds nothing.
        const live = await introspect(t.db)
        expect(live.triggers.has('tally_append_only') && live.triggers.has('tally_no_truncate')).toBe(true)
      } finally {
        await t.close()
      }
    })
  }
})

describe('an enforced bound', () => {
  for (const kind of databaseKinds) {
    it.runIf(isAvailable(kind))(`is held by the database for every writer, and not added over rows that break it [${kind}]`, async () => {
      const t = await testApp(kind, { entities: [...entities, bin] })
      try {
        const attempt = async (statement: ReturnType<typeof sql>) => {
          try {
            await statement.execute(t.db)
            return 'written'
          } catch (e) {
            return (e as { code?: string }).code
          }
        }
        expect(await attempt(sql`insert into tally (name, amount, weight) values ('ok', 0, 0.001)`)).toBe('written')
        expect(await attempt(sql`insert into tally (name, amount, weight) values ('below', -1, 1)`)).toBe('23514')
        expect(await attempt(sql`insert into tally (name, amount, weight) values ('zero weight', 1, 0)`)).toBe('23514')
        expect(await attempt(sql`update tally set amount = amount - 1`)).toBe('23514')
        // Nothing is above the bound through the API either: it answers with the field, not a 500.
        const refused = await t.call({ method: 'POST', url: '/tally/api/v1/tally/create/', payload: { name: 'api', amount: -2, weight: '1' } })
        expect(refused.status).toBe(400)
        expect(refused.body).toHaveProperty('amount')
      } finally {
        await t.close()
      }
      const before = await testApp(kind, { entities: [...entities, loose] })
      try {
        await sql`insert into tally (name, amount, weight) values ('short', -3, 1)`.execute(before.db)
        await expect(migrate(before.db, [...entities, bin])).rejects.toThrow(/tally\.amount must be >= 0 but 1 row\(s\) are not/)
      } finally {
        await before.close()
      }
    })
  }
})
