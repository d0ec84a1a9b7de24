import type { Entity, Fields, Report } from './kit'
import { actions, documentOf, genericRoutes, isFilterable, treeFieldsOf, validationKeys } from './kit'
import { materialIcons, navGroups, navigationEntries, type MaterialIcon } from './navigation'
import { callerAttributes } from './caller'
import type { Widget } from './kit/widget'

const isMaterialIcon = (name: string): name is MaterialIcon => (materialIcons as readonly string[]).includes(name)
const unknownIcon = (name: string) => `nav icon '${name}' is not one the shell draws: use one of schema/navigation.ts's materialIcons (${materialIcons.join(', ')}), or add it there and to src/shell/navigation.ts`

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

function fieldKeys(keys: Set<string>, fields: Fields, labelOf: (field: string) => string): void {
  for (const [name, field] of Object.entries(fields)) {
    keys.add(labelOf(name))
    for (const option of field.options ?? []) keys.add(`option.${option}`)
    for (const key of Object.values(field.messages ?? {})) keys.add(key)
    if (field.lines) keys.add('field.line')
    // The messages of the rules a field opts into (its own words, or the registry's).
    if (field.notAfter) keys.add(field.messages?.future_date ?? 'validation.future_date')
    if (field.format === 'postal_code') keys.add(field.messages?.postal_code ?? 'validation.postal_code')
    if (field.within) keys.add(field.messages?.not_within ?? 'validation.not_within')
  }
}

/** Every i18n key the registry uses; the catalogues must define them all. */
export function registryKeys(entities: readonly Entity<string, Fields>[], reports: readonly Report[] = [], widgets: readonly Widget[] = []): string[] {
  const keys = new Set<string>(validationKeys)
  for (const e of entities) {
    keys.add(`${e.labelKey}.one`)
    keys.add(`${e.labelKey}.other`)
    fieldKeys(keys, e.fields, e.fieldLabelKey)
    for (const [, field] of treeFieldsOf(e)) {
      keys.add(field.messages?.tree_cycle ?? 'validation.tree_cycle')
      if (field.maxDepth) for (const rule of ['tree_depth', 'tree_subtree_depth'] as const) keys.add(field.messages?.[rule] ?? `validation.${rule}`)
    }
    for (const rule of [...e.rules, ...(e.rowsPerLine?.lineRules ?? [])]) keys.add(rule.message)
    if (e.rowsPerLine) keys.add(`field.${e.rowsPerLine.lines}`)
    for (const view of Object.values(e.views)) keys.add(view.label)
    for (const key of [...(e.print?.signatures ?? []), ...(e.print?.party ? [e.print.party.label] : []), ...(e.print?.blocks ?? []).map((b) => b.label)]) keys.add(key)
    if (e.builtIn) keys.add(e.builtIn.message)
    for (const section of e.sections) keys.add(section.label)
    for (const action of Object.values(e.actions)) {
      keys.add(action.labelKey)
      if (action.confirmKey) keys.add(action.confirmKey)
      fieldKeys(keys, action.input, (name) => action.input[name]!.label ?? `field.${name}`)
    }
  }
  for (const r of reports) {
    keys.add(r.labelKey)
    fieldKeys(keys, r.params, r.fieldLabelKey)
    fieldKeys(keys, r.columns, r.fieldLabelKey)
    for (const rule of r.rules) keys.add(rule.message)
  }
  for (const w of widgets) {
    keys.add(w.labelKey)
    for (const column of Object.keys(w.columns)) keys.add(`field.${column}`)
  }
  for (const entry of navigationEntries(entities, reports)) keys.add(entry.label)
  return [...keys].sort()
}

const TEXT_KINDS = ['text', 'email', 'phone', 'url']

/** Whether `q` and the list search can match on the field: text-like, or a reference to a row whose label can. */
function isSearchableField(byName: ReadonlyMap<string, Entity<string, Fields>>, e: Entity<string, Fields>, name: string, depth = 0): boolean {
  const field = e.fields[name]
  if (!field || field.isVirtual) return false
  if (TEXT_KINDS.includes(field.kind)) return true
  if (field.kind !== 'ref' || depth > 0) return false
  const target = byName.get(field.ref!.target)
  return target !== undefined && target.searchFields.includes(target.labelField) && isSearchableField(byName, target, target.labelField, depth + 1)
}

/**
 * A form's sections: named once each, every field a client may send in exactly one of them
 * (a field left out would vanish from the form), no field the server sets.
 */
function sectionProblems(e: Entity<string, Fields>): RegistryProblem[] {
  if (e.sections.length === 0) return []
  const problems: RegistryProblem[] = []
  const seenKeys = new Set<string>()
  const placed = new Map<string, string>()
  for (const section of e.sections) {
    if (!IDENT.test(section.key)) problems.push({ entity: e.name, message: `section key '${section.key}' must match ${IDENT}` })
    if (seenKeys.has(section.key)) problems.push({ entity: e.name, message: `duplicate section '${section.key}'` })
    seenKeys.add(section.key)
    if (section.fields.length === 0) problems.push({ entity: e.name, message: `section '${section.key}' has no fields` })
    for (const name of section.fields) {
      const field = e.fields[name]
      if (!field) problems.push({ entity: e.name, message: `section '${section.key}' names '${name}', which is not a field` })
      else if (field.isReadOnly) problems.push({ entity: e.name, field: name, message: `section '${section.key}' names a field the server sets: the form does not offer it` })
      else if (placed.has(name)) problems.push({ entity: e.name, field: name, message: `in sections '${placed.get(name)}' and '${section.key}': a field belongs to one section` })
      else placed.set(name, section.key)
    }
  }
  for (const name of e.fieldNames) {
    if (!e.fields[name]!.isReadOnly && !placed.has(name)) problems.push({ entity: e.name, field: name, message: `is in no section: list it in one of ${e.sections.map((x) => `'${x.key}'`).join(', ')}` })
  }
  return problems
}

/**
 * `within: { city: 'city' }` on a reference to `thana`: `thana.city` and this entity's `city`
 * are references to the same entity, so that their values can be compared.
 */
function withinProblems(byName: ReadonlyMap<string, Entity<string, Fields>>, e: Entity<string, Fields>): RegistryProblem[] {
  const problems: RegistryProblem[] = []
  for (const name of e.fieldNames) {
    const field = e.fields[name]!
    if (!field.within) continue
    const target = field.ref ? byName.get(field.ref.target) : undefined
    if (field.kind !== 'ref' || !target) {
      if (field.kind !== 'ref') problems.push({ entity: e.name, field: name, message: 'within is for a reference (f.ref)' })
      continue
    }
    for (const [theirs, mine] of Object.entries(field.within)) {
      const their = target.fields[theirs]
      const my = e.fields[mine]
      if (!their || their.kind !== 'ref' || their.isVirtual) problems.push({ entity: e.name, field: name, message: `within: '${theirs}' is not a stored reference of '${target.name}'` })
      else if (!my || my.kind !== 'ref' || mine === name) problems.push({ entity: e.name, field: name, message: `within: '${mine}' is not another reference of '${e.name}'` })
      else if (their.ref!.target !== my.ref!.target) problems.push({ entity: e.name, field: name, message: `within: '${target.name}.${theirs}' refers to '${their.ref!.target}' but '${mine}' to '${my.ref!.target}'` })
    }
  }
  return problems
}

/** `own`: one of `field` (a reference to the user) or `via` (a reference to an entity with an own field), and actions the entity has. */
function ownProblems(byName: ReadonlyMap<string, Entity<string, Fields>>, e: Entity<string, Fields>, own: NonNullable<Entity<string, Fields>['own']>): RegistryProblem[] {
  const problems: RegistryProblem[] = []
  const isUserRef = (name: string) => {
    const target = e.fields[name]?.ref ? byName.get(e.fields[name]!.ref!.target) : undefined
    return e.fields[name]?.kind === 'ref' && !e.fields[name]!.isVirtual && (target?.name === 'user' || target?.parent?.name === 'user')
  }
  if ((own.field === undefined) === (own.via === undefined)) problems.push({ entity: e.name, message: 'own: give one of field (a reference to the user) or via (a reference to a record that has its own field)' })
  if (own.field !== undefined && !isUserRef(own.field)) problems.push({ entity: e.name, field: own.field, message: 'own.field must be a stored reference to user (or an entity that extends it)' })
  if (own.via !== undefined) {
    const field = e.fields[own.via]
    const target = field?.kind === 'ref' ? byName.get(field.ref!.target) : undefined
    if (!target || field!.isVirtual) problems.push({ entity: e.name, field: own.via, message: 'own.via must be a stored reference of the entity' })
    else if (!target.own?.field) problems.push({ entity: e.name, field: own.via, message: `own.via: '${target.name}' has no own field: its records are no one's` })
  }
  const known = new Set<string>([...actions, ...Object.keys(e.actions)])
  for (const action of own.actions) if (!known.has(action)) problems.push({ entity: e.name, message: `own.actions: '${action}' is neither ${actions.join(', ')} nor an action of '${e.name}'` })
  if (own.actions.includes('CREATE') && !own.actions.includes('LIST')) problems.push({ entity: e.name, message: 'own.actions: CREATE without LIST: give LIST too, or its creators lose sight of what they wrote' })
  if (own.shared) {
    const field = e.fields[own.shared.field]
    const attribute = Object.hasOwn(callerAttributes, own.shared.attribute) ? callerAttributes[own.shared.attribute as keyof typeof callerAttributes] : undefined
    // What the attribute holds: the id of a row of the entity its column refers to (a user's role).
    const holds = attribute ? byName.get(attribute.entity)?.fields[attribute.field]?.ref?.target : undefined
    if (own.field === undefined) problems.push({ entity: e.name, message: 'own.shared: give own.field too (rows shared with a caller are besides their own)' })
    if (field?.kind !== 'ref' || field.isVirtual) problems.push({ entity: e.name, field: own.shared.field, message: 'own.shared.field must be a stored reference of the entity' })
    else if (!attribute) problems.push({ entity: e.name, message: `own.shared.attribute '${own.shared.attribute}' is not a caller attribute (schema/caller.ts: ${Object.keys(callerAttributes).join(', ')})` })
    else if (holds !== field.ref!.target) problems.push({ entity: e.name, field: own.shared.field, message: `own.shared: the caller attribute '${own.shared.attribute}' holds no '${field.ref!.target}'` })
  }
  return problems
}

/**
 * A Trash (EntityConfig.trash) holds for master data whose rows can wait there whole and come
 * back as they were: not a document (its lines, postings, stock moves and status are undone by
 * its delete), not a row of another's table (inheritance: a user's sign-in reads its table
 * directly), not one whose delete is a module's own; and nothing the database deletes with it
 * may be left out — a row that a reference deletes with it (`onDelete: 'cascade'`) goes to a
 * Trash too, so it must have one.
 */
function trashProblems(entities: readonly Entity<string, Fields>[], e: Entity<string, Fields>): RegistryProblem[] {
  const problems: RegistryProblem[] = []
  const say = (message: string, field?: string) => problems.push({ entity: e.name, ...(field ? { field } : {}), message: `trash: ${message}` })
  if (e.linesFieldNames.length > 0 || e.rowsPerLine) say('a document with lines is undone by its delete (its lines, postings, stock): it has no Trash')
  if (e.posts || e.moves) say('what posts to the ledger or moves stock is undone by its delete: it has no Trash')
  if (e.workflow) say('a record with a workflow is a document, kept or cancelled by its status: it has no Trash')
  if (e.isAppendOnly) say('an append-only table is never deleted from')
  if (e.parent) say(`it extends '${e.parent.name}': a row of another's table (a user signs in from it) cannot wait in a Trash`)
  const child = entities.find((x) => x.parent?.name === e.name)
  if (child) say(`'${child.name}' extends it: a row of another's table (a user signs in from it) cannot wait in a Trash`)
  if (e.idFrom) say('its id is another row\'s (idFrom): it goes and comes with that row')
  if (e.ledger) say('it keeps its own ledger account, which stays in the books: it has no Trash')
  if (e.routes.delete === 'bespoke' || e.routes.delete_multiple === 'bespoke') say('a module deletes its rows itself: only the engine\'s delete moves rows to the Trash')
  if (e.routes.delete === false && e.routes.delete_multiple === false) say('its rows are never deleted: a Trash would stay empty')
  for (const name of ['deleted_at', 'deleted_by']) if (e.fields[name]) say(`'${name}' is the Trash's column: choose another name`, name)
  if (e.actions.purge) say(`the action 'purge' would share ${e.trash!.purgePermission} with the Trash's purge: name it otherwise`)
  for (const x of entities) {
    for (const name of x.ownFieldNames) {
      const field = x.fields[name]!
      if (field.kind !== 'ref' || field.isVirtual || field.ref?.target !== e.name || field.ref.onDelete !== 'cascade') continue
      if (x.isLine) say(`the lines of '${x.lineOf}' ('${x.name}.${name}') are deleted with its rows: make that reference restrict or setNull`)
      else if (!x.trash) say(`'${x.name}.${name}' deletes its rows with it (onDelete 'cascade'): give '${x.name}' a Trash too, or make the reference restrict or setNull`)
    }
  }
  return problems
}

export function checkRegistry(
  entities: readonly Entity<string, Fields>[],
  catalogues: Readonly<Record<string, Catalogue>> = {},
  reports: readonly Report[] = [],
  widgets: readonly Widget[] = [],
): RegistryProblem[] {
  const problems: RegistryProblem[] = []
  const byName = new Map(entities.map((e) => [e.name, e]))
  const seen = { name: new Map<string, string>(), listKey: new Map<string, string>(), route: new Map<string, string>(), permission: new Map<string, string>() }
  const unique = (kind: keyof typeof seen, value: string, entity: string, what: string) => {
    const other = seen[kind].get(value)
    if (other) problems.push({ entity, message: `duplicate ${what} '${value}' (also used by '${other}')` })
    else seen[kind].set(value, entity)
  }

  const groupIds = new Set(navGroups.map((g) => g.id))
  const lineUses = new Map<string, string[]>()
  for (const e of entities) {
    if (!IDENT.test(e.name)) problems.push({ entity: e.name, message: `name must match ${IDENT} (it names a table and a URL)` })
    unique('name', e.name, e.name, 'entity name')
    if (!e.isLine) {
      unique('listKey', e.listKey, e.name, 'list key')
      unique('route', e.ui.listPath, e.name, 'list route')
      unique('permission', e.permission, e.name, 'permission prefix')
      if (e.ui.formPath !== e.ui.listPath) unique('route', e.ui.formPath, e.name, 'form route')
      for (const path of e.ui.formAt) unique('route', path, e.name, 'other form route')
      if (e.ui.alsoAt) {
        unique('route', e.ui.alsoAt.listPath, e.name, 'second list route')
        if (e.ui.alsoAt.formPath !== e.ui.alsoAt.listPath) unique('route', e.ui.alsoAt.formPath, e.name, 'second form route')
      }
    }
    if (e.nav && !groupIds.has(e.nav.group)) problems.push({ entity: e.name, message: `nav group '${e.nav.group}' is not a group of schema/navigation.ts (${[...groupIds].join(', ')})` })
    if (e.nav && !isMaterialIcon(e.nav.icon)) problems.push({ entity: e.name, message: unknownIcon(e.nav.icon) })
    if (e.isLine) {
      const document = byName.get(e.lineOf!)
      if (!document) problems.push({ entity: e.name, message: `lineOf '${e.lineOf}' is not in the registry` })
      else if (!document.linesFieldNames.some((n) => document.fields[n]!.lines!.entity === e)) problems.push({ entity: e.name, message: `lineOf '${e.lineOf}', but '${e.lineOf}' has no lines field of this entity` })
      if (e.parent) problems.push({ entity: e.name, message: 'a line entity cannot extend another entity' })
      if (Object.keys(e.actions).length > 0) problems.push({ entity: e.name, message: 'a line entity has no actions of its own: declare them on its document' })
      for (const name of ['position', e.lineOf!]) if (e.fields[name]) problems.push({ entity: e.name, field: name, message: `'${name}' is the engine's column of a line (its place, its document): choose another name` })
    }
    for (const name of e.linesFieldNames) {
      const line = e.fields[name]!.lines!
      const uses = lineUses.get(line.entity.name) ?? []
      lineUses.set(line.entity.name, [...uses, `${e.name}.${name}`])
      if (byName.get(line.entity.name) !== line.entity) problems.push({ entity: e.name, field: name, message: `its line entity '${line.entity.name}' is not in the registry` })
      if (line.entity.lineOf !== e.name) problems.push({ entity: e.name, field: name, message: `its line entity '${line.entity.name}' must declare lineOf: '${e.name}'` })
      if (line.scalar && !line.entity.fields[line.scalar]) problems.push({ entity: e.name, field: name, message: `scalar '${line.scalar}' is not a field of '${line.entity.name}'` })
      for (const total of line.totals ?? []) {
        const column = line.entity.fields[total]
        if (!column || !['integer', 'decimal'].includes(column.kind) || column.ref) problems.push({ entity: e.name, field: name, message: `totals: '${total}' is not a number or money field of '${line.entity.name}'` })
      }
      if (e.parent && !e.ownFieldNames.includes(name)) problems.push({ entity: e.name, field: name, message: 'lines belong to the entity that declares them' })
    }
    // A document kept one row per line is judged as a document: its rules are about its header and its lines.
    const judged = e.rowsPerLine && !rowsPerLineProblems(byName, e, e.rowsPerLine).length ? documentOf(e) : e
    for (const rule of e.rules) {
      if (!judged.fields[rule.field]) problems.push({ entity: e.name, message: `rule '${rule.message}' reports on '${rule.field}', which is not a field` })
    }
    if (e.print) problems.push(...printProblems(judged, e.print), ...printBlockProblems(byName, e, e.print))
    for (const view of Object.values(e.views)) {
      unique('route', view.ui.listPath, e.name, `list route of the view '${view.name}'`)
      // Its own form address (`route.form`) is its alone; at its own list's address it is that list's `/{id}`.
      if (view.ui.formPath !== undefined && view.ui.formPath !== view.ui.listPath) unique('route', view.ui.formPath, e.name, `form route of the view '${view.name}'`)
      problems.push(...viewProblems(byName, e, view))
    }
    problems.push(...sectionProblems(e))
    for (const related of e.related) problems.push(...relatedProblems(byName, e, related))
    if (e.workflow) problems.push(...workflowProblems(byName, e, e.workflow))
    problems.push(...numberingProblems(byName, e))
    if (e.rowsPerLine) problems.push(...rowsPerLineProblems(byName, e, e.rowsPerLine))
    problems.push(...withinProblems(byName, e), ...fetchFromProblems(byName, e))
    if (e.own) problems.push(...ownProblems(byName, e, e.own))
    if (e.trash) problems.push(...trashProblems(entities, e))
    for (const [name, field] of Object.entries(e.fields)) {
      if (field.maxDepth === undefined) continue
      if (!treeFieldsOf(e).some(([tree]) => tree === name)) problems.push({ entity: e.name, field: name, message: `maxDepth is for a reference of '${e.name}' to itself (a tree)` })
      else if (!Number.isInteger(field.maxDepth) || field.maxDepth < 1) problems.push({ entity: e.name, field: name, message: 'maxDepth must be a whole number of levels, 1 or more' })
    }
    // The first segments the entity's routes already use: an action named so would shadow one.
    const paths = new Set<string>([...genericRoutes, ...e.extraRoutes.map((r) => r.path), ...Object.keys(e.routeAliases).map((a) => a.split('/')[0]!), ...(e.gallery ? ['reorder'] : []), ...(e.rowsPerLine ? ['document'] : [])])
    if (e.gallery) problems.push(...galleryProblems(e, e.gallery))
    for (const action of Object.values(e.actions)) {
      for (const path of action.paths) {
        if (!IDENT.test(path)) problems.push({ entity: e.name, message: `action path '${path}' must match ${IDENT}` })
        if (paths.has(path)) problems.push({ entity: e.name, message: `action path '${path}' is taken by another route of the entity` })
        paths.add(path)
      }
      unique('permission', action.permission, e.name, 'action permission')
    }
    if (e.idFrom) {
      const field = e.fields[e.idFrom]
      if (!field || field.kind !== 'ref' || !field.isRequired || !field.isUnique) problems.push({ entity: e.name, message: `idFrom '${e.idFrom}' must be a required, unique reference of the entity` })
      if (e.parent || e.isLine) problems.push({ entity: e.name, message: 'idFrom is for an entity of its own table (not one that extends another, nor a line)' })
    }
    if (e.builtIn) {
      const field = e.fields[e.builtIn.field]
      const isFlag = field?.kind === 'boolean' && e.builtIn.values.every((v) => typeof v === 'boolean')
      // A flag marks rows only the server sets: one a client could clear would unprotect its row.
      if (isFlag) {
        if (!field.isReadOnly) problems.push({ entity: e.name, field: e.builtIn.field, message: 'the flag that marks built-in rows must be read-only' })
      } else if (!field || field.kind !== 'text') problems.push({ entity: e.name, message: `builtIn names '${e.builtIn.field}', which is not a text field of the entity` })
      else if (!field.isUnique || !field.isRequired) problems.push({ entity: e.name, field: e.builtIn.field, message: 'the field that names built-in rows must be required and unique' })
    }
    for (const name of e.selfEditable) {
      if (!e.fields[name]) problems.push({ entity: e.name, message: `selfEditable names '${name}', which is not a field` })
      else if (e.fields[name]!.isReadOnly) problems.push({ entity: e.name, field: name, message: 'a read-only field cannot be self-editable' })
    }

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
        } else if (field.kind === 'ref' && field.ref.onDelete === 'setNull' && field.isRequired && !isOverride) {
          problems.push({ entity: e.name, field: name, message: `a required reference cannot use onDelete 'setNull'` })
        }
      }
      if (field.uniqueWithin !== undefined && (!e.fields[field.uniqueWithin]?.sql || field.uniqueWithin === name || !e.ownFieldNames.includes(field.uniqueWithin) !== !e.ownFieldNames.includes(name))) {
        problems.push({ entity: e.name, field: name, message: `unique within '${field.uniqueWithin}': that must be another stored field of the same table` })
      }
      if (field.isSearchable && !isSearchableField(byName, e, name)) {
        problems.push({ entity: e.name, field: name, message: `only text-like fields, or references to a row whose label is searchable, can be searchable (this one is '${field.kind}')` })
      }
      if (field.compute && field.isRequired) problems.push({ entity: e.name, field: name, message: 'a computed field is set by the engine and cannot be required' })
      if (field.compute && (field.kind === 'lines' || field.kind === 'refs')) problems.push({ entity: e.name, field: name, message: `a ${field.kind} field cannot be computed` })
      if (field.isTransient && (field.compute || field.isUnique || field.isSearchable)) problems.push({ entity: e.name, field: name, message: 'an input-only (transient) field is never stored: it cannot be computed, unique or searchable' })
    }
    if (!e.fields[e.labelField]) problems.push({ entity: e.name, message: `label field '${e.labelField}' is not a field of the entity` })
    else if (!e.isLine && (!e.searchFields.includes(e.labelField) || !isSearchableField(byName, e, e.labelField))) {
      problems.push({ entity: e.name, field: e.labelField, message: `the label field must be searchable (a picker finds rows by it): mark it search: true` })
    }
    const orderField = e.ordering.replace(/^-/, '')
    if (orderField !== 'id' && !e.fields[orderField]) problems.push({ entity: e.name, message: `ordering '${e.ordering}' names an unknown field` })
    for (const s of e.searchFields) if (!e.fields[s]) problems.push({ entity: e.name, message: `search field '${s}' is not a field` })
    for (const c of e.listColumns) if (!e.fields[c]) problems.push({ entity: e.name, message: `list column '${c}' is not a field` })
    for (const c of e.filterFields) {
      if (!e.fields[c] || !isFilterable(e.fields[c])) problems.push({ entity: e.name, message: `filter '${c}' must be a stored choice, flag, reference, date or number field` })
    }
    for (const r of e.extraRoutes) {
      if (!e.fields[r.field]) problems.push({ entity: e.name, message: `extra route '${r.path}' filters on unknown field '${r.field}'` })
      if (!IDENT.test(r.path)) problems.push({ entity: e.name, message: `extra route path '${r.path}' must match ${IDENT}` })
    }
  }

  for (const [lineName, uses] of lineUses) {
    if (uses.length > 1) problems.push({ entity: lineName, message: `a line entity belongs to one document, but ${uses.join(' and ')} both use it` })
  }
  for (const e of entities.filter((x) => x.isLine && !lineUses.has(x.name))) problems.push({ entity: e.name, message: `line entity of '${e.lineOf}', but no lines field uses it` })

  const reportNames = new Set<string>()
  const reportsByName = new Map(reports.map((r) => [r.name, r]))
  for (const r of reports) {
    if (!IDENT.test(r.name)) problems.push({ entity: r.name, message: `report name must match ${IDENT}` })
    if (reportNames.has(r.name)) problems.push({ entity: r.name, message: `duplicate report name '${r.name}'` })
    reportNames.add(r.name)
    unique('route', r.ui.path, r.name, 'report route')
    unique('permission', r.permission, r.name, 'report permission')
    if (r.nav && !groupIds.has(r.nav.group)) problems.push({ entity: r.name, message: `nav group '${r.nav.group}' is not a group of schema/navigation.ts` })
    if (r.nav && !isMaterialIcon(r.nav.icon)) problems.push({ entity: r.name, message: unknownIcon(r.nav.icon) })
    for (const name of [...r.paramNames, ...r.columnNames]) if (!IDENT.test(name)) problems.push({ entity: r.name, field: name, message: `name must match ${IDENT}` })
    for (const name of r.paramNames) {
      const p = r.params[name]!
      if (p.kind === 'lines' || p.kind === 'file' || p.kind === 'password' || p.kind === 'json') problems.push({ entity: r.name, field: name, message: `a report parameter cannot be of kind '${p.kind}'` })
      if (p.ref && !byName.has(p.ref.target)) problems.push({ entity: r.name, field: name, message: `unknown ref target '${p.ref.target}'` })
    }
    for (const name of r.totals) {
      const c = r.columns[name]
      if (!c) problems.push({ entity: r.name, message: `total '${name}' is not a column` })
      else if (c.kind !== 'decimal' && c.kind !== 'integer') problems.push({ entity: r.name, field: name, message: `only number columns can be totalled (this one is '${c.kind}')` })
    }
    for (const o of r.ordering) if (!r.columns[o.replace(/^-/, '')]) problems.push({ entity: r.name, message: `ordering '${o}' names an unknown column` })
    for (const rule of r.rules) if (!r.params[rule.field]) problems.push({ entity: r.name, message: `rule '${rule.message}' reports on '${rule.field}', which is not a parameter` })
    problems.push(...reportViewProblems(r, byName, reportsByName))
  }

  problems.push(...widgetProblems(byName, widgets))

  const keys = registryKeys(entities, reports, widgets)
  for (const [lang, catalogue] of Object.entries(catalogues)) {
    const missing = keys.filter((k) => !hasKey(catalogue, k))
    for (const key of missing) {
      const entity = key.startsWith('entity.') || key.startsWith('report.') ? key.split('.')[1]! : '(i18n)'
      problems.push({ entity, message: `missing translation key '${key}' in the '${lang}' catalogue` })
    }
  }
  return problems
}

const isNumberColumn = (field: Fields[string] | undefined) => field?.kind === 'integer' || field?.kind === 'decimal'

/**
 * What a report shows besides its table: its hidden columns are named apart from the rest,
 * its chart plots columns' values against another's, and each drill-down leads from a column
 * to a record's screen (an entity with a form, by an id the rows carry) or to a report whose
 * parameters it can fill (by name from the rows or this report's parameters, or shared with it).
 */
function reportViewProblems(r: Report, byName: ReadonlyMap<string, Entity<string, Fields>>, reports: ReadonlyMap<string, Report>): RegistryProblem[] {
  const problems: RegistryProblem[] = []
  const say = (message: string, field?: string) => problems.push({ entity: r.name, ...(field ? { field } : {}), message })
  for (const name of r.hiddenNames) {
    if (!IDENT.test(name)) say(`name must match ${IDENT}`, name)
    if (r.columns[name] || r.params[name]) say('a hidden column is named as a column or a parameter', name)
  }
  const carried = (name: string) => r.columns[name] ?? r.hidden[name]

  if (r.chart) {
    const { kind, label, values } = r.chart
    if (!['bar', 'line', 'pie'].includes(kind)) say(`chart kind '${kind}' is none of bar, line, pie`)
    if (!r.columns[label]) say(`chart label '${label}' is not a column`)
    if (values.length === 0) say('a chart plots at least one value column')
    for (const value of values) {
      if (!r.columns[value]) say(`chart value '${value}' is not a column`)
      else if (!isNumberColumn(r.columns[value])) say(`a chart plots number columns (this one is '${r.columns[value]!.kind}')`, value)
    }
    if (kind === 'pie' && values.length > 1) say('a pie chart plots one value column')
  }

  for (const [column, drill] of Object.entries(r.drill)) {
    if (!r.columns[column]) say('a drill-down starts from a column', column)
    if ('report' in drill) {
      const target = reports.get(drill.report)
      if (!target) {
        say(`drill-down to unknown report '${drill.report}'`, column)
        continue
      }
      const given = Object.keys(drill.params ?? {})
      for (const [param, from] of Object.entries(drill.params ?? {})) {
        if (!target.params[param]) say(`drill-down gives '${param}', which is not a parameter of '${target.name}'`, column)
        if (!carried(from) && !r.params[from]) say(`drill-down takes '${param}' from '${from}', which is neither a column nor a parameter`, column)
      }
      for (const param of target.paramNames) {
        if (target.params[param]!.isRequired && !given.includes(param) && !r.params[param]) say(`drill-down to '${target.name}' does not give its required parameter '${param}'`, column)
      }
      continue
    }
    const id = carried(drill.id)
    if (!id) say(`drill-down id '${drill.id}' is not a column`, column)
    else if (id.kind !== 'integer' && id.kind !== 'ref') say(`a drill-down id is a record's id, an integer column (this one is '${id.kind}')`, column)
    if (typeof drill.entity === 'string') {
      const entity = byName.get(drill.entity)
      if (!entity) say(`drill-down to unknown entity '${drill.entity}'`, column)
      else if (entity.isLine) say(`drill-down to '${drill.entity}', a line entity with no screen of its own`, column)
    } else {
      const from = carried(drill.entity.fromColumn)
      if (!from) say(`drill-down takes its entity from '${drill.entity.fromColumn}', which is not a column`, column)
      // A choice names the entities it may lead to: one of them at least must be one.
      else if (from.options && !from.options.some((o) => byName.has(o))) say(`drill-down takes its entity from '${drill.entity.fromColumn}', none of whose choices is an entity`, column)
    }
  }
  return problems
}

/**
 * A workflow moves a choice field of the entity's own through states it knows: its initial
 * state, the states it may be edited in and every transition's ends are choices of that
 * field, and every state can be reached from the initial one (a state nothing leads to is a
 * typo or a forgotten transition).
 */
function workflowProblems(byName: ReadonlyMap<string, Entity<string, Fields>>, e: Entity<string, Fields>, workflow: NonNullable<Entity<string, Fields>['workflow']>): RegistryProblem[] {
  const problems: RegistryProblem[] = []
  const field = e.fields[workflow.field]
  const at = { entity: e.name, field: workflow.field }
  if (!field || field.kind !== 'enum') return [{ ...at, message: 'a workflow moves a choice field (f.choice) of the entity' }]
  if (e.parent && !e.ownFieldNames.includes(workflow.field)) problems.push({ ...at, message: 'a workflow moves a field of the entity\'s own table, not one it inherits' })
  if (e.isLine) problems.push({ ...at, message: 'a line has no workflow of its own: declare it on its document' })
  const known = new Set(workflow.states)
  const unknown = (state: string, what: string) => !known.has(state) && problems.push({ ...at, message: `${what} '${state}' is not one of its choices (${workflow.states.join(', ')})` })
  unknown(workflow.initial, 'initial state')
  for (const state of workflow.editableIn) unknown(state, 'editableIn state')
  for (const t of Object.values(workflow.transitions)) {
    if (t.from.length === 0) problems.push({ ...at, message: `transition '${t.name}' leaves from no state` })
    for (const state of t.from) unknown(state, `transition '${t.name}' leaves from`)
    unknown(t.to, `transition '${t.name}' leads to`)
  }
  const reached = new Set([workflow.initial])
  for (let grew = true; grew; ) {
    grew = false
    for (const t of Object.values(workflow.transitions)) {
      if (!reached.has(t.to) && t.from.some((s) => reached.has(s))) {
        reached.add(t.to)
        grew = true
      }
    }
  }
  for (const state of workflow.states) if (!reached.has(state)) problems.push({ ...at, message: `state '${state}' cannot be reached from '${workflow.initial}' by any transition` })
  // What a transition sets and what follows the status are the server's: read-only to plain writes, in the entity's own table.
  const isOwnReadOnly = (name: string) => e.fields[name]?.isReadOnly === true && e.fields[name]?.compute === undefined && e.ownFieldNames.includes(name)
  for (const t of Object.values(workflow.transitions)) {
    if (!t.stamp) continue
    const kind = e.fields[t.stamp]?.kind
    if ((kind !== 'datetime' && kind !== 'date') || !isOwnReadOnly(t.stamp)) problems.push({ entity: e.name, field: t.stamp, message: `transition '${t.name}' stamps '${t.stamp}', which must be a read-only date-time field of the entity's own (f.datetime({ readOnly: true }))` })
  }
  if (workflow.lookup) {
    const { field: name } = workflow.lookup
    if (e.fields[name]?.kind !== 'ref' || !isOwnReadOnly(name)) problems.push({ entity: e.name, field: name, message: `the workflow's lookup '${name}' must be a read-only reference of the entity's own (f.ref('<lookup>', { readOnly: true }))` })
    // The engine finds the lookup's row by its `name`.
    const target = e.fields[name]?.ref?.target
    if (target && byName.get(target) && !byName.get(target)!.fields.name) problems.push({ entity: e.name, field: name, message: `the workflow's lookup '${target}' has no 'name' field to find a state's row by` })
    for (const state of Object.keys(workflow.lookup.names)) unknown(state, 'lookup name of state')
  }
  return problems
}

/**
 * A number the server gives (`numbering`, and the number a posting takes) lives in a
 * read-only text field of the entity; a posting goes to the general ledger under the
 * record's own numbering, or as a voucher entity that has one, when the record is written or
 * on one of its workflow's transitions.
 */
function numberingProblems(byName: ReadonlyMap<string, Entity<string, Fields>>, e: Entity<string, Fields>): RegistryProblem[] {
  const problems: RegistryProblem[] = []
  const isNumberField = (name: string) => {
    const field = e.fields[name]
    return field !== undefined && field.kind === 'text' && field.isReadOnly && field.compute === undefined && field.sql !== undefined
  }
  const isDateField = (name: string | undefined) => name === undefined || e.fields[name]?.kind === 'date' || e.fields[name]?.kind === 'datetime'
  if (e.numbering) {
    const { field, prefix, date } = e.numbering
    if (!isNumberField(field)) problems.push({ entity: e.name, field, message: 'numbering gives a read-only text field (f.text({ readOnly: true }))' })
    if (!/^[A-Z]{2,10}$/.test(prefix)) problems.push({ entity: e.name, field, message: `numbering prefix '${prefix}' must be 2 to 10 capital letters` })
    if (!isDateField(date)) problems.push({ entity: e.name, field, message: `numbering counts by '${date}', which is not a date field` })
  }
  const transitionsOf = Object.keys(e.workflow?.transitions ?? {})
  const moves = e.moves
  if (moves) {
    if (!isNumberField(moves.number) || e.numbering?.field !== moves.number) problems.push({ entity: e.name, field: moves.number, message: `moves stock under its own number: give it numbering on '${moves.number}'` })
    if (!isDateField(moves.date)) problems.push({ entity: e.name, field: moves.date, message: `moves stock dated by '${moves.date}', which is not a date field` })
    if (moves.on !== 'create' && !transitionsOf.includes(moves.on)) problems.push({ entity: e.name, message: `moves stock on '${moves.on}', which is neither 'create' nor a transition of its workflow (${transitionsOf.join(', ') || 'none'})` })
    for (const t of moves.reverseOn) if (!transitionsOf.includes(t)) problems.push({ entity: e.name, message: `moves stock back on '${t}', which is not a transition of its workflow` })
    // The stock ledger names the document that moved each row by its entity's name: one of its choices, with its label.
    if (moves.lineCost) {
      const lines = e.fields[moves.lineCost.lines]
      const line = lines?.kind === 'lines' ? lines.lines?.entity : undefined
      const cost = line?.fields[moves.lineCost.field]
      if (!line) problems.push({ entity: e.name, field: moves.lineCost.lines, message: `moves.lineCost names '${moves.lineCost.lines}', which is not a lines field of the entity` })
      else if (!cost || cost.kind !== 'decimal' || !cost.isReadOnly) problems.push({ entity: line.name, field: moves.lineCost.field, message: `keeps the unit cost its line moved at in '${moves.lineCost.field}', which must be a read-only decimal field of the line (f.decimal({ scale: 4, readOnly: true }))` })
    }
    const named = byName.get('stock_ledger')?.fields.reference_type?.options
    if (named && !named.includes(e.name)) problems.push({ entity: e.name, message: `moves stock, but the stock ledger does not name it: add '${e.name}' to stockReferenceTypes (schema/entities/inventory/stock-ledger.ts) and its label option.${e.name}` })
  }
  const posts = e.posts
  if (!posts) return problems
  if (!isNumberField(posts.number)) problems.push({ entity: e.name, field: posts.number, message: 'a posting\'s number is held by a read-only text field (f.text({ readOnly: true }))' })
  if (!isDateField(posts.date)) problems.push({ entity: e.name, field: posts.date, message: `posts counts its number by '${posts.date}', which is not a date field` })
  if (posts.as === 'ledger') {
    if (e.numbering?.field !== posts.number) problems.push({ entity: e.name, message: `posts as 'ledger' under its own number: give it numbering on '${posts.number}'` })
  } else if (!byName.get(posts.as)?.numbering) problems.push({ entity: e.name, message: `posts as '${posts.as}', which is not a voucher entity with its numbering` })
  const transitions = Object.keys(e.workflow?.transitions ?? {})
  if (posts.on !== 'create' && !transitions.includes(posts.on)) problems.push({ entity: e.name, message: `posts on '${posts.on}', which is neither 'create' nor a transition of its workflow (${transitions.join(', ') || 'none'})` })
  for (const t of posts.reverseOn) if (!transitions.includes(t)) problems.push({ entity: e.name, message: `posts reverses on '${t}', which is not a transition of its workflow` })
  return problems
}

/**
 * A document kept one row per line: its key is a field the server gives (a number), its
 * lines' fields are stored fields of the entity, its list picks the shown row by a
 * reference among them, sums number columns and names the other rows by a reference, into
 * virtual fields the list columns can name.
 */
function rowsPerLineProblems(byName: ReadonlyMap<string, Entity<string, Fields>>, e: Entity<string, Fields>, spec: NonNullable<Entity<string, Fields>['rowsPerLine']>): RegistryProblem[] {
  const problems: RegistryProblem[] = []
  const say = (message: string, field?: string) => problems.push({ entity: e.name, ...(field ? { field } : {}), message })
  const key = e.fields[spec.key]
  if (!key || key.kind !== 'text' || !key.isReadOnly || key.sql === undefined) say('rowsPerLine.key must be a read-only text field: the document\'s number, which the server gives', spec.key)
  if (e.numbering?.field !== spec.key) say(`rowsPerLine.key '${spec.key}' needs its numbering (numbering: { field: '${spec.key}', … })`)
  if (e.fields[spec.lines]) say(`rowsPerLine.lines '${spec.lines}' names the document's lines; a field of that name would hide them`, spec.lines)
  if (spec.lineFields.length === 0) say('rowsPerLine.lineFields names no field: a line needs one')
  for (const name of spec.lineFields) {
    const field = e.fields[name]
    if (!field || field.sql === undefined || field.isReadOnly) say(`rowsPerLine.lineFields names '${name}', which is not a stored field a client writes`, name)
  }
  if (e.linesFieldNames.length > 0 || e.parent || e.isLine) say('a document kept one row per line has no f.lines field, parent or document of its own')
  // An action (a workflow's transition too) acts on one row, where such a document is several.
  if (Object.keys(e.actions).length > 0) say('a document kept one row per line has no actions or workflow yet: they would act on one of its rows, not the document')
  if (spec.shownLine) {
    const field = e.fields[spec.shownLine.field]
    if (!field || field.kind !== 'ref' || !spec.lineFields.includes(spec.shownLine.field)) say(`rowsPerLine.shownLine.field '${spec.shownLine.field}' must be a reference among its lineFields`)
  }
  const isListValue = (name: string) => e.fields[name]?.isVirtual === true
  for (const [name, column] of Object.entries(spec.sums ?? {})) {
    if (!isListValue(name)) say(`rowsPerLine.sums '${name}' must be a virtual field of the entity (its list value)`, name)
    if (e.fields[column]?.kind !== 'decimal' && e.fields[column]?.kind !== 'integer') say(`rowsPerLine.sums '${name}' adds up '${column}', which is not a number field`, name)
  }
  for (const [name, field] of Object.entries(spec.others ?? {})) {
    if (!isListValue(name)) say(`rowsPerLine.others '${name}' must be a virtual field of the entity (its list value)`, name)
    if (e.fields[field]?.kind !== 'ref' || !byName.has(e.fields[field]!.ref!.target)) say(`rowsPerLine.others '${name}' names '${field}', which is not a reference`, name)
  }
  for (const rule of spec.lineRules ?? []) if (!spec.lineFields.includes(rule.field)) say(`a line rule reports on '${rule.field}', which is not one of its lineFields`)
  return problems
}

/** A printed form names fields the document has: header fields, a lines field and its columns, number columns to total, an amount of money. */
function printProblems(e: Entity<string, Fields>, print: NonNullable<Entity<string, Fields>['print']>): RegistryProblem[] {
  const problems: RegistryProblem[] = []
  const say = (message: string) => problems.push({ entity: e.name, message: `print: ${message}` })
  for (const name of print.header) if (!e.fields[name]) say(`header names '${name}', which is not a field`)
  const line = print.lines ? e.fields[print.lines.field]?.lines?.entity : undefined
  if (print.lines && !line) say(`lines names '${print.lines.field}', which is not its lines`)
  const isNumber = (name: string) => line?.fields[name]?.kind === 'decimal' || line?.fields[name]?.kind === 'integer'
  if (line) for (const column of print.lines!.columns) if (!line.fields[column]) say(`lines column '${column}' is not a field of its lines`)
  for (const total of print.totals ?? []) if (!print.lines?.columns.includes(total) || !isNumber(total)) say(`total '${total}' is not a number column of its lines`)
  if (typeof print.amount === 'string' && e.fields[print.amount]?.kind !== 'decimal') say(`amount '${print.amount}' is not a money field`)
  if (typeof print.amount === 'object' && !isNumber(print.amount.sum)) say(`amount sums '${print.amount.sum}', which is not a number column of its lines`)
  return problems
}

/** A printed block is a row of another entity that refers to the document by a list filter, with fields it has. */
function printBlockProblems(byName: ReadonlyMap<string, Entity<string, Fields>>, e: Entity<string, Fields>, print: NonNullable<Entity<string, Fields>['print']>): RegistryProblem[] {
  const problems: RegistryProblem[] = []
  for (const block of print.blocks ?? []) {
    const other = byName.get(block.entity)
    const say = (message: string) => problems.push({ entity: e.name, message: `print: block '${block.entity}': ${message}` })
    if (!other || other.isLine) {
      say('is not an entity with a list of its own')
      continue
    }
    if (other.fields[block.via]?.ref?.target !== e.name || !other.filterFields.includes(block.via)) say(`'${block.via}' is not its reference to '${e.name}' among its list filters`)
    for (const name of block.fields) if (!other.fields[name]) say(`'${name}' is not one of its fields`)
  }
  return problems
}

/** A view's own form address: `/apps/` and one or more plain segments. */
const VIEW_FORM_PATH = /^\/apps(\/[A-Za-z0-9_-]+)+$/

/** A view filters by stored fields of the entity (a reference by its row's label), shows its fields, and sits in a known group. */
function viewProblems(byName: ReadonlyMap<string, Entity<string, Fields>>, e: Entity<string, Fields>, view: Entity<string, Fields>['views'][string]): RegistryProblem[] {
  const problems: RegistryProblem[] = []
  const say = (message: string) => problems.push({ entity: e.name, message: `view '${view.name}': ${message}` })
  if (!IDENT.test(view.name)) say(`its name must match ${IDENT}`)
  if (Object.keys(view.filter).length === 0) say('it filters nothing: a view lists some of the rows')
  for (const [name, value] of Object.entries(view.filter)) {
    const field = e.fields[name]
    if (!field || !isFilterable(field) || (field.isVirtual && !field.pastDue)) say(`it filters by '${name}', which is not a stored field a list can be filtered by`)
    else if (field.options && [value].flat().some((v) => !field.options!.includes(String(v)))) say(`it filters '${name}' by a value that is not one of its choices (${field.options.join(', ')})`)
    else if (field.kind === 'ref' && !byName.has(field.ref!.target)) say(`it filters by '${name}', whose target is unknown`)
  }
  for (const name of view.columns) if (!e.fields[name]) say(`its column '${name}' is not a field`)
  if (view.nav && !navGroups.some((g) => g.id === view.nav!.group)) say(`nav group '${view.nav.group}' is not a group of schema/navigation.ts`)
  if (view.ui.formPath !== undefined && !VIEW_FORM_PATH.test(view.ui.formPath)) say(`its form address '${view.ui.formPath.slice('/apps/'.length)}' is not path segments of letters, digits, - and _ (\`support-managements/ticket-details\`)`)
  return problems
}

/** A related list names an entity with screens, its reference to this one (a filter of its list), and its fields. */
function relatedProblems(byName: ReadonlyMap<string, Entity<string, Fields>>, e: Entity<string, Fields>, related: Entity<string, Fields>['related'][number]): RegistryProblem[] {
  const problems: RegistryProblem[] = []
  const say = (message: string) => problems.push({ entity: e.name, message: `related '${related.entity}': ${message}` })
  const other = byName.get(related.entity)
  if (!other) return [{ entity: e.name, message: `related '${related.entity}' is not an entity of the registry` }]
  if (other.isLine) say('a line has no list of its own: show it in its document')
  const via = other.fields[related.via]
  if (!via || via.kind !== 'ref' || (via.ref!.target !== e.name && via.ref!.target !== e.parent?.name)) say(`'${related.via}' is not its reference to ${e.name}`)
  else if (!other.filterFields.includes(related.via)) say(`'${related.via}' is not one of its list filters: its "see all" could not open the list filtered by the record`)
  for (const name of related.columns ?? []) if (!other.fields[name]) say(`its column '${name}' is not a field`)
  if (related.size !== undefined && (!Number.isInteger(related.size) || related.size < 1 || related.size > 100)) say('its size is a whole number from 1 to 100')
  return problems
}

/** A gallery needs a required reference to its owner, an image and an integer place. */
function galleryProblems(e: Entity<string, Fields>, gallery: NonNullable<Entity<string, Fields>['gallery']>): RegistryProblem[] {
  const problems: RegistryProblem[] = []
  const of = e.fields[gallery.of]
  const image = e.fields[gallery.image]
  const position = e.fields[gallery.position]
  if (!of || of.kind !== 'ref' || !of.isRequired) problems.push({ entity: e.name, message: `gallery.of '${gallery.of}' must be a required reference to the pictures' owner` })
  if (!image || image.widget !== 'image') problems.push({ entity: e.name, message: `gallery.image '${gallery.image}' must be an image field` })
  if (!position || position.kind !== 'integer' || position.isReadOnly) problems.push({ entity: e.name, message: `gallery.position '${gallery.position}' must be a writable integer field` })
  if (e.parent || e.isLine) problems.push({ entity: e.name, message: 'a gallery is an entity of its own table (not one that extends another, nor a line)' })
  if (e.routes.update !== 'generic' || e.routes.create !== 'generic' || e.routes.delete !== 'generic') problems.push({ entity: e.name, message: 'a gallery is written through the generic create, update and delete routes' })
  return problems
}

/**
 * A dashboard widget reads an entity of the registry (whose LIST permission shows it), links
 * to a list that exists (an entity's, or one of its views), and has a name and a contract
 * route of its own.
 */
function widgetProblems(byName: ReadonlyMap<string, Entity<string, Fields>>, widgets: readonly Widget[]): RegistryProblem[] {
  const problems: RegistryProblem[] = []
  const names = new Set<string>()
  const routes = new Set<string>()
  for (const w of widgets) {
    const say = (message: string) => problems.push({ entity: `widget ${w.name}`, message })
    if (!IDENT.test(w.name)) say(`name must match ${IDENT}`)
    if (names.has(w.name)) say(`duplicate widget name '${w.name}'`)
    names.add(w.name)
    if (w.route !== undefined) {
      if (!/^[a-z][a-z0-9_]*$/.test(w.route)) say(`route '${w.route}' must be lower_snake (it is a path below /dashboard/api/v1/)`)
      if (routes.has(w.route)) say(`duplicate widget route '${w.route}'`)
      routes.add(w.route)
    }
    const reads = byName.get(w.reads)
    if (!reads || reads.isLine) say(`reads '${w.reads}', which is not an entity with a list of its own`)
    if (w.link) {
      const target = byName.get(w.link.entity)
      if (!target || target.isLine) say(`links to '${w.link.entity}', which is not an entity with a list of its own`)
      else if (w.link.view && !target.views[w.link.view]) say(`links to the view '${w.link.view}', which '${w.link.entity}' does not have`)
    }
    if (w.kind === 'list' && Object.keys(w.columns).length === 0) say('a list widget names its columns')
  }
  return problems
}

/** `fetchFrom: { ref, field }`: `ref` is a reference of the same record, whose target has `field`. */
function fetchFromProblems(byName: ReadonlyMap<string, Entity<string, Fields>>, e: Entity<string, Fields>): RegistryProblem[] {
  const problems: RegistryProblem[] = []
  for (const name of e.fieldNames) {
    const spec = e.fields[name]!.fetchFrom
    if (!spec) continue
    const ref = e.fields[spec.ref]
    const target = ref?.kind === 'ref' ? byName.get(ref.ref!.target) : undefined
    if (!ref || ref.kind !== 'ref') problems.push({ entity: e.name, field: name, message: `fetchFrom names '${spec.ref}', which is not a reference of '${e.name}'` })
    else if (target && !target.fields[spec.field]) problems.push({ entity: e.name, field: name, message: `fetchFrom reads '${spec.field}', which '${target.name}' does not have` })
  }
  return problems
}
