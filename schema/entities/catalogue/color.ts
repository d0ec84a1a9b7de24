import { defineEntity, f } from '../../kit'

/** A colour a product comes in (api-contract §4.8, `/color/`); its name is kept in capitals (§2.6). */
export const color = defineEntity({
  name: 'color',
  module: 'catalogue',
  listKey: 'colors',
  route: { area: 'color-management', list: 'colors' },
  fields: {
    name: f.text({ max: 255, required: true, search: true, unique: true, normalize: 'upper' }),
  },
  nav: { group: 'e-commerce', icon: 'tune', order: 5 },
  trash: true,
})
