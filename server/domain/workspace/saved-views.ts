import { z } from 'zod'
import { ALL_ROWS, densities, MAX_COLUMN_WIDTH, MAX_LAYOUT_COLUMNS, MIN_COLUMN_WIDTH, type ColumnLayout, type SavedViewState } from '../../../schema/kit/list-view'
import type { EntityHooks } from '../../engine/hooks'
import { ValidationError } from '../../engine/errors'

/**
 * A saved view (schema/entities/workspace/saved-view.ts) names a list of the registry the
 * server serves (`list`: an entity, not a document's lines) and keeps a state of the shape a
 * list screen writes (`state`): anything else is a 400 field map, so every view a list opens
 * is one it can apply. Its owner and who else reads it are the engine's (`own`, `own.shared`).
 */
const columnName = z.string().min(1).max(100).regex(/^[A-Za-z_][A-Za-z0-9_]*$/)

export const columnLayoutShape = z.strictObject({
  order: z.array(columnName).max(MAX_LAYOUT_COLUMNS),
  hidden: z.array(columnName).max(MAX_LAYOUT_COLUMNS),
  widths: z.record(columnName, z.number().int().min(MIN_COLUMN_WIDTH).max(MAX_COLUMN_WIDTH)).refine((w) => Object.keys(w).length <= MAX_LAYOUT_COLUMNS),
}) satisfies z.ZodType<ColumnLayout>

export const savedViewStateShape = z.strictObject({
  q: z.string().max(200).optional(),
  ordering: z.string().max(101).regex(/^-?[A-Za-z0-9_]*$/).optional(),
  filters: z.record(z.string().min(1).max(120), z.string().max(200)).refine((f) => Object.keys(f).length <= 100).optional(),
  size: z.union([z.literal(30), z.literal(50), z.literal(100), z.literal(ALL_ROWS)]).optional(),
  columns: columnLayoutShape.optional(),
  density: z.enum(densities).optional(),
}) satisfies z.ZodType<SavedViewState>

export const savedViewHooks: EntityHooks = {
  beforeWrite({ registry, values }) {
    if (!values) return
    const list = String(values.list ?? '')
    const known = registry.some((e) => e.name === list && !e.isLine)
    const isState = savedViewStateShape.safeParse(values.state).success
    if (known && isState) return
    throw new ValidationError({
      ...(known ? {} : { list: [{ key: 'validation.saved_view_list', params: { value: list.slice(0, 100) } }] }),
      ...(isState ? {} : { state: [{ key: 'validation.saved_view_state' }] }),
    })
  },
}
