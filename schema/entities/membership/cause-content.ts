import { defineEntity, f } from '../../kit'

/**
 * A named text of a cause's page (api-contract §4.5): `name` and `value`. The contract also
 * lists a cause's contents at `/cause_content/api/v1/get_all_cause_content_by_cause_id/{id}`
 * (server/domain/membership/cause-routes.ts). Deleting the cause deletes them.
 */
export const causeContent = defineEntity({
  name: 'cause_content',
  module: 'membership',
  listKey: 'cause_contents',
  labelField: 'name',
  route: { area: 'causecontent-management', list: 'causecontents' },
  fields: {
    cause: f.ref('cause', { required: true, onDelete: 'cascade', search: true }),
    name: f.text({ max: 255, search: true }),
    value: f.text({ multiline: true }),
  },
  extraRoutes: [{ kind: 'listBy', path: 'get_all_cause_content_by_cause_id', field: 'cause' }],
  nav: { group: 'membership', icon: 'description', order: 6 },
})
