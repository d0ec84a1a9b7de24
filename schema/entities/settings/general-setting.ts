import { defineEntity, f } from '../../kit'

/**
 * The site's general settings (api-contract §4.3); the newest row is the one in force.
 * Its list is public: the browser reads the title and favicon before anyone signs in.
 * The required fields are those the settings form requires.
 */
export const generalSetting = defineEntity({
  name: 'general_setting',
  module: 'settings',
  listKey: 'general_settings',
  labelField: 'title',
  route: { area: 'sitesettings-management', list: 'sitesettings', form: 'sitesetting' },
  fields: {
    title: f.text({ max: 100, search: true }),
    site_name: f.text({ max: 100 }),
    site_address: f.text({ max: 500, required: true }),
    email: f.email({ required: true }),
    phone: f.phone({ required: true }),
    favicon: f.image({ hideInList: true, accept: [...f.IMAGE_TYPES, ...f.ICON_TYPES] }),
    logo: f.image(),
    address: f.text({ multiline: true, required: true }),
    facebook_url: f.url({ max: 500, required: true, hideInList: true }),
    twitter_url: f.url({ max: 500, required: true, hideInList: true }),
    instagram_url: f.url({ max: 500, required: true, hideInList: true }),
    // Registration (`/api/auth/register`) is open while the newest settings row says so.
    is_registration_open: f.boolean({ default: true }),
    // The month the fiscal year starts in: the financial statements count a year's profit from its first day (server/domain/accounting/fiscal-year.ts).
    fiscal_year_start_month: f.integer({ min: 1, max: 12, default: 1, hideInList: true }),
  },
  sections: [
    { key: 'site', label: 'section.site', fields: ['title', 'site_name', 'favicon', 'logo', 'is_registration_open'] },
    { key: 'contact', label: 'section.contact', fields: ['site_address', 'email', 'phone', 'address'] },
    { key: 'social', label: 'section.social', fields: ['facebook_url', 'twitter_url', 'instagram_url'] },
    { key: 'accounting', label: 'section.accounting', fields: ['fiscal_year_start_month'] },
  ],
  public: ['LIST'],
  nav: { group: 'settings', icon: 'tune', order: 8, label: 'nav.site_settings' },
})
