import { describe, expect, it } from 'vitest'
import { checkRegistry, entities, RegistryError } from '../../../schema'
import { registryKeys, type Catalogue } from '../../../schema/check'
import { defineEntity, f } from '../../../schema/kit'
import { defineWidget } from '../../../schema/kit/widget'
import { catalogues } from '../../../server/i18n'

/** The registry's self-check (architecture §1): every problem named with entity, field and fix. */
const base = { module: 'test', route: { area: 'widget-management', list: 'widgets' } }
const widget = (over: Partial<Parameters<typeof defineEntity>[0]> = {}) =>
  defineEntity({ name: 'widget', listKey: 'widgets', ...base, fields: { name: f.text({ max: 20, required: true, search: true }) }, ...over } as Parameters<typeof defineEntity>[0])

describe('checkRegistry', () => {
  it('finds no problem in the real registry with the real catalogues', () => {
    expect(checkRegistry(entities, catalogues)).toEqual([])
  })

  it('reports a value fetched through something that is not a reference, or from a field its row does not have', () => {
    const e = widget({
      fields: {
        name: f.text({ required: true, search: true }),
        parent: f.ref('widget'),
        price: f.money({ fetchFrom: { ref: 'name', field: 'price' } }),
        cost: f.money({ fetchFrom: { ref: 'parent', field: 'ghost' } }),
        copy: f.text({ fetchFrom: { ref: 'parent', field: 'name' } }),
      },
    })
    expect(checkRegistry([e]).map((p) => `${p.field}: ${p.message}`)).toEqual([
      "price: fetchFrom names 'name', which is not a reference of 'widget'",
      "cost: fetchFrom reads 'ghost', which 'widget' does not have",
    ])
  })

  it('reports a dashboard widget that reads or links to what the registry does not have', () => {
    const problems = checkRegistry([widget()], {}, [], [
      defineWidget({ name: 'ghosts', dashboard: 'project', kind: 'figure', reads: 'ghost', order: 1 }),
      defineWidget({ name: 'widgets', dashboard: 'project', kind: 'list', reads: 'widget', link: { entity: 'widget', view: 'none' }, route: 'get_widgets', order: 2 }),
      defineWidget({ name: 'widgets', dashboard: 'project', kind: 'figure', reads: 'widget', route: 'get_widgets', order: 3 }),
    ]).map((p) => `${p.entity}: ${p.message}`)
    expect(problems).toEqual([
      "widget ghosts: reads 'ghost', which is not an entity with a list of its own",
      "widget widgets: links to the view 'none', which 'widget' does not have",
      'widget widgets: a list widget names its columns',
      "widget widgets: duplicate widget name 'widgets'",
      "widget widgets: duplicate widget route 'get_widgets'",
    ])
  })

  it('reports a reference to an entity that is not registered, listing the registered ones', () => {
    const e = widget({ fields: { name: f.text({ required: true, search: true }), owner: f.ref('nowhere') } })
    expect(checkRegistry([e])).toEqual([{ entity: 'widget', field: 'owner', message: "unknown ref target 'nowhere' (registered: widget)" }])
  })

  it('reports a duplicate list key and a duplicate route, naming both entities', () => {
    const a = widget()
    const b = defineEntity({ name: 'gizmo', listKey: 'widgets', ...base, fields: { name: f.text() } })
    const messages = checkRegistry([a, b]).map((p) => `${p.entity}: ${p.message}`)
    expect(messages).toContain("gizmo: duplicate list key 'widgets' (also used by 'widget')")
    expect(messages).toContain("gizmo: duplicate list route '/apps/widget-management/widgets' (also used by 'widget')")
  })

  it('reports a second address that is another entity’s screen', () => {
    const a = widget()
    const b = defineEntity({ name: 'gizmo', listKey: 'gizmos', ...base, route: { area: 'gizmo-management', list: 'gizmos', alsoAt: { area: 'widget-management', list: 'widgets' } }, fields: { name: f.text() } })
    expect(checkRegistry([a, b]).map((p) => `${p.entity}: ${p.message}`)).toContain("gizmo: duplicate second list route '/apps/widget-management/widgets' (also used by 'widget')")
    expect(b.ui.alsoAt).toEqual({ listPath: '/apps/widget-management/widgets', formPath: '/apps/widget-management/widgets' })
  })

  it('reports a view’s form address that another screen has, or that is not a path', () => {
    const a = widget()
    const view = (name: string, form: string) => ({ route: { area: `${name}-management`, list: `${name}s`, form }, filter: { kind: 'a' }, nav: false as const })
    const b = defineEntity({
      name: 'gizmo',
      listKey: 'gizmos',
      module: 'test',
      route: { area: 'gizmo-management', list: 'gizmos' },
      fields: { name: f.text({ search: true }), kind: f.choice(['a', 'b']) },
      views: { red: view('red', 'red-managements/gizmo-details'), blue: view('blue', 'red-managements/gizmo-details'), green: view('green', 'widget-management/widgets'), odd: view('odd', 'odd/../gizmo details'), own: view('own', 'own-management/owns') },
    })
    expect(b.views.red!.ui.formPath).toBe('/apps/red-managements/gizmo-details')
    expect(checkRegistry([a, b]).map((p) => `${p.entity}: ${p.message}`)).toEqual([
      "gizmo: duplicate form route of the view 'blue' '/apps/red-managements/gizmo-details' (also used by 'gizmo')",
      "gizmo: duplicate form route of the view 'green' '/apps/widget-management/widgets' (also used by 'widget')",
      "gizmo: view 'odd': its form address 'odd/../gizmo details' is not path segments of letters, digits, - and _ (`support-managements/ticket-details`)",
    ])
  })

  it('reports a duplicate entity name', () => {
    expect(checkRegistry([widget(), widget({ listKey: 'others', route: { area: 'x', list: 'y' } })]).map((p) => p.message)).toContain(
      "duplicate entity name 'widget' (also used by 'widget')",
    )
  })

  it('reports every translation key a catalogue lacks, per language', () => {
    const en: Catalogue = JSON.parse(JSON.stringify(catalogues.en))
    const problems = checkRegistry([widget()], { en })
    expect(problems).toEqual([
      { entity: 'widget', message: "missing translation key 'entity.widget.one' in the 'en' catalogue" },
      { entity: 'widget', message: "missing translation key 'entity.widget.other' in the 'en' catalogue" },
    ])
    const withLabels = { ...en, entity: { ...(en.entity as object), widget: { one: 'Widget', other: 'Widgets' } } }
    expect(checkRegistry([widget()], { en: withLabels })).toEqual([])
  })

  it('reports field names, orderings, search fields, list columns and extra routes that do not fit', () => {
    const e = widget({
      fields: { name: f.text({ required: true, search: true }), created_at: f.text(), 'Bad-Name': f.text(), flag: f.boolean({ search: true }) },
      ordering: '-missing',
      search: ['nope'] as never,
      listColumns: ['ghost'] as never,
      filters: ['name', 'phantom'] as never,
      extraRoutes: [{ kind: 'listBy', path: 'by owner', field: 'owner' }],
    })
    const messages = checkRegistry([e]).map((p) => (p.field ? `${p.field}: ${p.message}` : p.message))
    expect(messages).toEqual(
      expect.arrayContaining([
        "created_at: 'created_at' is set by the engine on every table; choose another name",
        expect.stringMatching(/^Bad-Name: field name must match/),
        "flag: only text-like fields, or references to a row whose label is searchable, can be searchable (this one is 'boolean')",
        "ordering '-missing' names an unknown field",
        "search field 'nope' is not a field",
        "list column 'ghost' is not a field",
        "filter 'name' must be a stored choice, flag, reference, date or number field",
        "filter 'phantom' must be a stored choice, flag, reference, date or number field",
        "extra route 'by owner' filters on unknown field 'owner'",
        expect.stringMatching(/^extra route path 'by owner' must match/),
      ]),
    )
  })

  it('refuses a required reference that would be set null on delete', () => {
    const target = widget()
    const e = defineEntity({ name: 'part', listKey: 'parts', module: 'test', route: { area: 'parts', list: 'parts' }, fields: { name: f.text({ search: true }), widget: f.ref('widget', { required: true, onDelete: 'setNull' }) } })
    expect(checkRegistry([target, e])).toEqual([{ entity: 'part', field: 'widget', message: "a required reference cannot use onDelete 'setNull'" }])
  })

  it('refuses a name unique within a field that is not a stored field of the same table', () => {
    const target = widget()
    const e = defineEntity({ name: 'part', listKey: 'parts', module: 'test', route: { area: 'parts', list: 'parts' }, fields: { name: f.text({ search: true, unique: { within: 'ghost' } }), widget: f.ref('widget') } })
    expect(checkRegistry([target, e])).toEqual([{ entity: 'part', field: 'name', message: "unique within 'ghost': that must be another stored field of the same table" }])
    const fine = defineEntity({ name: 'part', listKey: 'parts', module: 'test', route: { area: 'parts', list: 'parts' }, fields: { name: f.text({ search: true, unique: { within: 'widget' } }), widget: f.ref('widget') } })
    expect(checkRegistry([target, fine])).toEqual([])
  })

  it('refuses built-in rows named by a field that is not a required, unique text, and asks for their message', () => {
    expect(checkRegistry([widget({ builtIn: { field: 'ghost', values: ['MAIN'] } })]).map((p) => p.message)).toContain("builtIn names 'ghost', which is not a text field of the entity")
    expect(checkRegistry([widget({ builtIn: { field: 'name', values: ['MAIN'] } })])).toEqual([
      { entity: 'widget', field: 'name', message: 'the field that names built-in rows must be required and unique' },
    ])
    const fine = widget({ fields: { name: f.text({ required: true, unique: true, search: true }) }, builtIn: { field: 'name', values: ['MAIN'], message: 'detail.built_in_widget' } })
    expect(checkRegistry([fine])).toEqual([])
    expect(registryKeys([fine])).toContain('detail.built_in_widget')
  })

  it('throws all problems at once as a RegistryError with one line each', () => {
    const error = new RegistryError([
      { entity: 'widget', field: 'owner', message: "unknown ref target 'nowhere'" },
      { entity: 'widget', message: "duplicate list key 'widgets'" },
    ])
    expect(error.message).toBe("The entity registry has 2 problem(s):\n  - widget.owner: unknown ref target 'nowhere'\n  - widget: duplicate list key 'widgets'")
  })

  it('asks the catalogues for entity, field, option and validation keys', () => {
    const e = widget({ fields: { name: f.text(), state: f.choice(['open', 'shut']) } })
    expect(registryKeys([e])).toEqual(expect.arrayContaining(['entity.widget.one', 'entity.widget.other', 'field.name', 'field.state', 'option.open', 'option.shut', 'validation.required']))
  })
})
