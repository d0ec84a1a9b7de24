import { defineEntity, f } from '../../kit'

/**
 * A person's own note (issue 23, the quick panel): a line or a few they keep for themselves,
 * pinned to stay on top. Everyone — an admin too — reaches only the notes they wrote: the
 * scope holds it on every list, read, update and delete, so another's note answers as if it
 * did not exist (404). Someone without the NOTE permissions (a registered USER) still keeps
 * notes of their own (`own`), which names its owner in `user`: the writer, set on create by
 * the workspace module (a client cannot choose it) and never changed, so it always agrees
 * with the author the scope reads. Written and read in the quick panel, not in the sidebar.
 */
export const note = defineEntity({
  name: 'note',
  module: 'workspace',
  listKey: 'notes',
  labelField: 'text',
  route: { area: 'note-management', list: 'notes' },
  // Pinned first, then the newest (a boolean sorts false before true: descending puts them on top).
  ordering: '-pinned',
  fields: {
    text: f.text({ max: 2000, multiline: true, required: true, search: true }),
    pinned: f.boolean({ default: false }),
    // Their author's; deleting a user takes their notes with them: nobody else reads them.
    user: f.ref('user', { readOnly: true, onDelete: 'cascade' }),
  },
  listColumns: ['text', 'pinned', 'user'],
  filters: ['pinned'],
  scope: (caller) => ({ created_by: caller.id }),
  own: { field: 'user', actions: ['LIST', 'DETAILS', 'CREATE', 'UPDATE', 'DELETE'] },
  nav: false,
})
