import { describe, expect, it } from 'vitest'
import { entities } from '../../../schema'
import { ConfigError, loadConfig } from '../../../server/config'
import { withRefsAsIds } from '../../../server/engine/refs-as-ids'

/**
 * `LIST_REFS_AS_IDS` (issue 19): references a client renders as they come, listed as raw ids
 * — the original admin client's District, Police Station and Employee lists — checked at start.
 */
describe('LIST_REFS_AS_IDS', () => {
  it('is read as a comma-separated list of entity.field, empty by default', () => {
    expect(loadConfig({}).LIST_REFS_AS_IDS).toEqual([])
    expect(loadConfig({ LIST_REFS_AS_IDS: 'city.country, thana.city,employee.branch' }).LIST_REFS_AS_IDS).toEqual(['city.country', 'thana.city', 'employee.branch'])
  })

  it.each([
    ['cty.country', "LIST_REFS_AS_IDS: 'cty.country' is not entity.field"],
    ['city', "LIST_REFS_AS_IDS: 'city' is not entity.field"],
    ['city.nation', "LIST_REFS_AS_IDS: 'city.nation': 'city' has no field 'nation' (its fields: name,"],
    ['city.name', "LIST_REFS_AS_IDS: 'city.name' is not a reference"],
  ])('stops the start when it names %s, saying why', (pair, message) => {
    expect(() => loadConfig({ LIST_REFS_AS_IDS: pair })).toThrow(ConfigError)
    expect(() => loadConfig({ LIST_REFS_AS_IDS: pair })).toThrow(message)
  })

  it('lists the named references as ids and leaves every other field and entity as it was', () => {
    const changed = withRefsAsIds(entities, ['city.country', 'employee.branch'])
    const city = changed.find((e) => e.name === 'city')!
    expect(city.fields.country!.listAs).toBe('id')
    expect(entities.find((e) => e.name === 'city')!.fields.country!.listAs).toBeUndefined()
    expect(changed.find((e) => e.name === 'employee')!.fields.branch!.listAs).toBe('id')
    expect(changed.find((e) => e.name === 'thana')).toBe(entities.find((e) => e.name === 'thana'))
    expect(withRefsAsIds(entities, [])).toBe(entities)
  })
})
