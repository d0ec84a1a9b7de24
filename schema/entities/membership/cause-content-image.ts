import { defineEntity, f } from '../../kit'

/**
 * A picture of a cause's page with its heading (api-contract §4.5). The backend's key,
 * `content_images`, is the CMS content images' too: the registry lists these as
 * `cause_content_images`, and the contract's routes answer `content_images` as well
 * (server/domain/membership/cause-routes.ts). Deleting the cause deletes them.
 */
export const causeContentImage = defineEntity({
  name: 'cause_content_image',
  module: 'membership',
  listKey: 'cause_content_images',
  labelField: 'head',
  // The spec's `cause-content-management-image/{imageId}/{contentName?}`.
  // The spec's `cause-content-management-image/{imageId}/{contentName?}` opens a picture's form.
  route: { area: 'causecontentimage-management', list: 'images', formAt: ['cause-content-management-image'] },
  fields: {
    cause: f.ref('cause', { required: true, onDelete: 'cascade', search: true }),
    head: f.text({ max: 500, search: true }),
    image: f.image({ required: true }),
  },
  extraRoutes: [{ kind: 'listBy', path: 'get_all_cause_content_image_by_cause_id', field: 'cause' }],
  // The contract's key (the CMS images hold it in the registry).
  alsoListKeys: ['content_images'],
  nav: { group: 'membership', icon: 'image', order: 7 },
})
