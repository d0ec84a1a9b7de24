import { defineEntity, f } from '../../kit'

/**
 * Executive, adviser and general members (api-contract §4.5): a member (one each, kept while
 * named here) with a designation and a note. Their lists answer under the backend's key and
 * under `members`, the key the spec's screens read (`alsoListKeys`).
 */
function memberKind<const N extends string>(name: N, listKey: string, route: { area: string; list: string }, order: number) {
  return defineEntity({
    name,
    module: 'membership',
    listKey,
    labelField: 'member',
    route,
    fields: {
      member: f.ref('member', { required: true, unique: true, search: true }),
      designation: f.text({ max: 255 }),
      note: f.text({ multiline: true }),
    },
    // The spec's screens read every member kind's list under `members`.
    alsoListKeys: ['members'],
    // The contract's executive members also answer `without_pagination/` (every row).
    ...(name === 'executive_member' ? { routeAliases: { without_pagination: 'without_pagination' as const } } : {}),
    nav: { group: 'membership', icon: 'badge', order },
  })
}

export const executiveMember = memberKind('executive_member', 'executive_members', { area: 'executive-management', list: 'executives' }, 1)
export const adviserMember = memberKind('adviser_member', 'adviser_members', { area: 'adviser-management', list: 'advisers' }, 2)
export const generalMember = memberKind('general_member', 'general_members', { area: 'general-management', list: 'generals' }, 3)

