import type { FastifyInstance } from 'fastify'
import type { Message } from '../../../schema/kit'
import { isIdText } from '../../../schema/kit/validators'
import type { Row } from '../../db/types'
import { UnauthorizedError, ValidationError } from '../../engine/errors'
import type { EntityHooks } from '../../engine/hooks'
import type { ModuleDeps } from '../../engine/modules'
import { actionConfig, requestContext } from '../../engine/routes'
import { createRow, inTransaction, readList } from '../../engine/service'
import { readBody } from '../../engine/uploads'
import { asSystem } from '../../engine/access'
import { utcDay } from '../../../schema/kit/dates'
import { memberLedger } from './ledgers'
import { receiptOf } from './receipts'

/**
 * Monthly subscriptions (api-contract §4.5): each is a receipt from its member (Dr Cash, Cr
 * the member's ledger, the registry's `posts`), dated the moment it is made. The contract's create takes
 * `{members: [ids], amount, note}` and writes one subscription per member — every one or,
 * when any is refused, none; each member once, and at most MAX_SUBSCRIPTION_MEMBERS. `get_all_by_member/` lists the caller's own.
 */
export const subscriptionHooks: EntityHooks = {
  beforeWrite({ action, values }) {
    if (action === 'create' && values) values.subscription_date = new Date().toISOString()
  },
}

export const subscriptionReceipt = receiptOf({
  creditLedger: (deps, row) => memberLedger(deps, Number(row.member)),
  date: (row: Row) => utcDay((row.subscription_date ?? row.created_at) as Date | string),
})

/**
 * The members a create names: the contract's `members` (one id or several), or one `member`
 * as the generic form sends it — then the create answers as the generic one does (the row,
 * its errors on `member`).
 */
function membersOf(body: Record<string, unknown>): { ids: unknown[]; isSingle: boolean } {
  const given = (v: unknown) => v !== undefined && v !== null && v !== ''
  if (Array.isArray(body.members)) return { ids: body.members, isSingle: false }
  if (given(body.members)) return { ids: [body.members], isSingle: false }
  return { ids: given(body.member) ? [body.member] : [], isSingle: given(body.member) }
}

/**
 * The most members one create may name: each is a receipt posted with its own ledger and
 * audit, all in one transaction, so a request naming thousands would hold the database.
 */
export const MAX_SUBSCRIPTION_MEMBERS = 200

/** The members once each and at most MAX_SUBSCRIPTION_MEMBERS, or the field map that says which is not. */
function checkMembers(members: readonly unknown[]): void {
  if (members.length > MAX_SUBSCRIPTION_MEMBERS) {
    throw new ValidationError({ members: [{ key: 'validation.too_many', params: { label: 'field.members', max: MAX_SUBSCRIPTION_MEMBERS } }] })
  }
  const seen = new Set<unknown>()
  const fields: Record<string, Message[]> = {}
  members.forEach((member, i) => {
    if (seen.has(member)) fields[`members.${i}`] = [{ key: 'validation.duplicate_value', params: { label: 'field.member' } }]
    seen.add(member)
  })
  if (Object.keys(fields).length > 0) throw new ValidationError(fields)
}

/** A refusal of one member's subscription, said of that member (`members.2`), or of `member` for a single one. */
function ofMember(error: unknown, key: string): unknown {
  if (!(error instanceof ValidationError)) return error
  const fields: Record<string, Message[]> = {}
  for (const [field, messages] of Object.entries(error.fields)) fields[field === 'member' ? key : field] = messages
  return new ValidationError(fields)
}

export function registerSubscriptionRoutes(app: FastifyInstance, deps: ModuleDeps): void {
  const entity = deps.registry.find((e) => e.name === 'monthly_subscription')
  // A test's registry of its own may have no membership.
  if (!entity) return
  const base = entity.api.base
  const engine = { db: deps.db, registry: deps.registry, hooks: deps.hooks, mediaDir: deps.mediaDir }

  app.post(`${base}/create/`, { config: actionConfig(entity, 'CREATE') }, async (request, reply) => {
    const body = await readBody(request, entity, deps.mediaDir)
    const { members: _members, member: _member, ...shared } = body.values
    const { ids, isSingle } = membersOf(body.values)
    if (ids.length === 0) throw new ValidationError({ members: [{ key: 'validation.required', params: { label: 'field.members' } }] })
    const members = ids.map((m) => (typeof m === 'string' && isIdText(m.trim()) ? Number(m) : m))
    checkMembers(members)
    const rows = await inTransaction({ db: deps.db, entity }, async (trx) => {
      const ctx = { ...requestContext(engine, entity, request), db: trx }
      const written: Row[] = []
      for (const [i, member] of members.entries()) {
        try {
          written.push(await createRow(ctx, { ...shared, member }))
        } catch (e) {
          throw ofMember(e, isSingle ? 'member' : `members.${i}`)
        }
      }
      return written
    })
    return reply.code(201).send(isSingle ? rows[0] : { [entity.listKey]: rows })
  })

  // Any signed-in user: a member's own subscriptions (a member's id is their user id).
  app.get(`${base}/get_all_by_member/`, async (request) => {
    const caller = request.principal
    if (!caller) throw new UnauthorizedError({ key: 'detail.no_credentials' })
    const ctx = asSystem(requestContext(engine, entity, request), entity)
    const { rows } = await readList(ctx, { filters: [{ field: 'member', op: 'equals', value: caller.id }], ordering: entity.ordering })
    return { [entity.listKey]: rows }
  })
}
