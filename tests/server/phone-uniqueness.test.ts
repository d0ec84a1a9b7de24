import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { registry } from '../../schema'
import { describeEachDatabase, type Reply, type TestApp } from './helpers/app'
import { sampleInput } from './helpers/samples'

/**
 * A phone number belongs to one user, in either of the two phone columns (api-contract
 * §3.2), also when the writes race: the database holds the rule (`user_phone`), and a
 * concurrent duplicate is answered with the same 400 field error as a sequential one.
 */
const USERS = '/user/api/v1/user'
const PARALLEL = 20
const ROUNDS = 5

let sequence = 0
const number = (round: number, i: number) => `+88019${String(process.pid % 1000).padStart(3, '0')}${String(round).padStart(2, '0')}${String(i).padStart(2, '0')}`

const createUser = (t: TestApp, phones: { primary_phone?: string; secondary_phone?: string }): Promise<Reply> => {
  const n = ++sequence
  const input = { ...sampleInput(registry.user, {}), username: `phone${n}x${process.pid}`, email: `phone${n}x${process.pid}@example.com`, primary_phone: null, secondary_phone: null, ...phones }
  return t.call({ method: 'POST', url: `${USERS}/create/`, payload: input })
}

/** Every number held twice, in either column, across all users. */
async function duplicates(t: TestApp): Promise<string[]> {
  const r = await sql<{ phone: string }>`
    select phone from (select primary_phone as phone from "user" union all select secondary_phone from "user") p
    where phone is not null group by phone having count(*) > 1`.execute(t.db)
  return r.rows.map((x) => x.phone)
}

const TAKEN: Record<string, string[]> = {
  primary_phone: ['User with this Phone already exists.'],
  secondary_phone: ['User with this Mobile already exists.'],
}

describeEachDatabase('phone numbers are unique across both phone columns', (t) => {
  it(`keeps every number to one user when ${PARALLEL} creates race, in ${ROUNDS} rounds, each refusal a 400 field error`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      // Each user wants its own number first and its neighbour's second: every number is asked for twice, in different columns.
      const replies = await Promise.all(
        Array.from({ length: PARALLEL }, (_, i) => createUser(t.current, { primary_phone: number(round, i), secondary_phone: number(round, (i + 1) % PARALLEL) })),
      )
      for (const reply of replies) {
        expect([201, 400], reply.raw).toContain(reply.status)
        if (reply.status === 400) {
          // One phone field or both, each with the sequential check's message.
          const fields = Object.keys(reply.body)
          expect(fields.length, reply.raw).toBeGreaterThan(0)
          expect(reply.body, reply.raw).toEqual(Object.fromEntries(fields.map((f) => [f, TAKEN[f]])))
        }
      }
      expect(replies.some((r) => r.status === 201)).toBe(true)
      expect(replies.some((r) => r.status === 400)).toBe(true)
      expect(await duplicates(t.current)).toEqual([])
    }
  })

  it(`lets exactly one of ${PARALLEL} racing creates have one number, whichever column each asks for`, async () => {
    const phone = number(90, 1)
    const replies = await Promise.all(Array.from({ length: PARALLEL }, (_, i) => createUser(t.current, i % 2 === 0 ? { primary_phone: phone } : { secondary_phone: phone })))
    expect(replies.filter((r) => r.status === 201)).toHaveLength(1)
    for (const reply of replies.filter((r) => r.status !== 201)) {
      expect(reply.status, reply.raw).toBe(400)
      expect([{ primary_phone: TAKEN.primary_phone }, { secondary_phone: TAKEN.secondary_phone }]).toContainEqual(reply.body)
    }
    expect(await duplicates(t.current)).toEqual([])
  })

  it('refuses one number in both phone columns of one user, and lets a user swap their two numbers', async () => {
    const same = await createUser(t.current, { primary_phone: number(91, 1), secondary_phone: number(91, 1) })
    expect(same.status).toBe(400)
    expect(same.body).toEqual({ secondary_phone: TAKEN.secondary_phone })

    const created = await createUser(t.current, { primary_phone: number(91, 2), secondary_phone: number(91, 3) })
    expect(created.status, created.raw).toBe(201)
    const swapped = await t.current.call({ method: 'PUT', url: `${USERS}/update/${created.body.id}`, payload: { primary_phone: number(91, 3), secondary_phone: number(91, 2) } })
    expect(swapped.status, swapped.raw).toBe(200)
    expect([swapped.body.primary_phone, swapped.body.secondary_phone]).toEqual([number(91, 3), number(91, 2)])
  })

  it('frees the numbers of a user who changes or loses them, or is deleted', async () => {
    const first = await createUser(t.current, { primary_phone: number(92, 1), secondary_phone: number(92, 2) })
    expect(first.status, first.raw).toBe(201)
    const changed = await t.current.call({ method: 'PUT', url: `${USERS}/update/${first.body.id}`, payload: { primary_phone: number(92, 3), secondary_phone: null } })
    expect(changed.status, changed.raw).toBe(200)
    expect((await createUser(t.current, { primary_phone: number(92, 1) })).status).toBe(201)
    expect((await createUser(t.current, { secondary_phone: number(92, 2) })).status).toBe(201)
    expect((await createUser(t.current, { secondary_phone: number(92, 3) })).status).toBe(400)

    const deleted = await t.current.call({ method: 'DELETE', url: `${USERS}/delete/${first.body.id}` })
    expect(deleted.status, deleted.raw).toBe(200)
    expect((await createUser(t.current, { secondary_phone: number(92, 3) })).status).toBe(201)
  })

  it('holds the rule for a writer that bypasses the engine: the database refuses the second holder', async () => {
    const holder = await createUser(t.current, { primary_phone: number(93, 1) })
    expect(holder.status, holder.raw).toBe(201)
    const other = await createUser(t.current, {})
    await expect(sql`update "user" set secondary_phone = ${number(93, 1)} where id = ${other.body.id}`.execute(t.current.db)).rejects.toMatchObject({
      code: '23505',
      constraint: 'user_secondary_phone_key',
    })
  })
})
