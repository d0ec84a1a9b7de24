import type { Entity, Fields } from './kit'
import { validationKeys } from './kit'

/**
 * Start-up self-check of the registry, in the spirit of Django's system checks:
 * every problem is listed with the entity and field it concerns and what to do.
 */
export type RegistryProblem = { entity: string; field?: string; message: string }

export class RegistryError extends Error {
  constructor(readonly problems: readonly RegistryProblem[]) {
    super(
      `The entity registry has ${problems.length} problem(s):\n` +
        problems.map((p) => `  - ${p.entity}${p.field ? `.${p.field}` : ''}: ${p.message}`).join('\n'),
    )
    this.name = 'RegistryError'
  }
}

export type Catalogue = { readonly [key: string]: string | Catalogue }

const IDENT = /^[a-z][a-z0-9_]*$/
const SQL_RESERVED = new Set(['id', 'created_at', 'updated_at', 'created_by', 'updated_by'])

export function hasKey(catalogue: Catalogue, key: string): boolean {
  let node: string | Catalogue | undefined = catalogue
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return false
    node = node[part]
  }
  return typeof node === 'string'
}

/** Every i18n key the registry uses; the catalogues must define them all. */
export function registryKeys(entities: readonly Entity<string, Fields>[]): string[] {
  const keys = new Set<string>(validationKeys)
  for (const e of entities) {
    keys.add(`${e.labelKey}.one`)
    keys.add(`${e.labelKey}.other`)
    for (const name of e.fieldNames) keys.add(e.fieldLabelKey(name))
    for (const field of Object.values(e.fields)) {
      for (const option of field.options ?? []) keys.add(`option.${option}`)
      for (const key of Object.values(field.messages ?? {})) keys.add(key)
    }
  }
  return [...keys].sort()
}

export function checkRegistry(
  entities: readonly Entity<string, Fields>[],
  catalogues: Readonly<Record<string, Catalogue>> = {},
): RegistryProblem[] {
  const problems: RegistryProblem[] = []
  const byName = new Map(entities.map((e) => [e.name, e]))
  const seen = { name: new Map<string, string>(), listKey: new Map<string, string>(), route: new Map<string, string>(), permission: new Map<string, string>() }
  const unique = (kind: keyof typeof seen, value: string, entity: string, what: string) => {
    const other = seen[kind].get(value)
    if (other) problems.push({ entity, message: `duplicate ${what} '${value}' (also used by '${other}')` })
    else seen[kind].set(value, entity)
  }

  for (const e of entities) {
    if (!IDENT.test(e.name)) problems.push({ entity: e.name, message: `name must match ${IDENT} (it names a table and a URL)` })
    unique('name', e.name, e.name, 'entity name')
    unique('listKey', e.listKey, e.name, 'list key')
    unique('route', e.ui.listPath, e.name, 'list route')
    unique('permission', e.permission, e.name, 'permission prefix')
    if (e.ui.formPath !== e.ui.listPath) unique('route', e.ui.formPath, e.name, 'form route')

    if (e.parent) {
      const parent = e.parent
      if (byName.get(parent.name) !== parent) problems.push({ entity: e.name, message: `extends '${parent.name}', which is not in the registry` })
      if (parent.parent) problems.push({ entity: e.name, message: `extends '${parent.name}', which itself extends '${parent.parent.name}': one level of inheritance is supported` })
      for (const name of e.fieldNames.filter((n) => !e.ownFieldNames.includes(n))) {
        const mine = e.fields[name]!
        const theirs = parent.fields[name]!
        if (mine === theirs) continue
        // An override changes validation only: the column stays the parent's.
        if (mine.kind !== theirs.kind || mine.sql?.type !== theirs.sql?.type || mine.ref?.target !== theirs.ref?.target || mine.isUnique !== theirs.isUnique) {
          problems.push({ entity: e.name, field: name, message: `overrides '${parent.name}.${name}' with another column (kind, SQL type, reference or uniqueness): only its validation may change` })
        }
        if (mine.presence === 'optional' && theirs.presence !== 'optional') {
          problems.push({ entity: e.name, field: name, message: `'${parent.name}.${name}' is required in its table; an override cannot make it optional` })
        }
      }
    }
    for (const action of e.publicActions) {
      if (action !== 'LIST' && action !== 'DETAILS') problems.push({ entity: e.name, message: `only reads can be public; '${action}' needs a token` })
    }
    if (e.selfActions.length > 0 && e.name !== 'user' && e.parent?.name !== 'user') {
      problems.push({ entity: e.name, message: `selfAccess is for 'user' and entities extending it (a caller is a user row)` })
    }
    for (const [path, route] of Object.entries(e.routeAliases)) {
      if (!/^[a-z_]+(\/[a-z_]+)*$/.test(path)) problems.push({ entity: e.name, message: `route alias '${path}' must be lower-case words separated by '/'` })
      if (e.routes[route] === false) problems.push({ entity: e.name, message: `route alias '${path}' points to '${route}', which the entity does not have` })
    }

    for (const name of e.fieldNames) {
      const field = e.fields[name]!
      if (field.isReadOnly && field.isRequired) problems.push({ entity: e.name, field: name, message: 'a read-only field is set by the server and cannot be required' })
      if (!IDENT.test(name)) problems.push({ entity: e.name, field: name, message: `field name must match ${IDENT}` })
      if (SQL_RESERVED.has(name)) problems.push({ entity: e.name, field: name, message: `'${name}' is set by the engine on every table; choose another name` })
      const isOverride = !e.ownFieldNames.includes(name)
      if (field.ref) {
        const target = byName.get(field.ref.target)
        if (!target) {
          problems.push({ entity: e.name, field: name, message: `unknown ref target '${field.ref.target}' (registered: ${[...byName.keys()].join(', ')})` })
        } else if (field.kind === 'ref' && field.ref.onDelete === 'set null' && field.isRequired && !isOverride) {
          problems.push({ entity: e.name, field: name, message: `a required reference cannot use onDelete 'set null'` })
        }
      }
      if (field.isSearchable && !['text', 'email', 'phone', 'url'].includes(field.kind)) {
        problems.push({ entity: e.name, field: name, message: `only text-like fields can be searchable (this one is '${field.kind}')` })
      }
    }
    if (!e.fields[e.labelField]) problems.push({ entity: e.name, message: `label field '${e.labelField}' is not a field of the entity` })
    const orderField = e.ordering.replace(/^-/, '')
    if (orderField !== 'id' && !e.fields[orderField]) problems.push({ entity: e.name, message: `ordering '${e.ordering}' names an unknown field` })
    for (const s of e.searchFields) if (!e.fields[s]) problems.push({ entity: e.name, message: `search field '${s}' is not a field` })
    for (const c of e.listColumns) if (!e.fields[c]) problems.push({ entity: e.name, message: `list column '${c}' is not a field` })
    for (const r of e.extraRoutes) {
      if (!e.fields[r.field]) problems.push({ entity: e.name, message: `extra route '${r.path}' filters on unknown field '${r.field}'` })
      if (!IDENT.test(r.path)) problems.push({ entity: e.name, message: `extra route path '${r.path}' must match ${IDENT}` })
    }
  }

  const keys = registryKeys(entities)
  for (const [lang, catalogue] of Object.entries(catalogues)) {
    const missing = keys.filter((k) => !hasKey(catalogue, k))
    for (const key of missing) {
      const entity = key.startsWith('entity.') ? key.split('.')[1]! : '(i18n)'
      problems.push({ entity, message: `missing translation key '${key}' in the '${lang}' catalogue` })
    }
  }
  return problems
}
