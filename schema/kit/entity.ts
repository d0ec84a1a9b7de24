import type { Field, Presence, ValueOf } from './fields'

// Builders return Field<V, P> for many V; the registry holds them side by side.
// eslint-style escape is avoided: `never` keeps assignment sound for every V.
export type AnyField = Field<never, Presence> | Field<unknown, Presence>
export type Fields = Record<string, AnyField>

export const actions = ['LIST', 'DETAILS', 'CREATE', 'UPDATE', 'DELETE'] as const
export type Action = (typeof actions)[number]

/** An extra read route: `…/<path>/{value}` lists the rows whose `field` equals value, unpaginated. */
export type ListByRoute = { kind: 'listBy'; path: string; field: string }

type FieldName<F> = keyof F & string

export interface EntityConfig<N extends string, F extends Fields> {
  /** API and table name: `/thana/api/v1/thana/…`, table `thana`. */
  name: N
  /** Module folder and navigation group. */
  module: string
  /** Key of the array in list responses (`thanas`). */
  listKey: string
  fields: F
  /** Field shown wherever the row is referenced (list cells of FKs, selects). Default `name`. */
  labelField?: FieldName<F>
  /** Permission prefix, `THANA` for `THANA_LIST`… Default: the name upper-cased. */
  permission?: string
  /** Default ordering, `field` or `-field`; `-id` when absent (api-contract §2.6). */
  ordering?: string
  /** Fields the contract's `search/?<field>=` accepts; default: the fields marked searchable. */
  search?: readonly FieldName<F>[]
  /** Columns of the generic list; default: every field not hidden in lists. */
  listColumns?: readonly FieldName<F>[]
  /** UI paths: list at `/apps/<area>/<list>`, form at `/apps/<area>/<form ?? list>/{id}/{name?}`. */
  route: { area: string; list: string; form?: string }
  extraRoutes?: readonly ListByRoute[]
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
  readonly labelField: string
  readonly permission: string
  readonly permissions: Readonly<Record<Action, string>>
  readonly ordering: string
  readonly searchFields: readonly string[]
  readonly listColumns: readonly string[]
  readonly extraRoutes: readonly ListByRoute[]
  /** i18n keys: `<labelKey>.one`, `<labelKey>.other`. */
  readonly labelKey: string
  readonly fieldLabelKey: (field: string) => string
  readonly api: { readonly base: string }
  readonly ui: { readonly area: string; readonly list: string; readonly listPath: string; readonly formPath: string; readonly areaPath: string }
}

export function defineEntity<const N extends string, const F extends Fields>(config: EntityConfig<N, F>): Entity<N, F> {
  const fieldNames = Object.keys(config.fields) as FieldName<F>[]
  const permission = config.permission ?? config.name.toUpperCase()
  const labelKeyOf = (field: string) => config.fields[field]?.label ?? `field.${field}`
  return {
    name: config.name,
    module: config.module,
    listKey: config.listKey,
    fields: config.fields,
    fieldNames,
    labelField: config.labelField ?? 'name',
    permission,
    permissions: Object.fromEntries(actions.map((a) => [a, `${permission}_${a}`])) as Record<Action, string>,
    ordering: config.ordering ?? '-id',
    searchFields: config.search ?? fieldNames.filter((n) => config.fields[n]!.isSearchable),
    listColumns: config.listColumns ?? fieldNames.filter((n) => !config.fields[n]!.isHiddenInList),
    extraRoutes: config.extraRoutes ?? [],
    labelKey: `entity.${config.name}`,
    fieldLabelKey: labelKeyOf,
    api: { base: `/${config.name}/api/v1/${config.name}` },
    ui: {
      area: config.route.area,
      list: config.route.list,
      listPath: `/apps/${config.route.area}/${config.route.list}`,
      formPath: `/apps/${config.route.area}/${config.route.form ?? config.route.list}`,
      areaPath: `/apps/${config.route.area}`,
    },
  }
}
