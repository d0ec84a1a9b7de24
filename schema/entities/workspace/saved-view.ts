import { defineEntity, f } from '../../kit'

/**
 * A saved view of a list (issue 25): its search, order, filters, rows per page, columns and
 * density (`state`, as the list screen writes it: schema/kit/list-view.ts SavedViewState), by
 * name, for one list of the registry (`list`: the entity's name). Its owner is whoever saved
 * it (`owner`, read-only: the engine names the writer); they alone change or delete it. Shared
 * with a role (`role`), the role's members see and apply it too (`own.shared`) — an admin sees
 * every one. Everyone signed in keeps views of their own without a permission (`own`). The
 * server judges `list` and `state` (server/domain/workspace/saved-views.ts). Chosen from a
 * list's "Views" menu, not a screen of the sidebar.
 */
export const savedView = defineEntity({
  name: 'saved_view',
  module: 'workspace',
  listKey: 'saved_views',
  route: { area: 'saved-view-management', list: 'saved-views' },
  ordering: 'name',
  fields: {
    name: f.text({ max: 100, required: true, search: true }),
    // Searched as text (`search/?list=city` contains it): the screens keep the exact name.
    list: f.text({ max: 100, required: true, code: true, search: true, label: 'field.saved_view_list', example: 'country' }),
    state: f.json({ required: true, hideInList: true, label: 'field.saved_view_state', example: { q: '', ordering: 'name', size: 30, density: 'compact' } }),
    // A deleted role shares the view with no one; a deleted user's views go with them.
    role: f.ref('role', { onDelete: 'setNull', label: 'field.shared_with_role' }),
    owner: f.ref('user', { readOnly: true, onDelete: 'cascade', label: 'field.owner' }),
  },
  listColumns: ['name', 'list', 'role', 'owner'],
  own: { field: 'owner', actions: ['LIST', 'DETAILS', 'CREATE', 'UPDATE', 'DELETE'], shared: { field: 'role', attribute: 'role' } },
  nav: false,
})
