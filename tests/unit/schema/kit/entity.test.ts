import { describe, expect, it } from 'vitest'
import { checkRegistry } from '../../../../schema'
import { defineEntity, f, readableFields, rootOf, storageOf } from '../../../../schema/kit'
import { schemaOf } from '../../../../schema/kit/validators'

/** defineEntity's options beyond the plain entity: inheritance, secrets, public and own-row access, routes. */
const person = defineEntity({
  name: 'user',
  module: 'test',
  listKey: 'users',
  labelField: 'email',
  route: { area: 'users', list: 'users' },
  fields: {
    name: f.text({ max: 50, required: true }),
    email: f.email({ required: true, unique: true, search: true }),
    nickname: f.text({ max: 20 }),
    password: f.password({ required: true, min: 6 }),
    last_seen: f.datetime({ readOnly: true }),
  },
  selfAccess: ['DETAILS'],
})

const clerk = defineEntity({
  name: 'clerk',
  module: 'test',
  listKey: 'clerks',
  extends: person,
  route: { area: 'clerks', list: 'clerks' },
  fields: {
    nickname: f.text({ max: 20, required: true }),
    desk: f.text({ max: 10 }),
  },
  routeAliases: { 'without_paginaiton/all': 'without_pagination' },
})

describe('entity inheritance (extends)', () => {
  it("has the parent's fields, in their place, with overrides, then its own", () => {
    expect(clerk.fieldNames).toEqual(['name', 'email', 'nickname', 'password', 'last_seen', 'desk'])
    expect(clerk.ownFieldNames).toEqual(['desk'])
    expect(clerk.fields.nickname.isRequired).toBe(true)
    expect(person.fields.nickname.isRequired).toBe(false)
    expect(clerk.labelField).toBe('email')
    expect(clerk.parent).toBe(person)
  })

  it('stores inherited fields in the parent and its own in its table; rows start at the parent', () => {
    expect(storageOf(clerk, 'nickname')).toBe(person)
    expect(storageOf(clerk, 'desk')).toBe(clerk)
    expect(rootOf(clerk)).toBe(person)
    expect(rootOf(person)).toBe(person)
  })

  it('passes the registry check, and names an override that changes the column or loosens a required field', () => {
    expect(checkRegistry([person, clerk])).toEqual([])
    const bad = defineEntity({
      name: 'temp',
      module: 'test',
      listKey: 'temps',
      extends: person,
      route: { area: 'temps', list: 'temps' },
      fields: { nickname: f.text({ max: 40 }), email: f.email({ unique: true, search: true }) },
    })
    expect(checkRegistry([person, bad]).map((p) => `${p.field}: ${p.message}`)).toEqual([
      "email: 'user.email' is required in its table; an override cannot make it optional",
      "nickname: overrides 'user.nickname' with another column (kind, SQL type, reference or uniqueness): only its validation may change",
    ])
    expect(checkRegistry([clerk]).map((p) => p.message)).toContain("extends 'user', which is not in the registry")
    const grandchild = defineEntity({ name: 'intern', module: 'test', listKey: 'interns', extends: clerk, route: { area: 'interns', list: 'interns' }, fields: {} })
    expect(checkRegistry([person, clerk, grandchild]).map((p) => p.message)).toContain("extends 'clerk', which itself extends 'user': one level of inheritance is supported")
  })
})

describe('write-only and read-only fields', () => {
  it('keeps a password out of responses and lists, and a read-only field out of what is validated', () => {
    expect(readableFields(person)).toEqual(['name', 'email', 'nickname', 'last_seen'])
    expect(person.listColumns).not.toContain('password')
    expect(person.fields.password).toMatchObject({ isWriteOnly: true, isSortable: false, isSearchable: false, widget: 'password', sql: { type: 'varchar(255)' } })
    const created = schemaOf(person).safeParse({ name: 'Ann', email: 'ann@example.com', password: 'secret-1', last_seen: '2020-01-01T00:00:00Z' })
    expect(created.success && created.data).toEqual({ name: 'Ann', email: 'ann@example.com', nickname: null, password: 'secret-1' })
  })

  it('requires the password on create, and takes a blank one on update as "keep"', () => {
    const create = schemaOf(person, 'create').safeParse({ name: 'Ann', email: 'ann@example.com' })
    expect(create.success ? [] : create.error.issues.map((i) => `${String(i.path[0])} ${i.message}`)).toEqual(['password validation.required'])
    const update = schemaOf(person, 'update').safeParse({ name: 'Ann', email: 'ann@example.com', password: '' })
    expect(update.success && update.data.password).toBeNull()
    const short = schemaOf(person, 'update').safeParse({ name: 'Ann', email: 'ann@example.com', password: 'abc' })
    expect(short.success).toBe(false)
  })

  it('refuses a read-only field that is also required', () => {
    const e = defineEntity({ name: 'stamp', module: 'test', listKey: 'stamps', route: { area: 'stamps', list: 'stamps' }, fields: { name: f.text({ search: true }), at: f.datetime({ readOnly: true, required: true }) } })
    expect(checkRegistry([e]).map((p) => `${p.field}: ${p.message}`)).toEqual(['at: a read-only field is set by the server and cannot be required'])
  })
})

describe('routes, public actions and own-row access', () => {
  it('serves every generic route unless the entity leaves one to a module or drops it', () => {
    expect(Object.values(person.routes).every((r) => r === 'generic')).toBe(true)
    const links = defineEntity({
      name: 'link', module: 'test', listKey: 'links', route: { area: 'links', list: 'links' }, fields: { name: f.text() },
      routes: { create: 'bespoke', update: false }, paginateAll: false,
    })
    expect(links.routes).toMatchObject({ create: 'bespoke', update: false, all: 'generic', read: 'generic' })
    expect(links.paginateAll).toBe(false)
    expect(clerk.routeAliases).toEqual({ 'without_paginaiton/all': 'without_pagination' })
  })

  it('allows only reads to be public, own-row access only on users, and aliases of routes that exist', () => {
    const e = defineEntity({
      name: 'note', module: 'test', listKey: 'notes', route: { area: 'notes', list: 'notes' }, fields: { name: f.text({ search: true }) },
      public: ['LIST', 'DELETE'], selfAccess: ['DETAILS'], routes: { update: false },
      routeAliases: { 'Bad Path': 'all', edit: 'update' },
    })
    expect(checkRegistry([e]).map((p) => p.message)).toEqual([
      "only reads can be public; 'DELETE' needs a token",
      "selfAccess is for 'user' and entities extending it (a caller is a user row)",
      "route alias 'Bad Path' must be lower-case words separated by '/'",
      "route alias 'edit' points to 'update', which the entity does not have",
    ])
  })

  it("asks the catalogues for a field's own message keys", async () => {
    const { registryKeys } = await import('../../../../schema/check')
    const e = defineEntity({ name: 'year', module: 'test', listKey: 'years', route: { area: 'years', list: 'years' }, fields: { name: f.text({ max: 4, messages: { max_length: 'validation.year_max' } }) } })
    expect(registryKeys([e])).toContain('validation.year_max')
  })
})
