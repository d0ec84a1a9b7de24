import { defineEntity, f } from '../../kit'

/**
 * A stop of a tour (api-contract §4.4, `/cms_itinerary/`): a place on the way, with its
 * position on the map, belonging to a menu content (the tour). The site reads a tour's stops
 * at `api/v1/Itinerary/get_Itinerary_by_cms_content_id/{id}` (server/domain/cms/content-routes.ts).
 */
export const itinerary = defineEntity({
  name: 'cms_itinerary',
  module: 'cms',
  listKey: 'itineraries',
  model: 'Itinerary',
  labelField: 'title',
  // The spec's `content-management-itenaray/{id}/{contentName}/{menuName?}` (its spelling) opens one's form too.
  route: { area: 'itinerary-management', list: 'itineraries', formAt: ['content-management-itenaray'] },
  // `all/` answers under the contract's `menu_items` too (server/domain/cms/list-keys.ts).
  // The spec's screens read tours' stops under `menu_items`.
  alsoListKeys: ['menu_items'],
  fields: {
    cms_content: f.ref('cms_menu_content', { search: true }),
    title: f.text({ max: 255, required: true, search: true }),
    description: f.html({ hideInList: true }),
    location: f.text({ max: 255 }),
    lat: f.decimal({ precision: 9, scale: 6 }),
    lng: f.decimal({ precision: 9, scale: 6 }),
    image: f.image(),
  },
  nav: { group: 'content-management', icon: 'map', order: 5 },
})
