import type { Entity, Fields, InputOf } from './entity'
import type { Normalizer } from './normalize'

/**
 * The field kit. Each builder returns a plain description that every layer reads: the
 * SQL column, the list cell, the form widget, whether the field can be searched or
 * sorted, and the rules its validator enforces. The zod validator itself is built from
 * this description in `validators.ts`, so that screens which only list rows do not load
 * zod (the list route's JavaScript budget); forms and the server import it.
 */
export type FieldKind =
  | 'text' | 'email' | 'phone' | 'url' | 'integer' | 'decimal' | 'boolean'
  | 'date' | 'datetime' | 'enum' | 'ref' | 'refs' | 'file' | 'json' | 'password' | 'lines'

export type Widget =
  | 'text' | 'textarea' | 'email' | 'phone' | 'url' | 'number' | 'decimal' | 'money'
  | 'checkbox' | 'date' | 'datetime' | 'select' | 'ref-select' | 'refs-select'
  | 'file' | 'image' | 'json' | 'password' | 'lines' | 'richtext' | 'slug'

export type Cell =
  | 'text' | 'link' | 'number' | 'decimal' | 'money' | 'boolean' | 'date' | 'datetime'
  | 'enum' | 'ref' | 'refs' | 'file' | 'image' | 'json' | 'lines' | 'html' | 'status'

/** The colour a state's chip is drawn in (a workflow's status: `tones` of defineEntity's workflow). */
export type Tone = 'gray' | 'blue' | 'green' | 'amber' | 'red' | 'violet'

/** required: must be present; optional: null when absent; default: the default when absent. */
export type Presence = 'required' | 'optional' | 'default'

/** Texts of a known shape (`f.postalCode()`). */
/** `code`: an identifier (a country code, a SKU) that reads left to right in every language. */
export type TextFormat = 'postal_code' | 'code'

/**
 * What deleting a referenced row does to the rows that refer to it: `restrict` refuses the
 * delete (the default: nothing is lost by surprise), `setNull` clears the reference (a
 * deliberate registry choice, for an optional reference), `cascade` deletes them with it.
 */
export type OnDelete = 'restrict' | 'cascade' | 'setNull'

/** How a list row carries a reference: `{id, name}` by default (see `Field.listAs`). */
export type ListAs = 'label' | 'id'

/** The rules whose message a field may replace with its own i18n key (`messages`). */
export type MessageRule =
  | 'required' | 'invalid' | 'text' | 'max_length' | 'min_length' | 'email' | 'phone' | 'url'
  | 'integer' | 'min_value' | 'max_value' | 'above_value' | 'max_amount' | 'decimal' | 'boolean' | 'date' | 'datetime'
  | 'choice' | 'ref' | 'refs' | 'file' | 'json' | 'lines' | 'line_id'
  | 'future_date' | 'postal_code' | 'not_within'
  | 'tree_cycle' | 'tree_depth' | 'tree_subtree_depth'

/** Own messages of a field, by rule: i18n keys under `validation.` (the registry check verifies them). */
export type FieldMessages = { readonly [R in MessageRule]?: `validation.${string}` }

export type SqlColumn = {
  /** PostgreSQL type as written in DDL, e.g. `varchar(50)`, `numeric(20,2)`. */
  type: string
  /** SQL literal for the column default, when the field has one. */
  default?: string
}

/**
 * What a computed field's function sees: the record's validated values (a document's lines
 * included, each with its own computed values), or on read the stored row.
 */
export type ComputeInput = Readonly<Record<string, unknown>>

/** Child rows of a document (`f.lines`): the line entity, and how a line may be written. */
export type LinesSpec = {
  readonly entity: Entity<string, Fields>
  /** A line may be sent as the bare value of this field (`menu_items: [3, 5]` for `[{menu_item: 3}, …]`). */
  readonly scalar?: string
  /** Fewest lines a document must have. */
  readonly min?: number
  /**
   * The line columns the form totals under the lines (`['debit', 'credit']`, `['quantity',
   * 'total_price']`): number or money fields. Left out: the computed money and decimal
   * columns (a line's total) — a column of unit prices has no meaningful sum.
   */
  readonly totals?: readonly string[]
}

export interface Field<V = unknown, P extends Presence = Presence> {
  readonly kind: FieldKind
  readonly presence: P
  readonly isRequired: boolean
  /** i18n key of the label; defaults to `field.<name>` when the entity is defined. */
  readonly label?: string
  readonly widget: Widget
  readonly cell: Cell
  readonly isSearchable: boolean
  readonly isSortable: boolean
  readonly isUnique: boolean
  /** With `isUnique`: unique among the rows with the same value of this other field (a district's name within its country). */
  readonly uniqueWithin?: string
  readonly isHiddenInList: boolean
  /** Set by the server only: never taken from a request body (e.g. `last_login`). */
  readonly isReadOnly: boolean
  /** Taken from request bodies but never answered (passwords). */
  readonly isWriteOnly: boolean
  /**
   * The database holds the field's lower bound too (`min`, or a decimal's `gt`): a CHECK
   * constraint the registry sync adds, so that no writer — a hook, a kernel, a hand in psql —
   * can store less (on-hand stock never below zero).
   */
  readonly isEnforced: boolean
  /**
   * Kept by the write layer from the record's other values (a line's `total_price`, a
   * document's `amount`); what a client sends for it is ignored. Stored unless `isVirtual`.
   */
  readonly compute?: (record: ComputeInput) => V | null
  /**
   * Not a column: a computed field worked out when the record is read (not sortable or
   * filterable), or an input-only value (`isTransient`: a password confirmation).
   */
  readonly isVirtual: boolean
  /** Taken from the request for the rules and hooks to judge, never stored or answered. */
  readonly isTransient: boolean
  /** False for a value that is not business activity (a user's own UI settings): the audit log leaves it out. */
  readonly isAudited: boolean
  /**
   * Someone's data or a secret (a mail's recipient and body, a token): its entity is never
   * opened to anonymous reads. Contact details and credentials (e-mail, phone, password kinds) are so by kind.
   */
  readonly isPersonal: boolean
  /** Only an admin may set or change it (a user's admin flag): the engine refuses others, forms show it read-only to them. */
  readonly isAdminOnly: boolean
  /**
   * Filled from the row a reference of the same record (or line) points at, when that is
   * chosen and this is left empty (Frappe's `fetch_from`): an order line's price from its
   * product's `unit_price`. The form fills it as the reference is picked; the server, when a
   * write leaves it out.
   */
  readonly fetchFrom?: { readonly ref: string; readonly field: string }
  /**
   * A flag worked out from the clock (`f.pastDue`): the record's date-time `due` has passed
   * and its `unless` field holds none of `values` (a ticket not closed). Not stored, yet
   * lists filter by it (`?is_overdue=true`), in SQL against the database's clock.
   */
  readonly pastDue?: { readonly due: string; readonly unless: { readonly field: string; readonly values: readonly string[] } }
  /** A reference a write may give by the referenced row's label (`f.ref(…, { byName: true })`). */
  readonly byName?: boolean
  /**
   * How list rows carry the reference, for a contract's list shape: `label` — the referenced
   * row's label instead of `{id, name}`; `id` — the raw id, as the original backend listed it
   * (a client that renders the cell as it comes crashes on an object), with the label in the
   * row's `_labels` for screens that show names.
   */
  readonly listAs?: ListAs
  /**
   * A reference that lies within others of the record (a police station within its
   * district): `{ city: 'city' }` — the target's field `city` must equal this record's
   * `city`. The form's picker lists only such rows and choosing one fills that field in;
   * changing it clears a choice no longer within it; the server refuses a pair that disagrees.
   */
  readonly within?: Readonly<Record<string, string>>
  /** A date that cannot be later than today (a birthday): judged in the browser and on the server. */
  readonly notAfter?: 'today'
  /** A new form starts the date at today (a voucher's day); a required one must still be sent, an optional one left blank is today. */
  readonly initial?: 'today'
  /** A text of a known shape, judged as such (`postal_code`: see `postalCode`). */
  readonly format?: TextFormat
  /** `html`: formatted text, sanitised by the server before it is stored (see `html`). */
  readonly markup?: 'html'
  /** A slug made from this other text field of the record when left blank (see `slug`). */
  readonly slugFrom?: string
  readonly lines?: LinesSpec
  readonly messages?: FieldMessages
  readonly defaultValue?: V
  /**
   * A valid value for documentation and generated samples (the OpenAPI document's examples, the
   * generic test suites' records) where the kind alone cannot make one: a value a module's rule
   * judges (a saved view's `list`, an entity name).
   */
  readonly example?: V
  /** Absent for `refs`, which lives in a join table. */
  readonly sql?: SqlColumn
  readonly minLength?: number
  readonly maxLength?: number
  /** Inclusive bounds of integers; decimals keep theirs as strings in `minDecimal`. */
  readonly min?: number
  readonly max?: number
  readonly minDecimal?: string
  /** An exclusive lower bound of a decimal (`gt`): the value must be above it. */
  readonly gtDecimal?: string
  /** An inclusive bound of a decimal's size, either sign (`max`; every money field's `MONEY_MAX`). */
  readonly maxDecimal?: string
  readonly precision?: number
  readonly scale?: number
  readonly options?: readonly string[]
  /** A workflow's status: the chip colour of each state (cell `status`). */
  readonly tones?: Readonly<Record<string, Tone>>
  readonly ref?: { readonly target: string; readonly onDelete: OnDelete }
  /** A reference of an entity to itself keeps a tree: at most this many levels (see `ref`). */
  readonly maxDepth?: number
  readonly normalize?: Normalizer
  readonly accept?: readonly string[]
  readonly maxBytes?: number
  /** Phantom: carries the value type for inference; never set. */
  readonly __value?: V
}

export type ValueOf<F> = F extends Field<infer V, infer P> ? (P extends 'optional' ? V | null : V) : never

/** Field kinds that are someone's by nature: contact details and credentials. */
const PERSONAL_KINDS: readonly FieldKind[] = ['email', 'phone', 'password']

type Common<V> = {
  required?: boolean
  default?: V
  label?: string
  search?: boolean
  sortable?: boolean
  /** No two rows have the same value; `{ within: 'country' }`: no two rows with the same value of that field. */
  unique?: boolean | { within: string }
  hideInList?: boolean
  /** Set by the server only; a value in a request body is ignored. Cannot be required. */
  readOnly?: boolean
  /** Replaces the message of a rule with the field's own i18n key (a contract's form text). */
  messages?: FieldMessages
  /** Computes the value from the record (stored, or worked out on read when `virtual`); see Field.compute. */
  compute?: (record: ComputeInput) => V | null
  /** With `compute`: not stored, worked out when read. */
  virtual?: boolean
  /** An input-only value (a confirmation): validated, seen by rules and hooks, never stored or answered. */
  transient?: boolean
  /** `false`: changes to it are not business activity (UI settings) and the audit log leaves them out. */
  audited?: boolean
  /** Someone's data or a secret the kind does not tell (a recipient kept as text, a mail body): see Field.isPersonal. */
  personal?: boolean
  /** See Field.isAdminOnly. */
  adminOnly?: boolean
  /** See Field.fetchFrom: `{ ref: 'product', field: 'unit_price' }`. */
  fetchFrom?: { readonly ref: string; readonly field: string }
  /** See Field.isEnforced. */
  enforced?: boolean
  /** See Field.example. */
  example?: V
}

type PresenceOf<O> = O extends { required: true } ? 'required' : O extends { default: unknown } ? 'default' : 'optional'

type Spec<V> = Omit<
  Field<V>,
  | 'presence' | 'isRequired' | 'label' | 'isSearchable' | 'isSortable' | 'isUnique' | 'uniqueWithin' | 'isHiddenInList' | 'isReadOnly' | 'isWriteOnly'
  | 'messages' | 'defaultValue' | '__value' | 'compute' | 'isVirtual' | 'isTransient' | 'isAudited' | 'isPersonal' | 'isAdminOnly' | 'isEnforced'
> & {
  isSearchable?: boolean
  isSortable?: boolean
  isWriteOnly?: boolean
}

function field<V, const O extends Common<V>>(o: O, spec: Spec<V>): Field<V, PresenceOf<O>> {
  const presence: Presence = o.required ? 'required' : o.default !== undefined ? 'default' : 'optional'
  const { isSearchable, isSortable, isWriteOnly, ...rest } = spec
  const isTransient = o.transient ?? false
  // A virtual computed value and an input-only one have no column.
  const isVirtual = isTransient || (o.compute !== undefined && (o.virtual ?? false))
  const writeOnly = (isWriteOnly ?? false) || isTransient
  return {
    ...rest,
    sql: isVirtual ? undefined : rest.sql,
    presence: presence as PresenceOf<O>,
    isRequired: presence === 'required',
    label: o.label,
    isSearchable: isVirtual ? false : (o.search ?? isSearchable ?? false),
    isSortable: isVirtual ? false : (o.sortable ?? isSortable ?? true),
    isUnique: o.unique !== undefined && o.unique !== false,
    uniqueWithin: typeof o.unique === 'object' ? o.unique.within : undefined,
    // A write-only value has nothing to show in a list.
    isHiddenInList: writeOnly || (o.hideInList ?? false),
    // The write layer sets a computed value: a client's is ignored.
    isReadOnly: (o.readOnly ?? false) || o.compute !== undefined,
    isWriteOnly: writeOnly,
    compute: o.compute,
    isVirtual,
    isTransient,
    isAudited: o.audited ?? true,
    isPersonal: (o.personal ?? false) || PERSONAL_KINDS.includes(rest.kind),
    isAdminOnly: o.adminOnly ?? false,
    isEnforced: o.enforced ?? false,
    messages: o.messages,
    defaultValue: o.default,
    example: o.example,
    ...(o.fetchFrom ? { fetchFrom: o.fetchFrom } : {}),
  }
}

// ---------------------------------------------------------------- text-like

type TextOptions = Common<string> & {
  max?: number
  min?: number
  multiline?: boolean
  normalize?: Normalizer
  /** An identifier (`BD`, `+880`, `USD`): kept left to right in right-to-left pages, in lists and inputs. */
  code?: boolean
}

export function text<const O extends TextOptions>(o: O = {} as O) {
  return field<string, O>(o, {
    kind: 'text',
    widget: o.multiline ? 'textarea' : 'text',
    cell: 'text',
    sql: { type: o.max ? `varchar(${o.max})` : 'text' },
    isSortable: !o.multiline,
    minLength: o.min,
    maxLength: o.max,
    normalize: o.normalize,
    format: o.code ? 'code' : undefined,
  })
}

/**
 * Formatted text (a content's body, a blog post): HTML edited in a rich-text editor, which
 * the server sanitises before storing it (no script, no event handlers, no `javascript:`
 * links), so whatever a client sends comes back inert. Lists show its words, not its tags.
 */
export function html<const O extends Common<string> & { max?: number }>(o: O = {} as O) {
  return field<string, O>(o, { kind: 'text', widget: 'richtext', cell: 'html', sql: { type: 'text' }, isSortable: false, maxLength: o.max, markup: 'html' })
}

/**
 * The address-friendly name of a record (`summer-in-sylhet`): made from the field `from`
 * when left blank (lower case, words joined by `-`), and with `unique` given `-2`, `-3`…
 * when another row has it. The form previews it as the source is typed.
 */
export function slug<const O extends Common<string> & { from: string; max?: number }>(o: O) {
  const max = o.max ?? 500
  return field<string, O>(o, { kind: 'text', widget: 'slug', cell: 'text', sql: { type: `varchar(${max})` }, maxLength: max, format: 'code', slugFrom: o.from })
}

/**
 * Values written left to right whatever the page's direction (phone numbers, addresses,
 * codes): an Arabic table or form shows `+880 1711-000000` in its own order, isolated.
 */
export function readsLeftToRight(field: Pick<Field, 'kind' | 'format'>): boolean {
  return field.kind === 'phone' || field.kind === 'email' || field.kind === 'url' || field.format !== undefined
}

/**
 * A secret: taken on create and update, hashed by the server (argon2id) and never answered,
 * listed, searched or sorted. On update a blank value keeps the stored hash.
 */
export function password<const O extends Omit<Common<string>, 'default' | 'search' | 'sortable' | 'unique' | 'hideInList'> & { min?: number; max?: number }>(
  o: O = {} as O,
) {
  return field<string, O>(o, {
    kind: 'password',
    widget: 'password',
    cell: 'text',
    sql: { type: 'varchar(255)' },
    isSearchable: false,
    isSortable: false,
    isWriteOnly: true,
    minLength: o.min,
    maxLength: o.max ?? 128,
  })
}

export function email<const O extends Common<string>>(o: O = {} as O) {
  return field<string, O>(o, { kind: 'email', widget: 'email', cell: 'link', sql: { type: 'varchar(255)' }, maxLength: 255 })
}

/** E.164: spaces, dashes and brackets are dropped and a leading `+` is added (api-contract §3.2). */
export function normalizePhone(raw: string): string {
  const digits = raw.replace(/[\s\-().]/g, '')
  return digits.startsWith('+') ? digits : `+${digits}`
}

export function phone<const O extends Common<string>>(o: O = {} as O) {
  return field<string, O>(o, { kind: 'phone', widget: 'phone', cell: 'text', sql: { type: 'varchar(32)' }, maxLength: 16 })
}

/**
 * A postal code (`1212`, `SW1A 1AA`, `12345-6789`): 3 to 12 letters, digits, spaces or
 * hyphens with at least one digit, kept in capitals with single spaces. The column is the
 * contract's `string(50)`.
 */
export function postalCode<const O extends Common<string>>(o: O = {} as O) {
  return field<string, O>(o, { kind: 'text', widget: 'text', cell: 'text', sql: { type: 'varchar(50)' }, minLength: 3, maxLength: 12, format: 'postal_code' })
}

export function url<const O extends Common<string> & { max?: number }>(o: O = {} as O) {
  const max = o.max ?? 1000
  return field<string, O>(o, { kind: 'url', widget: 'url', cell: 'link', sql: { type: `varchar(${max})` }, maxLength: max })
}

// ---------------------------------------------------------------- numbers

export const INT4_MAX = 2_147_483_647

export function integer<const O extends Common<number> & { min?: number; max?: number; big?: boolean }>(o: O = {} as O) {
  const limit = o.big ? Number.MAX_SAFE_INTEGER : INT4_MAX
  return field<number, O>(o, {
    kind: 'integer',
    widget: 'number',
    cell: 'number',
    sql: { type: o.big ? 'bigint' : 'integer', default: o.default !== undefined ? String(o.default) : undefined },
    min: o.min ?? -limit,
    max: o.max ?? limit,
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

/** Compares two decimal strings exactly (no float): negative, zero or positive. */
export function compareDecimals(a: string, b: string): number {
  const parts = (v: string) => {
    const negative = v.startsWith('-')
    const [whole, frac = ''] = v.replace(/^-/, '').split('.')
    return { negative, whole: whole!.replace(/^0+(?=\d)/, ''), frac }
  }
  const [x, y] = [parts(a), parts(b)]
  const scale = Math.max(x.frac.length, y.frac.length)
  const big = (p: ReturnType<typeof parts>) => BigInt(`${p.negative ? '-' : ''}${p.whole}${p.frac.padEnd(scale, '0')}`)
  const d = big(x) - big(y)
  return d < 0n ? -1 : d > 0n ? 1 : 0
}

/**
 * The most a money field takes, either sign: 12 digits before the point, a business-sized
 * amount. The column (`numeric(20,2)`) holds more, but totals must stay far inside what
 * anything summing amounts can hold: two amounts that each fit the column overflow it
 * together, and the general ledger, being append-only, would keep them for good.
 */
export const MONEY_WHOLE_DIGITS = 12
export const MONEY_MAX = `${'9'.repeat(MONEY_WHOLE_DIGITS)}.99`

/**
 * A decimal number kept exactly (a string at the edges, NUMERIC in SQL). `min`: not below
 * (a money field's `'0'`: never negative); `gt`: above it, not equal (money received: above
 * zero — a receipt of nothing posts nothing); `max`: not larger, either sign (a money
 * field's `MONEY_MAX` unless it says otherwise).
 */
export function decimal<const O extends Common<string> & { precision?: number; scale?: number; money?: boolean; min?: string; gt?: string; max?: string }>(
  o: O = {} as O,
) {
  const precision = o.precision ?? 20
  const scale = o.scale ?? 2
  const isMoney = o.money ?? (scale === 2 && precision === 20)
  return field<string, O>(o, {
    kind: 'decimal',
    widget: isMoney ? 'money' : 'decimal',
    cell: isMoney ? 'money' : 'decimal',
    sql: { type: `numeric(${precision},${scale})`, default: o.default !== undefined ? `'${o.default}'` : undefined },
    precision,
    scale,
    minDecimal: o.min,
    gtDecimal: o.gt,
    maxDecimal: o.max ?? (isMoney ? MONEY_MAX : undefined),
  })
}

export const money = <const O extends Common<string> & { min?: string; gt?: string; max?: string }>(o: O = {} as O) =>
  decimal({ ...o, precision: 20, scale: 2, money: true } as O & { precision: 20; scale: 2; money: true })

// ---------------------------------------------------------------- other scalars

export function boolean<const O extends Common<boolean>>(o: O = { default: false } as O) {
  const withDefault = (o.default === undefined && !o.required ? { ...o, default: false } : o) as O
  return field<boolean, O>(withDefault, {
    kind: 'boolean',
    widget: 'checkbox',
    cell: 'boolean',
    sql: { type: 'boolean', default: withDefault.default !== undefined ? String(withDefault.default) : undefined },
  })
}

/**
 * Whether a record is past its due time (Field.pastDue): `due` a date-time field of the
 * record, `unless` a field and the values that mean it is done (a ticket `closed`).
 */
export function pastDue<const O extends Pick<Common<boolean>, 'label' | 'hideInList'> & { due: string; unless: { field: string; values: readonly string[] } }>(o: O) {
  const compute = (record: ComputeInput): boolean => {
    const raw = record[o.due]
    const due = raw instanceof Date ? raw.getTime() : typeof raw === 'string' ? Date.parse(raw) : NaN
    return due < Date.now() && !o.unless.values.includes(String(record[o.unless.field]))
  }
  const flag = field<boolean, { label?: string; hideInList?: boolean; compute: typeof compute; virtual: true; sortable: false }>(
    { label: o.label, hideInList: o.hideInList, compute, virtual: true, sortable: false },
    { kind: 'boolean', widget: 'checkbox', cell: 'boolean', sql: undefined },
  )
  return { ...flag, pastDue: { due: o.due, unless: { field: o.unless.field, values: o.unless.values } } }
}

/**
 * A calendar day, `YYYY-MM-DD`. `notAfter: 'today'`: a day in the future is refused (a
 * birthday). `initial: 'today'`: a new form starts at the user's today, and a record written
 * without one (an optional date) is given the day it is written.
 */
export function date<const O extends Common<string> & { notAfter?: 'today'; initial?: 'today' }>(o: O = {} as O) {
  return field<string, O>(o, { kind: 'date', widget: 'date', cell: 'date', sql: { type: 'date' }, notAfter: o.notAfter, initial: o.initial })
}

export function datetime<const O extends Common<string>>(o: O = {} as O) {
  return field<string, O>(o, { kind: 'datetime', widget: 'datetime', cell: 'datetime', sql: { type: 'timestamptz' } })
}

export function choice<const T extends readonly [string, ...string[]], const O extends Common<T[number]>>(options: T, o: O = {} as O) {
  const longest = Math.max(...options.map((x) => x.length))
  return field<T[number], O>(o, {
    kind: 'enum',
    widget: 'select',
    cell: 'enum',
    sql: { type: `varchar(${Math.max(longest, 20)})`, default: o.default !== undefined ? `'${o.default}'` : undefined },
    options,
  })
}

// ---------------------------------------------------------------- relations

/**
 * A reference (foreign key). `search: true` makes the list search match the referenced
 * row's label; `listAs: 'label'` puts that label in list rows instead of `{id, name}`, and
 * `listAs: 'id'` the raw id (with the label in the row's `_labels`).
 * `within: { city: 'city' }` limits it to target rows whose `city` is this record's `city`.
 * Deleting the referenced row is refused while this row refers to it, unless `onDelete`
 * says otherwise (`setNull`, `cascade`).
 * A reference of an entity to itself (a parent) keeps a tree: the server refuses a row under
 * itself or one of its descendants (`tree_cycle`), and with `maxDepth` a row deeper than that
 * many levels (`tree_depth`) or a move pushing its descendants deeper (`tree_subtree_depth`).
 * `byName: true`: a write may name the row by its label instead of its id (the contract's
 * clients send a ticket's department as `support`): the server finds it, as the target's
 * label field would store the text; none so named is a 400 `{detail}` naming what was asked.
 */
export function ref<const O extends Common<number> & { onDelete?: OnDelete; listAs?: ListAs; within?: Readonly<Record<string, string>>; maxDepth?: number; byName?: boolean }>(target: string, o: O = {} as O) {
  return field<number, O>(o, {
    kind: 'ref',
    widget: 'ref-select',
    cell: 'ref',
    sql: { type: 'bigint' },
    ref: { target, onDelete: o.onDelete ?? 'restrict' },
    listAs: o.listAs,
    within: o.within,
    maxDepth: o.maxDepth,
    ...(o.byName ? { byName: true } : {}),
  })
}

/**
 * Many-to-many: stored in a join table `<entity>_<field>`, given and returned as an id array.
 * List rows carry `[{id, name}]`, or with `listAs: 'id'` the ids (names in the row's `_labels`).
 */
export function refs<const O extends Common<number[]> & { listAs?: 'id' }>(target: string, o: O = {} as O) {
  return field<number[], O>({ default: [] as number[], ...o } as O, {
    kind: 'refs',
    widget: 'refs-select',
    cell: 'refs',
    isSortable: false,
    ref: { target, onDelete: 'cascade' },
    listAs: o.listAs,
  })
}

// ---------------------------------------------------------------- files and json

/**
 * What an image field takes by default: the raster types every browser shows. The server
 * takes an image only when its bytes are one of them (never SVG, which can carry script);
 * a field that holds an icon adds `ICON_TYPES` to its `accept`.
 */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const
export const ICON_TYPES = ['image/x-icon', 'image/vnd.microsoft.icon'] as const

/** Stored as the path under `/media/` that the upload produced. */
export function file<const O extends Common<string> & { image?: boolean; accept?: readonly string[]; maxBytes?: number }>(o: O = {} as O) {
  return field<string, O>(o, {
    kind: 'file',
    widget: o.image ? 'image' : 'file',
    cell: o.image ? 'image' : 'file',
    sql: { type: 'varchar(500)' },
    isSortable: false,
    maxLength: 500,
    accept: o.accept ?? (o.image ? IMAGE_TYPES : undefined),
    maxBytes: o.maxBytes ?? 5 * 1024 * 1024,
  })
}

export const image = <const O extends Common<string> & { accept?: readonly string[]; maxBytes?: number }>(o: O = {} as O) =>
  file({ ...o, image: true } as O & { image: true })

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json }

export function json<const O extends Common<Json>>(o: O = {} as O) {
  return field<Json, O>(o, { kind: 'json', widget: 'json', cell: 'json', sql: { type: 'jsonb' }, isSortable: false })
}

// ---------------------------------------------------------------- documents

/** A line as a client sends it: the line entity's input, with the `id` of a stored line to change it. */
export type LineInput<E> = E extends Entity<string, infer F> ? InputOf<F> & { id?: number } : never

/**
 * Child rows of a document (master-detail): the line entity (declared with `lineOf` this
 * entity's name) lives in its own table with a cascading reference to the document and a
 * position. A document is written with its lines in one transaction; on update a line
 * with an `id` is changed, one without is added and a stored line left out is removed.
 */
/**
 * The most lines one document may be sent with, as JSON or as multipart `items[i][…]` (each
 * line is a row written with its hooks and audit entry, in one transaction that holds them all).
 */
export const MAX_LINES = 1_000

/**
 * The most ids a many-to-many field may be sent (a role may hold every permission of the app:
 * some hundreds, growing with its modules; they are written in one statement).
 */
export const MAX_REFS = 5_000

export function lines<const E extends Entity<string, Fields>, const O extends Pick<Common<never>, 'label' | 'hideInList' | 'messages'> & { min?: number; scalar?: keyof E['fields'] & string; totals?: ReadonlyArray<keyof E['fields'] & string> }>(
  entity: E,
  o: O = {} as O,
) {
  return field<LineInput<E>[], O & { default: [] }>({ ...o, hideInList: true, default: [] as never } as O & { default: [] }, {
    kind: 'lines',
    widget: 'lines',
    cell: 'lines',
    isSortable: false,
    lines: { entity, scalar: o.scalar, min: o.min, totals: o.totals },
  })
}
