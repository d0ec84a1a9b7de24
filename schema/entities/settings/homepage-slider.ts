import { defineEntity, f, rules } from '../../kit'

/** The storefront's home-page slides, "Slider Setting" in the interface (api-contract §4.3). */
export const homepageSlider = defineEntity({
  name: 'homepage_slider',
  module: 'settings',
  listKey: 'homepage_sliders',
  labelField: 'title',
  ordering: 'serial_number',
  route: { area: 'slidersetting-management', list: 'slidersettings' },
  fields: {
    title: f.text({ max: 100, search: true }),
    link: f.url({ max: 500 }),
    serial_number: f.integer({ min: 0 }),
    image: f.image(),
    details: f.text({ multiline: true }),
  },
  listColumns: ['serial_number', 'title', 'image', 'link'],
  // Every field is optional, but a slide with nothing in it shows nothing.
  rules: [rules.atLeastOne(['title', 'link', 'serial_number', 'image', 'details'])],
  nav: { group: 'settings', icon: 'slideshow', order: 9, label: 'nav.slider_settings' },
})
