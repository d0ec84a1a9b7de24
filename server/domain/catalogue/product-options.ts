import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Entity, Fields, Message } from '../../../schema/kit'
import { isIdText } from '../../../schema/kit/validators'
import type { Row } from '../../db/types'
import { BusinessError, ValidationError } from '../../engine/errors'
import type { ModuleDeps } from '../../engine/modules'
import { rowIdOf } from '../../engine/request'
import { actionConfig, requestContext } from '../../engine/routes'
import { readRow, updateRow } from '../../engine/service'
import { messageFor } from '../../i18n'

/**
 * The contract's `productcolor` and `productsize` resources (api-contract §4.8), served over
 * the product's own many-to-many `colors` and `sizes`.
 *
 * Why not entities of their own: the original's ProductColor is one row per product (product
 * one-to-one) holding a set of colours — which is exactly what a many-to-many field of the
 * product is. Two stores for one fact would drift (a colour set on the product form and
 * another through `productcolor/create/`), the product's form and list show its colours
 * directly, and deleting a colour or a product cleans the links up by itself. So the product
 * keeps the one truth and this module answers the contract's shape over it:
 *
 * - a product always has its record, whose `id` is the product's id (one-to-one, as a role's
 *   menu has its role's id): `{id, product, color: [ids], updated_at, _labels}` (`size` for sizes);
 * - `get_all_by_product_id/{id}` → `{product_colors: [record]}`, `get_by_product_id/{id}` and
 *   `{id}` → the record (404 for an unknown product), with the product's DETAILS permission;
 * - `create/` `{product, color: [ids]}` (201) and `update/{id}` `{color: [ids]}` set the
 *   product's colours, `delete/{id}` clears them: each is an update of the product through
 *   the engine (its validation, audit entry and transaction), with the product's UPDATE permission.
 */
type ProductOption = {
  /** The contract's resource: `/productcolor/api/v1/productcolor/…`. */
  readonly resource: string
  /** The product's many-to-many field that holds the set. */
  readonly field: 'colors' | 'sizes'
  /** The contract's name of the set in a record: `color`. */
  readonly wire: 'color' | 'size'
  readonly listKey: string
}

export const productOptions: readonly ProductOption[] = [
  { resource: 'productcolor', field: 'colors', wire: 'color', listKey: 'product_colors' },
  { resource: 'productsize', field: 'sizes', wire: 'size', listKey: 'product_sizes' },
]

export const productOptionBase = (option: ProductOption) => `/${option.resource}/api/v1/${option.resource}`

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

export function registerProductOptionRoutes(app: FastifyInstance, deps: ModuleDeps): void {
  const product = deps.registry.find((e) => e.name === 'product')
  // A test's registry of its own may have no catalogue.
  if (!product) return
  const engine = { db: deps.db, registry: deps.registry, hooks: deps.hooks, mediaDir: deps.mediaDir }
  const read = actionConfig(product, 'DETAILS')
  const write = actionConfig(product, 'UPDATE')
  for (const option of productOptions) {
    const base = productOptionBase(option)
    const say = (request: FastifyRequest, message: Message) => messageFor(request.headers['accept-language'], message)
    const recordOf = (row: Row) => {
      const labels = isObject(row._labels) ? row._labels : {}
      return {
        id: row.id,
        product: row.id,
        [option.wire]: row[option.field] ?? [],
        updated_at: row.updated_at,
        _labels: { product: row[product.labelField], [option.wire]: labels[option.field] ?? {} },
      }
    }
    const recordAt = async (request: FastifyRequest<{ Params: { id: string } }>) =>
      recordOf(await readRow(requestContext(engine, product, request), rowIdOf(product, request.params.id)))
    const bodyOf = (request: FastifyRequest): Record<string, unknown> => {
      const body = request.body ?? {}
      if (!isObject(body)) throw new BusinessError({ key: 'detail.json_object' })
      return body
    }
    const setOptions = async (request: FastifyRequest, productId: number, given: unknown) => {
      if (given === undefined || given === null || given === '') {
        throw new ValidationError({ [option.wire]: [{ key: 'validation.required', params: { label: `field.${option.wire}` } }] })
      }
      // One id alone is a set of one (a form sends `color=3`); a text of ids is the engine's to read (`"3,5"`).
      const ids = typeof given === 'number' ? [given] : given
      try {
        return recordOf(await updateRow(requestContext(engine, product, request), productId, { [option.field]: ids }))
      } catch (e) {
        throw inContractNames(e, option)
      }
    }

    app.get<{ Params: { id: string } }>(`${base}/get_all_by_product_id/:id`, { config: read }, async (request) => ({ [option.listKey]: [await recordAt(request)] }))
    app.get<{ Params: { id: string } }>(`${base}/get_by_product_id/:id`, { config: read }, recordAt)
    app.get<{ Params: { id: string } }>(`${base}/:id`, { config: read }, recordAt)

    app.post(`${base}/create/`, { config: write }, async (request, reply: FastifyReply) => {
      const body = bodyOf(request)
      const productId = await productOf(deps, product, body.product)
      return reply.code(201).send(await setOptions(request, productId, body[option.wire]))
    })
    app.route<{ Params: { id: string } }>({
      method: ['PUT', 'PATCH'],
      url: `${base}/update/:id`,
      config: write,
      handler: async (request) => {
        const productId = rowIdOf(product, request.params.id)
        const body = bodyOf(request)
        // The record is the product's: it cannot be moved to another one.
        if (body.product !== undefined && body.product !== null && String(body.product) !== String(productId)) {
          throw new ValidationError({ product: [{ key: 'validation.id_from', params: { label: 'field.product', entity: `entity.${option.resource}` } }] })
        }
        return setOptions(request, productId, body[option.wire])
      },
    })
    app.delete<{ Params: { id: string } }>(`${base}/delete/:id`, { config: write }, async (request) => {
      const productId = rowIdOf(product, request.params.id)
      await setOptions(request, productId, [])
      return { detail: say(request, { key: 'detail.delete_done', params: { model: modelOf(option), entity: `entity.${option.resource}`, id: String(productId) } }) }
    })
  }
}

/** The contract's model name in its English messages: `ProductColor`. */
const modelOf = (option: ProductOption) => `Product${option.wire[0]!.toUpperCase()}${option.wire.slice(1)}`

/** The product a `create/` names: a field map when it is missing, not an id, or not stored. */
async function productOf(deps: ModuleDeps, product: Entity<string, Fields>, given: unknown): Promise<number> {
  const label = { label: 'field.product' }
  if (given === undefined || given === null || given === '') throw new ValidationError({ product: [{ key: 'validation.required', params: label }] })
  const text = String(given)
  if ((typeof given !== 'number' && typeof given !== 'string') || !isIdText(text)) throw new ValidationError({ product: [{ key: 'validation.ref', params: label }] })
  const found = await deps.db.selectFrom(product.name).select('id').where('id', '=', Number(text)).executeTakeFirst()
  if (!found) throw new ValidationError({ product: [{ key: 'validation.ref_missing', params: { value: text } }] })
  return Number(text)
}

/** The product's field errors under the contract's names (`colors` → `color`). */
function inContractNames(e: unknown, option: ProductOption): unknown {
  if (!(e instanceof ValidationError)) return e
  const fields: Record<string, Message[]> = {}
  for (const [key, messages] of Object.entries(e.fields)) {
    const name = key === option.field || key.startsWith(`${option.field}.`) ? option.wire + key.slice(option.field.length) : key
    fields[name] = messages
  }
  return new ValidationError(fields)
}
