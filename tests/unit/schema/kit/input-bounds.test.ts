import { describe, expect, it } from 'vitest'
import { f } from '../../../../schema/kit'
import { hasUnpairedSurrogate, instantOf, isCalendarDate, isIdText, JSON_MAX_CHARS, JSON_MAX_DEPTH, jsonProblemOf, MAX_ID, validatorOf } from '../../../../schema/kit/validators'

/** The bounds that keep hostile input from reaching the database or a recursive walk (issue 9). */
const nested = (depth: number): unknown => {
  let value: unknown = 'leaf'
  for (let i = 0; i < depth; i++) value = [value]
  return value
}
const firstIssue = (field: Parameters<typeof validatorOf>[0], input: unknown) => {
  const r = validatorOf(field).safeParse(input)
  return r.success ? undefined : r.error.issues[0]!.message
}

describe('hasUnpairedSurrogate', () => {
  it('finds a high or low surrogate without its pair, and not a pair', () => {
    expect(['\ud800', 'a\udc00', '\udc00\ud800', 'x\ud83d'].map(hasUnpairedSurrogate)).toEqual([true, true, true, true])
    expect(['', 'plain', 'ঢাকা', 'عربى', '🌍', 'a\ud83c\udf0db'].map(hasUnpairedSurrogate)).toEqual([false, false, false, false, false, false])
  })
})

describe('jsonProblemOf', () => {
  it(`takes values nested up to ${JSON_MAX_DEPTH} levels and refuses deeper ones`, () => {
    expect(jsonProblemOf(nested(JSON_MAX_DEPTH))).toBeUndefined()
    expect(jsonProblemOf(nested(JSON_MAX_DEPTH + 1))).toBe('depth')
    expect(jsonProblemOf({ a: { b: { c: 1 } } }, { maxDepth: 3, maxChars: 100 })).toBeUndefined()
    expect(jsonProblemOf({ a: { b: { c: {} } } }, { maxDepth: 3, maxChars: 100 })).toBe('depth')
  })

  it('measures a value nested a hundred thousand levels without overflowing the stack', () => {
    const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000)) as unknown
    expect(jsonProblemOf(deep)).toBe('depth')
  })

  it('refuses a value whose JSON text would be longer than the limit', () => {
    expect(jsonProblemOf({ note: 'x'.repeat(JSON_MAX_CHARS) })).toBe('size')
    expect(jsonProblemOf(Array.from({ length: JSON_MAX_CHARS }, () => 1))).toBe('size')
    expect(jsonProblemOf({ note: 'x'.repeat(1000) })).toBeUndefined()
  })

  it('refuses an unpaired surrogate in a string or a key, at any depth', () => {
    expect(jsonProblemOf({ a: ['ok', { b: '\ud800' }] })).toBe('surrogate')
    expect(jsonProblemOf({ '\udc00': 1 })).toBe('surrogate')
    expect(jsonProblemOf({ a: '🌍', n: 1, b: true, c: null })).toBeUndefined()
  })
})

describe('a JSON field', () => {
  const json = f.json()
  it('says why it refuses a value, before zod walks it', () => {
    expect(firstIssue(json, JSON.parse('['.repeat(5000) + ']'.repeat(5000)))).toBe('validation.json_depth')
    expect(firstIssue(json, '['.repeat(5000) + ']'.repeat(5000))).toBe('validation.json_depth')
    expect(firstIssue(json, 'x'.repeat(JSON_MAX_CHARS + 1))).toBe('validation.json_size')
    expect(firstIssue(json, { a: '\ud800' })).toBe('validation.broken_text')
    expect(firstIssue(json, '{"a":"\\ud800"}')).toBe('validation.broken_text')
    expect(validatorOf(json).safeParse({ theme: 'dark', list: [1, 2] }).data).toEqual({ theme: 'dark', list: [1, 2] })
  })
})

describe('text of any field kind', () => {
  it('refuses an unpaired surrogate whatever the kind', () => {
    for (const field of [f.text(), f.email(), f.url(), f.phone(), f.password(), f.date(), f.datetime(), f.choice(['a', 'b'])]) {
      expect(firstIssue(field, 'a\ud800')).toBe('validation.broken_text')
    }
    expect(validatorOf(f.text()).safeParse('Dünya 🌍').data).toBe('Dünya 🌍')
  })
})

describe('ids', () => {
  it('takes 1 to MAX_ID as digits only', () => {
    expect(['1', '42', String(MAX_ID)].map(isIdText)).toEqual([true, true, true])
    expect(['0', '-1', '1e3', '1.0', ' 1', String(MAX_ID + 1), '9223372036854775808', '99999999999999999999', ''].map(isIdText)).toEqual(Array(9).fill(false))
  })

  it('refuses a reference beyond MAX_ID however it is written', () => {
    const ref = f.ref('country')
    for (const value of [1e19, MAX_ID + 1, '99999999999999999999', 1.5, -1, Infinity, '1e3']) expect(firstIssue(ref, value), String(value)).toBe('validation.ref')
    expect(validatorOf(ref).safeParse(MAX_ID).data).toBe(MAX_ID)
  })
})

describe('dates and instants PostgreSQL takes', () => {
  it('knows the calendar from year 1, leap years included', () => {
    expect(['0001-01-01', '0050-06-15', '2024-02-29', '2000-02-29', '9999-12-31'].map(isCalendarDate)).toEqual([true, true, true, true, true])
    expect(['0000-01-01', '2023-02-29', '1900-02-29', '2024-02-30', '2024-13-01', '2024-00-10', '99999-01-01', '2024-1-1'].map(isCalendarDate)).toEqual(Array(8).fill(false))
  })

  it('reads an instant as ISO in UTC, refusing what JavaScript would roll over or PostgreSQL refuse', () => {
    expect(instantOf('2024-03-01T10:20:30+02:00')).toBe('2024-03-01T08:20:30.000Z')
    expect(instantOf('0001-01-01T12:00:00Z')).toBe('0001-01-01T12:00:00.000Z')
    expect(instantOf('2024-02-30T10:00:00Z')).toBeUndefined()
    expect(instantOf('0000-01-01T00:00:00Z')).toBeUndefined()
    expect(instantOf('9999-12-31T23:59:59-23:59')).toBeUndefined()
    expect(instantOf('0001-01-01T00:00:00+14:00')).toBeUndefined()
    expect(instantOf('yesterday')).toBeUndefined()
    expect(firstIssue(f.datetime(), '0000-01-01T00:00:00Z')).toBe('validation.datetime')
  })
})
