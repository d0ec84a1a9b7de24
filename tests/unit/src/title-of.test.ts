import { describe, expect, it } from 'vitest'
import { defineEntity, f } from '../../../schema/kit'
import { labelOf, titleOf } from '../../../src/engine/entity-api'

/** How a record's own screens name it (`title` in the registry), apart from how references show it (issue 20). */
const person = defineEntity({
  name: 'person',
  module: 'test',
  listKey: 'people',
  labelField: 'login',
  title: ['first', 'last'],
  route: { area: 'people', list: 'people' },
  fields: { first: f.text({ max: 50 }), last: f.text({ max: 50 }), login: f.text({ max: 50 }) },
})
const clerk = defineEntity({ name: 'clerk', module: 'test', listKey: 'clerks', extends: person, route: { area: 'clerks', list: 'clerks' }, fields: { desk: f.text({ max: 10 }) } })
const gadget = defineEntity({ name: 'gadget', module: 'test', listKey: 'gadgets', route: { area: 'gadgets', list: 'gadgets' }, fields: { name: f.text({ max: 50 }) } })

describe('a record’s title', () => {
  it('is its title fields’ values joined, while references keep showing its label field', () => {
    const row = { id: 3, first: 'Md', last: 'Rahman', login: 'md.rahman' }
    expect(titleOf(person, row)).toBe('Md Rahman')
    expect(labelOf(person, row)).toBe('md.rahman')
  })

  it('skips an empty part, falls back to the label when all are empty, and is inherited', () => {
    expect(titleOf(person, { id: 3, first: 'Rina', last: ' ', login: 'rina' })).toBe('Rina')
    expect(titleOf(person, { id: 3, first: null, last: '', login: 'rina' })).toBe('rina')
    expect(clerk.titleFields).toEqual(['first', 'last'])
    expect(titleOf(clerk, { id: 4, first: 'Ali', last: 'Khan', login: 'ali' })).toBe('Ali Khan')
  })

  it('is the label for an entity that declares none', () => {
    expect(gadget.titleFields).toEqual([])
    expect(titleOf(gadget, { id: 1, name: 'Lamp' })).toBe('Lamp')
  })
})
