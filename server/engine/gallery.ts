import { sql } from 'kysely'
import { z } from 'zod'
import { rootOf } from '../../schema/kit'
import { isIdText } from '../../schema/kit/validators'
import { BusinessError, ValidationError } from './errors'
import { inTransaction, readList, updateRow, type Ctx } from './service'
import type { Row } from '../db/types'

/**
 * A gallery's new order (`reorder/`, see EntityConfig.gallery): the owner's pictures, every
 * one of them exactly once, in the order the user left them. Each picture whose place
 * changes is updated through the engine (its permission, row scope, audit entry), all in
 * one transaction with the owner's row locked, so two people reordering at once do not
 * interleave and a refused picture leaves every place as it was.
 */
const idText = z.union([z.string(), z.number()]).transform(String).refine(isIdText)
const reorderBody = z.object({ ids: z.array(idText).max(1000) }).passthrough()

export async function reorderGallery(ctx: Ctx, body: unknown): Promise<Row[]> {
  const gallery = ctx.entity.gallery
  if (!gallery) throw new Error(`${ctx.entity.name} is not a gallery`)
  const owner = ctx.entity.fields[gallery.of]!.ref!.target
  const ownerEntity = ctx.registry.find((e) => e.name === owner)
  const ownerLabel = ctx.entity.fieldLabelKey(gallery.of)
  const given = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>)[gallery.of] : undefined
  if (given === undefined || given === null || given === '') throw new ValidationError({ [gallery.of]: [{ key: 'validation.required', params: { label: ownerLabel } }] })
  if (!isIdText(String(given))) throw new ValidationError({ [gallery.of]: [{ key: 'validation.ref', params: { label: ownerLabel } }] })
  const parsed = reorderBody.safeParse(body)
  if (!parsed.success) throw new BusinessError({ key: 'detail.ids_body' })
  const ownerId = Number(given)
  const ids = parsed.data.ids.map(Number)

  return inTransaction(ctx, async (trx) => {
    const ownerTable = rootOf(ownerEntity ?? ctx.entity).name
    const locked = await sql<{ id: number }>`select id from ${sql.id(ownerTable)} where id = ${ownerId} for update`.execute(trx)
    if (locked.rows.length === 0) throw new ValidationError({ [gallery.of]: [{ key: 'validation.ref', params: { label: ownerLabel } }] })
    const stored = await sql<{ id: number; position: number | null }>`
      select id, ${sql.ref(gallery.position)} as position from ${sql.id(rootOf(ctx.entity).name)} where ${sql.ref(gallery.of)} = ${ownerId}`.execute(trx)
    const places = new Map(stored.rows.map((row) => [Number(row.id), row.position]))
    const isSameSet = ids.length === places.size && new Set(ids).size === ids.length && ids.every((id) => places.has(id))
    if (!isSameSet) throw new BusinessError({ key: 'detail.gallery_order', params: { label: `${ctx.entity.labelKey}.other`, other: ownerLabel } })
    const inTrx = { ...ctx, db: trx }
    for (const [index, id] of ids.entries()) {
      if (places.get(id) !== index) await updateRow(inTrx, id, { [gallery.position]: index })
    }
    const { rows } = await readList(inTrx, { filters: [{ field: gallery.of, op: 'equals', value: ownerId }], ordering: gallery.position })
    return rows
  })
}

