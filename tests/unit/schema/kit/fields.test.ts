import { describe, expect, it } from 'vitest'
import { f, normalizePhone, parseDecimal, type AnyField } from '../../../../schema/kit'
import { validatorOf } from '../../../../schema/kit/validators'

/** Accept/reject tables per field kind: what the browser form and the server both enforce. */
type Outcome = { ok: true; value: unknown } | { ok: false; key: string }

function parse(field: AnyField, input: unknown): Outcome {
  const r = validatorOf(field).safeParse(input)
  return r.success ? { ok: true, value: r.data } : { ok: false, key: r.error.issues[0]!.message }
}

type Table = { field: AnyField; accepts: Array<[unknown, unknown]>; rejects: Array<[unknown, string]> }

const tables: Record<string, Table> = {
  'text (max 10, required)': {
    field: f.text({ max: 10, required: true }),
    accepts: [['Dhaka', 'Dhaka'], ['  padded  ', 'padded'], ['ten chars!', 'ten chars!'], ['ঢাকা', 'ঢাকা']],
    rejects: [['eleven chars', 'validation.max_length'], ['', 'validation.required'], ['   ', 'validation.required'], [null, 'validation.required'], [undefined, 'validation.required'], [42, 'validation.text'], [{}, 'validation.text']],
  },
  'text (optional, min 3)': {
    field: f.text({ min: 3 }),
    accepts: [[undefined, null], [null, null], ['', null], ['abc', 'abc']],
    rejects: [['ab', 'validation.min_length']],
  },
  email: {
    field: f.email({ required: true }),
    accepts: [['Someone@Example.COM', 'someone@example.com'], [' a.b+c@mail.example.org ', 'a.b+c@mail.example.org']],
    rejects: [['not-an-email', 'validation.email'], ['someone@', 'validation.email'], ['@example.com', 'validation.email'], ['a b@example.com', 'validation.email'], [`${'x'.repeat(250)}@example.com`, 'validation.max_length'], [5, 'validation.email']],
  },
  phone: {
    field: f.phone(),
    accepts: [['+8801712345678', '+8801712345678'], ['+880 1712-345678', '+8801712345678'], ['(880) 1712 345678', '+8801712345678'], ['8801712345678', '+8801712345678'], ['', null]],
    rejects: [['call me', 'validation.phone'], ['+12', 'validation.phone'], ['+0123456789', 'validation.phone'], ['+1234567890123456', 'validation.phone']],
  },
  url: {
    field: f.url({ max: 40 }),
    accepts: [['https://example.com/x', 'https://example.com/x'], ['http://dhaka.gov.bd', 'http://dhaka.gov.bd'], ['www.dhaka.gov.bd', 'www.dhaka.gov.bd']],
    rejects: [['not a url', 'validation.url'], ['ftp://example.com', 'validation.url'], ['javascript:alert(1)', 'validation.url'], ['localhost', 'validation.url'], [`https://example.com/${'x'.repeat(30)}`, 'validation.max_length']],
  },
  'integer (0..100)': {
    field: f.integer({ min: 0, max: 100 }),
    accepts: [[0, 0], [100, 100], ['42', 42], [' 7 ', 7], ['', null]],
    rejects: [['abc', 'validation.integer'], [1.5, 'validation.integer'], ['1.0', 'validation.integer'], ['1e2', 'validation.integer'], [-1, 'validation.min_value'], [101, 'validation.max_value'], [true, 'validation.integer']],
  },
  'integer (default range is int4)': {
    field: f.integer(),
    accepts: [[2_147_483_647, 2_147_483_647], [-2_147_483_647, -2_147_483_647]],
    rejects: [[2_147_483_648, 'validation.max_value']],
  },
  'money (numeric(20,2), at most 999,999,999,999.99 either sign)': {
    field: f.money({ required: true }),
    accepts: [
      ['1250', '1250.00'], ['1250.5', '1250.50'], ['0.1', '0.10'], [0.1, '0.10'], [1250, '1250.00'], ['-3.25', '-3.25'], ['-0', '0.00'], ['000012.30', '12.30'],
      ['.5', '0.50'], ['999999999999.99', '999999999999.99'], ['-999999999999.99', '-999999999999.99'], ['000999999999999.99', '999999999999.99'],
    ],
    rejects: [
      ['1000000000000.00', 'validation.max_amount'], ['-1000000000000', 'validation.max_amount'], ['99999999999999999.99', 'validation.max_amount'], ['123456789012345678.99', 'validation.max_amount'], [1e15, 'validation.max_amount'],
      ['1.005', 'validation.decimal'], ['1234567890123456789.00', 'validation.decimal'], ['abc', 'validation.decimal'], ['1,000.00', 'validation.decimal'], ['1e3', 'validation.decimal'], [1e21, 'validation.decimal'], [Number.NaN, 'validation.decimal'], ['.', 'validation.decimal'], ['', 'validation.required']],
  },
  'decimal (numeric(10,7), min 0)': {
    field: f.decimal({ precision: 10, scale: 7, min: '0' }),
    accepts: [['23.4682747', '23.4682747'], ['91.1', '91.1000000'], ['999.9999999', '999.9999999']],
    rejects: [['1000', 'validation.decimal'], ['1.12345678', 'validation.decimal'], ['-1', 'validation.min_value']],
  },
  boolean: {
    field: f.boolean(),
    accepts: [[true, true], [false, false], ['true', true], ['False', false], ['1', true], ['0', false], [1, true], [0, false], ['on', true], ['', false], [undefined, false]],
    rejects: [['maybe', 'validation.boolean'], [2, 'validation.boolean'], [{}, 'validation.boolean']],
  },
  date: {
    field: f.date(),
    accepts: [['2024-02-29', '2024-02-29'], [' 2023-12-31 ', '2023-12-31']],
    rejects: [['2023-02-29', 'validation.date'], ['2024-13-01', 'validation.date'], ['30/01/2024', 'validation.date'], ['2024-1-5', 'validation.date'], ['2024-01-05T00:00:00Z', 'validation.date']],
  },
  datetime: {
    field: f.datetime(),
    accepts: [['2024-03-01T10:20:30Z', '2024-03-01T10:20:30.000Z'], ['2024-03-01T10:20:30+06:00', '2024-03-01T04:20:30.000Z'], ['2024-03-01 10:20:30Z', '2024-03-01T10:20:30.000Z']],
    rejects: [['yesterday', 'validation.datetime'], ['2024-03-01', 'validation.datetime'], ['2024-03-01T25:00:00Z', 'validation.datetime']],
  },
  'choice (enum)': {
    field: f.choice(['draft', 'live'], { default: 'draft' }),
    accepts: [['live', 'live'], [undefined, 'draft'], ['', 'draft']],
    rejects: [['LIVE', 'validation.choice'], ['archived', 'validation.choice']],
  },
  ref: {
    field: f.ref('city', { required: true }),
    accepts: [[5, 5], ['17', 17]],
    rejects: [['abc', 'validation.ref'], [0, 'validation.required'], ['0', 'validation.required'], [-1, 'validation.ref'], [1.5, 'validation.ref'], [null, 'validation.required']],
  },
  'optional ref': {
    field: f.ref('city'),
    accepts: [[5, 5], [0, null], ['0', null], ['', null], [undefined, null]],
    rejects: [['abc', 'validation.ref'], [-3, 'validation.ref']],
  },
  refs: {
    field: f.refs('city'),
    accepts: [[[3, 1, 3], [1, 3]], ['2,1', [1, 2]], [[], []], [undefined, []]],
    rejects: [[['x'], 'validation.refs'], [{}, 'validation.refs'], [[0], 'validation.refs']],
  },
  'file / image': {
    field: f.image(),
    accepts: [['/media/user/a.png', '/media/user/a.png'], ['', null]],
    rejects: [['x'.repeat(501), 'validation.max_length'], [42, 'validation.file']],
  },
  json: {
    field: f.json(),
    accepts: [[{ a: [1, 'b'] }, { a: [1, 'b'] }], ['{"a":1}', { a: 1 }], [[1, 2], [1, 2]]],
    rejects: [['{not json', 'validation.json']],
  },
  'password (required, min 6)': {
    field: f.password({ required: true, min: 6 }),
    // Spaces belong to a password: nothing is trimmed.
    accepts: [['secret', 'secret'], [' spaced secret ', ' spaced secret ']],
    rejects: [['short', 'validation.min_length'], ['x'.repeat(129), 'validation.max_length'], ['', 'validation.required'], [123456, 'validation.text']],
  },
  'text with its own messages': {
    field: f.text({ max: 4, min: 2, required: true, messages: { max_length: 'validation.year_max', required: 'validation.year_required' } }),
    accepts: [['2020', '2020']],
    rejects: [['20201', 'validation.year_max'], ['2', 'validation.min_length'], ['', 'validation.year_required']],
  },
}

describe('field kit validators', () => {
  for (const [name, table] of Object.entries(tables)) {
    describe(name, () => {
      it.each(table.accepts.map(([input, value]) => ({ input, value })))('accepts $input as $value', ({ input, value }) => {
        expect(parse(table.field, input)).toEqual({ ok: true, value })
      })
      it.each(table.rejects.map(([input, key]) => ({ input, key })))('rejects $input with $key', ({ input, key }) => {
        expect(parse(table.field, input)).toEqual({ ok: false, key })
      })
    })
  }
})

describe('field kit columns', () => {
  it.each([
    ['text max 50', f.text({ max: 50 }), 'varchar(50)'],
    ['multiline text', f.text({ multiline: true }), 'text'],
    ['email', f.email(), 'varchar(255)'],
    ['money', f.money(), 'numeric(20,2)'],
    ['decimal(10,7)', f.decimal({ precision: 10, scale: 7 }), 'numeric(10,7)'],
    ['integer', f.integer(), 'integer'],
    ['big integer', f.integer({ big: true }), 'bigint'],
    ['ref', f.ref('city'), 'bigint'],
    ['date', f.date(), 'date'],
    ['datetime', f.datetime(), 'timestamptz'],
    ['json', f.json(), 'jsonb'],
  ] as const)('%s is stored as %s', (_, field, type) => {
    expect(field.sql?.type).toBe(type)
  })

  it('keeps many-to-many out of the table (a join table holds it)', () => {
    expect(f.refs('city').sql).toBeUndefined()
  })

  it('refuses deleting a referenced row by default, required or not; clearing the link is a choice', () => {
    expect(f.ref('city', { required: true }).ref).toEqual({ target: 'city', onDelete: 'restrict' })
    expect(f.ref('city').ref).toEqual({ target: 'city', onDelete: 'restrict' })
    expect(f.ref('city', { onDelete: 'setNull' }).ref).toEqual({ target: 'city', onDelete: 'setNull' })
  })

  it('declares a value unique, or unique within another field', () => {
    expect(f.text({ unique: true })).toMatchObject({ isUnique: true, uniqueWithin: undefined })
    expect(f.text({ unique: { within: 'country' } })).toMatchObject({ isUnique: true, uniqueWithin: 'country' })
    expect(f.text()).toMatchObject({ isUnique: false })
  })
})

describe('parseDecimal: money exact to the cent, no float arithmetic', () => {
  it('round-trips every amount of cents as text, even beyond float precision', () => {
    // 2^53 + 1 cents and neighbours: a float would round these.
    const bases = [0n, 1n, 99n, 100n, 12_345n, 9_007_199_254_740_993n, 999_999_999_999_999_999n]
    for (const base of bases) {
      for (const delta of [0n, 1n, 7n, 10n, 99n]) {
        const cents = base + delta
        const text = `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`
        expect(parseDecimal(text, 20, 2)).toBe(text)
        expect(parseDecimal(`-${text}`, 20, 2)).toBe(cents === 0n ? '0.00' : `-${text}`)
      }
    }
  })

  it('refuses more decimal places than the scale instead of rounding', () => {
    expect(parseDecimal('0.125', 20, 2)).toBeUndefined()
    expect(parseDecimal('0.120', 20, 2)).toBeUndefined()
  })

  it('takes a JavaScript number by its shortest text, so 0.1 + 0.2 is refused, not rounded', () => {
    expect(parseDecimal(0.1 + 0.2, 20, 2)).toBeUndefined()
    expect(parseDecimal(19.99, 20, 2)).toBe('19.99')
  })
})

describe('normalizePhone', () => {
  it.each([
    ['+880 1712-345678', '+8801712345678'],
    ['(880) 1712.345.678', '+8801712345678'],
    ['8801712345678', '+8801712345678'],
    ['+90 532 123 45 67', '+905321234567'],
  ])('%s → %s', (raw, normalized) => {
    expect(normalizePhone(raw)).toBe(normalized)
  })
})
