import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { z } from 'zod'
import { f } from '../../../schema/kit'
import { validatorOf } from '../../../schema/kit/validators'
import type { Row } from '../../db/types'
import { NotFoundError, ValidationError } from '../../engine/errors'
import type { ModuleDeps } from '../../engine/modules'
import { pageOf, rowIdOf } from '../../engine/request'
import { createRow, deleteRow, inTransaction, type Ctx } from '../../engine/service'
import { parseWith } from '../../engine/validate'
import { menuRows, nestMenu, roleMenu, roleMenuIds, visibleMenu } from './menu'

/**
 * Menu items' nested routes and the role-menu routes the registry marks bespoke
 * (api-contract §3.4). Writes go through the engine (validation, audit), in one transaction.
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
    if (!r.rows[0]) throw new NotFoundError(`Role id - ${roleId} doesn't exists`)
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
    return { menu_items: visibleMenu(roleMenu(rows, assigned), registry, principal) }
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

  // One row per role: {id: <role id>, role: <role name>, menu_items: [<menu item ids>]}.
  app.get<{ Querystring: Record<string, unknown> }>(`${base}/all/`, { config: { permission: roleMenuEntity.permissions.LIST } }, async (request) => {
    const { page: asked, size } = pageOf(request.query)
    const total = Number((await sql<{ n: string }>`select count(distinct role) as n from role_menu`.execute(db)).rows[0]!.n)
    const totalPages = Math.max(1, Math.ceil(total / size))
    const page = Math.min(asked, totalPages)
    const rows = await sql<Row>`
      select r.id, r.name as role, array_agg(rm.menu_item order by rm.menu_item) as menu_items
      from role_menu rm join role r on r.id = rm.role
      group by r.id, r.name order by r.name, r.id
      limit ${size} offset ${(page - 1) * size}`.execute(db)
    return { [roleMenuEntity.listKey]: rows.rows, page, size, total_pages: totalPages, total_elements: total }
  })

  const ctx = (request: FastifyRequest, trx: Ctx['db']): Ctx => ({ db: trx, registry, entity: roleMenuEntity, actor: request.principal ?? null, hooks: deps.hooks })
  const assignment = z.object({ role: validatorOf(f.ref('role', { required: true })), menu_items: validatorOf(f.refs('menu_item')) })

  // Replaces every row of the role with the items given.
  app.post(`${base}/create/`, { config: { permission: roleMenuEntity.permissions.CREATE } }, async (request, reply) => {
    const { role: roleId, menu_items: items } = parseWith(assignment, request.body, { role: 'field.role', menu_items: 'field.menu_items' })
    const name = await sql<{ name: string }>`select name from role where id = ${roleId}`.execute(db)
    if (!name.rows[0]) throw new ValidationError({ role: [{ key: 'validation.ref_missing', params: { value: roleId } }] })
    const created = await inTransaction({ db, entity: roleMenuEntity }, async (trx) => {
      await sql`select id from role where id = ${roleId} for update`.execute(trx)
      const old = await sql<{ id: number }>`select id from role_menu where role = ${roleId} order by id`.execute(trx)
      for (const { id } of old.rows) await deleteRow(ctx(request, trx), id)
      const rows: Row[] = []
      try {
        for (const item of items ?? []) rows.push(await createRow(ctx(request, trx), { role: roleId, menu_item: item }))
      } catch (e) {
        // Name the menu item the client sent, not the row the engine tried to write.
        if (e instanceof ValidationError && e.fields.menu_item) throw new ValidationError({ menu_items: e.fields.menu_item })
        throw e
      }
      return rows
    })
    return reply.code(201).send({ [roleMenuEntity.listKey]: created, detail: `RoleMenus for ${name.rows[0].name} created successfully` })
  })

  app.delete<{ Params: { role_id: string } }>(`${base}/delete/:role_id`, { config: { permission: roleMenuEntity.permissions.DELETE } }, async (request) => {
    const roleId = rowIdOf(role, request.params.role_id)
    const name = await roleName(roleId)
    await inTransaction({ db, entity: roleMenuEntity }, async (trx) => {
      const old = await sql<{ id: number }>`select id from role_menu where role = ${roleId} order by id for update`.execute(trx)
      for (const { id } of old.rows) await deleteRow(ctx(request, trx), id)
    })
    return { detail: `RoleMenus for '${name}' have been deleted successfully` }
  })
}
