import type { ComputeInput, Field, Presence, Tone, ValueOf } from './fields'

// Builders return Field<V, P> for many V; the registry holds them side by side.
// eslint-style escape is avoided: `never` keeps assignment sound for every V.
export type AnyField = Field<never, Presence> | Field<unknown, Presence>
export type Fields = Record<string, AnyField>

export const actions = ['LIST', 'DETAILS', 'CREATE', 'UPDATE', 'DELETE'] as const
export type Action = (typeof actions)[number]

/**
 * The contract's generic routes of an entity (api-contract §2.1), by name:
 * `all/`, `without_pagination/all/`, `search/`, `{id}`, `create/`, `update/{id}`,
 * `delete/{id}` and the extension `delete_multiple/`.
 */
export const genericRoutes = ['all', 'without_pagination', 'search', 'read', 'create', 'update', 'delete', 'delete_multiple'] as const
export type GenericRoute = (typeof genericRoutes)[number]

/** Who serves a generic route: the engine, a domain module (same path, its own shape), or nobody. */
export type RouteMode = 'generic' | 'bespoke' | false

/** The action (permission) each generic route needs. */
export const routeAction: Readonly<Record<GenericRoute, Action>> = {
  all: 'LIST',
  without_pagination: 'LIST',
  search: 'LIST',
  read: 'DETAILS',
  create: 'CREATE',
  update: 'UPDATE',
  delete: 'DELETE',
  delete_multiple: 'DELETE',
}

/** An extra read route: `…/<path>/{value}` lists the rows whose `field` equals value, unpaginated. */
export type ListByRoute = { kind: 'listBy'; path: string; field: string }

type FieldName<F> = keyof F & string

/**
 * Who is asking, as a registry's row scope sees them (the server's principal has these):
 * with `attributes` (schema/caller.ts: their branch, their department) when it is a signed-in
 * user; code acting on its own has none.
 */
export type Caller = {
  readonly id: number
  readonly isAdmin: boolean
  readonly permissions: ReadonlySet<string>
  readonly attributes?: Readonly<Record<string, string | number | boolean | null>>
}

/** Equality conditions on fields (or `created_by`) that every row a caller may reach meets. */
export type ScopeFilter = Readonly<Record<string, string | number | boolean | null>>

export type RuleContext = {
  mode: 'create' | 'update'
  /** The values as sent, before validation: a rule may tell a value left out from a blank one. */
  input: Readonly<Record<string, unknown>>
  /**
   * A fact about a referenced row a rule needs (`facts` of the rule): whether ledger 7 holds
   * cash. Undefined when it is not known — a rule then passes, and the server, which knows
   * every fact, decides.
   */
  fact?: (target: string, id: unknown, name: string) => unknown
}

/**
 * A fact a rule reads about the rows a field refers to: the server loads it before judging
 * (a column, or one a module works out: a ledger's `is_cash_bank`); the browser uses what it
 * has read of those rows. `field` is the reference, or a document line's (`items.ledger`).
 */
export type RuleFact = { readonly field: string; readonly target: string; readonly name: string }

/**
 * A rule across fields (or across a document's lines), in the registry so that the
 * browser's form and the server judge a record alike. It runs once every field is valid.
 */
export interface Rule {
  /** Where the message goes: a field, or a lines field for a rule about the lines. */
  readonly field: string
  /** i18n key of the message (`validation.…`). */
  readonly message: `validation.${string}`
  readonly check: (values: ComputeInput, context: RuleContext) => boolean
  /** The fields the rule reads: it is judged once they are valid. Default: every field. */
  readonly fields?: readonly string[]
  /** Parameters of the message, from the values (the difference of two totals…). */
  readonly params?: (values: ComputeInput) => Record<string, string | number>
  /** Facts about referenced rows the rule reads through `context.fact`. */
  readonly facts?: readonly RuleFact[]
  /** What the rule is, for screens that show it live (`balanced`: a balance indicator under the lines). */
  readonly kind?: { readonly balanced: { readonly lines: string; readonly debit: string; readonly credit: string; readonly tolerance?: string } }
}

/**
 * A part of an entity's form: a heading (`label`, an i18n key such as `section.address`) over
 * its fields, in their order.
 */
export type FormSection<N extends string = string> = {
  readonly key: string
  readonly label: string
  readonly fields: readonly N[]
}

/** Where an entity or a report sits in the navigation (groups: schema/navigation.ts). */
export type NavSpec = {
  /** The id of a group of schema/navigation.ts. */
  readonly group: string
  /** A Material icon name, as menu rows store them. */
  readonly icon: string
  /** Place among the group's items (smaller first). */
  readonly order?: number
  /** i18n key of the item; default: the plural label of the entity, or the report's title. */
  readonly label?: string
  /** Pinned in a new user's shortcuts. */
  readonly shortcut?: boolean
}

/** A custom action of an entity's records (confirm, cancel, post…): a route, a permission and a button. */
export type ActionSpec = {
  /** i18n key of the button; default `action.<name>`. */
  label?: `action.${string}`
  /** Ask before running: `true` asks `action.<name>_question`, a key asks that. */
  confirm?: boolean | `action.${string}`
  /** Values the action takes from its caller (the screens ask for them in a dialog). */
  input?: Fields
  /** Whether the action applies to a row: the server refuses it otherwise and the screens hide it. */
  isAvailable?: (row: ComputeInput) => boolean
  /** Further paths of the route, for the contract's names (`paybill_and_confirm`). */
  aliases?: readonly string[]
  tone?: 'default' | 'danger'
}

/**
 * A move of a workflow's status (`workflow.transitions`): from any of `from` to `to`. It is an
 * action like any other — a route, a permission, a button, an audit entry — whose effect on
 * the status the engine itself makes; a domain module may add a side effect (a posting, a
 * stock move, a mail) that runs in the same transaction.
 */
export type TransitionSpec = Omit<ActionSpec, 'isAvailable'> & {
  readonly from: readonly string[]
  readonly to: string
  /** A date-time field of the entity set to the moment of the move (an order's `delivered_at`): read-only to plain writes. */
  readonly stamp?: string
}

/**
 * A status that moves only by its transitions (Frappe Books' docstatus, ERPNext's workflows):
 * `field` is a choice field of the entity, which the engine makes read-only to plain writes
 * and starts at `initial`. A record can be changed or deleted only while its status is one of
 * `editableIn`; outside them the server answers 409 naming the status. `tones` colour the
 * status chip of lists and forms (defaults: the initial state gray, a state reached by a
 * `danger` transition red, a state with no way out green, the rest blue).
 */
export type WorkflowConfig<N extends string = string> = {
  readonly field: N
  readonly initial: string
  readonly editableIn: readonly string[]
  readonly transitions: Readonly<Record<string, TransitionSpec>>
  readonly tones?: Readonly<Record<string, Tone>>
  /**
   * A reference of the entity kept pointing at the row of a lookup named as the status (the
   * contract's `order_status: {id, name}` beside our workflow's `status`): set as the record
   * is created and at every transition, in the same transaction. `names` maps a state to the
   * lookup's name where they differ (a final purchase's `draft` is the lookup's `pending`).
   */
  readonly lookup?: { readonly field: N; readonly names?: Readonly<Record<string, string>> }
}

export interface Workflow {
  readonly field: string
  readonly initial: string
  /** Every state: the status field's choices. */
  readonly states: readonly string[]
  readonly editableIn: readonly string[]
  readonly transitions: Readonly<Record<string, { readonly name: string; readonly from: readonly string[]; readonly to: string; readonly stamp?: string }>>
  readonly tones: Readonly<Record<string, Tone>>
  /** See WorkflowConfig.lookup: the reference field, and the lookup's name of each state. */
  readonly lookup?: { readonly field: string; readonly names: Readonly<Record<string, string>>; readonly nameOf: (state: string) => string }
}

/**
 * A document's number (`numbering` of defineEntity), given by the server as the record is
 * created, gapless under concurrency: `<PREFIX><YYYYMMDD>00<n>` counted per day, or
 * `<PREFIX><YYYY>00<n>` per year, of the record's `date` field (today when it has none).
 */
export type Numbering<N extends string = string> = {
  readonly field: N
  readonly prefix: string
  readonly reset: 'day' | 'year'
  readonly date?: N
}

/**
 * What a document writes to the general ledger (Frappe Books' `Transactional`): the engine
 * posts it in the write's transaction, reposts it (reversal and post, same number) when what
 * it posts changes while it may be edited, and reverses it on delete or on a `reverseOn`
 * transition. The lines are the domain's: its module gives `postings: { <entity>: … }`.
 * - `as`: `'ledger'` — general-ledger rows under the record's own number (a voucher); or the
 *   name of a voucher entity — a voucher of that kind, numbered by its numbering, whose rows
 *   post in turn (a donation's receipt).
 * - `number`: the read-only field that holds the posting's number, taken when it first posts.
 * - `on`: `'create'` (the default: posted as written) or a transition of its workflow.
 * - `when`: posts only while true (a cause posts its goal when it has one); once false, what
 *   stands is reversed.
 * - `date`: the field the number is counted by (default: today).
 */
export type PostsConfig<N extends string = string> = {
  readonly as: string
  readonly number: N
  readonly on?: string
  readonly reverseOn?: readonly string[]
  readonly when?: (record: ComputeInput) => boolean
  readonly date?: N
}

/**
 * What a document moves in stock, and when (goods received in, an order's goods out, a
 * count's difference): the engine moves it in the transaction of the write or transition
 * that causes it, through the module that keeps the stock (a DomainModule's `stock`); the
 * movements are the domain's (its module's `stockMoves: { <entity>: … }`).
 * - `number`: the read-only field holding the document's number (its numbering's), which the
 *   stock ledger's rows name.
 * - `on`: `'create'` (the default: moved as written, moved again when a change moves other
 *   stock, undone when deleted) or a transition of its workflow.
 * - `reverseOn`: transitions that undo it (a cancel) — refused while its goods are gone.
 * - `date`: the date field its movements are dated by (default: today). A document moved on a
 *   transition and changed afterwards (a confirmed order's items) moves again dated the day of
 *   the change: its first movements may since have been followed by others.
 * - `lineCost`: a field of its lines that keeps the unit cost each line moved at, as it moved
 *   (an order line's cost at the moving average it left at: the order's profit reads it).
 */
export type MovesConfig<N extends string = string> = {
  readonly number: N
  readonly on?: string
  readonly reverseOn?: readonly string[]
  readonly date?: N
  readonly lineCost?: { readonly lines: N; readonly field: string }
}

/**
 * A document kept one row per line (the contract's vouchers, api-contract §4.7: "All are line
 * tables"): the rows that share `key` are one document. The fields of `lineFields` are each
 * line's own; every other stored field is the document's header, the same on every row. The
 * engine reads and writes it as a document — a header with its `lines` (`documentOf`), judged
 * by the entity's `rules` (over the lines, `rules.balanced`…) and each line by `lineRules` —
 * and lists it one row per document: the row `shownLine` picks stands for it (the first whose
 * reference `field` points at a row with the `where` values; else its first row), with `sums`
 * (a column summed over the document's rows) and `others` (the labels of the other rows'
 * reference) as list values of virtual fields.
 */
export type RowsPerLineConfig<N extends string = string> = {
  readonly key: N
  readonly lines: string
  readonly lineFields: readonly N[]
  readonly min?: number
  readonly totals?: readonly N[]
  readonly lineRules?: readonly Rule[]
  readonly shownLine?: { readonly field: N; readonly where: Readonly<Record<string, string | number | boolean>> }
  readonly sums?: Readonly<Record<string, N>>
  readonly others?: Readonly<Record<string, N>>
}

/**
 * A document's printed form (`print` of defineEntity): the company's name, address and logo
 * (site settings) at the top, the `header` facts, the `party` it is with, its lines with the
 * `totals` under them, the `amount` in figures and in words (in the reader's language), and
 * signature lines. The engine's print view draws it, in the reader's language and direction.
 */
export type PrintConfig<N extends string = string> = {
  readonly header: readonly N[]
  /** The lines printed: a lines field (or a row-per-line document's lines) and its columns. */
  readonly lines?: { readonly field: string; readonly columns: readonly string[] }
  readonly totals?: readonly string[]
  /** Who the document is with, worked out from it (a payment's payees): a heading and the names. */
  readonly party?: { readonly label: `print.${string}`; readonly of: (document: ComputeInput) => string | null }
  /** The amount said in words too: a money field, or the sum of a line column. */
  readonly amount?: N | { readonly sum: string }
  /** Signature lines, by their i18n keys (`print.prepared_by`). */
  readonly signatures?: readonly `print.${string}`[]
  /**
   * Rows of other entities that refer to the document, each printed as a block beside the
   * party — the newest one of each (an order's billing and shipping addresses): `via` the
   * other entity's reference to it (one of its list filters), `fields` what the block shows.
   */
  readonly blocks?: readonly { readonly entity: string; readonly via: string; readonly label: `print.${string}`; readonly fields: readonly string[] }[]
}

/**
 * A list of some of an entity's rows with an address and a menu entry of its own (ra-core's
 * permanent `filter`; several lists of one resource): the orders being processed, the tickets
 * of the sales department. The server applies its `filter` whatever else the list asks
 * (`?view=<name>`), so counts and exports agree; the list shows it fixed. Its rows open the
 * entity's form, which returns to the view. A value, any of several (`['pending',
 * 'processing']`), or for a reference the row of that label (`{ department: 'sales' }`).
 * `route.form`: the view's own address of the form, `/apps/<form>/{id}/{name?}` (the spec's
 * `support-managements/ticket-details/{supportId}`): the entity's form screen there, not a
 * redirect, and the view's rows and New open their records at it.
 */
export type ViewConfig<N extends string = string> = {
  readonly route: { readonly area: string; readonly list: string; readonly form?: string }
  readonly filter: Readonly<Partial<Record<N, string | number | boolean | readonly (string | number)[]>>>
  /** Its menu entry; none when `false`. Default: the entity's group and icon. */
  readonly nav?: NavSpec | false
  readonly columns?: readonly N[]
  /** i18n key of its name (its heading, its menu entry); default `view.<entity>.<name>`. */
  readonly label?: string
}

/**
 * The rows of another entity that refer to a record, listed under its form, newest first
 * (ra-core's ReferenceManyField; a Django admin inline, read-only): a product's stock
 * movements, a purchase's payments. `via` is the other entity's reference to this one, and
 * one of its list filters: the panel's "see all" opens that list filtered by the record. The
 * panel is shown to those who may list the other entity; the server judges its rows.
 */
export type RelatedSpec = {
  readonly entity: string
  readonly via: string
  /** Its columns (default: the other entity's first list columns, but `via`). */
  readonly columns?: readonly string[]
  /** How many rows the panel shows (default 10); "see all" lists the rest. */
  readonly size?: number
}

export interface View {
  readonly name: string
  readonly label: string
  readonly filter: Readonly<Record<string, string | number | boolean | readonly (string | number)[]>>
  readonly columns: readonly string[]
  readonly nav: NavSpec | null
  /** `formPath`: its own form address (`route.form`, as `/apps/<form>`), when it names one. */
  readonly ui: { readonly area: string; readonly areaPath: string; readonly listPath: string; readonly formPath?: string }
}

export interface EntityAction {
  readonly name: string
  /** `<PREFIX>_<NAME>`, as roles hold it: `ORDER_CONFIRM`. */
  readonly permission: string
  readonly labelKey: string
  readonly confirmKey?: string
  readonly input: Fields
  readonly inputNames: readonly string[]
  readonly isAvailable?: (row: ComputeInput) => boolean
  /** The route's paths below the entity's base: the name, then the aliases. */
  readonly paths: readonly string[]
  readonly tone: 'default' | 'danger'
  /** Set for a workflow's transition: the engine moves the status from one of `from` to `to`. */
  readonly transition?: { readonly field: string; readonly from: readonly string[]; readonly to: string }
}

/** An entity's automatic ledger account (`ledger` of defineEntity). */
export type AutoLedger<N extends string = string> = { readonly group: string; readonly type: string; readonly name?: N }

/** The fields of an entity that extends `P` and declares `F`: its own, and the parent's it does not override. */
export type Merged<P, F> = Omit<P, keyof F> & F

export interface EntityConfig<N extends string, F extends Fields, P extends Fields = Record<never, never>> {
  /** API and table name: `/thana/api/v1/thana/…`, table `thana`. */
  name: N
  /** Module folder and navigation group. */
  module: string
  /** Key of the array in list responses (`thanas`). Not for line entities. */
  listKey?: string
  /**
   * Multi-table inheritance (Django's): the entity is a row of `extends` plus its own columns,
   * in a table whose `id` is the parent's id (on delete cascade). The parent's fields are the
   * entity's fields too; a field declared again with the same column type only tightens
   * validation (say, `username` required for employees) and stays in the parent's table.
   */
  extends?: Entity<string, P>
  fields: F
  /** Field shown wherever the row is referenced (list cells of FKs, selects). Default `name`, or the parent's. */
  labelField?: FieldName<Merged<P, F>>
  /**
   * How a record is named to a person on its own screens (a form's subtitle, a delete's
   * confirmation, a toast): these fields' values joined by a space — an employee is "Sadia
   * Rahman", while the label field (their username) stays what references and the API show.
   * Default: the parent's, else the label field alone.
   */
  title?: readonly FieldName<Merged<P, F>>[]
  /** Permission prefix, `THANA` for `THANA_LIST`… Default: the name upper-cased. */
  permission?: string
  /** Default ordering, `field` or `-field`; `-id` when absent (api-contract §2.6). */
  ordering?: string
  /** Fields the contract's `search/?<field>=` accepts; default: the fields marked searchable. */
  search?: readonly FieldName<Merged<P, F>>[]
  /** Columns of the generic list; default: every field not hidden in lists. */
  listColumns?: readonly FieldName<Merged<P, F>>[]
  /**
   * The list's filter bar (choices, references, date and number ranges; each indexed).
   * Default: the list columns that can be filtered (see `filterKinds`).
   */
  filters?: readonly FieldName<Merged<P, F>>[]
  /**
   * UI paths: list at `/apps/<area>/<list>`, form at `/apps/<area>/<form ?? list>/{id}/{name?}`.
   * Not for line entities. `alsoAt`: another list path and form path (`/apps/<area>/<list>`,
   * `/apps/<area>/<form>/{id}`) that lead to these — a spec's second address for the same screen.
   * `formAt`: more addresses of a record's form, `/apps/<path>/{id}/…` with any segments after
   * the id (`content-management-image/{imageId}/{contentName}/{menuName?}`: names for the eye).
   */
  route?: { area: string; list: string; form?: string; alsoAt?: { area: string; list: string; formArea?: string; form?: string }; formAt?: readonly string[] }
  /**
   * A line entity: the child rows of the document entity of that name (its `f.lines` field).
   * Its table gets a cascading reference to the document (a column named after it) and a
   * position; it has no routes, permissions or screens of its own — it is read and written
   * with its document.
   */
  lineOf?: string
  /** Rules across fields, run in the browser and on the server (schema/kit/rules.ts has the common ones). */
  rules?: readonly Rule[]
  /**
   * The form's sections, in order (Account, Personal, Address…): every field a client may
   * send in exactly one of them, which also gives the form's order. Without, the form is
   * one grid of the fields in their declared order.
   */
  sections?: readonly FormSection<FieldName<Merged<P, F>>>[]
  /** Custom actions on a record: `POST …/<name>/{id}`, permission `<PREFIX>_<NAME>`, a button. */
  actions?: Readonly<Record<string, ActionSpec>>
  /** A status that moves only by declared transitions, and locks the record outside `editableIn` (see WorkflowConfig). */
  workflow?: WorkflowConfig<FieldName<Merged<P, F>>>
  /** A number the server gives each new record (see Numbering). */
  numbering?: Numbering<FieldName<Merged<P, F>>>
  /** What the record posts to the general ledger, and when (see PostsConfig). */
  posts?: PostsConfig<FieldName<Merged<P, F>>>
  /** What the record moves in stock, and when (see MovesConfig). */
  moves?: MovesConfig<FieldName<Merged<P, F>>>
  /** A document kept one row per line, grouped by a key (see RowsPerLineConfig). */
  rowsPerLine?: RowsPerLineConfig<FieldName<Merged<P, F>>>
  /** Its printed form (see PrintConfig): a Print button and Save & print on its form. */
  print?: PrintConfig<FieldName<Merged<P, F>>>
  /** More lists of some of its rows, each with its address and menu entry (see ViewConfig). */
  views?: Readonly<Record<string, ViewConfig<FieldName<Merged<P, F>>>>>
  /** Other entities' rows that refer to a record, listed under its form (see RelatedSpec). */
  related?: readonly RelatedSpec[]
  /**
   * Its form shows the record's history from the audit log — who created, changed and moved
   * it, when, with what an action was given, from which screen — its document's lines, and
   * that of the rows of its `related` lists that refer to it (an order's payments and
   * refunds), newest first: `GET …/history/{id}`. On by default; `false` for an entity whose
   * audit trail says nothing to a reader.
   */
  history?: boolean
  /** Its menu entry; `false` for none. Default: the group `other`. */
  nav?: NavSpec | false
  /** Fields a user may change on their own row (My Profile): for `user`. */
  selfEditable?: readonly FieldName<Merged<P, F>>[]
  /**
   * The record's id is the id of the row this required reference points at — one record per
   * such row, as Django's one-to-one primary key (a role's menu has the role's id). The
   * reference cannot change, and deleting that row deletes the record.
   */
  idFrom?: FieldName<F>
  /**
   * Rows the system itself relies on, by the value of one field (roles ADMIN, STAFF, USER by
   * `name`): that value cannot change and the row cannot be deleted. The server refuses with
   * `message` (params `entity`, `value`); screens show the field read-only and offer no delete.
   * A read-only boolean flag works too (`{ field: 'is_deletable', values: [false] }`: seeded
   * rows the server marks); `value` is then the row's label.
   */
  builtIn?: { readonly field: FieldName<F>; readonly values: readonly (string | boolean)[]; readonly message?: `detail.${string}` }
  /**
   * Its own ledger account, made in the same transaction as the record (api-contract §5.1):
   * `{ group: 'Salary', type: 'employee_ledger' }` — under that group (by name), of that
   * `ledger_type`, `reference_id` the record's id, named by `name` (default: its label field).
   * The accounting module applies it (server/domain/accounting/auto-ledger.ts).
   */
  ledger?: AutoLedger<FieldName<Merged<P, F>>>
  /**
   * The rows a caller may reach (list, read, update, delete, actions), as equality
   * conditions, or null for all: `(caller) => (caller.isAdmin ? null : { created_by: caller.id })`.
   */
  scope?: (caller: Caller) => ScopeFilter | null
  /**
   * Its rows are the business's confidential records (the books: ledgers, vouchers, postings;
   * a donor's gift), not reference data: never opened to anonymous reads (`PUBLIC_READ`).
   */
  confidential?: boolean
  /**
   * Its rows are never changed or deleted once written (the general ledger, the stock
   * ledger): the registry sync gives its table triggers that refuse UPDATE, DELETE and
   * TRUNCATE for every writer (server/db/sync.ts). A row it holds keeps its author:
   * deleting a user who wrote one is refused.
   */
  appendOnly?: boolean
  /**
   * A Trash for its rows (master data: a district, a brand, a department): a delete moves a
   * row to the Trash (`deleted_at`, `deleted_by`) instead of removing it — the contract's
   * `delete/` answers as before — and every read leaves trashed rows out. Those who may delete
   * list the Trash (`trash/`) and restore from it (`restore/`, by ids or by the delete's batch:
   * the Undo); `<PREFIX>_PURGE` deletes for good (`purge/`). A value that must be unique is
   * unique among the rows not in the Trash; nothing may refer to a trashed row. Not for
   * documents (lines, postings, stock moves, a workflow), nor for entities that extend or are
   * extended (users): the registry check says where it cannot hold (schema/check.ts).
   */
  trash?: boolean
  extraRoutes?: readonly ListByRoute[]
  /**
   * The entity is a gallery of pictures of another (a product's images): `of` its required
   * reference to the owner, `image` its image field, `position` its integer place (smaller
   * first). The owner's form shows the gallery (upload several, drag to reorder, remove) and
   * the engine serves `reorder/` (`{<of>: id, ids: [...]}`: the owner's pictures in their new order).
   */
  gallery?: { readonly of: FieldName<F>; readonly image: FieldName<F>; readonly position: FieldName<F> }
  /**
   * More keys its lists answer under, with the same rows, where the contract's screens read
   * another key than the backend's and the registry's is taken (`menu_items`, `members`):
   * list keys name one entity, these need not.
   */
  alsoListKeys?: readonly string[]
  /**
   * More names its whole API also answers under, where the original served one resource from
   * two apps (`/paymentmethod/api/v1/paymentmethod/…` beside the donation app's
   * `/payment_method/…`): the same routes, rows and permissions at `/<name>/api/v1/<name>`.
   * `{ name, except }` leaves out generic routes whose path the other app gives another
   * meaning (the storefront's `customerorder/create/` adds a line to the customer's cart).
   */
  alsoApi?: readonly (string | { readonly name: string; readonly except: readonly GenericRoute[] })[]
  /** More keys its `search/` alone answers under, where the contract's backend slipped (menu items' search under `branches`). */
  searchAlsoKeys?: readonly string[]
  /**
   * The original's model name, as the contract's English messages say it, when it is not the
   * entity's name in PascalCase (`shippingaddress` → `ShippingAddress`, not `Shippingaddress`).
   */
  model?: string
  /** Actions that answer without a token (only LIST and DETAILS may be public): site settings read at start-up. */
  public?: readonly Action[]
  /**
   * Rows a signed-in caller without the entity's permission may still reach as their own
   * (Payload's access as a query): a customer's tickets, the messages of those tickets, one's
   * notifications. `field`: a reference to the user — their rows are those that name them; or
   * `via`: a reference to an entity that has `own` — their rows are those of its records that
   * are theirs. `actions`: what they may do so — generic actions (LIST, DETAILS, CREATE,
   * UPDATE, DELETE) and custom action names. Without the permission their lists, reads and
   * writes reach those rows alone, a create by them names them in `field` (or must name a
   * record of theirs through `via`), and the menu shows them the list. With the permission
   * nothing changes: the row `scope` decides.
   * `shared`: such a caller also lists and reads (LIST, DETAILS) the rows whose `field` — a
   * reference — holds their caller attribute `attribute` (schema/caller.ts: their role): rows
   * shared with them (a saved view shared with a role). They change, delete and act on their
   * own rows alone. Needs `field`.
   */
  own?: {
    readonly field?: FieldName<Merged<P, F>>
    readonly via?: FieldName<Merged<P, F>>
    readonly actions: readonly string[]
    readonly shared?: { readonly field: FieldName<Merged<P, F>>; readonly attribute: string }
  }
  /**
   * Actions a signed-in user may perform on the row that is their own user (its id is the
   * caller's user id) without the permission: reading one's own user. For `user` and entities extending it.
   */
  selfAccess?: readonly Action[]
  /** Generic routes a domain module serves itself (`'bespoke'`) or that do not exist (`false`). */
  routes?: { readonly [R in GenericRoute]?: 'bespoke' | false }
  /** `all/` answers a page (the default) or, when false, every row as `{<listKey>}` (menu items). */
  paginateAll?: boolean
  /** Other paths of a generic route, for spelling quirks of the contract: `{ 'without_paginaiton/all': 'without_pagination' }`. */
  routeAliases?: Readonly<Record<string, GenericRoute>>
}

export type RequiredKeys<F> = { [K in keyof F]: F[K] extends Field<unknown, 'required'> ? K : never }[keyof F]
export type OptionalKeys<F> = Exclude<keyof F, RequiredKeys<F>>

/** What a client sends on create (absent optional fields become null or their default). */
export type InputOf<F> = { [K in RequiredKeys<F>]: ValueOf<F[K]> } & { [K in OptionalKeys<F>]?: ValueOf<F[K]> | null }
/** The validated value the server stores. */
export type ValuesOf<F> = { [K in keyof F]: ValueOf<F[K]> }

export type AuditColumns = {
  id: number
  created_at: string
  updated_at: string
  created_by: number | null
  updated_by: number | null
}

export interface Entity<N extends string = string, F extends Fields = Fields> {
  readonly name: N
  readonly module: string
  readonly listKey: string
  /** The keys its lists answer under: `listKey`, then `alsoListKeys`. */
  readonly listKeys: readonly string[]
  /** Every key its `search/` answers under: the list keys and `searchAlsoKeys`. */
  readonly searchKeys: readonly string[]
  readonly fields: F
  readonly fieldNames: readonly string[]
  /** The parent this entity extends (multi-table inheritance), if any. */
  readonly parent?: Entity<string, Fields>
  /** Fields stored in the entity's own table: all of them, or those the parent does not have. */
  readonly ownFieldNames: readonly string[]
  readonly labelField: string
  /** The fields a record's own screens name it by (`title`); empty: the label field. */
  readonly titleFields: readonly string[]
  readonly permission: string
  readonly permissions: Readonly<Record<Action, string>>
  readonly ordering: string
  readonly searchFields: readonly string[]
  readonly listColumns: readonly string[]
  /** The fields the list's filter bar offers: choices and flags (equality), references, dates and numbers (ranges). */
  readonly filterFields: readonly string[]
  readonly extraRoutes: readonly ListByRoute[]
  /** The original's model name in the contract's English messages (`ShippingAddress id - 5 is deleted successfully`). */
  readonly model: string
  /** Set when the entity is a gallery of another's pictures (see EntityConfig.gallery). */
  readonly gallery?: { readonly of: string; readonly image: string; readonly position: string }
  readonly publicActions: readonly Action[]
  readonly selfActions: readonly Action[]
  readonly routes: Readonly<Record<GenericRoute, RouteMode>>
  readonly paginateAll: boolean
  readonly routeAliases: Readonly<Record<string, GenericRoute>>
  /** The document entity this line entity belongs to. */
  readonly lineOf?: string
  readonly isLine: boolean
  /** Its fields of kind `lines`. */
  readonly linesFieldNames: readonly string[]
  readonly rules: readonly Rule[]
  /** The form's sections; empty for a form of one grid. */
  readonly sections: readonly FormSection[]
  readonly actions: Readonly<Record<string, EntityAction>>
  readonly workflow?: Workflow
  readonly numbering?: Numbering
  readonly posts?: PostsConfig & { readonly on: string; readonly reverseOn: readonly string[] }
  readonly moves?: MovesConfig & { readonly on: string; readonly reverseOn: readonly string[] }
  readonly rowsPerLine?: RowsPerLineConfig
  readonly print?: PrintConfig
  readonly views: Readonly<Record<string, View>>
  readonly related: readonly RelatedSpec[]
  /** See EntityConfig.history. */
  readonly hasHistory: boolean
  /** Set on the entity as one of its views shows it (`asView`): its list is that view's. */
  readonly listView?: View
  readonly nav: NavSpec | null
  readonly selfEditable: readonly string[]
  readonly idFrom?: string
  readonly builtIn?: { readonly field: string; readonly values: readonly (string | boolean)[]; readonly message: `detail.${string}` }
  readonly scope?: (caller: Caller) => ScopeFilter | null
  /** See EntityConfig.own. */
  readonly own?: { readonly field?: string; readonly via?: string; readonly actions: readonly string[]; readonly shared?: { readonly field: string; readonly attribute: string } }
  /** See EntityConfig.confidential. */
  readonly isConfidential: boolean
  /** See EntityConfig.appendOnly. */
  readonly isAppendOnly: boolean
  /** Set when its rows go to a Trash (EntityConfig.trash): the permission that deletes them for good. */
  readonly trash?: { readonly purgePermission: string }
  readonly ledger?: Required<AutoLedger>
  /** i18n keys: `<labelKey>.one`, `<labelKey>.other`. */
  readonly labelKey: string
  /**
   * The i18n key of its list's name as the sidebar gives it ("User List"): the list's heading,
   * the way back to it, its dashboard card — one name for one place.
   */
  readonly listTitleKey: string
  readonly fieldLabelKey: (field: string) => string
  /**
   * Where its API answers: `base`, and every base of `bases` (the first is `base`; see
   * EntityConfig.alsoApi), with the generic routes each leaves to others (`except`).
   */
  readonly api: { readonly base: string; readonly bases: readonly string[]; readonly except: Readonly<Record<string, readonly GenericRoute[]>> }
  readonly ui: {
    readonly area: string
    readonly list: string
    readonly listPath: string
    readonly formPath: string
    readonly areaPath: string
    readonly alsoAt?: { readonly listPath: string; readonly formPath: string }
    /** Other addresses of its form (`route.formAt`), as paths: `/apps/content-management-image`. */
    readonly formAt: readonly string[]
  }
}

const actionOf = (permission: string, name: string, spec: ActionSpec, transition?: EntityAction['transition']): EntityAction => ({
  name,
  permission: `${permission}_${name.toUpperCase()}`,
  labelKey: spec.label ?? `action.${name}`,
  confirmKey: spec.confirm === true ? `action.${name}_question` : spec.confirm || undefined,
  input: spec.input ?? {},
  inputNames: Object.keys(spec.input ?? {}),
  isAvailable: spec.isAvailable,
  paths: [name, ...(spec.aliases ?? [])],
  tone: spec.tone ?? 'default',
  ...(transition ? { transition } : {}),
})

/** The workflow as the engine reads it; its states are the status field's choices (unknown ones are the registry check's to report). */
function workflowOf(config: WorkflowConfig, field: AnyField | undefined): Workflow {
  const states = field?.options ?? []
  const transitions = Object.fromEntries(Object.entries(config.transitions).map(([name, t]) => [name, { name, from: t.from, to: t.to, ...(t.stamp ? { stamp: t.stamp } : {}) }]))
  const endings = states.filter((s) => !Object.values(config.transitions).some((t) => t.from.includes(s)))
  const reachedByDanger = new Set(Object.values(config.transitions).filter((t) => t.tone === 'danger').map((t) => t.to))
  const tone = (state: string): Tone => (state === config.initial ? 'gray' : reachedByDanger.has(state) ? 'red' : endings.includes(state) ? 'green' : 'blue')
  return {
    field: config.field,
    initial: config.initial,
    states,
    editableIn: config.editableIn,
    transitions,
    tones: Object.fromEntries(states.map((s) => [s, config.tones?.[s] ?? tone(s)])),
    ...(config.lookup ? { lookup: { field: config.lookup.field, names: config.lookup.names ?? {}, nameOf: (state: string) => config.lookup!.names?.[state] ?? state } } : {}),
  }
}

/**
 * The status field as a workflow holds it: set by the server only (it starts at the initial
 * state and moves by transitions), drawn as a coloured chip.
 */
const statusFieldOf = (field: AnyField, workflow: Workflow): AnyField =>
  ({
    ...field,
    presence: 'default',
    isRequired: false,
    isReadOnly: true,
    defaultValue: workflow.initial,
    cell: 'status',
    tones: workflow.tones,
    ...(field.sql ? { sql: { ...field.sql, default: `'${workflow.initial}'` } } : {}),
  }) as AnyField

const apiBaseOf = (name: string) => `/${name}/api/v1/${name}`

function apiOf(name: string, also: NonNullable<EntityConfig<string, Fields>['alsoApi']>): Entity['api'] {
  const others = also.map((a) => (typeof a === 'string' ? { name: a, except: [] } : a))
  return {
    base: apiBaseOf(name),
    bases: [apiBaseOf(name), ...others.map((a) => apiBaseOf(a.name))],
    except: Object.fromEntries(others.map((a) => [apiBaseOf(a.name), a.except])),
  }
}

export const DEFAULT_NAV_GROUP = 'other'

/** Kinds a list can be filtered by: equality for choices, flags and references; ranges for dates and numbers. */
export const filterKinds = ['enum', 'boolean', 'ref', 'date', 'datetime', 'integer', 'decimal'] as const
export type RangeKind = 'date' | 'datetime' | 'integer' | 'decimal'
export const isRangeKind = (kind: string): kind is RangeKind => kind === 'date' || kind === 'datetime' || kind === 'integer' || kind === 'decimal'
/** A stored column of a filterable kind, that a client may read; or a past-due flag (worked out in SQL). */
export const isFilterable = (field: AnyField): boolean =>
  ((filterKinds as readonly string[]).includes(field.kind) && field.sql !== undefined && !field.isWriteOnly) || field.pastDue !== undefined

export function defineEntity<const N extends string, const F extends Fields, const P extends Fields = Record<never, never>>(
  config: EntityConfig<N, F, P>,
): Entity<N, Merged<P, F>> {
  const parent = config.extends as Entity<string, Fields> | undefined
  const isLine = config.lineOf !== undefined
  if (!isLine && (!config.route || !config.listKey)) throw new Error(`entity '${config.name}': give it a listKey and a route (or lineOf, for the lines of a document)`)
  // The parent's fields keep their place (an override replaces the parent's in place); new ones follow.
  const fields = { ...(parent?.fields ?? {}), ...config.fields } as unknown as Merged<P, F> & Fields
  const workflow = config.workflow && workflowOf(config.workflow, fields[config.workflow.field])
  const clash = Object.keys(config.workflow?.transitions ?? {}).find((name) => name in (config.actions ?? {}))
  if (clash) throw new Error(`entity '${config.name}': '${clash}' is both an action and a transition of its workflow: give them different names`)
  if (workflow && fields[workflow.field]) (fields as Fields)[workflow.field] = statusFieldOf(fields[workflow.field]!, workflow)
  const fieldNames = Object.keys(fields) as FieldName<Merged<P, F>>[]
  const ownFieldNames = parent ? fieldNames.filter((n) => !(n in parent.fields)) : fieldNames
  const permission = config.permission ?? config.name.toUpperCase()
  const labelKeyOf = (field: string) => fields[field]?.label ?? `field.${field}`
  // A line has no routes of its own: it is read and written with its document.
  const routes = Object.fromEntries(genericRoutes.map((r) => [r, isLine ? false : (config.routes?.[r] ?? 'generic')])) as Record<GenericRoute, RouteMode>
  const route = config.route ?? { area: '', list: '' }
  const listKeys = [config.listKey ?? `${config.name}_lines`, ...(config.alsoListKeys ?? []).filter((key) => key !== config.listKey)]
  return {
    name: config.name,
    module: config.module,
    listKey: config.listKey ?? `${config.name}_lines`,
    listKeys,
    searchKeys: [...new Set([...listKeys, ...(config.searchAlsoKeys ?? [])])],
    fields,
    fieldNames,
    parent,
    ownFieldNames,
    labelField: config.labelField ?? parent?.labelField ?? (isLine ? fieldNames[0]! : 'name'),
    titleFields: config.title ?? parent?.titleFields ?? [],
    permission,
    permissions: Object.fromEntries(actions.map((a) => [a, `${permission}_${a}`])) as Record<Action, string>,
    ordering: config.ordering ?? '-id',
    searchFields: config.search ?? fieldNames.filter((n) => fields[n]!.isSearchable),
    listColumns: config.listColumns ?? fieldNames.filter((n) => !fields[n]!.isHiddenInList),
    // A list column that is not a field is the registry check's to report, not a reason to fail here.
    filterFields: config.filters ?? (config.listColumns ?? fieldNames.filter((n) => !fields[n]!.isHiddenInList)).filter((n) => fields[n] !== undefined && isFilterable(fields[n])),
    extraRoutes: config.extraRoutes ?? [],
    gallery: config.gallery,
    model: config.model ?? config.name.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase()),
    publicActions: config.public ?? [],
    selfActions: config.selfAccess ?? [],
    routes,
    paginateAll: config.paginateAll ?? true,
    routeAliases: config.routeAliases ?? {},
    lineOf: config.lineOf,
    isLine,
    linesFieldNames: fieldNames.filter((n) => fields[n]!.kind === 'lines'),
    rules: config.rules ?? [],
    sections: config.sections ?? [],
    actions: Object.fromEntries([
      ...Object.entries(config.actions ?? {}).map(([name, spec]) => [name, actionOf(permission, name, spec)] as const),
      // Each transition is an action that applies in the states it leaves from.
      ...Object.entries(config.workflow?.transitions ?? {}).map(([name, spec]) => {
        const field = config.workflow!.field as string
        const isAvailable = (row: ComputeInput) => spec.from.includes(row[field] as string)
        return [name, actionOf(permission, name, { ...spec, isAvailable }, { field, from: spec.from, to: spec.to })] as const
      }),
    ]),
    workflow,
    numbering: config.numbering,
    rowsPerLine: config.rowsPerLine,
    print: config.print,
    views: Object.fromEntries(
      Object.entries(config.views ?? {}).map(([name, view]) => [
        name,
        {
          name,
          label: view.label ?? `view.${config.name}.${name}`,
          filter: view.filter as View['filter'],
          columns: view.columns ?? config.listColumns ?? fieldNames.filter((n) => !fields[n]!.isHiddenInList),
          nav: view.nav === false || isLine ? null : (view.nav ?? (config.nav ? { ...config.nav, label: undefined } : null)),
          ui: {
            area: view.route.area,
            areaPath: `/apps/${view.route.area}`,
            listPath: `/apps/${view.route.area}/${view.route.list}`,
            ...(view.route.form !== undefined ? { formPath: `/apps/${view.route.form}` } : {}),
          },
        },
      ]),
    ),
    related: config.related ?? [],
    // Every entity with a form has one (a line's history is its document's).
    hasHistory: config.history ?? !isLine,
    posts: config.posts && { ...config.posts, on: config.posts.on ?? 'create', reverseOn: config.posts.reverseOn ?? [] },
    moves: config.moves && { ...config.moves, on: config.moves.on ?? 'create', reverseOn: config.moves.reverseOn ?? [] },
    nav: isLine || config.nav === false ? null : (config.nav ?? { group: DEFAULT_NAV_GROUP, icon: 'folder' }),
    selfEditable: config.selfEditable ?? [],
    idFrom: config.idFrom,
    builtIn: config.builtIn && { field: config.builtIn.field, values: config.builtIn.values, message: config.builtIn.message ?? 'detail.built_in' },
    scope: config.scope,
    own: config.own && { field: config.own.field, via: config.own.via, actions: config.own.actions, ...(config.own.shared ? { shared: config.own.shared } : {}) },
    isConfidential: config.confidential ?? parent?.isConfidential ?? false,
    isAppendOnly: config.appendOnly ?? false,
    ...(config.trash && !isLine ? { trash: { purgePermission: `${permission}_PURGE` } } : {}),
    ledger: config.ledger && { group: config.ledger.group, type: config.ledger.type, name: config.ledger.name ?? config.labelField ?? parent?.labelField ?? 'name' },
    labelKey: `entity.${config.name}`,
    listTitleKey: (config.nav ? config.nav.label : undefined) ?? `entity.${config.name}.other`,
    fieldLabelKey: labelKeyOf,
    api: apiOf(config.name, config.alsoApi ?? []),
    ui: {
      area: route.area,
      list: route.list,
      formPath: `/apps/${route.area}/${route.form ?? route.list}`,
      listPath: `/apps/${route.area}/${route.list}`,
      areaPath: `/apps/${route.area}`,
      ...(route.alsoAt
        ? { alsoAt: { listPath: `/apps/${route.alsoAt.area}/${route.alsoAt.list}`, formPath: `/apps/${route.alsoAt.formArea ?? route.alsoAt.area}/${route.alsoAt.form ?? route.alsoAt.list}` } }
        : {}),
      formAt: (route.formAt ?? []).map((path) => `/apps/${path}`),
    },
  }
}

/** The entity whose table stores `field`: the parent for inherited fields, else the entity itself. */
export function storageOf(entity: Entity<string, Fields>, field: string): Entity<string, Fields> {
  return entity.parent && !entity.ownFieldNames.includes(field) ? entity.parent : entity
}

/** The table rows of the entity start from: the parent's (which holds id and the audit columns) or its own. */
/** The references of `entity` to itself (a parent): each keeps a tree (see `f.ref`'s `maxDepth`). */
export const treeFieldsOf = (entity: Entity<string, Fields>): Array<[string, AnyField]> =>
  Object.entries(entity.fields).filter(([, field]) => field.kind === 'ref' && field.ref?.target === entity.name && !field.isVirtual)

export const rootOf = (entity: Entity<string, Fields>): Entity<string, Fields> => entity.parent ?? entity

/** Fields a response carries: every field but the write-only ones (passwords, confirmations). */
export const readableFields = (entity: Entity<string, Fields>): string[] => entity.fieldNames.filter((n) => !entity.fields[n]!.isWriteOnly)

/** Fields with a column in a table (the entity's or its parent's): not refs, lines, virtual or input-only ones. */
export const columnFields = (entity: Entity<string, Fields>, names: readonly string[] = entity.fieldNames): string[] =>
  names.filter((n) => entity.fields[n]!.sql !== undefined)

/** The line entity of a lines field. */
export const lineEntityOf = (entity: Entity<string, Fields>, field: string): Entity<string, Fields> => {
  const spec = entity.fields[field]?.lines
  if (!spec) throw new Error(`${entity.name}.${field} is not a lines field`)
  return spec.entity
}

/** The column of a line's table that refers to its document: named after the document entity. */
export const lineLinkColumn = (line: Entity<string, Fields>): string => {
  if (!line.lineOf) throw new Error(`${line.name} is not a line entity`)
  return line.lineOf
}

/** The columns of a table whose rows go to a Trash (EntityConfig.trash): when, and by whom. */
export const TRASH_COLUMNS = ['deleted_at', 'deleted_by'] as const

/** A line's place in its document, kept by the engine. */
export const LINE_POSITION = 'position'

/** Whether the row is one the system relies on (`builtIn`): its key value stays and it is not deleted. */
export const isBuiltInRow = (entity: Pick<Entity<string, Fields>, 'builtIn'>, row: Readonly<Record<string, unknown>> | null | undefined): boolean =>
  entity.builtIn !== undefined && row !== null && row !== undefined && entity.builtIn.values.includes(row[entity.builtIn.field] as string | boolean)

/**
 * The states in which what a transition did still stands: its target, and every state reached
 * from there by transitions other than those that undo it (`undoneBy`) — an order's sale,
 * posted on `confirm`, stands while it is confirmed, packed, on its way or delivered.
 */
export function statesAfter(entity: Entity<string, Fields>, transition: string, undoneBy: readonly string[]): ReadonlySet<string> {
  const workflow = entity.workflow
  const start = workflow?.transitions[transition]?.to
  if (!workflow || start === undefined) return new Set()
  const reached = new Set([start])
  const onward = Object.values(workflow.transitions).filter((t) => !undoneBy.includes(t.name))
  for (let grew = true; grew; ) {
    grew = false
    for (const t of onward) {
      if (!reached.has(t.to) && t.from.some((s) => reached.has(s))) {
        reached.add(t.to)
        grew = true
      }
    }
  }
  return reached
}

/** Whether a plain update or delete may touch the row: always, unless its workflow's status is outside `editableIn`. */
export const isEditableIn = (entity: Pick<Entity<string, Fields>, 'workflow'>, row: Readonly<Record<string, unknown>> | null | undefined): boolean =>
  !entity.workflow || row === null || row === undefined || entity.workflow.editableIn.includes(row[entity.workflow.field] as string)

/** Whether a list may offer to delete (or select for deleting) the row: not a built-in one, nor one its status locks. */
export const isDeletableRow = (entity: Pick<Entity<string, Fields>, 'builtIn' | 'workflow'>, row: Readonly<Record<string, unknown>>): boolean =>
  !isBuiltInRow(entity, row) && isEditableIn(entity, row)

/**
 * The entity as one of its list views shows it: the view's address, columns and name for its
 * list (`listView` says which view, for the server's `?view=`); its form is at the view's own
 * address when it names one (`route.form`), else the entity's.
 */
export function asView(entity: Entity<string, Fields>, view: View): Entity<string, Fields> {
  return { ...entity, listView: view, listColumns: view.columns, listTitleKey: view.label, ui: { ...entity.ui, listPath: view.ui.listPath, formPath: view.ui.formPath ?? entity.ui.formPath } }
}
