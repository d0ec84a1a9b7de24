import type { Field, Presence, ValueOf } from './fields'

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

/** The fields of an entity that extends `P` and declares `F`: its own, and the parent's it does not override. */
export type Merged<P, F> = Omit<P, keyof F> & F

export interface EntityConfig<N extends string, F extends Fields, P extends Fields = Record<never, never>> {
  /** API and table name: `/thana/api/v1/thana/…`, table `thana`. */
  name: N
  /** Module folder and navigation group. */
  module: string
  /** Key of the array in list responses (`thanas`). */
  listKey: string
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
  /** Permission prefix, `THANA` for `THANA_LIST`… Default: the name upper-cased. */
  permission?: string
  /** Default ordering, `field` or `-field`; `-id` when absent (api-contract §2.6). */
  ordering?: string
  /** Fields the contract's `search/?<field>=` accepts; default: the fields marked searchable. */
  search?: readonly FieldName<Merged<P, F>>[]
  /** Columns of the generic list; default: every field not hidden in lists. */
  listColumns?: readonly FieldName<Merged<P, F>>[]
  /** UI paths: list at `/apps/<area>/<list>`, form at `/apps/<area>/<form ?? list>/{id}/{name?}`. */
  route: { area: string; list: string; form?: string }
  extraRoutes?: readonly ListByRoute[]
  /** Actions that answer without a token (only LIST and DETAILS may be public): site settings read at start-up. */
  public?: readonly Action[]
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
  readonly fields: F
  readonly fieldNames: readonly string[]
  /** The parent this entity extends (multi-table inheritance), if any. */
  readonly parent?: Entity<string, Fields>
  /** Fields stored in the entity's own table: all of them, or those the parent does not have. */
  readonly ownFieldNames: readonly string[]
  readonly labelField: string
  readonly permission: string
  readonly permissions: Readonly<Record<Action, string>>
  readonly ordering: string
  readonly searchFields: readonly string[]
  readonly listColumns: readonly string[]
  readonly extraRoutes: readonly ListByRoute[]
  readonly publicActions: readonly Action[]
  readonly selfActions: readonly Action[]
  readonly routes: Readonly<Record<GenericRoute, RouteMode>>
  readonly paginateAll: boolean
  readonly routeAliases: Readonly<Record<string, GenericRoute>>
  /** i18n keys: `<labelKey>.one`, `<labelKey>.other`. */
  readonly labelKey: string
  readonly fieldLabelKey: (field: string) => string
  readonly api: { readonly base: string }
  readonly ui: { readonly area: string; readonly list: string; readonly listPath: string; readonly formPath: string; readonly areaPath: string }
}

export function defineEntity<const N extends string, const F extends Fields, const P extends Fields = Record<never, never>>(
  config: EntityConfig<N, F, P>,
): Entity<N, Merged<P, F>> {
  const parent = config.extends as Entity<string, Fields> | undefined
  // The parent's fields keep their place (an override replaces the parent's in place); new ones follow.
  const fields = { ...(parent?.fields ?? {}), ...config.fields } as unknown as Merged<P, F> & Fields
  const fieldNames = Object.keys(fields) as FieldName<Merged<P, F>>[]
  const ownFieldNames = parent ? fieldNames.filter((n) => !(n in parent.fields)) : fieldNames
  const permission = config.permission ?? config.name.toUpperCase()
  const labelKeyOf = (field: string) => fields[field]?.label ?? `field.${field}`
  const routes = Object.fromEntries(genericRoutes.map((r) => [r, config.routes?.[r] ?? 'generic'])) as Record<GenericRoute, RouteMode>
  return {
    name: config.name,
    module: config.module,
    listKey: config.listKey,
    fields,
    fieldNames,
    parent,
    ownFieldNames,
    labelField: config.labelField ?? parent?.labelField ?? 'name',
    permission,
    permissions: Object.fromEntries(actions.map((a) => [a, `${permission}_${a}`])) as Record<Action, string>,
    ordering: config.ordering ?? '-id',
    searchFields: config.search ?? fieldNames.filter((n) => fields[n]!.isSearchable),
    listColumns: config.listColumns ?? fieldNames.filter((n) => !fields[n]!.isHiddenInList),
    extraRoutes: config.extraRoutes ?? [],
    publicActions: config.public ?? [],
    selfActions: config.selfAccess ?? [],
    routes,
    paginateAll: config.paginateAll ?? true,
    routeAliases: config.routeAliases ?? {},
    labelKey: `entity.${config.name}`,
    fieldLabelKey: labelKeyOf,
    api: { base: `/${config.name}/api/v1/${config.name}` },
    ui: {
      area: config.route.area,
      list: config.route.list,
      formPath: `/apps/${config.route.area}/${config.route.form ?? config.route.list}`,
      listPath: `/apps/${config.route.area}/${config.route.list}`,
      areaPath: `/apps/${config.route.area}`,
    },
  }
}

/** The entity whose table stores `field`: the parent for inherited fields, else the entity itself. */
export function storageOf(entity: Entity<string, Fields>, field: string): Entity<string, Fields> {
  return entity.parent && !entity.ownFieldNames.includes(field) ? entity.parent : entity
}

/** The table rows of the entity start from: the parent's (which holds id and the audit columns) or its own. */
export const rootOf = (entity: Entity<string, Fields>): Entity<string, Fields> => entity.parent ?? entity

/** Fields a response carries: every field but the write-only ones. */
export const readableFields = (entity: Entity<string, Fields>): string[] => entity.fieldNames.filter((n) => !entity.fields[n]!.isWriteOnly)
