import { describe, expect, it } from 'vitest'
import { registry } from '../../schema'
import { describeEachDatabase, type TestApp } from './helpers/app'
import { createReferences, createRow, sampleInput, translate } from './helpers/samples'

/**
 * The server's side of the form rules (issue 8): a police station must be in the district a
 * record names (and a district in its country), a birthday is not in the future, a postal
 * code is one, a slide is not empty, and a name over its maximum is refused, not cut — each
 * a 400 field map in the request's language, on create and on update, never a 500.
 */
const { user, employee, branch, thana, city, country, homepage_slider: slider } = registry

type Geo = { bangladesh: number; nepal: number; dhaka: number; chattogram: number; kathmandu: number; gulshan: number; kotwali: number }

async function geography(t: TestApp, tag: string): Promise<Geo> {
  const made = async (base: string, body: Record<string, unknown>) => {
    const res = await t.call({ method: 'POST', url: `${base}/create/`, payload: body })
    if (res.status !== 201) throw new Error(`${base}: ${res.status} ${res.raw}`)
    return res.body.id as number
  }
  const bangladesh = await made(country.api.base, { name: `Bangladesh ${tag}` })
  const nepal = await made(country.api.base, { name: `Nepal ${tag}` })
  const dhaka = await made(city.api.base, { name: `Dhaka ${tag}`, country: bangladesh })
  const chattogram = await made(city.api.base, { name: `Chattogram ${tag}`, country: bangladesh })
  const kathmandu = await made(city.api.base, { name: `Kathmandu ${tag}`, country: nepal })
  const gulshan = await made(thana.api.base, { name: `Gulshan ${tag}`, city: dhaka })
  const kotwali = await made(thana.api.base, { name: `Kotwali ${tag}`, city: chattogram })
  return { bangladesh, nepal, dhaka, chattogram, kathmandu, gulshan, kotwali }
}

let sequence = 0
const newUser = (extra: Record<string, unknown> = {}) => {
  sequence += 1
  return { first_name: 'Nadia', last_name: 'Akter', email: `form-rules-${sequence}@example.com`, password: 'secret1', ...extra }
}

describeEachDatabase('form rules on the server', (t) => {
  describe('a reference within another (police station within district, district within country)', () => {
    it('refuses a police station that is not in the chosen district, on create and update, in the request’s language', async () => {
      const g = await geography(t.current, 'a')
      const refused = await t.current.call({ method: 'POST', url: `${user.api.base}/create/`, payload: newUser({ country: g.bangladesh, city: g.dhaka, thana: g.kotwali }) })
      expect(refused.status, refused.raw).toBe(400)
      expect(refused.body).toEqual({ thana: ['Police Station is not in the chosen District.'] })

      const turkish = await t.current.call({ method: 'POST', url: `${user.api.base}/create/`, payload: newUser({ city: g.dhaka, thana: g.kotwali }), headers: { 'accept-language': 'tr' } })
      expect(turkish.status).toBe(400)
      expect(turkish.body).toEqual({ thana: [translate('tr', 'validation.not_within').replace('{{label}}', 'Karakol').replace('{{other}}', 'İlçe')] })

      const created = await t.current.call({ method: 'POST', url: `${user.api.base}/create/`, payload: newUser({ country: g.bangladesh, city: g.dhaka, thana: g.gulshan }) })
      expect(created.status, created.raw).toBe(201)
      // Another district under the same police station: refused, nothing changed.
      const moved = await t.current.call({ method: 'PATCH', url: `${user.api.base}/update/${created.body.id}`, payload: { city: g.chattogram } })
      expect(moved.status).toBe(400)
      expect(moved.body).toEqual({ thana: ['Police Station is not in the chosen District.'] })
      const both = await t.current.call({ method: 'PATCH', url: `${user.api.base}/update/${created.body.id}`, payload: { city: g.chattogram, thana: g.kotwali } })
      expect(both.status, both.raw).toBe(200)
      expect(both.body).toMatchObject({ city: g.chattogram, thana: g.kotwali })
    })

    it('refuses a district of another country, and judges only pairs whose two sides are given', async () => {
      const g = await geography(t.current, 'b')
      const refused = await t.current.call({ method: 'POST', url: `${user.api.base}/create/`, payload: newUser({ country: g.nepal, city: g.dhaka }) })
      expect(refused.status).toBe(400)
      expect(refused.body).toEqual({ city: ['District is not in the chosen Country.'] })
      // A police station with no district chosen, a district with no country: nothing to compare.
      const alone = await t.current.call({ method: 'POST', url: `${user.api.base}/create/`, payload: newUser({ thana: g.kotwali }) })
      expect(alone.status, alone.raw).toBe(201)
      const noCountry = await t.current.call({ method: 'POST', url: `${user.api.base}/create/`, payload: newUser({ city: g.kathmandu, thana: g.gulshan }) })
      expect(noCountry.status).toBe(400)
      expect(Object.keys(noCountry.body)).toEqual(['thana'])
    })

    it('holds for the employee and the branch forms too', async () => {
      const g = await geography(t.current, 'c')
      const refIds = await createReferences(t.current, employee)
      const input = { ...sampleInput(employee, refIds), country: g.bangladesh, city: g.chattogram, thana: g.gulshan }
      const refused = await t.current.call({ method: 'POST', url: `${employee.api.base}/create/`, payload: input })
      expect(refused.status, refused.raw).toBe(400)
      expect(refused.body).toEqual({ thana: ['Police Station is not in the chosen District.'] })
      const fine = await t.current.call({ method: 'POST', url: `${employee.api.base}/create/`, payload: { ...input, thana: g.kotwali } })
      expect(fine.status, fine.raw).toBe(201)

      const office = await createRow(t.current, branch, { name: 'Form rules office', country: g.bangladesh, city: g.dhaka, thana: g.gulshan })
      const moved = await t.current.call({ method: 'PUT', url: `${branch.api.base}/update/${office.id}`, payload: { country: g.nepal } })
      expect(moved.status).toBe(400)
      expect(moved.body).toEqual({ city: ['District is not in the chosen Country.'] })
    })
  })

  describe('dates that cannot be in the future', () => {
    const nextYear = `${new Date().getFullYear() + 1}-01-01`

    it('refuses a birthday after today on create and update, and takes today', async () => {
      const refused = await t.current.call({ method: 'POST', url: `${user.api.base}/create/`, payload: newUser({ date_of_birth: nextYear }), headers: { 'accept-language': 'ar' } })
      expect(refused.status).toBe(400)
      expect(refused.body).toEqual({ date_of_birth: [translate('ar', 'validation.future_date').replace('{{label}}', translate('ar', 'field.date_of_birth'))] })
      const created = await t.current.call({ method: 'POST', url: `${user.api.base}/create/`, payload: newUser({ date_of_birth: '1991-05-05' }) })
      expect(created.status, created.raw).toBe(201)
      const updated = await t.current.call({ method: 'PATCH', url: `${user.api.base}/update/${created.body.id}`, payload: { date_of_birth: nextYear } })
      expect(updated.status).toBe(400)
      expect(updated.body).toEqual({ date_of_birth: ['Birthday cannot be in the future.'] })
    })

    it('refuses an employee’s marriage date in the future, and lets a join date be planned', async () => {
      const refIds = await createReferences(t.current, employee)
      const refused = await t.current.call({ method: 'POST', url: `${employee.api.base}/create/`, payload: { ...sampleInput(employee, refIds), marriage_date: nextYear } })
      expect(refused.status).toBe(400)
      expect(refused.body).toEqual({ marriage_date: ['Marriage Date cannot be in the future.'] })
      const planned = await t.current.call({ method: 'POST', url: `${employee.api.base}/create/`, payload: { ...sampleInput(employee, refIds), emp_join_date: nextYear } })
      expect(planned.status, planned.raw).toBe(201)
    })
  })

  describe('postal codes', () => {
    it('stores a postal code in capitals, and refuses words', async () => {
      const created = await t.current.call({ method: 'POST', url: `${user.api.base}/create/`, payload: newUser({ postal_code: ' sw1a  1aa ' }) })
      expect(created.status, created.raw).toBe(201)
      expect(created.body.postal_code).toBe('SW1A 1AA')
      const refused = await t.current.call({ method: 'PATCH', url: `${user.api.base}/update/${created.body.id}`, payload: { postal_code: 'Dhaka' } })
      expect(refused.status).toBe(400)
      expect(refused.body).toEqual({ postal_code: ['Enter a valid postal code: 3 to 12 letters, digits, spaces or hyphens, with at least one digit.'] })
      const branchRefused = await t.current.call({ method: 'POST', url: `${branch.api.base}/create/`, payload: { name: 'Postal office', postal_code: 'near the mosque' } })
      expect(branchRefused.status).toBe(400)
      expect(Object.keys(branchRefused.body)).toEqual(['postal_code'])
    })
  })

  describe('an empty record', () => {
    it('refuses a slide with nothing in it, on create and when an update empties it', async () => {
      const refused = await t.current.call({ method: 'POST', url: `${slider.api.base}/create/`, payload: {}, headers: { 'accept-language': 'tr' } })
      expect(refused.status).toBe(400)
      expect(refused.body).toEqual({ title: [translate('tr', 'validation.empty_record').replace('{{entity}}', translate('tr', 'entity.homepage_slider.one'))] })
      const blanks = await t.current.call({ method: 'POST', url: `${slider.api.base}/create/`, payload: { title: '  ', link: '', details: '' } })
      expect(blanks.status).toBe(400)
      expect(blanks.body).toEqual({ title: ['Fill in at least one field: an empty Slider Setting cannot be saved.'] })

      const created = await t.current.call({ method: 'POST', url: `${slider.api.base}/create/`, payload: { title: 'Eid sale' } })
      expect(created.status, created.raw).toBe(201)
      const emptied = await t.current.call({ method: 'PATCH', url: `${slider.api.base}/update/${created.body.id}`, payload: { title: '' } })
      expect(emptied.status).toBe(400)
      expect(emptied.body).toEqual({ title: ['Fill in at least one field: an empty Slider Setting cannot be saved.'] })
      // A slide that is only its place in the order is not empty.
      const numbered = await t.current.call({ method: 'POST', url: `${slider.api.base}/create/`, payload: { serial_number: 0 } })
      expect(numbered.status, numbered.raw).toBe(201)
    })
  })

  describe('values over their maximum', () => {
    it('refuses an over-long name with a field message in the request’s language, never cutting it', async () => {
      const long = 'N'.repeat(101)
      for (const [lang, header] of [['en', 'en'], ['tr', 'tr-TR,tr;q=0.9'], ['ar', 'ar']] as const) {
        const res = await t.current.call({ method: 'POST', url: `${user.api.base}/create/`, payload: newUser({ first_name: long }), headers: { 'accept-language': header } })
        expect(res.status, res.raw).toBe(400)
        expect(res.body).toEqual({ first_name: [translate(lang, 'validation.max_length').replace('{{max}}', '100')] })
      }
      const refIds = await createReferences(t.current, employee)
      const res = await t.current.call({ method: 'POST', url: `${employee.api.base}/create/`, payload: { ...sampleInput(employee, refIds), father_name: 'F'.repeat(256), last_name: 'L'.repeat(101) } })
      expect(res.status, res.raw).toBe(400)
      expect(Object.keys(res.body).sort()).toEqual(['father_name', 'last_name'])
    })
  })
})
