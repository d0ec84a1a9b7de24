import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { z } from 'zod'
import { f } from '../../../schema/kit'
import { validatorOf } from '../../../schema/kit/validators'
import type { Row } from '../../db/types'
import { NotFoundError, ValidationError } from '../../engine/errors'
import type { ModuleDeps } from '../../engine/modules'
import { rowIdOf } from '../../engine/request'
import { createRow, deleteRow, inTransaction, updateRow, type Ctx } from '../../engine/service'
import { parseWith } from '../../engine/validate'
import { menuRows, nestMenu, roleMenu, roleMenuIds, visibleMenu } from './menu'
import { messageFor } from '../../i18n'

/**
 * Menu items' nested routes and the two role-menu routes the registry marks bespoke for
 * the contract's shapes (api-contract §3.4); the rest of role menus is the engine's, and
 * these two are thin: the write is the engine's document-with-lines write.
 */
export function registerMenuRoutes(app: FastifyInstance, deps: ModuleDeps): void {
  const { db, registry } = deps
  const byName = (name: string) => registry.find((e) => e.name === name)!
  const menuItem = byName('menu_item')
  const roleMenuEntity = byName('role_menu')
  const role = byName('role')
  const menuBase = menuItem.api.base
  const base = roleMenuEntity.api.base

  const roleName = async (roleId: number): Promise<string> => {
    const r = await sql<{ name: string }>`select name from role where id = ${roleId}`.execute(db)
    if (!r.rows[0]) throw new NotFoundError({ key: 'detail.not_found', params: { model: 'Role', entity: 'entity.role', id: roleId } })
    return r.rows[0].name
  }

  app.get(`${menuBase}/nested_menu_item_without_pagination/all/`, { config: { permission: menuItem.permissions.LIST } }, async () => ({
    menu_items: nestMenu(await menuRows(db)),
  }))

  // The sidebar of whoever asks: any signed-in user.
  app.get(`${menuBase}/nested_menu_item_by_user_role/`, async (request) => {
    const principal = request.principal!
    const rows = await menuRows(db)
    const roleId = (await sql<{ role: number | null }>`select role from "user" where id = ${principal.id}`.execute(db)).rows[0]?.role ?? null
    // An admin without a role sees the whole menu; everyone else their role's.
    const assigned = roleId !== null ? await roleMenuIds(db, roleId) : principal.isAdmin ? new Set(rows.map((r) => r.id)) : new Set<number>()
    return { menu_items: visibleMenu(roleMenu(rows, assigned), registry, principal, deps.reports) }
  })

  // The role-menu form prefills its tree from this.
  app.get<{ Params: { role_id: string } }>(
    `${menuBase}/nested_menu_item_by_role_id/:role_id`,
    { config: { permission: [menuItem.permissions.LIST, roleMenuEntity.permissions.LIST] } },
    async (request) => {
      const roleId = rowIdOf(role, request.params.role_id)
      await roleName(roleId)
      return { menu_items: roleMenu(await menuRows(db), await roleMenuIds(db, roleId)) }
    },
  )

  const engine = (request: FastifyRequest): Ctx => ({ db, registry, entity: roleMenuEntity, actor: request.principal ?? null, access: 'system', hooks: deps.hooks })
  const assignment = z.object({ role: validatorOf(f.ref('role', { required: true })) })

  // The contract's create replaces the role's menu (the original client saves an edit so):
  // the role's menu document, created or updated with these menu items as its lines.
  app.post(`${base}/create/`, { config: { permission: roleMenuEntity.permissions.CREATE } }, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>
    const { role: roleId } = parseWith(assignment, body, { role: 'field.role' })
    const name = await sql<{ name: string }>`select name from role where id = ${roleId}`.execute(db)
    if (!name.rows[0]) throw new ValidationError({ role: [{ key: 'validation.ref_missing', params: { value: roleId } }] })
    const input = { role: roleId, menu_items: body.menu_items ?? [] }
    const saved = await inTransaction({ db, entity: roleMenuEntity }, async (trx) => {
      const ctx = { ...engine(request), db: trx }
      const exists = (await sql`select 1 from role_menu where id = ${roleId} for update`.execute(trx)).rows.length > 0
      return exists ? updateRow(ctx, roleId, input) : createRow(ctx, input)
    })
    const lines = (saved.menu_items as Row[]).map((line) => ({ id: line.id, role: roleId, menu_item: line.menu_item }))
    return reply.code(201).send({ [roleMenuEntity.listKey]: lines, detail: messageFor(request.headers['accept-language'], { key: 'detail.role_menus_created', params: { role: name.rows[0].name } }) })
  })

  // The contract's delete takes the role's id, which is its menu's.
  app.delete<{ Params: { role_id: string } }>(`${base}/delete/:role_id`, { config: { permission: roleMenuEntity.permissions.DELETE } }, async (request) => {
    const roleId = rowIdOf(role, request.params.role_id)
    const name = await roleName(roleId)
    const exists = (await sql`select 1 from role_menu where id = ${roleId}`.execute(db)).rows.length > 0
    if (exists) await deleteRow({ ...engine(request), access: 'check' }, roleId)
    return { detail: messageFor(request.headers['accept-language'], { key: 'detail.role_menus_deleted', params: { role: name } }) }
  })
}
