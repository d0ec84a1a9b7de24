import { describe, expect, it } from 'vitest'
import { nulPathOf, refuseNulInBody } from '../../../server/engine/input-guard'
import { ValidationError } from '../../../server/engine/errors'

/** The API's guard on NUL characters (server/engine/input-guard.ts): where it finds one, and how a body's is keyed. */
describe('nulPathOf', () => {
  it('finds the first NUL in a string, an array item or a key, with its path', () => {
    expect(nulPathOf('a\u0000')).toEqual({ path: [], isInKey: false })
    expect(nulPathOf({ a: 'x', b: ['y', { c: 'z\u0000' }] })).toEqual({ path: ['b', 1, 'c'], isInKey: false })
    expect(nulPathOf({ a: { 'k\u0000': 1 } })).toEqual({ path: ['a'], isInKey: true })
    expect(nulPathOf({ a: 'plain', b: [1, null, true, { c: 'ঢাকা' }] })).toBeUndefined()
  })

  it('walks a value nested a hundred thousand levels without overflowing the stack', () => {
    const deep = JSON.parse('['.repeat(100_000) + '"\\u0000"' + ']'.repeat(100_000)) as unknown
    expect(nulPathOf(deep)?.path).toHaveLength(100_000)
  })
})

describe('refuseNulInBody', () => {
  const keyOf = (body: unknown) => {
    try {
      refuseNulInBody(body)
      return undefined
    } catch (e) {
      return Object.keys((e as ValidationError).fields)
    }
  }

  it('keys a field, a line of a document, a JSON field as a whole and a key by what the engine judges', () => {
    expect(keyOf({ details: 'a\u0000' })).toEqual(['details'])
    expect(keyOf({ items: [{ ledger: 1 }, { ledger: '2\u0000' }] })).toEqual(['items.1.ledger'])
    expect(keyOf({ settings: { theme: { name: 'x\u0000' } } })).toEqual(['settings'])
    expect(keyOf({ members: ['1\u0000'] })).toEqual(['members'])
    expect(keyOf({ 'a\u0000': 1 })).toEqual(['non_field_errors'])
    expect(keyOf({ fine: 'yes' })).toBeUndefined()
  })
})
