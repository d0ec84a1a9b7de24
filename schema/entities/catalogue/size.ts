import { defineEntity, f } from '../../kit'

/** A size a product comes in (api-contract §4.8, `/size/`); its name is kept in capitals (§2.6). */
export const size = defineEntity({
  name: 'size',
  module: 'catalogue',
  listKey: 'sizes',
  route: { area: 'size-management', list: 'sizes' },
  fields: {
    name: f.text({ max: 255, required: true, search: true, unique: true, normalize: 'upper' }),
  },
  nav: { group: 'e-commerce', icon: 'list', order: 6 },
  trash: true,
})
