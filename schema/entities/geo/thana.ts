import { defineEntity, f } from '../../kit'

/** Shown as "Police Station" in the interface (api-contract §4.2). */
export const thana = defineEntity({
  name: 'thana',
  module: 'geo',
  listKey: 'thanas',
  ordering: 'id',
  route: { area: 'thana-management', list: 'thanas' },
  fields: {
    // Names repeat across districts (Kotwali), never within one.
    name: f.text({ max: 50, required: true, search: true, unique: { within: 'city' }, normalize: 'capitalize' }),
    bn_name: f.text({ max: 50, search: true }),
    url: f.url(),
    city: f.ref('city', { required: true, onDelete: 'restrict', label: 'field.district' }),
  },
  extraRoutes: [{ kind: 'listBy', path: 'all_thana_by_city_id', field: 'city' }],
  nav: { group: 'settings', icon: 'local_police', order: 5, label: 'nav.police_stations', shortcut: true },
  trash: true,
})
