import { expect, it } from 'vitest'
import { registry } from '../../schema'
import { callerWith, describeEachDatabase } from './helpers/app'
import { createRow } from './helpers/samples'
import { throwawayApp, useThrowawayLabels } from './helpers/throwaway-module'

/**
 * `GET /api/search/?q=` (issue 25: the command palette's record search): every entity the
 * caller may list, each through the engine — its permission, its row scope, its search
 * fields — including an entity defined at run time.
 */
useThrowawayLabels()

type Result = { entity: string; total: number; rows: Array<{ id: number; label: string }> }
const found = (body: { results: Result[] }, entity: string) => body.results.find((r) => r.entity === entity)

describeEachDatabase(
  'search across entities',
  (t) => {
    it('finds records of every entity the admin may list, a few rows each with their labels, entities without matches left out', async () => {
      const country = await createRow(t.current, registry.country, { name: 'Zanzibaria', country_code: 'ZZ' })
      const district = await createRow(t.current, registry.city, { name: 'Zanzibaria Town', country: country.id })
      const memo = (await t.current.call({ method: 'POST', url: '/memo/api/v1/memo/create/', payload: { name: 'Zanzibaria trip' } })).body as { id: number }
      const res = await t.current.call({ method: 'GET', url: '/api/search/?q=zanzib' })
      expect(res.status, res.raw).toBe(200)
      expect(found(res.body, 'country')).toEqual({ entity: 'country', total: 1, rows: [{ id: country.id, label: 'Zanzibaria' }] })
      expect(found(res.body, 'city')?.rows).toEqual([{ id: district.id, label: 'Zanzibaria Town' }])
      // An entity of the test's own registry is searched like the app's.
      expect(found(res.body, 'memo')?.rows).toEqual([{ id: memo.id, label: 'Zanzibaria trip' }])
      expect(res.body.results.every((r: Result) => r.total > 0 && r.rows.length <= 3)).toBe(true)
    })

    it("gives a caller only the entities they may list, and in those only their scope's rows", async () => {
      await createRow(t.current, registry.country, { name: 'Quokkaland', country_code: 'QK' })
      await t.current.call({ method: 'POST', url: '/memo/api/v1/memo/create/', payload: { name: 'Quokka memo of the admin' } })
      const caller = await callerWith(t.current, ['COUNTRY_LIST', 'MEMO_LIST', 'MEMO_CREATE'])
      const mine = (await caller({ method: 'POST', url: '/memo/api/v1/memo/create/', payload: { name: 'Quokka memo of mine' } })).body as { id: number }
      const res = await caller({ method: 'GET', url: '/api/search/?q=quokka' })
      expect(res.status, res.raw).toBe(200)
      expect(res.body.results.map((r: Result) => r.entity).sort()).toEqual(['country', 'memo'])
      expect(found(res.body, 'memo')).toEqual({ entity: 'memo', total: 1, rows: [{ id: mine.id, label: 'Quokka memo of mine' }] })
    })

    it('refuses text too short or too long with a detail in the caller’s language, and callers without a token', async () => {
      for (const q of ['', 'a', 'x'.repeat(101)]) {
        const res = await t.current.call({ method: 'GET', url: `/api/search/?q=${q}`, headers: { 'accept-language': 'tr' } })
        expect(res.status, q).toBe(400)
        expect(res.body.detail).toMatch(/karakter/)
      }
      const anonymous = await t.current.call({ method: 'GET', url: '/api/search/?q=abc', headers: { authorization: '' } })
      expect(anonymous.status).toBe(401)
    })
  },
  throwawayApp,
)
