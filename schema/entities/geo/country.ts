import { defineEntity, f } from '../../kit'

export const country = defineEntity({
  name: 'country',
  module: 'geo',
  listKey: 'countries',
  ordering: 'name',
  route: { area: 'country-management', list: 'countries' },
  fields: {
    name: f.text({ max: 255, required: true, search: true, unique: true }),
    capital_name: f.text({ max: 255 }),
    country_code: f.text({ code: true, max: 10, search: true }),
    country_code2: f.text({ code: true, max: 10 }),
    // Found by what people know a country by: its phone code (+880) and its continent too.
    phone_code: f.text({ code: true, max: 20, search: true }),
    currency_code: f.text({ code: true, max: 10 }),
    continent_name: f.text({ max: 100, search: true }),
    continent_code: f.text({ code: true, max: 10 }),
  },
  listColumns: ['name', 'capital_name', 'country_code', 'phone_code', 'currency_code', 'continent_name'],
  // Its districts.
  related: [{ entity: 'city', via: 'country', columns: ['name', 'bn_name', 'url'] }],
  nav: { group: 'settings', icon: 'public', order: 3, label: 'nav.countries' },
  trash: true,
})
