import { describe, expect, it } from 'vitest'
import { checkRegistry, entities } from '../../../../schema'
import { registryKeys } from '../../../../schema/check'
import { defineEntity, f, renderMessage, rules, type AnyField } from '../../../../schema/kit'
import { todayIso, validateRecordInput, validatorOf } from '../../../../schema/kit/validators'

/**
 * The registry options the forms of issue 8 rest on: postal codes, dates not after today,
 * a record that may not be empty, form sections and references within others — as the
 * validators judge them (browser and server alike) and as the start-up check holds them.
 */
type Outcome = { ok: true; value: unknown } | { ok: false; keys: string[] }

function parse(field: AnyField, input: unknown): Outcome {
  const r = validatorOf(field).safeParse(input)
  return r.success ? { ok: true, value: r.data } : { ok: false, keys: r.error.issues.map((i) => i.message) }
}

describe('f.postalCode', () => {
  const postal = f.postalCode()

  it.each([
    ['1212', '1212'],
    ['  1205 ', '1205'],
    ['sw1a  1aa', 'SW1A 1AA'],
    ['12345-6789', '12345-6789'],
    ['d02 x285', 'D02 X285'],
    ['١٢١٢', '1212'],
    ['', null],
  ])('accepts %j as %j', (input, value) => {
    expect(parse(postal, input)).toEqual({ ok: true, value })
  })

  it.each([
    ['Dhaka', 'validation.postal_code'],
    ['near mosq', 'validation.postal_code'],
    ['-1212', 'validation.postal_code'],
    ['1212-', 'validation.postal_code'],
    ['12_12', 'validation.postal_code'],
    ['12', 'validation.min_length'],
    ['1234567890123', 'validation.max_length'],
  ])('refuses %j with one message, %s', (input, key) => {
    expect(parse(postal, input)).toEqual({ ok: false, keys: [key] })
  })

  it('keeps the contract’s column (string 50) and tells the form it is a postal code', () => {
    expect(postal).toMatchObject({ kind: 'text', format: 'postal_code', sql: { type: 'varchar(50)' }, maxLength: 12 })
  })
})

describe("f.date({ notAfter: 'today' })", () => {
  const birthday = f.date({ notAfter: 'today' })
  const nextYear = `${new Date().getFullYear() + 1}-01-01`

  it('accepts today and the past, refuses a day after today', () => {
    expect(parse(birthday, todayIso())).toEqual({ ok: true, value: todayIso() })
    expect(parse(birthday, '1991-05-05')).toEqual({ ok: true, value: '1991-05-05' })
    expect(parse(birthday, nextYear)).toEqual({ ok: false, keys: ['validation.future_date'] })
  })

  it('says a malformed date is one, not also that it is in the future', () => {
    expect(parse(birthday, '30/01/2024')).toEqual({ ok: false, keys: ['validation.date'] })
    expect(parse(birthday, '2999-02-30')).toEqual({ ok: false, keys: ['validation.date'] })
  })

  it('leaves other dates free to be in the future', () => {
    expect(parse(f.date(), nextYear)).toEqual({ ok: true, value: nextYear })
  })

  it('reads today in the calendar of whoever judges', () => {
    expect(todayIso(new Date(2026, 0, 9, 23, 59))).toBe('2026-01-09')
  })
})

describe('rules.atLeastOne', () => {
  const slide = defineEntity({
    name: 'slide',
    module: 'test',
    listKey: 'slides',
    route: { area: 'slides', list: 'slides' },
    labelField: 'title',
    fields: { title: f.text({ search: true }), position: f.integer(), shown: f.boolean() },
    rules: [rules.atLeastOne(['title', 'position'])],
  })

  it('refuses a record with none of the fields, on its first field', () => {
    const result = validateRecordInput(slide, { title: '  ', shown: true })
    expect(result.success).toBe(false)
    if (!result.success) expect(result.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['title', 'validation.empty_record']])
  })

  it('takes a record with any one of them, zero included', () => {
    expect(validateRecordInput(slide, { position: 0 }).success).toBe(true)
    expect(validateRecordInput(slide, { title: 'Eid' }).success).toBe(true)
  })
})

describe('messages naming another field', () => {
  it('translate the other field’s label as they do the field’s own', () => {
    const t = (key: string, params?: Record<string, string | number>) => (key === 'validation.not_within' ? `${String(params?.label)} / ${String(params?.other)}` : key.toUpperCase())
    expect(renderMessage(t, { key: 'validation.not_within', params: { label: 'field.police_station', other: 'field.district' } })).toBe('FIELD.POLICE_STATION / FIELD.DISTRICT')
  })
})

describe('the start-up check of sections and cascades', () => {
  const base = { module: 'test', listKey: 'people', route: { area: 'people', list: 'people' } } as const
  const fields = { name: f.text({ search: true }), nick: f.text(), seen: f.datetime({ readOnly: true }) }

  it('finds none in the real registry, and asks for the sections’ labels in the catalogues', () => {
    expect(checkRegistry(entities)).toEqual([])
    expect(registryKeys(entities)).toEqual(expect.arrayContaining(['section.account', 'section.address', 'section.employment', 'validation.future_date', 'validation.postal_code', 'validation.not_within', 'validation.empty_record']))
  })

  it('wants every field a client sends in exactly one section, and none the server sets', () => {
    const person = defineEntity({
      name: 'person',
      ...base,
      fields,
      sections: [
        { key: 'main', label: 'section.main', fields: ['name', 'seen'] },
        { key: 'main', label: 'section.other', fields: ['name', 'ghost' as 'name'] },
      ],
    })
    expect(checkRegistry([person]).map((p) => `${p.field ?? ''}: ${p.message}`)).toEqual([
      "seen: section 'main' names a field the server sets: the form does not offer it",
      ": duplicate section 'main'",
      "name: in sections 'main' and 'main': a field belongs to one section",
      ": section 'main' names 'ghost', which is not a field",
      "nick: is in no section: list it in one of 'main', 'main'",
    ])
  })

  it('wants within to compare two references to the same entity', () => {
    const country = defineEntity({ name: 'country', module: 'test', listKey: 'countries', route: { area: 'c', list: 'c' }, fields: { name: f.text({ search: true }) } })
    const district = defineEntity({ name: 'district', module: 'test', listKey: 'districts', route: { area: 'd', list: 'd' }, fields: { name: f.text({ search: true }), country: f.ref('country') } })
    const good = defineEntity({ name: 'person', ...base, fields: { name: f.text({ search: true }), country: f.ref('country'), district: f.ref('district', { within: { country: 'country' } }) } })
    expect(checkRegistry([country, district, good])).toEqual([])
    const bad = defineEntity({
      name: 'person',
      ...base,
      fields: {
        name: f.text({ search: true }),
        country: f.ref('country'),
        other: f.ref('district'),
        district: f.ref('district', { within: { ghost: 'country', country: 'other', name: 'country' } }),
        home: f.ref('district', { within: { country: 'nowhere' } }),
      },
    })
    expect(checkRegistry([country, district, bad]).map((p) => `${p.field}: ${p.message}`)).toEqual([
      "district: within: 'ghost' is not a stored reference of 'district'",
      "district: within: 'district.country' refers to 'country' but 'other' to 'district'",
      "district: within: 'name' is not a stored reference of 'district'",
      "home: within: 'nowhere' is not another reference of 'person'",
    ])
  })
})
