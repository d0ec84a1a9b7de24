/**
 * What a caller carries besides their permissions, loaded with them at every request (the
 * server's principal): the branch and the department of the employee the user is — null for
 * a user who is not one. Row scopes read them (`scope: (caller) => ({ department:
 * caller.attributes.department })`): "my department's tickets" is then a scope the server
 * applies to every list, read and write, not a filter a user can take off.
 */
export const callerAttributes = {
  branch: { entity: 'employee', field: 'branch' },
  department: { entity: 'employee', field: 'department' },
  ticket_department: { entity: 'employee', field: 'ticket_department' },
  // The user's role: rows shared with a role (`own.shared`: a saved view) are read by its members.
  role: { entity: 'user', field: 'role' },
} as const satisfies Readonly<Record<string, { readonly entity: string; readonly field: string }>>

export type CallerAttributes = { readonly [K in keyof typeof callerAttributes]: number | null }
