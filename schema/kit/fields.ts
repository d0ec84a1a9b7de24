import { z } from 'zod'
import { normalizers, type Normalizer } from './normalize'

/**
 * The field kit. Each builder returns a plain description that every layer reads:
 * the zod validator (browser form and server alike), the SQL column, the list cell,
 * the form widget and whether the field can be searched or sorted.
 */
export type FieldKind =
  | 'text' | 'email' | 'phone' | 'url' | 'integer' | 'decimal' | 'boolean'
  | 'date' | 'datetime' | 'enum' | 'ref' | 'refs' | 'file' | 'json'

export type Widget =
  | 'text' | 'textarea' | 'email' | 'phone' | 'url' | 'number' | 'decimal' | 'money'
  | 'checkbox' | 'date' | 'datetime' | 'select' | 'ref-select' | 'refs-select'
  | 'file' | 'image' | 'json'

export type Cell =
  | 'text' | 'link' | 'number' | 'decimal' | 'money' | 'boolean' | 'date' | 'datetime'
  | 'enum' | 'ref' | 'refs' | 'file' | 'image' | 'json'

/** required: must be present; optional: null when absent; default: the default when absent. */
export type Presence = 'required' | 'optional' | 'default'

export type OnDelete = 'restrict' | 'cascade' | 'set null'

export type SqlColumn = {
  /** PostgreSQL type as written in DDL, e.g. `varchar(50)`, `numeric(20,2)`. */
  type: string
  /** SQL literal for the column default, when the field has one. */
  default?: string
}

export interface Field<V = unknown, P extends Presence = Presence> {
  readonly kind: FieldKind
  readonly presence: P
  readonly isRequired: boolean
  /** Validator of the whole field value, blank handling included (output type V or V | null). */
  readonly zod: z.ZodType<P extends 'optional' ? V | null : V>
  /** i18n key of the label; defaults to `field.<name>` when the entity is defined. */
  readonly label?: string
  readonly widget: Widget
  readonly cell: Cell
  readonly isSearchable: boolean
  readonly isSortable: boolean
  readonly isUnique: boolean
  readonly isHiddenInList: boolean
  readonly defaultValue?: V
  /** Absent for `refs`, which lives in a join table. */
  readonly sql?: SqlColumn
  readonly maxLength?: number
  readonly options?: readonly string[]
  readonly ref?: { readonly target: string; readonly onDelete: OnDelete }
  readonly normalize?: Normalizer
  readonly accept?: readonly string[]
  readonly maxBytes?: number
}

export type ValueOf<F> = F extends Field<infer V, infer P> ? (P extends 'optional' ? V | null : V) : never

type Common<V> = {
  required?: boolean
  default?: V
  label?: string
  search?: boolean
  sortable?: boolean
  unique?: boolean
  hideInList?: boolean
}

type PresenceOf<O> = O extends { required: true } ? 'required' : O extends { default: unknown } ? 'default' : 'optional'

const isBlank = (v: unknown) =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '')

/** Wraps a validator of present values with the field's blank handling. */
function present<V>(base: z.ZodType<V>, o: Common<V>, blank: (v: unknown) => boolean = isBlank): z.ZodType {
  if (o.required) {
    const isPresent = z.custom((v) => v !== undefined, { error: 'validation.required' })
    return z.preprocess((v) => (blank(v) ? undefined : v), isPresent.pipe(base as z.ZodType<V, unknown>))
  }
  const fallback = o.default === undefined ? null : o.default
  return z.preprocess((v) => (blank(v) ? fallback : v), o.default === undefined ? base.nullable() : base)
}

function field<V, const O extends Common<V>>(
  o: O,
  spec: {
    kind: FieldKind
    base: z.ZodType<V>
    widget: Widget
    cell: Cell
    sql?: SqlColumn
    isSearchable?: boolean
    isSortable?: boolean
    isBlank?: (v: unknown) => boolean
    extra?: Partial<Omit<Field<V>, 'presence' | 'zod' | 'kind' | 'isRequired'>>
  },
): Field<V, PresenceOf<O>> {
  const presence: Presence = o.required ? 'required' : o.default !== undefined ? 'default' : 'optional'
  return {
    kind: spec.kind,
    presence: presence as PresenceOf<O>,
    isRequired: presence === 'required',
    zod: present(spec.base, o, spec.isBlank) as unknown as Field<V, PresenceOf<O>>['zod'],
    label: o.label,
    widget: spec.widget,
    cell: spec.cell,
    isSearchable: o.search ?? spec.isSearchable ?? false,
    isSortable: o.sortable ?? spec.isSortable ?? true,
    isUnique: o.unique ?? false,
    isHiddenInList: o.hideInList ?? false,
    defaultValue: o.default,
    sql: spec.sql,
    ...spec.extra,
  }
}

// ---------------------------------------------------------------- text-like

type TextOptions = Common<string> & { max?: number; min?: number; multiline?: boolean; normalize?: Normalizer }

function textBase(o: TextOptions, error: string): z.ZodString {
  let s = z.string({ error }).trim()
  if (o.normalize) s = s.overwrite(normalizers[o.normalize])
  if (o.min !== undefined) s = s.min(o.min, { error: 'validation.min_length' })
  if (o.max !== undefined) s = s.max(o.max, { error: 'validation.max_length' })
  return s
}

export function text<const O extends TextOptions>(o: O = {} as O) {
  return field<string, O>(o, {
    kind: 'text',
    base: textBase(o, 'validation.text'),
    widget: o.multiline ? 'textarea' : 'text',
    cell: 'text',
    sql: { type: o.max ? `varchar(${o.max})` : 'text' },
    isSortable: !o.multiline,
    extra: { maxLength: o.max, normalize: o.normalize },
  })
}

export function email<const O extends Common<string>>(o: O = {} as O) {
  const base = z
    .string({ error: 'validation.email' })
    .trim()
    .toLowerCase()
    .max(255, { error: 'validation.max_length' })
    .pipe(z.email({ error: 'validation.email' }))
  return field<string, O>(o, {
    kind: 'email', base, widget: 'email', cell: 'link', sql: { type: 'varchar(255)' }, extra: { maxLength: 255 },
  })
}

/** E.164: spaces, dashes and brackets are dropped and a leading `+` is added (api-contract §3.2). */
export function normalizePhone(raw: string): string {
  const digits = raw.replace(/[\s\-().]/g, '')
  return digits.startsWith('+') ? digits : `+${digits}`
}

export function phone<const O extends Common<string>>(o: O = {} as O) {
  const base = z
    .string({ error: 'validation.phone' })
    .trim()
    .overwrite(normalizePhone)
    .regex(/^\+[1-9]\d{6,14}$/, { error: 'validation.phone' })
  return field<string, O>(o, {
    kind: 'phone', base, widget: 'phone', cell: 'text', sql: { type: 'varchar(32)' }, extra: { maxLength: 16 },
  })
}

/** Accepts a full URL or a bare host such as `www.dhaka.gov.bd`, as the seed data of the original has. */
function isUrlLike(s: string): boolean {
  try {
    const u = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(s) ? s : `https://${s}`)
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.includes('.')
  } catch {
    return false
  }
}

export function url<const O extends Common<string> & { max?: number }>(o: O = {} as O) {
  const max = o.max ?? 1000
  const base = z
    .string({ error: 'validation.url' })
    .trim()
    .max(max, { error: 'validation.max_length' })
    .refine(isUrlLike, { error: 'validation.url' })
  return field<string, O>(o, {
    kind: 'url', base, widget: 'url', cell: 'link', sql: { type: `varchar(${max})` }, extra: { maxLength: max },
  })
}

// ---------------------------------------------------------------- numbers

const INT4 = 2_147_483_647

function toInteger(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isInteger(v) ? v : undefined
  if (typeof v === 'string' && /^\s*-?\d{1,16}\s*$/.test(v)) return Number(v)
  return undefined
}

function integerBase(min: number, max: number, error: string): z.ZodType<number> {
  return z
    .unknown()
    .transform((v, ctx) => {
      const n = toInteger(v)
      if (n === undefined) {
        ctx.addIssue({ code: 'custom', message: error })
        return z.NEVER
      }
      return n
    })
    .pipe(
      z
        .number()
        .min(min, { error: 'validation.min_value' })
        .max(max, { error: 'validation.max_value' }),
    ) as unknown as z.ZodType<number>
}

export function integer<const O extends Common<number> & { min?: number; max?: number; big?: boolean }>(o: O = {} as O) {
  const limit = o.big ? Number.MAX_SAFE_INTEGER : INT4
  return field<number, O>(o, {
    kind: 'integer',
    base: integerBase(o.min ?? -limit, o.max ?? limit, 'validation.integer'),
    widget: 'number',
    cell: 'number',
    sql: { type: o.big ? 'bigint' : 'integer', default: o.default !== undefined ? String(o.default) : undefined },
  })
}

/**
 * Parses a decimal given as a string or a number into its canonical string with exactly
 * `scale` decimals. No float arithmetic: the digits are checked and padded as text.
 */
export function parseDecimal(v: unknown, precision: number, scale: number): string | undefined {
  let s: string
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return undefined
    s = String(v)
    if (/e/i.test(s)) return undefined
  } else if (typeof v === 'string') s = v.trim()
  else return undefined
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(s)
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined
  const sign = m[1] === '-' ? '-' : ''
  const whole = (m[2] ?? '').replace(/^0+(?=\d)/, '') || '0'
  const frac = m[3] ?? ''
  if (frac.length > scale || whole.length > precision - scale) return undefined
  const out = scale > 0 ? `${whole}.${frac.padEnd(scale, '0')}` : whole
  return /^0(\.0*)?$/.test(out) ? out : sign + out
}

export function decimal<const O extends Common<string> & { precision?: number; scale?: number; money?: boolean; min?: string }>(
  o: O = {} as O,
) {
  const precision = o.precision ?? 20
  const scale = o.scale ?? 2
  const minimum = o.min
  const base = z.unknown().transform((v, ctx) => {
    const d = parseDecimal(v, precision, scale)
    if (d === undefined) {
      ctx.addIssue({ code: 'custom', message: 'validation.decimal', params: { scale, whole: precision - scale } })
      return z.NEVER
    }
    if (minimum !== undefined && d.startsWith('-') && !minimum.startsWith('-')) {
      ctx.addIssue({ code: 'too_small', origin: 'number', minimum: Number(minimum), inclusive: true, message: 'validation.min_value', input: d })
      return z.NEVER
    }
    return d
  }) as unknown as z.ZodType<string>
  const isMoney = o.money ?? (scale === 2 && precision === 20)
  return field<string, O>(o, {
    kind: 'decimal',
    base,
    widget: isMoney ? 'money' : 'decimal',
    cell: isMoney ? 'money' : 'decimal',
    sql: { type: `numeric(${precision},${scale})`, default: o.default !== undefined ? `'${o.default}'` : undefined },
  })
}

export const money = <const O extends Common<string> & { min?: string }>(o: O = {} as O) =>
  decimal({ ...o, precision: 20, scale: 2, money: true } as O & { precision: 20; scale: 2; money: true })

// ---------------------------------------------------------------- other scalars

const truthy = new Set(['true', '1', 'on', 'yes'])
const falsy = new Set(['false', '0', 'off', 'no'])

export function boolean<const O extends Common<boolean>>(o: O = { default: false } as O) {
  const base = z.unknown().transform((v, ctx) => {
    if (typeof v === 'boolean') return v
    if (v === 1 || v === 0) return v === 1
    if (typeof v === 'string' && truthy.has(v.toLowerCase())) return true
    if (typeof v === 'string' && falsy.has(v.toLowerCase())) return false
    ctx.addIssue({ code: 'custom', message: 'validation.boolean' })
    return z.NEVER
  }) as unknown as z.ZodType<boolean>
  const withDefault = (o.default === undefined && !o.required ? { ...o, default: false } : o) as O
  return field<boolean, O>(withDefault, {
    kind: 'boolean',
    base,
    widget: 'checkbox',
    cell: 'boolean',
    sql: { type: 'boolean', default: withDefault.default !== undefined ? String(withDefault.default) : undefined },
  })
}

function isCalendarDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s)
  if (!m) return false
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])))
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3])
}

export function date<const O extends Common<string>>(o: O = {} as O) {
  const base = z.string({ error: 'validation.date' }).trim().refine(isCalendarDate, { error: 'validation.date' })
  return field<string, O>(o, { kind: 'date', base, widget: 'date', cell: 'date', sql: { type: 'date' } })
}

export function datetime<const O extends Common<string>>(o: O = {} as O) {
  const base = z
    .string({ error: 'validation.datetime' })
    .trim()
    .refine((s) => /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(s) && !Number.isNaN(Date.parse(s)), { error: 'validation.datetime' })
    .transform((s) => new Date(s).toISOString()) as unknown as z.ZodType<string>
  return field<string, O>(o, { kind: 'datetime', base, widget: 'datetime', cell: 'datetime', sql: { type: 'timestamptz' } })
}

export function choice<const T extends readonly [string, ...string[]], const O extends Common<T[number]>>(options: T, o: O = {} as O) {
  const base = z.enum(options, { error: 'validation.choice' }) as unknown as z.ZodType<T[number]>
  const longest = Math.max(...options.map((x) => x.length))
  return field<T[number], O>(o, {
    kind: 'enum',
    base,
    widget: 'select',
    cell: 'enum',
    sql: { type: `varchar(${Math.max(longest, 20)})`, default: o.default !== undefined ? `'${o.default}'` : undefined },
    extra: { options },
  })
}

// ---------------------------------------------------------------- relations

/** A row id: a positive integer, given as a number or a digit string (multipart forms). */
const idBase = (error: string) =>
  z.unknown().transform((v, ctx) => {
    const n = toInteger(v)
    if (n === undefined || n < 1) {
      ctx.addIssue({ code: 'custom', message: error })
      return z.NEVER
    }
    return n
  }) as unknown as z.ZodType<number>

/** The original's forms send `0` or `'0'` for "none chosen" (api-contract §2.5). */
const isBlankRef = (v: unknown) => isBlank(v) || v === 0 || v === '0'

export function ref<const O extends Common<number> & { onDelete?: OnDelete }>(target: string, o: O = {} as O) {
  return field<number, O>(o, {
    kind: 'ref',
    base: idBase('validation.ref'),
    isBlank: isBlankRef,
    widget: 'ref-select',
    cell: 'ref',
    sql: { type: 'bigint' },
    extra: { ref: { target, onDelete: o.onDelete ?? (o.required ? 'restrict' : 'set null') } },
  })
}

/** Many-to-many: stored in a join table `<entity>_<field>`, given and returned as an id array. */
export function refs<const O extends Common<number[]>>(target: string, o: O = {} as O) {
  const base = z
    .unknown()
    .transform((v) => (typeof v === 'string' ? v.split(',').filter((x) => x.trim() !== '') : v))
    .pipe(z.array(idBase('validation.refs'), { error: 'validation.refs' }))
    .transform((ids) => [...new Set(ids)].sort((a, b) => a - b)) as unknown as z.ZodType<number[]>
  return field<number[], O>({ default: [] as number[], ...o } as O, {
    kind: 'refs',
    base,
    widget: 'refs-select',
    cell: 'refs',
    isSortable: false,
    extra: { ref: { target, onDelete: 'cascade' } },
  })
}

// ---------------------------------------------------------------- files and json

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/x-icon', 'image/vnd.microsoft.icon', 'image/svg+xml'] as const

/** Stored as the path under `/media/` that the upload produced. */
export function file<const O extends Common<string> & { image?: boolean; accept?: readonly string[]; maxBytes?: number }>(o: O = {} as O) {
  const base = z.string({ error: 'validation.file' }).trim().max(500, { error: 'validation.max_length' })
  return field<string, O>(o, {
    kind: 'file',
    base,
    widget: o.image ? 'image' : 'file',
    cell: o.image ? 'image' : 'file',
    sql: { type: 'varchar(500)' },
    isSortable: false,
    extra: {
      accept: o.accept ?? (o.image ? IMAGE_TYPES : undefined),
      maxBytes: o.maxBytes ?? 5 * 1024 * 1024,
    },
  })
}

export const image = <const O extends Common<string> & { maxBytes?: number }>(o: O = {} as O) =>
  file({ ...o, image: true } as O & { image: true })

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json }

export function json<const O extends Common<Json>>(o: O = {} as O) {
  const base = z
    .unknown()
    .transform((v, ctx) => {
      if (typeof v !== 'string') return v
      try {
        return JSON.parse(v) as unknown
      } catch {
        ctx.addIssue({ code: 'custom', message: 'validation.json' })
        return z.NEVER
      }
    })
    .pipe(z.json({ error: 'validation.json' })) as unknown as z.ZodType<Json>
  return field<Json, O>(o, { kind: 'json', base, widget: 'json', cell: 'json', sql: { type: 'jsonb' }, isSortable: false })
}
