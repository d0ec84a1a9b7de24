import { describe, expect, it } from 'vitest'
import { registry } from '../../../../schema'
import { defineEntity, f } from '../../../../schema/kit'
import { compareNumbers, filterParamsOf, listViewOf, searchOfView, withFilters } from '../../../../schema/kit/list-view'

/** A list's view in its address (schema/kit/list-view.ts): read, written, and what it keeps out. */
const gadget = defineEntity({
  name: 'gadget',
  module: 'test',
  listKey: 'gadgets',
  route: { area: 'gadgets', list: 'gadgets' },
  fields: {
    name: f.text({ search: true }),
    kind: f.choice(['small', 'large']),
    is_active: f.boolean(),
    city: f.ref('city'),
    bought_on: f.date(),
    seen_at: f.datetime(),
    price: f.money(),
    count: f.integer(),
    notes: f.text({ multiline: true }),
  },
})

describe('the filters an entity offers', () => {
  it('are its list columns of a filterable kind, unless the registry names them', () => {
    expect(gadget.filterFields).toEqual(['kind', 'is_active', 'city', 'bought_on', 'seen_at', 'price', 'count'])
    expect(registry.thana.filterFields).toEqual(['city'])
    expect(registry.employee.filterFields).toEqual(['branch', 'department', 'designation', 'gender', 'emp_join_date', 'is_active'])
  })

  it('take the server’s parameter names: a value, a range of days, a range of numbers', () => {
    expect(filterParamsOf(gadget).map((p) => p.param)).toEqual([
      'kind', 'is_active', 'city', 'bought_on_after', 'bought_on_before', 'seen_at_after', 'seen_at_before', 'price_min', 'price_max', 'count_min', 'count_max',
    ])
  })
})

describe('a view in the address', () => {
  it('reads what the router parsed, keeping only what can be one of the fields’ values', () => {
    const view = listViewOf(gadget, {
      page: 3, size: 50, ordering: '-price', q: ' lamp ', kind: 'large', is_active: false, city: 5, bought_on_after: '2024-01-01', price_max: 99.5,
      count_min: 'many', bought_on_before: '01/02/2024', other: 'x',
    })
    expect(view).toEqual({ page: 3, size: 50, ordering: '-price', q: 'lamp', filters: { kind: 'large', is_active: 'false', city: '5', bought_on_after: '2024-01-01', price_max: '99.5' } })
    // Defaults for what is missing or wrong: page 1, 30 rows, the entity's order.
    expect(listViewOf(gadget, { page: 0, size: 7, ordering: 'notes', kind: 'huge', city: -2 })).toEqual({ page: 1, size: 30, ordering: '', q: '', filters: {} })
  })

  it('writes only what differs from the default, ids, flags and plain numbers unquoted', () => {
    const view = listViewOf(gadget, { q: 'lamp', city: 5, is_active: true, price_min: '10.50', page: 2 })
    expect(searchOfView(view)).toEqual({ q: 'lamp', city: 5, is_active: true, price_min: '10.50', page: 2 })
    expect(searchOfView(withFilters(view, { city: undefined, kind: 'small' }))).toEqual({ q: 'lamp', is_active: true, price_min: '10.50', kind: 'small' })
  })

  it('compares numbers written as text exactly', () => {
    expect(compareNumbers('10', '9.99')).toBe(1)
    expect(compareNumbers('-1.5', '-1.25')).toBe(-1)
    expect(compareNumbers('0.10', '0.1')).toBe(0)
    expect(compareNumbers('12345678901234567890.01', '12345678901234567890.02')).toBe(-1)
    expect(compareNumbers('x', '1')).toBeUndefined()
  })
})
