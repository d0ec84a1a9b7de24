import { defineEntity, f } from '../../kit'

/**
 * The four lookups of the tour sites whose backend was never found (api-contract §4.13):
 * `{id, name}` lists with the standard routes — the languages a tour is guided in, its
 * cancellation terms, its locations and its durations — for the menu contents to draw on.
 */
const lookup = <const N extends string, const L extends string, const A extends string>(name: N, listKey: L, area: A, order: number) =>
  defineEntity({
    name,
    module: 'cms',
    listKey,
    ordering: 'name',
    route: { area, list: listKey },
    fields: { name: f.text({ max: 255, required: true, search: true, unique: true }) },
    nav: { group: 'content-management', icon: 'label', order },
    trash: true,
  })

export const language = lookup('language', 'languages', 'language-management', 30)
export const cancellation = lookup('cancellation', 'cancellations', 'cancellation-management', 31)
export const location = lookup('location', 'locations', 'location-management', 32)
export const duration = lookup('duration', 'durations', 'duration-management', 33)
