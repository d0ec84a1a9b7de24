import { randomBytes } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { defineEntity, f, isSet, type Entity, type Fields, type Message } from '../../../schema/kit'
import { rowIdValueOf } from '../../../schema/kit/validators'
import type { Row } from '../../db/types'
import { can } from '../../auth/principal'
import { requestLimiter } from '../../auth/throttle'
import { asSystem } from '../../engine/access'
import { BusinessError, ForbiddenError, ValidationError } from '../../engine/errors'
import type { ModuleDeps } from '../../engine/modules'
import { requestContext } from '../../engine/routes'
import { createRow, inTransaction } from '../../engine/service'
import { readBody } from '../../engine/uploads'
import { lockName } from '../accounting/ledgers'

/**
 * A vendor's offer from the storefront's "sell to us" form (api-contract §4.10
 * `create_vendor_purchase_request/`): the header's contact fields and
 * `items[i][item_name|item_price|item_quantity|item_description]`, each with pictures
 * `items[i][images][j]` judged by their bytes (the engine's uploads). Who offers:
 * - a signed-in vendor, as themselves;
 * - staff who may create purchase requests, for the vendor they name (`vendor`);
 * - anyone else by e-mail: a new e-mail registers the vendor (their ledger with them), an
 *   e-mail already registered answers `{user_exists: true}` and writes nothing.
 * Everything — vendor, request, lines, pictures — is written in one transaction; any refusal
 * writes nothing and removes the pictures stored. Bounded: OFFER_LIMIT offers per address
 * in the window, MAX_ITEMS lines, MAX_PICTURES pictures a line (and the server's multipart
 * limits: ten files, 10 MB each, two hundred fields).
 */
export const OFFER_LIMIT = { max: 10, windowMs: 15 * 60_000 }
export const MAX_ITEMS = 20
export const MAX_PICTURES = 5

/** The contract's names of a line's fields, by ours. */
const LINE_NAMES = { name: 'item_name', unit_price: 'item_price', quantity: 'item_quantity', description: 'item_description' } as const
/** The offer's names of what registers its vendor, by the vendor's. */
const VENDOR_NAMES: Record<string, string> = { primary_phone: 'contact_no', street_address_one: 'street_address' }
const HEADER = ['first_name', 'last_name', 'email', 'contact_no', 'street_address', 'contact_type', 'is_subscribed', 'vendor_comment'] as const

type Line = Record<string, unknown>
type Parts = { request: Entity<string, Fields>; picture: Entity<string, Fields>; vendor: Entity<string, Fields> }

/** The offer's multipart shape, for the parser alone: its lines, and each line's pictures stored as the picture entity's. */
function offerShape(picture: Entity<string, Fields>) {
  const item = defineEntity({
    name: 'vendor_offer_item',
    module: 'purchasing',
    lineOf: 'vendor_offer',
    labelField: 'item_name',
    fields: { item_name: f.text(), images: f.lines(picture, { scalar: 'image' }) },
  })
  return defineEntity({ name: 'vendor_offer', module: 'purchasing', listKey: 'vendor_offers', route: { area: 'purchase-management', list: 'vendor-offers' }, labelField: 'first_name', fields: { first_name: f.text(), items: f.lines(item) } })
}

/** Our field map said in the contract's names: `purchase_request_items.2.name` → `items.2.item_name`. */
function inContractNames(e: unknown): unknown {
  if (!(e instanceof ValidationError)) return e
  const renamed: Record<string, Message[]> = {}
  for (const [key, messages] of Object.entries(e.fields)) {
    const m = /^purchase_request_items(?:\.(\d+)\.(\w+))?$/.exec(key)
    const name = m ? (m[1] === undefined ? 'items' : `items.${m[1]}.${LINE_NAMES[m[2] as keyof typeof LINE_NAMES] ?? m[2]}`) : (VENDOR_NAMES[key] ?? key)
    renamed[name] = messages
  }
  return new ValidationError(renamed)
}


export function registerVendorOffers(app: FastifyInstance, deps: ModuleDeps, parts: Parts): void {
  const { request, picture, vendor } = parts
  const shape = offerShape(picture)
  const engine = { db: deps.db, registry: deps.registry, hooks: deps.hooks, mediaDir: deps.mediaDir }
  const offers = requestLimiter(deps.db, { ...OFFER_LIMIT, name: 'vendor-offer', message: 'detail.offer_throttled' })

  app.post(`${request.api.base}/create_vendor_purchase_request/`, { config: { isPublic: true } }, async (req, reply) => {
    await offers(req.ip)
    const body = await readBody(req, shape, deps.mediaDir)
    try {
      const answer = await offer(req, body.values)
      if ('user_exists' in answer) {
        await body.cleanup()
        return answer
      }
      return reply.code(201).send(answer)
    } catch (e) {
      await body.cleanup()
      throw inContractNames(e)
    }
  })

  async function offer(req: FastifyRequest, values: Line): Promise<{ user_exists: true } | { data: Row }> {
    const items = values.items
    if (!Array.isArray(items) || items.length === 0) throw new ValidationError({ items: [{ key: 'validation.lines_min', params: { min: 1 } }] })
    if (items.length > MAX_ITEMS) throw new BusinessError({ key: 'detail.too_many_lines', params: { max: MAX_ITEMS } })
    const lines = items.map((item): Line => (typeof item === 'object' && item !== null && !Array.isArray(item) ? (item as Line) : {}))
    lines.forEach((line, i) => {
      const pictures = line.images
      if (pictures !== undefined && (!Array.isArray(pictures) || pictures.length > MAX_PICTURES)) {
        throw new ValidationError({ [`items.${i}.images`]: [{ key: 'validation.too_many_pictures', params: { max: MAX_PICTURES } }] })
      }
    })
    const ctx = requestContext(engine, request, req)
    const caller = req.principal
    const email = typeof values.email === 'string' ? values.email.trim() : ''

    return inTransaction(ctx, async (trx) => {
      let vendorId: number
      if (caller && (await sql`select 1 from vendor where id = ${caller.id}`.execute(trx)).rows.length > 0) vendorId = caller.id
      else if (caller) {
        if (!can(caller, request.permissions.CREATE)) throw new ForbiddenError({ key: 'detail.forbidden', params: { permissions: request.permissions.CREATE } })
        const named = rowIdValueOf(values.vendor)
        if (named === null || (await sql`select 1 from vendor where id = ${named}`.execute(trx)).rows.length === 0) {
          throw new ValidationError({ vendor: [{ key: 'validation.required', params: { label: 'field.vendor' } }] })
        }
        vendorId = named
      } else {
        if (email === '') throw new ValidationError({ email: [{ key: 'validation.required', params: { label: 'field.email' } }] })
        // Two offers with one new e-mail at once: one registers the vendor, the other finds the e-mail taken.
        await lockName(trx, `vendor-offer:${email.toLowerCase()}`)
        const known = await sql`select 1 from "user" where lower(email) = lower(${email})`.execute(trx)
        if (known.rows.length > 0) return { user_exists: true as const }
        const made = await createRow(asSystem(ctx, vendor, trx), {
          email,
          username: await freeUsername(trx, email),
          first_name: values.first_name ?? '',
          last_name: values.last_name ?? '',
          primary_phone: isSet(values.contact_no) ? values.contact_no : null,
          street_address_one: isSet(values.street_address) ? values.street_address : null,
          // Nobody knows it: the vendor sets one with "forgot password".
          password: randomBytes(24).toString('base64url'),
        })
        vendorId = Number(made.id)
      }
      const header = Object.fromEntries(HEADER.filter((k) => Object.hasOwn(values, k)).map((k) => [k, values[k]]))
      const row = await createRow(asSystem(ctx, request, trx), {
        ...header,
        vendor: vendorId,
        purchase_request_items: lines.map((l) => Object.fromEntries(Object.entries(LINE_NAMES).map(([ours, theirs]) => [ours, l[theirs] ?? null]))),
      })
      const stored = (row.purchase_request_items as Line[]) ?? []
      const withPictures = []
      for (const [i, line] of stored.entries()) {
        const images = []
        for (const [position, image] of ((lines[i]!.images as unknown[] | undefined) ?? []).entries()) {
          const made = await createRow(asSystem(ctx, picture, trx), { purchase_req_item: line.id, image, position })
          images.push({ id: made.id, image: made.image })
        }
        withPictures.push({ ...line, purchase_request_item_images: images })
      }
      return { data: { ...row, purchase_request_items: withPictures } }
    })
  }
}

/** A username for a vendor registered by an offer: the e-mail's name, made unique. */
async function freeUsername(trx: Parameters<Parameters<typeof inTransaction>[1]>[0], email: string): Promise<string> {
  const base = (email.split('@')[0] ?? 'vendor').replace(/[^\p{L}\p{N}._-]/gu, '').slice(0, 80) || 'vendor'
  for (let n = 0; ; n++) {
    const candidate = n === 0 ? base : `${base}${n + 1}`
    const taken = await sql`select 1 from "user" where lower(username) = lower(${candidate})`.execute(trx)
    if (taken.rows.length === 0) return candidate
  }
}
