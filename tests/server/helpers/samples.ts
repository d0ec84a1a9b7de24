import { sql } from 'kysely'
import { entities as registeredEntities } from '../../../schema'
import { money, rootOf, type AnyField, type Entity, type Fields, type MessageRule } from '../../../schema/kit'
import { messageOf } from '../../../schema/kit/validators'
import { factSql } from '../../../server/engine/facts'
import { createRow as engineCreate } from '../../../server/engine/service'
import { catalogues } from '../../../server/i18n'
import type { Values } from '../../../server/engine/validate'
import type { TestApp } from './app'
import { tinyPng } from './images'
import { multipart } from './multipart'

/**
 * Valid and invalid input generated from an entity's field list, so the table-driven
 * tests follow the registry: a new entity or field is covered without new test code.
 */
export type AnyEntity = Entity<string, Fields>

let sequence = 0
const next = () => ++sequence

export function numericShape(field: AnyField): { precision: number; scale: number } {
  const m = /^numeric\((\d+),(\d+)\)$/.exec(field.sql?.type ?? '')
  return m ? { precision: Number(m[1]), scale: Number(m[2]) } : { precision: 20, scale: 2 }
}

/** Ids of referenced rows, by target entity name. */
export type RefIds = Record<string, number>

export function sampleValue(field: AnyField, n: number, refIds: RefIds): unknown {
  // A value a module judges (a saved view's list) cannot be made from the kind: the registry gives one.
  if (field.example !== undefined && !field.isUnique) return field.example
  switch (field.kind) {
    case 'text': {
      if (field.format === 'postal_code') return String(1000 + (n % 9000))
      const max = field.maxLength ?? 255
      const long = `Sample ${n}`
      return long.length <= max ? long : `s${n}`.slice(-max)
    }
    case 'email':
      return `user${n}@example.com`
    case 'phone':
      return `+8801${String(700000000 + n).padStart(9, '0')}`
    case 'url':
      return `https://example${n}.com/page`
    case 'integer':
      // A unique one (a menu's position) differs from every other sample's: n is distinct per sample and field.
      if (field.isUnique) return n
      // 1…100 (a percent fits), and another for each sample of the same field (n is sample·100 + field);
      // within the field's own bounds when they are narrower (a month, 1…12).
      {
        const spread = (Math.floor(n / 100) + n) % 100
        const [low, high] = [Math.max(field.min ?? 1, 1), Math.min(field.max ?? 100, 100)]
        return low + (spread % (high - low + 1))
      }
    case 'decimal': {
      const { precision, scale } = numericShape(field)
      const whole = Math.min(precision - scale, 2)
      // Another for each sample of the same field, as integers (n is sample·100 + field).
      const int = whole > 0 ? String((Math.floor(n / 100) + n) % 10 ** whole) : '0'
      return scale > 0 ? `${int}.${'5'.repeat(scale)}` : int
    }
    case 'boolean':
      return n % 2 === 0
    case 'date':
      return `2024-03-${String((n % 28) + 1).padStart(2, '0')}`
    case 'datetime':
      return `2024-03-0${(n % 9) + 1}T10:20:30.000Z`
    case 'enum':
      return field.options![n % field.options!.length]
    case 'ref':
      return refIds[field.ref!.target] ?? null
    case 'refs':
      return refIds[field.ref!.target] !== undefined ? [refIds[field.ref!.target]] : []
    case 'file':
      // A file field takes an upload of the request that writes it (or keeps the record's own):
      // a JSON body carries none, so a sample leaves an optional one out; a required one is
      // named here for the validators, and `requestOf` uploads a picture in its place.
      return field.isRequired ? `/media/sample/${n}.png` : null
    case 'json':
      return { n, tags: ['a', 'b'] }
    case 'password':
      return `Secret-${n}`
    case 'lines': {
      // As many lines as the document needs (one at least), each a valid line of its own.
      const spec = field.lines!
      return Array.from({ length: Math.max(spec.min ?? 0, 1) }, (_, i) => sampleInput(spec.entity, refIds, n * 10 + i))
    }
  }
}

/** A valid create body for the entity; every field a client may send filled, references from `refIds`. */
export function sampleInput(entity: AnyEntity, refIds: RefIds, n = next()): Values {
  const input: Values = {}
  entity.fieldNames.forEach((name, i) => {
    // Read-only values are the server's; an input-only confirmation is left out (its rule then does not apply).
    if (entity.fields[name]!.isReadOnly || entity.fields[name]!.isTransient) return
    const value = sampleValue(entity.fields[name]!, n * 100 + i, refIds)
    if (value !== null) input[name] = value
  })
  // An input-only value a rule asks for on create (a ticket's first message) is given.
  for (const rule of entity.rules) {
    if (rule.check(input, { mode: 'create', input })) continue
    for (const name of (rule.fields ?? []).filter((f) => entity.fields[f]?.isTransient && !(f in input))) {
      const value = sampleValue(entity.fields[name]!, n * 100 + entity.fieldNames.indexOf(name), refIds)
      if (value !== null) input[name] = value
    }
  }
  // A rule across fields (one head of two, not both) may refuse a sample with every field
  // filled: leave out its optional fields, last first, until it holds.
  for (const rule of entity.rules) {
    const optional = (rule.fields ?? []).filter((f) => f in input && !entity.fields[f]?.isRequired).reverse()
    while (!rule.check(input, { mode: 'create', input }) && optional.length > 0) delete input[optional.shift()!]
  }
  return input
}

/**
 * `payload` with the other optional fields of a refusing rule across fields cleared (one
 * head of two, not both), so that only `keep`'s own value is judged; `stored` is the row an
 * update is laid over.
 */
export function holdingRules(entity: AnyEntity, payload: Values, keep: string, stored: Values = {}): Values {
  const out = { ...payload }
  for (const rule of entity.rules) {
    const others = (rule.fields ?? []).filter((f) => f !== keep && !entity.fields[f]?.isRequired && (out[f] ?? stored[f] ?? null) !== null).reverse()
    while (!rule.check({ ...stored, ...out }, { mode: 'create', input: out }) && others.length > 0) out[others.shift()!] = null
  }
  return out
}

/** The entities a record refers to: its own references and its lines'. */
export function targetsOf(entity: AnyEntity): string[] {
  const fields = Object.values(entity.fields).flatMap((f) => (f.lines ? [f, ...Object.values(f.lines.entity.fields)] : [f]))
  return [...new Set(fields.flatMap((f) => (f.ref && f.ref.target !== entity.name ? [f.ref.target] : [])))]
}

/**
 * Creates one row of every entity `entity` refers to, through the API, referenced rows
 * first (dependency order), and returns their ids by entity name.
 */
export async function createReferences(t: TestApp, entity: AnyEntity, all: readonly AnyEntity[] = registeredEntities): Promise<RefIds> {
  const ids: RefIds = {}
  const visit = async (e: AnyEntity, path: string[]): Promise<void> => {
    for (const target of targetsOf(e)) {
      if (ids[target] !== undefined || path.includes(target)) continue
      const te = all.find((x) => x.name === target)
      if (!te) throw new Error(`unknown ref target ${target}`)
      // A line is made with its document: the reference points at the document's first line.
      const document = te.lineOf ? all.find((x) => x.name === te.lineOf) : undefined
      if (document) {
        await visit(document, [...path, target, document.name])
        const made = await createRow(t, document, sampleInput(document, ids))
        const field = document.linesFieldNames.find((n) => document.fields[n]!.lines!.entity.name === target)!
        ids[target] = (made[field] as Array<{ id: number }>)[0]!.id
        continue
      }
      await visit(te, [...path, target])
      ids[target] = (await createRow(t, te, sampleInput(te, ids))).id as number
    }
    await referFactually(t, e, ids)
  }
  await visit(entity, [entity.name])
  // A row scope that names the caller by a reference (`scope: (caller) => ({ user: caller.id })`:
  // one's notifications): the samples are the admin's own, whose requests read them back.
  const scope = entity.scope?.({ id: t.adminId, isAdmin: true, permissions: new Set() }) ?? {}
  for (const [field, value] of Object.entries(scope)) {
    const target = entity.fields[field]?.ref?.target
    if (target && value === t.adminId) ids[target] = t.adminId
  }
  return ids
}

/**
 * A reference that a rule judges by a fact of the row it points at (a payment method's ledger
 * must hold money: `is_cash_bank`) points at a row for which the rule holds — the first such
 * row of its target, the seeded ones included — as the server, which knows every fact, judges.
 */
async function referFactually(t: TestApp, entity: AnyEntity, ids: RefIds): Promise<void> {
  const { registry, hooks } = t.app.engine
  for (const rule of entity.rules) {
    for (const fact of rule.facts ?? []) {
      const target = registry.find((e) => e.name === fact.target)
      const sqlOf = target && factSql(hooks, target, fact.name)
      if (fact.field.includes('.') || entity.fields[fact.field]?.ref?.target !== fact.target || !target || !sqlOf) continue
      // The first rows (the seeded ones among them), and the one the sample refers to now, however many rows came after.
      const current = ids[fact.target] ?? 0
      const rows = await sql<{ id: number; fact: unknown }>`select t.id, ${sqlOf('t')} as fact from ${sql.id(rootOf(target).name)} t where t.id <= (select coalesce(max(id), 0) from (select id from ${sql.id(rootOf(target).name)} order by id limit 500) f) or t.id = ${current} order by t.id`.execute(t.db)
      const facts = new Map(rows.rows.map((r) => [Number(r.id), r.fact]))
      const holds = (id: number) => rule.check({ [fact.field]: id }, { mode: 'create', input: {}, fact: (name, of, what) => (name === fact.target && what === fact.name ? facts.get(Number(of)) : undefined) })
      if (ids[fact.target] !== undefined && holds(ids[fact.target]!)) continue
      const found = [...facts.keys()].find(holds)
      if (found !== undefined) ids[fact.target] = found
    }
  }
}

/** The numbers counted by the day in `field` (its numbering's, its posting's): a change of the day renumbers them (numbering.ts, renumberIfMoved). */
export const renumberedBy = (entity: AnyEntity, field: string): string[] => [
  ...(entity.numbering?.date === field ? [entity.numbering.field] : []),
  ...(entity.posts?.date === field ? [entity.posts.number] : []),
]

/** The label a row is shown by: read by its route, or — a document's line, which has none — from its table. */
export async function labelOfRow(t: TestApp, entity: AnyEntity, id: number): Promise<unknown> {
  if (!entity.lineOf) return (await t.call({ method: 'GET', url: `${entity.api.base}/${id}` })).body[entity.labelField]
  const found = await sql<{ label: unknown }>`select ${sql.ref(entity.labelField)} as label from ${sql.id(entity.name)} where id = ${id}`.execute(t.db)
  return found.rows[0]?.label
}

/** Fields a response carries (write-only ones, passwords, never are). */
export const readableFields = (entity: AnyEntity) => entity.fieldNames.filter((n) => !entity.fields[n]!.isWriteOnly)

/** Fields a client may send: all but the read-only ones (set by the server). */
export const writableFields = (entity: AnyEntity) => entity.fieldNames.filter((n) => !entity.fields[n]!.isReadOnly)

/** The file fields of `input` that hold a value: each is sent as an uploaded picture. */
const filesIn = (entity: AnyEntity, input: Values) => entity.fieldNames.filter((n) => entity.fields[n]!.kind === 'file' && typeof input[n] === 'string' && input[n] !== '')

/** A multipart part's text, as the browser writes it (src/engine/form/form-values.ts). */
const partText = (value: unknown) => (Array.isArray(value) ? value.join(',') : typeof value === 'object' ? JSON.stringify(value) : String(value))

/**
 * The request that sends `input` to a write route: JSON, or — when a file field holds a value
 * — multipart with a picture uploaded for it (a file field takes nothing else), as the form does.
 */
export function requestOf(entity: AnyEntity, input: Values): { payload: Values | Buffer; headers?: Record<string, string> } {
  const files = filesIn(entity, input)
  if (files.length === 0) return { payload: input }
  const fields = Object.fromEntries(Object.entries(input).filter(([name, value]) => !files.includes(name) && value !== null && value !== undefined).map(([name, value]) => [name, partText(value)]))
  return multipart(fields, files.map((name) => ({ name, filename: `${name}.png`, type: 'image/png', data: tinyPng() })))
}

/**
 * A record whose id is another row's (`idFrom`) may have been made with that row by a module
 * (a product's stock row, made with the product): the sample takes its place.
 */
export async function clearMadeWith(t: TestApp, entity: AnyEntity, ids: readonly unknown[]): Promise<void> {
  const owned = ids.filter((id): id is number => typeof id === 'number')
  if (!entity.idFrom || owned.length === 0) return
  await t.db.deleteFrom(entity.name).where('id', 'in', owned).execute()
}

/**
 * What a row needs to exist before it can be written, beyond its references: a refund gives
 * back what was paid, so its order is paid first — as much as the refund, or all it owes.
 */
const stateFor: Record<string, (t: TestApp, input: Values) => Promise<void>> = {
  async order_refund(t, input) {
    const order = (await t.call({ method: 'GET', url: `/order/api/v1/order/${String(input.order)}` })).body as { net_amount: string }
    const cash = (await sql<{ id: number }>`select id from ledger_account where name = 'Cash' and is_deletable = false`.execute(t.db)).rows[0]!.id
    if (Number(input.amount) > Number(order.net_amount)) input.amount = order.net_amount
    const paid = await t.call({ method: 'POST', url: '/order_payment/api/v1/order_payment/create/', payload: { order: input.order, amount: input.amount, ledger: cash } })
    if (paid.status !== 201) throw new Error(`paying order ${String(input.order)} for its refund failed: ${paid.status} ${paid.raw}`)
  },
}

/**
 * POSTs to `create/` and returns the created row (expects 201). An entity whose `create/`
 * a domain module serves with its own shape (role menus) gets its row from the engine.
 */
export async function createRow(t: TestApp, entity: AnyEntity, input: Values): Promise<Record<string, unknown>> {
  await stateFor[entity.name]?.(t, input)
  if (entity.routes.create !== 'generic') {
    await clearMadeWith(t, entity, [input[entity.idFrom ?? ''] as number])
    const { registry, hooks } = t.app.engine
    const row = await engineCreate({ db: t.db, registry, hooks, entity, actor: { id: t.adminId, isAdmin: true, permissions: new Set() }, access: 'system' }, input)
    return JSON.parse(JSON.stringify(row)) as Record<string, unknown>
  }
  const res = await t.call({ method: 'POST', url: `${entity.api.base}/create/`, ...requestOf(entity, input) })
  if (res.status !== 201) throw new Error(`create ${entity.name} failed: ${res.status} ${res.raw}`)
  return res.body
}

/** A created row with all its references, for tests that need one. */
export async function createSample(t: TestApp, entity: AnyEntity, overrides: Values = {}, all: readonly AnyEntity[] = registeredEntities) {
  const made = await createReferences(t, entity, all)
  const input = { ...sampleInput(entity, made), ...overrides }
  const row = await createRow(t, entity, input)
  // What the record refers to: a reference its rules left out (sampleInput) is not among them.
  const sent = new Set(entity.fieldNames.filter((n) => entity.fields[n]!.ref && input[n] !== undefined && input[n] !== null).map((n) => entity.fields[n]!.ref!.target))
  const refIds = Object.fromEntries(Object.entries(made).filter(([target]) => sent.has(target) || !entity.fieldNames.some((n) => entity.fields[n]!.ref?.target === target)))
  return { row, input, refIds, id: row.id as number }
}

/** How many records an entity's list holds: its rows, or for a document kept one row per line its documents. */
export async function countListed(t: TestApp, table: string): Promise<number> {
  const entity = t.app.engine.registry.find((e) => e.name === table)
  const key = entity?.rowsPerLine?.key
  if (!key) return countRows(t, table)
  const r = await sql<{ n: string }>`select count(distinct ${sql.ref(key)}) as n from ${sql.id(table)}`.execute(t.db)
  return Number(r.rows[0]!.n)
}

/** How many rows a table holds; of an entity with a Trash, those not in it (what its lists count). */
export async function countRows(t: TestApp, table: string): Promise<number> {
  const hasTrash = t.app.engine.registry.some((e) => e.name === table && e.trash !== undefined)
  const r = await sql<{ n: string }>`select count(*) as n from ${sql.id(table)} ${hasTrash ? sql`where deleted_at is null` : sql``}`.execute(t.db)
  return Number(r.rows[0]!.n)
}

// ------------------------------------------------------------------ invalid input

/** One invalid value for a field, and the validation message key it must produce. */
export type BadCase = { why: string; value: unknown; key: string; params?: Record<string, string> }

export function badCases(field: AnyField): BadCase[] {
  const cases: BadCase[] = []
  // A field may state a rule in its own words (`messages`): the case expects that key.
  const add = (why: string, value: unknown, key: string, params?: Record<string, string>) =>
    cases.push({ why, value, key: messageOf(field, key.replace(/^validation\./, '') as MessageRule), params })
  switch (field.kind) {
    case 'text':
      if (field.maxLength) add(`longer than ${field.maxLength} characters`, 'x'.repeat(field.maxLength + 1), 'validation.max_length', { max: String(field.maxLength) })
      if (field.minLength) add(`shorter than ${field.minLength} characters`, 'x'.repeat(field.minLength - 1), 'validation.min_length', { min: String(field.minLength) })
      add('an object instead of text', { a: 1 }, 'validation.text')
      // Long enough for a minimum length: only the NUL is wrong (the API's guard refuses it before any field's rule).
      add('a NUL character (PostgreSQL cannot store it)', `a\u0000${'b'.repeat(Math.max(1, (field.minLength ?? 0) - 2))}`, 'validation.nul_character')
      if (field.format === 'postal_code') add('words that are not a postal code', 'Dhaka', 'validation.postal_code')
      break
    case 'email':
      add('an e-mail without @', 'not-an-email', 'validation.email')
      add('an e-mail without a domain', 'someone@', 'validation.email')
      break
    case 'phone':
      add('letters', 'call me maybe', 'validation.phone')
      add('too few digits', '+12', 'validation.phone')
      break
    case 'url':
      add('words with spaces', 'not a url', 'validation.url')
      add('an ftp URL', 'ftp://example.com/x', 'validation.url')
      break
    case 'integer':
      add('letters', 'abc', 'validation.integer')
      add('a fraction', 1.5, 'validation.integer')
      break
    case 'decimal': {
      const { precision, scale } = numericShape(field)
      add(`more than ${scale} decimal places`, `1.${'1'.repeat(scale + 1)}`, 'validation.decimal')
      add(`more than ${precision - scale} digits before the point`, '9'.repeat(precision - scale + 1), 'validation.decimal')
      add('letters', 'abc', 'validation.decimal')
      if (field.gtDecimal !== undefined) add(`not above ${field.gtDecimal}`, field.gtDecimal, 'validation.above_value')
      // Every money field's bound (MONEY_MAX), however many digits its column holds.
      if (field.maxDecimal !== undefined) add(`above ${field.maxDecimal}`, money.sum([field.maxDecimal, '0.01']), 'validation.max_amount', { max: field.maxDecimal })
      break
    }
    case 'boolean':
      add('a word that is not yes/no', 'maybe', 'validation.boolean')
      break
    case 'date':
      add('a day that does not exist', '2024-02-30', 'validation.date')
      add('a day-first date', '30/01/2024', 'validation.date')
      if (field.notAfter === 'today') add('a day in the future', `${new Date().getFullYear() + 1}-01-01`, 'validation.future_date')
      break
    case 'datetime':
      add('a word', 'yesterday', 'validation.datetime')
      break
    case 'enum':
      add('a value outside the options', 'not-an-option', 'validation.choice')
      break
    case 'ref':
      add('an id that does not exist', 999_999_999, 'validation.ref_missing', { value: '999999999' })
      // Letters name a row of one given by name (`byName`): none so named is a {detail}, tested with its entity.
      if (!field.byName) add('letters', 'abc', 'validation.ref')
      break
    case 'refs':
      add('an id that does not exist', [999_999_999], 'validation.ref_missing')
      add('letters', 'x,y', 'validation.refs')
      break
    case 'file':
      add('a path longer than 500 characters', 'x'.repeat(501), 'validation.max_length', { max: '500' })
      add('a NUL character', '/media/a\u0000.png', 'validation.nul_character')
      break
    case 'password':
      if (field.minLength) add(`shorter than ${field.minLength} characters`, 'x'.repeat(field.minLength - 1), 'validation.min_length', { min: String(field.minLength) })
      add(`longer than ${field.maxLength ?? 128} characters`, 'x'.repeat((field.maxLength ?? 128) + 1), 'validation.max_length', { max: String(field.maxLength ?? 128) })
      add('a number instead of text', 123456789, 'validation.text')
      break
    case 'json':
      add('text that is not JSON', '{not json', 'validation.json')
      add('a NUL character inside a string', { note: 'a\u0000b' }, 'validation.nul_character')
      add('a NUL character inside a key', { 'a\u0000b': 1 }, 'validation.nul_character')
      break
  }
  return cases
}

// ------------------------------------------------------------------ messages

type Lang = keyof typeof catalogues

export function translate(lang: Lang, key: string): string {
  let node: unknown = catalogues[lang]
  for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part]
  if (typeof node !== 'string') throw new Error(`no '${key}' in the ${lang} catalogue`)
  return node
}

export const labelOf = (entity: AnyEntity, field: string, lang: Lang = 'en') => translate(lang, entity.fieldLabelKey(field))

/** The catalogue message of `key` as a pattern: `{{max}}` and friends match any text. */
export function messagePattern(key: string, lang: Lang = 'en', params: Record<string, string> = {}): RegExp {
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const template = translate(lang, key)
  const source = template
    .split(/(\{\{\s*\w+\s*\}\})/)
    .map((part) => {
      const m = /^\{\{\s*(\w+)\s*\}\}$/.exec(part)
      if (!m) return escape(part)
      return params[m[1]!] !== undefined ? escape(params[m[1]!]!) : '.+'
    })
    .join('')
  return new RegExp(`^${source}$`)
}
