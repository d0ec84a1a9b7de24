import { defineEntity, f } from '../../kit'

/** Shown as "District" in the interface (api-contract §4.2). */
export const city = defineEntity({
  name: 'city',
  module: 'geo',
  listKey: 'cities',
  ordering: 'id',
  route: { area: 'city-management', list: 'cities' },
  fields: {
    // One district of a name per country.
    name: f.text({ max: 50, required: true, search: true, unique: { within: 'country' }, normalize: 'capitalize' }),
    bn_name: f.text({ max: 50, search: true }),
    lat: f.decimal({ precision: 10, scale: 7, label: 'field.lat' }),
    lon: f.decimal({ precision: 10, scale: 7, label: 'field.lon' }),
    url: f.url(),
    country: f.ref('country', { required: true, onDelete: 'restrict' }),
  },
  listColumns: ['name', 'bn_name', 'country', 'url'],
  // Its police stations.
  related: [{ entity: 'thana', via: 'city', columns: ['name', 'bn_name', 'url'] }],
  nav: { group: 'settings', icon: 'location_city', order: 4, label: 'nav.districts', shortcut: true },
  trash: true,
})
