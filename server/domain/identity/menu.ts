import { sql } from 'kysely'
import { navigationEntries, type NavEntry } from '../../../schema'
import type { Report } from '../../../schema/kit'
import { can } from '../../auth/principal'
import type { Executor, Trx } from '../../db/types'
import type { Actor, HookRegistry } from '../../engine/hooks'
import type { Registry } from '../../engine/list-query'
import { createRow, updateRow } from '../../engine/service'
import { validateRecord } from '../../engine/validate'
import { translator } from '../../i18n'
import { rolePermissionsTable } from './access'

/**
 * The navigation menu (api-contract §3.4, spec §2): kept in step with the registry's
 * navigation, and the trees the menu routes answer. A menu node is `{id, parent, menu_id,
 * title, translate, type, icon, url, exact, position, children}` with `parent` the parent's
 * id; siblings go by position, then id. Icons are Material icon names, as the original's
 * menu rows held; `translate` keys live in the registry catalogue's `nav`.
 */
export type MenuRow = {
  id: number
  parent: number | null
  menu_id: string | null
  title: string | null
  translate: string
  type: 'group' | 'collapse' | 'item' | 'link' | 'divider'
  icon: string | null
  url: string | null
  exact: boolean
  position: number
}
export type MenuNode = MenuRow & { children: MenuNode[] }

/**
 * Brings the menu to the registry's navigation (schema/navigation.ts), at every start: an
 * entry (a group, an entity's list, a report, a shell page) is given to the menu once —
 * added, or adopted when an item at its address (a group: its menu id) is already there —
 * and then left to the admins, who may move, rename or remove it. A new item goes to the
 * built-in roles that hold its permission (ADMIN all, STAFF the permissions it holds), with
 * its group.
 */
export async function syncNavigation(trx: Trx, deps: { registry: Registry; reports: readonly Report[]; hooks: HookRegistry }): Promise<void> {
  const menuItem = deps.registry.find((e) => e.name === 'menu_item')!
  const entries = navigationEntries(deps.registry, deps.reports)
  const recorded = new Map((await sql<{ key: string; menu_item: number | null }>`select key, menu_item from menu_nav_entry`.execute(trx)).rows.map((r) => [r.key, r.menu_item]))
  const items = await menuRows(trx)
  const t = translator('en')
  const itemOf = new Map<string, number | null>(recorded)
  const added: Array<{ id: number; entry: NavEntry }> = []
  for (const entry of entries) {
    if (recorded.has(entry.key)) continue
    const found = items.find((i) => (entry.type === 'group' ? i.type === 'group' && i.menu_id === entry.menuId : i.url === entry.url))
    let itemId = found?.id
    if (itemId === undefined) {
      const parent = entry.parent ? (itemOf.get(entry.parent) ?? null) : null
      const values = validateRecord(menuItem, { parent, menu_id: entry.menuId, title: t(entry.label), translate: entry.label, type: entry.type, icon: entry.icon, url: entry.url ?? null, exact: true, position: entry.order })
      const r = await sql<{ id: number }>`
        insert into menu_item (parent, menu_id, title, translate, type, icon, url, exact, position)
        values (${values.parent as number | null}, ${values.menu_id as string}, ${values.title as string}, ${values.translate as string},
                ${values.type as string}, ${values.icon as string}, ${(values.url as string | null) ?? null}, ${values.exact as boolean}, ${values.position as number})
        returning id`.execute(trx)
      itemId = r.rows[0]!.id
      added.push({ id: itemId, entry })
    }
    itemOf.set(entry.key, itemId)
    await sql`insert into menu_nav_entry (key, menu_item) values (${entry.key}, ${itemId})`.execute(trx)
  }
  if (added.length === 0) return
  const roles = await sql<{ id: number; name: string; permissions: string[] }>`
    select r.id, r.name, array(select p.name from ${sql.id(rolePermissionsTable)} rp join permission p on p.id = rp.target_id where rp.owner_id = r.id) as permissions
    from role r where r.name = any(${['ADMIN', 'STAFF']})`.execute(trx)
  const roleMenuEntity = deps.registry.find((e) => e.name === 'role_menu')!
  const treeOrder = new Map(depthFirst(nestMenu(await menuRows(trx))).map((n, i) => [n.id, i]))
  for (const role of roles.rows) {
    const held = new Set(role.permissions)
    const granted = added.filter(({ entry }) => entry.type === 'item' && (entry.permission === undefined || held.has(entry.permission)))
    if (granted.length === 0) continue
    const groups = new Set(granted.map(({ entry }) => entry.parent).filter((g): g is string => g !== undefined).map((g) => itemOf.get(g)).filter((x): x is number => typeof x === 'number'))
    const current = [...(await roleMenuIds(trx, role.id))]
    const additions = [...groups, ...granted.map((g) => g.id)].filter((x) => !current.includes(x))
    // In the menu's own order, each group ahead of its items, as an admin would list them.
    const wanted = [...current, ...additions.sort((a, b) => treeOrder.get(a)! - treeOrder.get(b)!)]
    const ctx = { db: trx, registry: deps.registry, entity: roleMenuEntity, actor: null, access: 'system' as const, hooks: deps.hooks }
    const exists = (await sql`select 1 from role_menu where id = ${role.id}`.execute(trx)).rows.length > 0
    if (exists) await updateRow(ctx, role.id, { menu_items: wanted })
    else await createRow(ctx, { role: role.id, menu_items: wanted })
  }
}

export async function menuRows(db: Executor): Promise<MenuRow[]> {
  const r = await sql<MenuRow>`select id, parent, menu_id, title, translate, type, icon, url, exact, position from menu_item order by position, id`.execute(db)
  return r.rows
}

/** The menu item ids assigned to a role. */
export async function roleMenuIds(db: Executor, roleId: number): Promise<Set<number>> {
  const r = await sql<{ menu_item: number }>`select menu_item from role_menu_item where role_menu = ${roleId} order by position, id`.execute(db)
  return new Set(r.rows.map((x) => x.menu_item))
}

const node = (row: MenuRow): MenuNode => ({ ...row, children: [] })

const depthFirst = (nodes: readonly MenuNode[]): MenuNode[] => nodes.flatMap((n) => [n, ...depthFirst(n.children)])

/** The whole menu as a tree: roots (no parent) with their children, recursively, by id. */
export function nestMenu(rows: readonly MenuRow[]): MenuNode[] {
  const nodes = new Map(rows.map((r) => [r.id, node(r)]))
  const roots: MenuNode[] = []
  for (const r of rows) {
    const parent = r.parent === null ? undefined : nodes.get(r.parent)
    if (parent) parent.children.push(nodes.get(r.id)!)
    else roots.push(nodes.get(r.id)!)
  }
  return roots
}

/**
 * A role's menu, grouped two levels deep (api-contract §3.4): each assigned root item, or the
 * parent of an assigned child, appears once, with the assigned children under it; in the
 * menu's order (position, then id).
 */
export function roleMenu(rows: readonly MenuRow[], assigned: ReadonlySet<number>): MenuNode[] {
  const byId = new Map(rows.map((r) => [r.id, r]))
  const tops = new Map<number, MenuNode>()
  for (const r of rows) {
    if (!assigned.has(r.id)) continue
    const parent = r.parent === null ? undefined : byId.get(r.parent)
    if (!parent) {
      if (!tops.has(r.id)) tops.set(r.id, node(r))
      continue
    }
    let top = tops.get(parent.id)
    if (!top) tops.set(parent.id, (top = node(parent)))
    top.children.push(node(r))
  }
  const order = new Map(rows.map((r, i) => [r.id, i]))
  return [...tops.values()].sort((a, b) => order.get(a.id)! - order.get(b.id)!)
}

/**
 * The caller's sidebar: their role's menu, filtered again by permission (decisions.md): an
 * item that opens a registry entity's list is left out without that entity's LIST
 * permission (unless every user lists their own rows of it: `own`), a report's without the report's, and a group or collapse left without
 * children goes too.
 */
export function visibleMenu(menu: readonly MenuNode[], registry: Registry, principal: Actor, reports: readonly Report[] = []): MenuNode[] {
  const listPermission = new Map([...registry.filter((e) => !e.isLine && !e.own?.actions.includes('LIST')).map((e) => [e.ui.listPath, e.permissions.LIST] as const), ...reports.map((r) => [r.ui.path, r.permission] as const)])
  const keep = (n: MenuNode): MenuNode | null => {
    const needed = n.url ? listPermission.get(n.url) : undefined
    if (needed && !can(principal, needed)) return null
    const children = n.children.map(keep).filter((c): c is MenuNode => c !== null)
    if ((n.type === 'group' || n.type === 'collapse') && children.length === 0) return null
    return { ...n, children }
  }
  return menu.map(keep).filter((n): n is MenuNode => n !== null)
}
